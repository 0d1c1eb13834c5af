"""Flowable.unsubscribe_on: run the upstream's ``cancel`` on a scheduler.

After cancellation the items still arriving are dropped; a late error goes to
``rxpy2.plugins.on_error``.
"""

from __future__ import annotations

from typing import Generic
from typing import TypeVar

from rxpy2._internal.atomic import AtomicBoolean
from rxpy2._internal.fuseable import HasUpstreamPublisher
from rxpy2._internal.helpers.subscribe_loop import subscribe_tail
from rxpy2.flowable import Flowable
from rxpy2.operator_kit import OperatorSubscriber
from rxpy2.operator_kit import null_item
from rxpy2.operator_kit import null_or_late_error
from rxpy2.reactivestreams import Publisher
from rxpy2.reactivestreams import Subscriber
from rxpy2.schedulers.scheduler import Scheduler

__all__ = ["FlowableUnsubscribeOn"]

T = TypeVar("T")


class FlowableUnsubscribeOn(Flowable[T], HasUpstreamPublisher[T], Generic[T]):
    __slots__ = ("source", "scheduler")

    def __init__(self, source: Publisher[T], scheduler: Scheduler) -> None:
        self.source = source
        self.scheduler = scheduler

    def subscribe_actual(self, subscriber: Subscriber[T]) -> None:
        subscribe_tail(self.source, UnsubscribeSubscriber(subscriber, self.scheduler))


class UnsubscribeSubscriber(OperatorSubscriber[T, T], Generic[T]):
    __slots__ = ("scheduler", "cancelled")

    def __init__(self, downstream: Subscriber[T], scheduler: Scheduler) -> None:
        super().__init__(downstream)
        self.scheduler = scheduler
        self.cancelled = AtomicBoolean()

    def on_next(self, item: T) -> None:
        if item is None:
            raise null_item()  # §2.13
        if not self.cancelled.get():
            self.downstream.on_next(item)

    def on_error(self, error: BaseException) -> None:
        if error is None or self.cancelled.get():
            null_or_late_error(error)  # §2.13, §1.7
            return
        self.downstream.on_error(error)

    def on_complete(self) -> None:
        if not self.cancelled.get():
            self.downstream.on_complete()

    def cancel(self) -> None:
        if self.cancelled.compare_and_set(False, True):
            self.scheduler.schedule_direct(self.upstream.cancel)
