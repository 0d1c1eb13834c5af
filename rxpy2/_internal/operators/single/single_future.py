"""Single.from_future / Maybe.from_future / Completable.from_future, and Single.to_future:
the bridges between the 0-1 types and ``concurrent.futures``.

``from_future(future, timeout, scheduler)`` never blocks a thread (RxJava 2 blocks in
``Future.get``; rxpy2 follows its own ``Flowable.from_future``): it registers an
``add_done_callback`` and signals when the future completes, on the thread that
completes it. A failed future signals its exception, a cancelled one
``CancelledError``. What a result becomes depends on the type (``FromFutureSource``
subclasses set ``on_result``): Single signals it (``None``: ``TypeError``, RxJava 2's
``NullPointerException``), Maybe signals it or completes empty for ``None`` (as RxJava 2's
MaybeFromFuture), Completable ignores it and completes. With
``timeout`` a task on ``scheduler`` (computation by default) signals ``TimeoutError`` if
the future is not done by then. Disposing does not cancel the future (it may be
shared); the callback then does nothing, and the future no longer holds the observer
(``flowable_future.DoneHook``). The first of result, timeout and dispose wins.

``to_future()`` subscribes at once and returns a ``concurrent.futures.Future`` completed
with the item or failed with the error (RxJava 2's ``FutureSingleObserver``); cancelling
the future disposes the upstream, and so does a fatal exception while ``result()``
waits (see ``flowable_future.FlowableFuture``).
"""

from __future__ import annotations

import concurrent.futures
from collections.abc import Callable
from typing import Any
from typing import Generic
from typing import TypeVar

from rxpy2 import plugins
from rxpy2._internal.atomic import AtomicBoolean
from rxpy2._internal.atomic import AtomicReference
from rxpy2._internal.helpers.disposable_helper import DisposableHelper
from rxpy2._internal.operators.flowable.flowable_future import DoneHook
from rxpy2._internal.operators.flowable.flowable_future import FlowableFuture
from rxpy2._internal.operators.flowable.flowable_future import signal_outcome
from rxpy2.disposables import Disposable
from rxpy2.observers import SingleObserver
from rxpy2.schedulers.scheduler import Scheduler
from rxpy2.single import Single

__all__ = ["FromFutureDisposable", "FromFutureSource", "FutureObserver", "SingleFromFuture",
           "check_future", "single_to_future"]

T = TypeVar("T")


def check_future(future: Any, timeout: Any, scheduler: Any) -> float | None:
    """The argument checks of the ``from_future`` methods, at assembly; the timeout in seconds."""
    from rxpy2._internal.arguments import require_duration
    from rxpy2.operator_kit import require
    from rxpy2.operator_kit import require_scheduler
    require(future, "future")
    if not callable(getattr(future, "add_done_callback", None)):
        raise TypeError(f"future must be a concurrent.futures.Future, not {type(future).__name__}")
    if scheduler is not None:
        require_scheduler(scheduler)
    return None if timeout is None else require_duration(timeout, "timeout")


class FromFutureSource:
    """What the three ``*FromFuture`` sources share; ``on_result(observer, value)`` signals
    a result of the future (a staticmethod of each subclass)."""

    __slots__ = ("future", "timeout_seconds", "scheduler")

    on_result: Callable[[Any, Any], None]

    def __init__(self, future: concurrent.futures.Future[Any], timeout: float | None,
                 scheduler: Scheduler | None) -> None:
        self.future = future
        self.timeout_seconds = timeout
        self.scheduler = scheduler

    def subscribe_actual(self, observer: Any) -> None:
        parent = FromFutureDisposable(observer, self.on_result)
        observer.on_subscribe(parent)
        if parent.once.get():
            return  # disposed in on_subscribe: no timer, no callback
        t = self.timeout_seconds
        if t is not None:
            sch = self.scheduler
            if sch is None:
                from rxpy2.schedulers import Schedulers
                sch = Schedulers.computation()
            DisposableHelper.set(parent.timer, sch.schedule_direct(parent.on_timeout, t))
        self.future.add_done_callback(parent.hook)  # released already if disposed meanwhile


def _single_result(observer: SingleObserver[Any], value: Any) -> None:
    if value is None:
        observer.on_error(TypeError("The future returned None"))  # RxJava 2: NullPointerException
    else:
        observer.on_success(value)


class SingleFromFuture(FromFutureSource, Single[T], Generic[T]):
    __slots__ = ()

    on_result = staticmethod(_single_result)


class FromFutureDisposable(Disposable):
    """The downstream's Disposable: ``once`` lets one of result, timeout and dispose through."""

    __slots__ = ("downstream", "on_result", "once", "timer", "hook")

    def __init__(self, downstream: Any, on_result: Callable[[Any, Any], None]) -> None:
        self.downstream = downstream
        self.on_result = on_result
        self.once = AtomicBoolean(False)
        self.timer: AtomicReference[Disposable] = AtomicReference()
        # what the future holds; a dispose or the timeout releases it
        self.hook = DoneHook(self.on_done)

    def on_done(self, f: concurrent.futures.Future[Any]) -> None:
        # runs on the thread that completed the future (or here, if it was done already)
        if not self.once.compare_and_set(False, True):
            return
        DisposableHelper.dispose(self.timer)
        a = self.downstream
        signal_outcome(f, a, lambda v: self.on_result(a, v))

    def on_timeout(self) -> None:
        if self.once.compare_and_set(False, True):
            self.hook.release()
            self.downstream.on_error(TimeoutError("the future did not complete in time"))

    def dispose(self) -> None:
        if self.once.compare_and_set(False, True):
            DisposableHelper.dispose(self.timer)
            self.hook.release()

    def is_disposed(self) -> bool:
        return self.once.get()


class FutureObserver(SingleObserver[T], Generic[T]):
    """Completes ``future`` with the item or the error; the future's cancel disposes.

    An error after the cancel goes to :func:`rxpy2.plugins.on_error`; an item is dropped."""

    __slots__ = ("future", "upstream")

    def __init__(self, future: concurrent.futures.Future[T]) -> None:
        self.future = future
        self.upstream: AtomicReference[Disposable] = AtomicReference()

    def on_subscribe(self, d: Disposable) -> None:
        DisposableHelper.set_once(self.upstream, d)

    def on_success(self, item: T) -> None:
        try:
            self.future.set_result(item)
        except concurrent.futures.InvalidStateError:  # cancelled by its user meanwhile
            pass

    def on_error(self, error: BaseException) -> None:
        try:
            self.future.set_exception(error)
        except concurrent.futures.InvalidStateError:  # cancelled (or done) meanwhile
            plugins.on_error(error)

    def future_done(self, f: concurrent.futures.Future[T]) -> None:
        if f.cancelled():
            DisposableHelper.dispose(self.upstream)


def single_to_future(source: Any) -> concurrent.futures.Future[Any]:
    f: concurrent.futures.Future[Any] = FlowableFuture()
    o: FutureObserver[Any] = FutureObserver(f)
    f.add_done_callback(o.future_done)
    try:
        source._subscribe(o)
    except BaseException:  # e.g. KeyboardInterrupt in a synchronous source: nobody
        f.cancel()         # would get the future to cancel it
        raise
    return f
