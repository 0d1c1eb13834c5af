"""Flowable.timestamp / time_interval: each item wrapped in a :class:`~rxpy2.timed.Timed`.

``timestamp``: the scheduler's ``now()`` when the item arrives. ``time_interval``:
the seconds since the previous item (since the subscription for the first one).
Requests and cancellation pass through unchanged.
"""

from __future__ import annotations

from typing import Any
from typing import Generic
from typing import TypeVar

from rxpy2._internal.fuseable import HasUpstreamPublisher
from rxpy2._internal.helpers.subscribe_loop import subscribe_tail
from rxpy2.flowable import Flowable
from rxpy2.operator_kit import OperatorSubscriber
from rxpy2.operator_kit import null_or_late_item
from rxpy2.reactivestreams import Publisher
from rxpy2.reactivestreams import Subscriber
from rxpy2.reactivestreams import Subscription
from rxpy2.schedulers.scheduler import Scheduler
from rxpy2.timed import Timed

__all__ = ["FlowableTimeInterval"]

T = TypeVar("T")


class FlowableTimeInterval(Flowable[Timed[T]], HasUpstreamPublisher[T], Generic[T]):
    """``interval=False``: timestamps; ``interval=True``: time since the previous item."""

    __slots__ = ("source", "scheduler", "is_interval")

    def __init__(self, source: Publisher[T], scheduler: Scheduler, interval: bool) -> None:
        self.source = source
        self.scheduler = scheduler
        self.is_interval = interval

    def subscribe_actual(self, subscriber: Subscriber[Timed[T]]) -> None:
        if self.is_interval:
            subscribe_tail(self.source, TimeIntervalSubscriber(subscriber, self.scheduler))
        else:
            subscribe_tail(self.source, TimestampSubscriber(subscriber, self.scheduler))


class TimestampSubscriber(OperatorSubscriber[T, Timed[T]], Generic[T]):
    __slots__ = ("scheduler",)

    def __init__(self, downstream: Subscriber[Timed[T]], scheduler: Scheduler) -> None:
        super().__init__(downstream)
        self.scheduler = scheduler

    def on_next(self, item: T) -> None:
        if item is None or self.done:
            null_or_late_item(item)  # §2.13
            return
        self.downstream.on_next(Timed(item, self.scheduler.now()))


class TimeIntervalSubscriber(OperatorSubscriber[T, Timed[T]], Generic[T]):
    __slots__ = ("scheduler", "last")

    def __init__(self, downstream: Subscriber[Timed[T]], scheduler: Scheduler) -> None:
        super().__init__(downstream)
        self.scheduler = scheduler
        self.last = 0.0

    def on_subscribe(self, s: Subscription) -> None:
        self.last = self.scheduler.now()
        super().on_subscribe(s)

    def on_next(self, item: Any) -> None:
        if item is None or self.done:
            null_or_late_item(item)  # §2.13
            return
        now = self.scheduler.now()
        last = self.last
        self.last = now
        self.downstream.on_next(Timed(item, now - last))
