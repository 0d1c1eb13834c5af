"""``Flowable.to_future()`` and ``Flowable.from_future(future, timeout)``: the bridges to
``concurrent.futures``.

``to_future()`` subscribes at once and returns a :class:`FlowableFuture` completed with
the only item (an empty stream: ``IndexError``; a second item: ``ValueError``); cancelling
it, or a fatal exception while ``result()`` waits, cancels the subscription.
``from_future`` never blocks a thread: a done-callback emits the result under demand, with
an optional ``timeout``; the callback holds a :class:`DoneHook`, so a future that never
completes keeps only a small object per subscription.

How: docs/schedulers.md, "Inside to_future and from_future".
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
from rxpy2._internal.helpers.subscription_helper import SubscriptionHelper
from rxpy2._internal.subscriptions.deferred_scalar import DeferredScalarSubscription
from rxpy2.disposables import Disposable
from rxpy2.flowable import Flowable
from rxpy2.observers import FlowableSubscriber
from rxpy2.reactivestreams import LONG_MAX
from rxpy2.reactivestreams import Subscriber
from rxpy2.reactivestreams import Subscription

__all__ = ["DoneHook", "FlowableFromFuture", "FlowableFuture", "FutureSubscriber",
           "signal_outcome", "to_future"]

T = TypeVar("T")


class FlowableFuture(concurrent.futures.Future[T], Generic[T]):
    """The future of ``to_future()``: interrupting a wait cancels it (module docstring)."""

    def result(self, timeout: float | None = None) -> T:
        try:
            return super().result(timeout)
        except BaseException as e:
            self._interrupted(e)
            raise

    def exception(self, timeout: float | None = None) -> BaseException | None:
        try:
            return super().exception(timeout)
        except BaseException as e:
            self._interrupted(e)
            raise

    def _interrupted(self, e: BaseException) -> None:
        # only a fatal exception raised by the wait itself: the stream's own error (even a
        # fatal one) is raised once the future is done, and cancel() is then a no-op
        if not isinstance(e, Exception):
            self.cancel()  # runs the done-callback: cancels the upstream


class FutureSubscriber(FlowableSubscriber[T], Generic[T]):
    """Completes ``future`` with the only item of the stream."""

    __slots__ = ("future", "upstream", "value", "done")

    def __init__(self, future: concurrent.futures.Future[T]) -> None:
        self.future = future
        self.upstream: AtomicReference[Subscription] = AtomicReference()
        self.value: T | None = None
        self.done = False

    def on_subscribe(self, s: Subscription) -> None:
        if s is None:
            raise TypeError("on_subscribe called with None")  # §2.13
        if SubscriptionHelper.set_once(self.upstream, s):
            s.request(LONG_MAX)

    def on_next(self, item: T) -> None:
        if item is None:
            raise TypeError("on_next called with None")  # §2.13
        if self.done:
            return
        if self.value is not None:
            self.done = True
            self.value = None
            SubscriptionHelper.cancel(self.upstream)
            self._fail(ValueError("Sequence contains more than one element"))
            return
        self.value = item

    def on_error(self, error: BaseException) -> None:
        if error is None:
            raise TypeError("on_error called with None")  # §2.13
        if self.done:
            plugins.on_error(error)
            return
        self.done = True
        self.value = None
        self._fail(error)

    def on_complete(self) -> None:
        if self.done:
            return
        self.done = True
        v = self.value
        self.value = None
        if v is None:
            self._fail(IndexError("The source is empty"))
            return
        try:
            self.future.set_result(v)
        except concurrent.futures.InvalidStateError:  # cancelled by its user meanwhile
            pass

    def _fail(self, e: BaseException) -> None:
        try:
            self.future.set_exception(e)
        except concurrent.futures.InvalidStateError:  # cancelled by its user meanwhile
            pass

    def future_done(self, f: concurrent.futures.Future[T]) -> None:
        if f.cancelled():
            SubscriptionHelper.cancel(self.upstream)


def to_future(source: Flowable[T]) -> concurrent.futures.Future[T]:
    f: concurrent.futures.Future[T] = FlowableFuture()
    sub = FutureSubscriber(f)
    f.add_done_callback(sub.future_done)
    try:
        source.subscribe(sub)
    except BaseException:  # e.g. KeyboardInterrupt in a synchronous emission: nobody
        f.cancel()         # would get the future to cancel it
        raise
    return f


def signal_outcome(f: concurrent.futures.Future[Any], downstream: Any,
                   on_result: Callable[[Any], None]) -> None:
    """Signal how the done future ``f`` ended: ``CancelledError``, its exception (both to
    ``downstream.on_error``), or ``on_result(result)``. Shared by the ``from_future``
    sources of every type. Never raises an ``Exception`` (``concurrent.futures`` only
    logs what a done-callback raises): what the downstream raises (it broke §2.13) goes
    to :func:`rxpy2.plugins.on_error`; a fatal exception (``KeyboardInterrupt``,
    ``SystemExit``) propagates to the thread that completed the future (DESIGN: never caught).
    """
    try:
        if f.cancelled():
            downstream.on_error(concurrent.futures.CancelledError("the future was cancelled"))
            return
        e = f.exception()
        if e is not None:
            downstream.on_error(e)
            return
        on_result(f.result())
    except Exception as ex:
        plugins.on_error(ex)


class DoneHook:
    """The done-callback a ``from_future`` source gives the future: calls ``target`` once,
    unless :meth:`release` came first (a cancel or the timeout won), which drops the
    reference so that the future no longer keeps the subscriber alive."""

    __slots__ = ("target",)

    def __init__(self, target: Callable[[concurrent.futures.Future[Any]], None]) -> None:
        self.target: Callable[[concurrent.futures.Future[Any]], None] | None = target

    def __call__(self, f: concurrent.futures.Future[Any]) -> None:
        t = self.target
        if t is not None:
            self.target = None
            t(f)  # the target's own ``once`` decides if a release raced this call

    def release(self) -> None:
        self.target = None


class FlowableFromFuture(Flowable[T], Generic[T]):
    """Emits the result of ``future`` when it completes (see the module docstring)."""

    __slots__ = ("future", "timeout_seconds", "scheduler")

    def __init__(self, future: concurrent.futures.Future[T], timeout: float | None,
                 scheduler: Any) -> None:
        self.future = future
        self.timeout_seconds = timeout
        self.scheduler = scheduler

    def subscribe_actual(self, subscriber: Subscriber[T]) -> None:
        parent = FromFutureSubscription(subscriber)
        subscriber.on_subscribe(parent)
        if self.timeout_seconds is not None:
            sch = self.scheduler
            if sch is None:
                from rxpy2.schedulers import Schedulers
                sch = Schedulers.computation()
            parent.timer = sch.schedule_direct(parent.on_timeout, self.timeout_seconds)
            if parent.once.get():  # completed or cancelled meanwhile
                parent.timer.dispose()
        self.future.add_done_callback(parent.hook)  # released already if cancelled meanwhile


class FromFutureSubscription(DeferredScalarSubscription[T], Generic[T]):
    """The first of completion, timeout and cancellation wins (``once``)."""

    __slots__ = ("once", "timer", "hook")

    def __init__(self, downstream: Subscriber[T]) -> None:
        super().__init__(downstream)
        self.once = AtomicBoolean(False)
        self.timer: Disposable | None = None
        # what the future holds; a cancel or the timeout releases it
        self.hook = DoneHook(self.on_done)

    def _stop_timer(self) -> None:
        t = self.timer
        if t is not None:
            t.dispose()

    def on_done(self, f: concurrent.futures.Future[T]) -> None:
        # runs on the thread that completed the future (or here, if it was done already)
        if not self.once.compare_and_set(False, True):
            return
        self._stop_timer()
        signal_outcome(f, self.downstream, self._on_result)

    def _on_result(self, v: T | None) -> None:
        if v is None:
            self.downstream.on_complete()
        else:
            self.complete(v)

    def on_timeout(self) -> None:
        if self.once.compare_and_set(False, True):
            self.hook.release()
            self.downstream.on_error(TimeoutError("the future did not complete in time"))

    def cancel(self) -> None:
        super().cancel()
        if self.once.compare_and_set(False, True):
            self._stop_timer()
            self.hook.release()
