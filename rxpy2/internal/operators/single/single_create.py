"""Single.create: a function given a :class:`~rxpy2.emitter.SingleEmitter` per subscriber.

The emitter holds one resource slot; it becomes ``DISPOSED`` when the first
signal goes out or the downstream disposes, which releases the resource and
makes every later signal a no-op (an error then goes to ``plugins.on_error``).
A function that raises signals its error the same way.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, TypeVar

from rxpy2 import plugins
from rxpy2.disposables import Disposable
from rxpy2.emitter import Cancellable, SingleEmitter
from rxpy2.internal.atomic import AtomicReference
from rxpy2.internal.helpers.disposable_helper import DISPOSED, DisposableHelper
from rxpy2.internal.operators.flowable.flowable_create import _CancellableDisposable
from rxpy2.observers import SingleObserver
from rxpy2.single import Single

__all__ = ["SingleCreate"]

T = TypeVar("T")


class SingleCreate(Single[T], Generic[T]):
    __slots__ = ("source",)

    def __init__(self, source: Callable[[SingleEmitter[T]], Any]) -> None:
        self.source = source

    def subscribe_actual(self, observer: SingleObserver[T]) -> None:
        emitter: CreateEmitter[T] = CreateEmitter(observer)
        observer.on_subscribe(emitter)
        try:
            self.source(emitter)
        except Exception as e:
            emitter.on_error(e)


class CreateEmitter(SingleEmitter[T], Disposable, Generic[T]):
    """The emitter and the downstream's Disposable in one."""

    __slots__ = ("downstream", "_resource")

    def __init__(self, downstream: SingleObserver[T]) -> None:
        self.downstream = downstream
        self._resource: AtomicReference[Disposable] = AtomicReference()

    def _take(self) -> Disposable | None | bool:
        """Mark terminated; the previous resource, or False if already terminated/disposed."""
        ref = self._resource
        if ref.get() is DISPOSED:
            return False
        d = ref.get_and_set(DISPOSED)
        if d is DISPOSED:
            return False
        return d

    def on_success(self, item: T) -> None:
        d = self._take()
        if d is False:
            return
        try:
            if item is None:
                self.downstream.on_error(TypeError("on_success called with None"))
            else:
                self.downstream.on_success(item)
        finally:
            if isinstance(d, Disposable):
                d.dispose()

    def on_error(self, error: BaseException) -> None:
        if not self.try_on_error(error):
            plugins.on_error(error)

    def try_on_error(self, error: BaseException) -> bool:
        if error is None:
            error = TypeError("on_error called with None")
        d = self._take()
        if d is False:
            return False
        try:
            self.downstream.on_error(error)
        finally:
            if isinstance(d, Disposable):
                d.dispose()
        return True

    def set_disposable(self, disposable: Disposable | None) -> None:
        DisposableHelper.set(self._resource, disposable)

    def set_cancellable(self, cancellable: Cancellable | None) -> None:
        if cancellable is None:
            self.set_disposable(None)
            return
        if not callable(cancellable):
            raise TypeError(f"cancellable must be callable, not {type(cancellable).__name__}")
        self.set_disposable(_CancellableDisposable(cancellable))

    def dispose(self) -> None:
        DisposableHelper.dispose(self._resource)

    def is_disposed(self) -> bool:
        return self._resource.get() is DISPOSED

    def __repr__(self) -> str:
        return f"SingleCreate.Emitter(disposed={self.is_disposed()})"
