"""timeout of Single, Maybe and Completable: ``TimeoutError`` (or a switch to a
fallback of the same type) when no terminal signal arrives within the given time.

The main observer's reference holds the upstream and becomes ``DISPOSED`` at the
first of: the signal, the timeout, or a dispose; whichever wins it is the
only one to reach the downstream. The timeout task (or, for Maybe's
``timeout(other)``, the subscriber of the other source, see ``maybe_timeout.py``) is
held separately and disposed when the signal wins. The fallback is subscribed with
an observer made up front, so a dispose racing the switch disposes the fallback too.

:class:`TimeoutOp` is the operator body of the three types; the Maybe and
Completable classes are in ``maybe_timeout.py`` and ``completable_timeout.py``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING
from typing import Any
from typing import ClassVar
from typing import Generic
from typing import TypeVar

from rxpy2 import plugins
from rxpy2._internal.atomic import AtomicReference
from rxpy2._internal.helpers.disposable_helper import DISPOSED
from rxpy2._internal.helpers.disposable_helper import DisposableHelper
from rxpy2._internal.operators.flowable.flowable_timeout_timed import timeout_message
from rxpy2._internal.operators.single.single_schedule import ForwardingObserver
from rxpy2._internal.operators.single.single_schedule import ZeroOneObserver
from rxpy2.disposables import Disposable
from rxpy2.single import Single

if TYPE_CHECKING:
    from rxpy2._internal.zero_one import ZeroOneBase
    from rxpy2.schedulers.scheduler import Scheduler

__all__ = ["SingleTimeout", "TimeoutMainObserver", "TimeoutOp"]

T = TypeVar("T")


class TimeoutOp(Generic[T]):
    __slots__ = ("source", "timeout_time", "scheduler", "fallback")

    #: the TimeoutError names the time (RxJava 2's Maybe builds a bare one: False there)
    _TIMEOUT_MESSAGE: ClassVar[bool] = True

    def __init__(self, source: ZeroOneBase, timeout: float, scheduler: Scheduler,
                 fallback: ZeroOneBase | None) -> None:
        self.source = source
        self.timeout_time = timeout
        self.scheduler = scheduler
        self.fallback = fallback

    def subscribe_actual(self, observer: Any) -> None:
        t = self.timeout_time
        parent: TimeoutMainObserver[T] = TimeoutMainObserver(
            observer, self.fallback, t if self._TIMEOUT_MESSAGE else None)
        observer.on_subscribe(parent)
        DisposableHelper.replace(parent.task, self.scheduler.schedule_direct(parent.run, t))
        self.source._subscribe(parent)


class SingleTimeout(TimeoutOp[T], Single[T]):
    __slots__ = ()


class TimeoutFallbackObserver(ForwardingObserver[T]):
    __slots__ = ("downstream", "ref")

    def __init__(self, downstream: Any) -> None:
        self.downstream = downstream
        self.ref: AtomicReference[Disposable] = AtomicReference()

    def on_subscribe(self, d: Disposable) -> None:
        DisposableHelper.set_once(self.ref, d)


class TimeoutMainObserver(ZeroOneObserver[T], Disposable):
    """``timeout_time``: for the TimeoutError's message (``None``: no message)."""

    __slots__ = ("downstream", "other", "fallback", "timeout_time", "ref", "task")

    def __init__(self, downstream: Any, other: ZeroOneBase | None,
                 timeout: float | None) -> None:
        self.downstream = downstream
        self.other = other
        self.fallback: TimeoutFallbackObserver[T] | None = (
            TimeoutFallbackObserver(downstream) if other is not None else None)
        self.timeout_time = timeout
        self.ref: AtomicReference[Disposable] = AtomicReference()
        self.task: AtomicReference[Disposable] = AtomicReference()

    def _win(self) -> bool:
        """Move the reference to DISPOSED; True for the one caller that did it."""
        ref = self.ref
        while True:
            d = ref.get()
            if d is DISPOSED:
                return False
            if ref.compare_and_set(d, DISPOSED):
                if d is not None:
                    d.dispose()
                return True

    def run(self) -> None:
        """The timeout: the error, or the switch to the fallback."""
        if not self._win():
            return
        other, self.other = self.other, None
        fb = self.fallback
        if other is None or fb is None:
            t = self.timeout_time
            self.downstream.on_error(TimeoutError(timeout_message(t)) if t is not None
                                     else TimeoutError())
        else:
            other._subscribe(fb)

    #: the timeout indicator (Maybe's ``timeout(other)``) signalled: the timeout
    other_trigger = run

    def other_error(self, error: BaseException) -> None:
        """The timeout indicator failed: its error goes downstream unless a signal won."""
        if self._win():
            self.downstream.on_error(error)
        else:
            plugins.on_error(error)

    def on_subscribe(self, d: Disposable) -> None:
        DisposableHelper.set_once(self.ref, d)

    def _terminate(self) -> bool:
        """The upstream's signal: True when it won (the timeout is then disposed)."""
        d = self.ref.get()
        if d is not DISPOSED and self.ref.compare_and_set(d, DISPOSED):
            DisposableHelper.dispose(self.task)
            return True
        return False

    def on_success(self, item: T) -> None:
        if self._terminate():
            self.downstream.on_success(item)

    def on_complete(self) -> None:
        if self._terminate():
            self.downstream.on_complete()

    def on_error(self, error: BaseException) -> None:
        if self._terminate():
            self.downstream.on_error(error)
        else:
            plugins.on_error(error)

    def dispose(self) -> None:
        DisposableHelper.dispose(self.ref)
        DisposableHelper.dispose(self.task)
        fb = self.fallback
        if fb is not None:
            DisposableHelper.dispose(fb.ref)

    def is_disposed(self) -> bool:
        return self.ref.get() is DISPOSED
