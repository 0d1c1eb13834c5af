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
from rxpy2._internal.subscribers.pass_through import PassThrough
from rxpy2._internal.subscriptions.arbiter import SubscriptionArbiter
from rxpy2.disposables import SerialDisposable
from rxpy2.flowable import Flowable
from rxpy2.observers import FlowableSubscriber
from rxpy2.operator_kit import deferred_request
from rxpy2.operator_kit import deferred_set_once
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


class TimeoutSubscriber(FlowableSubscriber[T], Subscription, Generic[T]):
    __slots__ = ("downstream", "timeout", "worker", "task", "upstream", "requested", "index")

    def __init__(self, downstream: Subscriber[T], timeout: float, worker: Worker) -> None:
        self.downstream = downstream
        self.timeout = timeout
        self.worker = worker
        self.task = SerialDisposable()
        self.upstream: AtomicReference[Subscription] = AtomicReference()
        self.requested = AtomicLong()
        self.index = AtomicLong()

    def start_timeout(self, idx: int) -> None:
        self.task.replace(self.worker.schedule(TimeoutTask(self, idx), self.timeout))

    def on_subscribe(self, s: Subscription) -> None:
        if s is None:
            raise null_subscription()  # §2.13
        deferred_set_once(self.upstream, self.requested, s)

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
        self.downstream.on_next(item)
        self.start_timeout(idx + 1)

    def on_timeout(self, idx: int) -> None:
        if self.index.compare_and_set(idx, LONG_MAX):
            SubscriptionHelper.cancel(self.upstream)
            self.downstream.on_error(TimeoutError(timeout_message(self.timeout)))
            self.worker.dispose()

    def on_error(self, error: BaseException) -> None:
        if error is None:
            raise null_error()  # §2.13
        if self.index.get_and_set(LONG_MAX) != LONG_MAX:
            self.worker.dispose()
            self.downstream.on_error(error)
        else:
            plugins.on_error(error)

    def on_complete(self) -> None:
        if self.index.get_and_set(LONG_MAX) != LONG_MAX:
            self.worker.dispose()
            self.downstream.on_complete()

    def request(self, n: int) -> None:
        deferred_request(self.upstream, self.requested, n)

    def cancel(self) -> None:
        SubscriptionHelper.cancel(self.upstream)
        self.worker.dispose()


class TimeoutFallbackSubscriber(SubscriptionArbiter, FlowableSubscriber[T], Generic[T]):
    """The main subscriber when there is a fallback: the arbiter is the downstream's Subscription."""

    def __init__(self, downstream: Subscriber[T], timeout: float, worker: Worker,
                 fallback: Publisher[T]) -> None:
        super().__init__(True)
        self.downstream = downstream
        self.timeout = timeout
        self.worker = worker
        self.fallback = fallback
        self.task = SerialDisposable()
        self.upstream: AtomicReference[Subscription] = AtomicReference()
        self.index = AtomicLong()
        self.consumed = 0

    def start_timeout(self, idx: int) -> None:
        self.task.replace(self.worker.schedule(TimeoutTask(self, idx), self.timeout))

    def on_subscribe(self, s: Subscription) -> None:
        if SubscriptionHelper.set_once(self.upstream, s):
            self.set_subscription(s)

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
        self.consumed += 1
        self.downstream.on_next(item)
        self.start_timeout(idx + 1)

    def on_timeout(self, idx: int) -> None:
        if self.index.compare_and_set(idx, LONG_MAX):
            SubscriptionHelper.cancel(self.upstream)
            c = self.consumed
            if c != 0:
                self.produced(c)
            self.fallback.subscribe(FallbackSubscriber(self.downstream, self))
            self.worker.dispose()

    def on_error(self, error: BaseException) -> None:
        if error is None:
            raise null_error()  # §2.13
        if self.index.get_and_set(LONG_MAX) != LONG_MAX:
            self.worker.dispose()
            self.downstream.on_error(error)
        else:
            plugins.on_error(error)

    def on_complete(self) -> None:
        if self.index.get_and_set(LONG_MAX) != LONG_MAX:
            self.worker.dispose()
            self.downstream.on_complete()

    def cancel(self) -> None:
        super().cancel()
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

