"""Flowable.timeout: fail (or switch to a fallback) when no item arrives in time.

Each item (and the subscription) starts a timeout task on a worker, tagged with
the index of the item it waits for; the upstream's item moves the index on with
``compare_and_set(index, index + 1)`` and the task fires with
``compare_and_set(index, LONG_MAX)``. Only one of them can win, so an item that
races its own timeout is either delivered (and the timeout dropped) or dropped
(and the timeout signalled), never both. A terminal signal also moves the index
to ``LONG_MAX``.

Without fallback the downstream gets Python's ``TimeoutError``. With a fallback
the upstream is cancelled and the fallback subscribed; the downstream demand
not yet satisfied carries over through the :class:`SubscriptionArbiter`.
"""

from __future__ import annotations

from typing import Any
from typing import Generic
from typing import TypeVar

from rxpy2 import plugins
from rxpy2._internal.atomic import AtomicLong
from rxpy2._internal.atomic import AtomicReference
from rxpy2._internal.fuseable import HasUpstreamPublisher
from rxpy2._internal.helpers.subscribe_loop import subscribe_tail
from rxpy2._internal.helpers.subscription_helper import SubscriptionHelper
from rxpy2._internal.subscribers.pass_through import DeferredUpstream
from rxpy2._internal.subscribers.pass_through import PassThrough
from rxpy2._internal.subscriptions.arbiter import SubscriptionArbiter
from rxpy2.disposables import SerialDisposable
from rxpy2.flowable import Flowable
from rxpy2.observers import FlowableSubscriber
from rxpy2.operator_kit import null_error
from rxpy2.operator_kit import null_item
from rxpy2.operator_kit import null_subscription
from rxpy2.reactivestreams import LONG_MAX
from rxpy2.reactivestreams import Publisher
from rxpy2.reactivestreams import Subscriber
from rxpy2.reactivestreams import Subscription
from rxpy2.schedulers.scheduler import Scheduler
from rxpy2.schedulers.scheduler import Worker

__all__ = ["FlowableTimeoutTimed", "timeout_message"]

T = TypeVar("T")


def timeout_message(timeout: float) -> str:
    return (f"The source did not signal an event for {timeout} seconds "
            "and has been terminated.")


class FlowableTimeoutTimed(Flowable[T], HasUpstreamPublisher[T], Generic[T]):
    __slots__ = ("source", "timeout_time", "scheduler", "fallback")

    def __init__(self, source: Publisher[T], timeout: float, scheduler: Scheduler,
                 fallback: Publisher[T] | None) -> None:
        self.source = source
        self.timeout_time = timeout
        self.scheduler = scheduler
        self.fallback = fallback

    def subscribe_actual(self, subscriber: Subscriber[T]) -> None:
        worker = self.scheduler.create_worker()
        parent: Any
        if self.fallback is None:
            parent = TimeoutSubscriber(subscriber, self.timeout_time, worker)
        else:
            parent = TimeoutFallbackSubscriber(subscriber, self.timeout_time, worker, self.fallback)
        subscriber.on_subscribe(parent)
        parent.start_timeout(0)
        subscribe_tail(self.source, parent)


class TimeoutTask:
    """Fires the timeout for the item of index ``idx``."""

    __slots__ = ("parent", "idx")

    def __init__(self, parent: Any, idx: int) -> None:
        self.parent = parent
        self.idx = idx

    def __call__(self) -> None:
        self.parent.on_timeout(self.idx)


class IndexedTimeout(FlowableSubscriber[T], Generic[T]):
    """The item path and the terminal signals of ``timeout``'s main subscribers (timed, and
    with indicator Publishers in ``flowable_timeout.py``; with or without a fallback):
    ``index`` decides every race (module docstring).

    A subclass starts the timeout of the next item (:meth:`next_timeout`), signals a
    timeout that won (:meth:`timed_out`, the upstream cancelled already) and stops its
    timeouts at the end (:meth:`stop_timeouts`)."""

    __slots__ = ()

    downstream: Subscriber[T]
    task: SerialDisposable  # the current timeout
    upstream: AtomicReference[Subscription]
    index: AtomicLong

    def _emitted(self) -> None:
        """An item is about to go downstream (the fallback forms count it)."""

    def on_next(self, item: T) -> None:
        if item is None:
            raise null_item()  # §2.13
        index = self.index
        idx = index.get()
        if idx == LONG_MAX or not index.compare_and_set(idx, idx + 1):
            return
        d = self.task.get()
        if d is not None:
            d.dispose()
        self._emitted()
        self.downstream.on_next(item)
        self.next_timeout(item, idx + 1)

    def next_timeout(self, item: T, idx: int) -> None:
        """``item`` went downstream: start the timeout of item ``idx``."""
        raise NotImplementedError

    def on_error(self, error: BaseException) -> None:
        if error is None:
            raise null_error()  # §2.13
        if self.index.get_and_set(LONG_MAX) != LONG_MAX:
            self.stop_timeouts()
            self.downstream.on_error(error)
        else:
            plugins.on_error(error)

    def on_complete(self) -> None:
        if self.index.get_and_set(LONG_MAX) != LONG_MAX:
            self.stop_timeouts()
            self.downstream.on_complete()

    def stop_timeouts(self) -> None:
        raise NotImplementedError

    def on_timeout(self, idx: int) -> None:
        """The timeout of item ``idx`` fired."""
        if self.index.compare_and_set(idx, LONG_MAX):
            SubscriptionHelper.cancel(self.upstream)
            self.timed_out()

    def timed_out(self) -> None:
        raise NotImplementedError


class PlainTimeout(DeferredUpstream, IndexedTimeout[T], Subscription, Generic[T]):
    """Without a fallback: the downstream's Subscription; requests made before the upstream
    arrives are deferred (:class:`DeferredUpstream`)."""

    __slots__ = ()

    def cancel(self) -> None:
        SubscriptionHelper.cancel(self.upstream)
        self.stop_timeouts()


class FallbackTimeout(SubscriptionArbiter, IndexedTimeout[T], Generic[T]):
    """With a fallback: the arbiter is the downstream's Subscription; a timeout subscribes
    the fallback (:meth:`switch`), which gets the demand not yet satisfied."""

    def __init__(self, fallback: Publisher[T]) -> None:
        super().__init__(True)
        self.fallback: Publisher[T] | None = fallback
        self.consumed = 0

    def _emitted(self) -> None:
        self.consumed += 1

    def on_subscribe(self, s: Subscription) -> None:
        if SubscriptionHelper.set_once(self.upstream, s):
            self.set_subscription(s)

    def switch(self) -> None:
        """On to the fallback (once): the items so far are no longer owed."""
        f, self.fallback = self.fallback, None
        c = self.consumed
        if c != 0:
            self.produced(c)
        assert f is not None
        f.subscribe(FallbackSubscriber(self.downstream, self))

    def cancel(self) -> None:
        super().cancel()
        self.stop_timeouts()


class _Timed(IndexedTimeout[T], Generic[T]):
    """The timeouts of the timed form: tasks on ``worker``, ``timeout`` seconds after
    the subscription and after each item."""

    __slots__ = ()

    timeout: float
    worker: Worker

    def start_timeout(self, idx: int) -> None:
        """(at subscription) the timeout of the first item"""
        self.next_timeout(None, idx)

    def next_timeout(self, item: T | None, idx: int) -> None:
        self.task.replace(self.worker.schedule(TimeoutTask(self, idx), self.timeout))

    def stop_timeouts(self) -> None:
        self.worker.dispose()


class TimeoutSubscriber(_Timed[T], PlainTimeout[T], Generic[T]):
    __slots__ = ("downstream", "timeout", "worker", "task", "upstream", "requested", "index")

    def __init__(self, downstream: Subscriber[T], timeout: float, worker: Worker) -> None:
        self.downstream = downstream
        self.timeout = timeout
        self.worker = worker
        self.task = SerialDisposable()
        self.upstream = AtomicReference()
        self.requested = AtomicLong()
        self.index = AtomicLong()

    def timed_out(self) -> None:
        self.downstream.on_error(TimeoutError(timeout_message(self.timeout)))
        self.worker.dispose()


class TimeoutFallbackSubscriber(_Timed[T], FallbackTimeout[T], Generic[T]):
    """The main subscriber when there is a fallback."""

    def __init__(self, downstream: Subscriber[T], timeout: float, worker: Worker,
                 fallback: Publisher[T]) -> None:
        super().__init__(fallback)
        self.downstream = downstream
        self.timeout = timeout
        self.worker = worker
        self.task = SerialDisposable()
        self.upstream = AtomicReference()
        self.index = AtomicLong()

    def timed_out(self) -> None:
        self.switch()
        self.worker.dispose()


class FallbackSubscriber(PassThrough, FlowableSubscriber[T], Generic[T]):
    """Relays the fallback's signals; its Subscription goes into the parent's arbiter."""

    __slots__ = ("downstream", "arbiter")

    def __init__(self, downstream: Subscriber[T], arbiter: SubscriptionArbiter) -> None:
        self.downstream = downstream
        self.arbiter = arbiter

    def on_subscribe(self, s: Subscription) -> None:
        if s is None:
            raise null_subscription()  # §2.13
        self.arbiter.set_subscription(s)

