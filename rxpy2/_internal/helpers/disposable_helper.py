"""Disposable bookkeeping over an ``AtomicReference``: the DISPOSED sentinel and its moves."""

from __future__ import annotations

from typing import Any
from typing import Protocol

from rxpy2 import plugins
from rxpy2._internal.atomic import AtomicReference
from rxpy2._internal.disposable import Disposable
from rxpy2.exceptions import ProtocolViolationException

__all__ = ["DISPOSED", "DisposableHelper"]


class _Disposed(Disposable):
    __slots__ = ()

    def dispose(self) -> None:
        pass

    def is_disposed(self) -> bool:
        return True

    def __repr__(self) -> str:
        return "DISPOSED"


#: The unique "disposed" marker: a reference holding it stays disposed forever.
DISPOSED: Disposable = _Disposed()


class DisposableHelper:
    """Static helpers for the deferred-cancellation pattern of the operator guide."""

    __slots__ = ()

    DISPOSED = DISPOSED

    @staticmethod
    def is_disposed(d: Disposable | None) -> bool:
        return d is DISPOSED

    @staticmethod
    def validate(current: Disposable | None, next_: Disposable | None) -> bool:
        if next_ is None:
            plugins.on_error(TypeError("next is None"))
            return False
        if current is not None:
            next_.dispose()
            plugins.on_error(ProtocolViolationException("Disposable already set!"))
            return False
        return True

    @staticmethod
    def set_once(ref: AtomicReference[Disposable], d: Disposable) -> bool:
        if d is None:
            raise TypeError("d is None")
        if not ref.compare_and_set(None, d):
            d.dispose()
            if ref.get() is not DISPOSED:
                plugins.on_error(ProtocolViolationException("Disposable already set!"))
            return False
        return True

    @staticmethod
    def set(ref: AtomicReference[Disposable], d: Disposable | None) -> bool:
        """Replace and dispose the previous one; False (and ``d`` disposed) once disposed."""
        current = DisposableHelper._put(ref, d)
        if current is DISPOSED:
            return False
        if current is not None:
            current.dispose()
        return True

    @staticmethod
    def replace(ref: AtomicReference[Disposable], d: Disposable | None) -> bool:
        """Replace without disposing the previous one; False (and ``d`` disposed) once disposed."""
        return DisposableHelper._put(ref, d) is not DISPOSED

    @staticmethod
    def _put(ref: AtomicReference[Disposable], d: Disposable | None) -> Disposable | None:
        """Store ``d`` unless ``ref`` is disposed (``d`` is then disposed): the previous
        value, DISPOSED when nothing was stored."""
        current = ref.get_and_set_unless(d, DISPOSED)  # one atomic operation
        if current is DISPOSED and d is not None:
            d.dispose()
        return current

    @staticmethod
    def dispose(ref: AtomicReference[Disposable]) -> bool:
        current = ref.get()
        if current is not DISPOSED:
            current = ref.get_and_set(DISPOSED)
            if current is not DISPOSED:
                if current is not None:
                    current.dispose()
                return True
        return False

    @staticmethod
    def try_set(ref: AtomicReference[Disposable], d: Disposable) -> bool:
        """Set ``d`` if the reference is empty; dispose ``d`` if it was disposed."""
        if d is None:
            raise TypeError("d is None")
        if not ref.compare_and_set(None, d):
            if ref.get() is DISPOSED:
                d.dispose()
            return False
        return True


class _HasUpstream(Protocol):
    upstream: Disposable | None
    downstream: Any


class ValidatedUpstream:
    """``on_subscribe`` of a 0-1 observer that keeps its source's Disposable in
    ``upstream`` (None until then; a second one is disposed and reported,
    :meth:`DisposableHelper.validate`) and hands *itself* to ``downstream``."""

    __slots__ = ()

    upstream: Disposable | None  # the subclass's slot

    def on_subscribe(self: _HasUpstream, d: Disposable) -> None:
        if DisposableHelper.validate(self.upstream, d):
            self.upstream = d
            self.downstream.on_subscribe(self)
