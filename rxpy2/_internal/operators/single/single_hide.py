"""Single.hide: hides the identity of the upstream and of its Disposable;
Single.on_terminate_detach (RxJava 2's SingleDetach): drops the references to
the downstream and the upstream on the terminal signal or dispose.

The operator bodies (:class:`HideOp`, :class:`DetachOp`, mixins) and their observers serve
Maybe and Completable too (``maybe_hide.py``, ``completable_hide.py``).
"""

from __future__ import annotations

from typing import Any
from typing import Generic
from typing import TypeVar

from rxpy2._internal.helpers.disposable_helper import DISPOSED
from rxpy2._internal.helpers.disposable_helper import ValidatedUpstream
from rxpy2._internal.operators.single.single_schedule import ForwardingObserver
from rxpy2._internal.zero_one import ZeroOneBase
from rxpy2.disposables import Disposable
from rxpy2.single import Single

__all__ = ["DetachObserver", "DetachOp", "HideObserver", "HideOp", "SingleDetach", "SingleHide"]

T = TypeVar("T")


class HideOp(Generic[T]):
    """The operator body of the three ``hide`` classes (a mixin; also :class:`DetachOp`'s)."""

    __slots__ = ("source",)

    def __init__(self, source: ZeroOneBase) -> None:
        self.source = source

    def subscribe_actual(self, observer: Any) -> None:
        self.source._subscribe(HideObserver(observer))


class SingleHide(HideOp[T], Single[T], Generic[T]):
    __slots__ = ()


class HideObserver(ValidatedUpstream, ForwardingObserver[T], Disposable, Generic[T]):
    __slots__ = ("downstream", "upstream")

    def __init__(self, downstream: Any) -> None:
        self.downstream = downstream
        self.upstream: Disposable | None = None

    def dispose(self) -> None:
        d = self.upstream
        if d is not None:
            d.dispose()

    def is_disposed(self) -> bool:
        d = self.upstream
        return d is not None and d.is_disposed()


class DetachOp(HideOp[T]):
    """The operator body of the three ``on_terminate_detach`` classes (a mixin)."""

    __slots__ = ()

    def subscribe_actual(self, observer: Any) -> None:
        self.source._subscribe(DetachObserver(observer))


class SingleDetach(DetachOp[T], Single[T], Generic[T]):
    __slots__ = ()


class DetachObserver(HideObserver[T]):
    """Forgets ``downstream`` and ``upstream`` once terminated or disposed, so neither keeps
    the other alive (a chain held by a long-lived source, or the reverse)."""

    __slots__ = ()

    def _detach(self) -> Any:
        """The downstream, once (``None`` after a signal or dispose); forgets both ends."""
        self.upstream = DISPOSED
        a = self.downstream
        self.downstream = None
        return a

    def on_success(self, item: T) -> None:
        a = self._detach()
        if a is not None:
            a.on_success(item)

    def on_error(self, error: BaseException) -> None:
        a = self._detach()
        if a is not None:
            a.on_error(error)

    def on_complete(self) -> None:
        a = self._detach()
        if a is not None:
            a.on_complete()

    def dispose(self) -> None:
        self.downstream = None
        d = self.upstream
        self.upstream = DISPOSED
        if d is not None:
            d.dispose()
