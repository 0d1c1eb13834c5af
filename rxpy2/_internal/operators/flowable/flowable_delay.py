"""Flowable.delay / delay_subscription: shift signals, or the subscription, in time.

:class:`FlowableDelay`: each signal is scheduled on one worker (a serial event
loop, so items keep their order and never overlap): items and completion after
``delay`` seconds; an error at once (dropping the items still waiting, as the
worker is disposed after it) unless ``delay_error``. Requests pass through to
the upstream; cancellation cancels it and disposes the worker (and so every
pending task).

:class:`FlowableDelaySubscription`: subscribes to the source ``delay`` seconds
after the subscription, on the scheduler; requests made meanwhile are kept and
handed to the upstream when it arrives.
"""

from __future__ import annotations

from typing import Any
from typing import Generic
from typing import TypeVar

from rxpy2._internal.atomic import AtomicLong
from rxpy2._internal.atomic import AtomicReference
from rxpy2._internal.fuseable import HasUpstreamPublisher
from rxpy2._internal.helpers.disposable_helper import DisposableHelper
from rxpy2._internal.helpers.subscribe_loop import subscribe_tail
from rxpy2._internal.helpers.subscription_helper import SubscriptionHelper
from rxpy2._internal.subscribers.pass_through import DeferredUpstream
from rxpy2._internal.subscribers.pass_through import PassThrough
from rxpy2.flowable import Flowable
from rxpy2.observers import FlowableSubscriber
from rxpy2.operator_kit import OperatorSubscriber
from rxpy2.operator_kit import null_or_late_error
from rxpy2.operator_kit import null_or_late_item
from rxpy2.reactivestreams import Publisher
from rxpy2.reactivestreams import Subscriber
from rxpy2.reactivestreams import Subscription
from rxpy2.schedulers.scheduler import Scheduler
from rxpy2.schedulers.scheduler import Worker

__all__ = ["FlowableDelay", "FlowableDelaySubscription"]

T = TypeVar("T")


class FlowableDelay(Flowable[T], HasUpstreamPublisher[T], Generic[T]):
    __slots__ = ("source", "delay_time", "scheduler", "delay_error")

    def __init__(self, source: Publisher[T], delay: float, scheduler: Scheduler,
                 delay_error: bool) -> None:
        self.source = source
        self.delay_time = delay
        self.scheduler = scheduler
        self.delay_error = delay_error

    def subscribe_actual(self, subscriber: Subscriber[T]) -> None:
        subscribe_tail(self.source, DelaySubscriber(
            subscriber, self.delay_time, self.scheduler.create_worker(), self.delay_error))


class DelaySubscriber(OperatorSubscriber[T, T], Generic[T]):
    """Every signal goes through ``worker`` (a serial event loop): nothing else to serialize."""

    __slots__ = ("delay", "worker", "delay_error")

    def __init__(self, downstream: Subscriber[T], delay: float, worker: Worker,
                 delay_error: bool) -> None:
        super().__init__(downstream)
        self.delay = delay
        self.worker = worker
        self.delay_error = delay_error

    def on_next(self, item: T) -> None:
        if item is None or self.done:
            null_or_late_item(item)  # §2.13
            return
        a = self.downstream
        self.worker.schedule(lambda: a.on_next(item), self.delay)

    def on_error(self, error: BaseException) -> None:
        if error is None or self.done:
            null_or_late_error(error)  # §2.13, §1.7
            return
        self.done = True
        self.worker.schedule(lambda: self._error(error),
                             self.delay if self.delay_error else 0.0)

    def on_complete(self) -> None:
        if self.done:
            return
        self.done = True
        self.worker.schedule(self._complete, self.delay)

    def _error(self, error: BaseException) -> None:
        try:
            self.downstream.on_error(error)
        finally:
            self.worker.dispose()

    def _complete(self) -> None:
        try:
            self.downstream.on_complete()
        finally:
            self.worker.dispose()

    def cancel(self) -> None:
        self.upstream.cancel()
        self.worker.dispose()


class FlowableDelaySubscription(Flowable[T], HasUpstreamPublisher[T], Generic[T]):
    __slots__ = ("source", "delay_time", "scheduler")

    def __init__(self, source: Publisher[T], delay: float, scheduler: Scheduler) -> None:
        self.source = source
        self.delay_time = delay
        self.scheduler = scheduler

    def subscribe_actual(self, subscriber: Subscriber[T]) -> None:
        parent = DelaySubscriptionSubscriber(subscriber, self.source)
        subscriber.on_subscribe(parent)
        DisposableHelper.replace(parent.task,
                                 self.scheduler.schedule_direct(parent.subscribe_source,
                                                                self.delay_time))


class DelaySubscriptionSubscriber(PassThrough, DeferredUpstream, FlowableSubscriber[T], Subscription, Generic[T]):
    __slots__ = ("downstream", "source", "upstream", "requested", "task")

    def __init__(self, downstream: Subscriber[T], source: Publisher[T]) -> None:
        self.downstream = downstream
        self.source = source
        self.upstream: AtomicReference[Subscription] = AtomicReference()
        self.requested = AtomicLong()
        self.task: AtomicReference[Any] = AtomicReference()

    def subscribe_source(self) -> None:
        if not SubscriptionHelper.is_cancelled(self.upstream.get()):
            self.source.subscribe(self)

    def cancel(self) -> None:
        SubscriptionHelper.cancel(self.upstream)
        DisposableHelper.dispose(self.task)
