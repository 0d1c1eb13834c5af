"""Flowable.throttle_first: the first item of each window; the rest of the window is dropped.

An emitted item opens a gate for ``window`` seconds (a task on a worker closes
it); items arriving while it is open are dropped. The upstream is requested
without bound: an item that should be emitted and finds no downstream demand
fails the stream with ``MissingBackpressureException``.
"""

from __future__ import annotations

from typing import Generic
from typing import TypeVar

from rxpy2._internal.fuseable import HasUpstreamPublisher
from rxpy2._internal.operators.flowable._timed_common import UnboundedSubscriber
from rxpy2.disposables import SerialDisposable
from rxpy2.flowable import Flowable
from rxpy2.operator_kit import MissingBackpressureException
from rxpy2.operator_kit import null_or_late_item
from rxpy2.operator_kit import produced
from rxpy2.operator_kit import subscribe_tail
from rxpy2.reactivestreams import Publisher
from rxpy2.reactivestreams import Subscriber
from rxpy2.schedulers.scheduler import Scheduler
from rxpy2.schedulers.scheduler import Worker

__all__ = ["FlowableThrottleFirstTimed"]

T = TypeVar("T")


class FlowableThrottleFirstTimed(Flowable[T], HasUpstreamPublisher[T], Generic[T]):
    """``throttle_first``: the upstream is requested without bound.

    Backpressure: it cannot slow the upstream down; it signals
    ``MissingBackpressureException`` when an item opens a window and the downstream has
    not requested it: add ``on_backpressure_*()`` after it, or request more."""

    __slots__ = ("source", "window_duration", "scheduler")

    def __init__(self, source: Publisher[T], window: float, scheduler: Scheduler) -> None:
        self.source = source
        self.window_duration = window
        self.scheduler = scheduler

    def subscribe_actual(self, subscriber: Subscriber[T]) -> None:
        subscribe_tail(self.source, ThrottleFirstSubscriber(
            subscriber, self.window_duration, self.scheduler.create_worker()))


class ThrottleFirstSubscriber(UnboundedSubscriber[T, T], Generic[T]):
    """Every signal comes from the upstream's thread (the timer only reopens ``gate``):
    nothing to serialize."""

    __slots__ = ("window", "worker", "timer", "gate")

    def __init__(self, downstream: Subscriber[T], window: float, worker: Worker) -> None:
        super().__init__(downstream)
        self.window = window
        self.worker = worker
        self.timer = SerialDisposable()
        self.gate = False

    def on_next(self, item: T) -> None:
        if item is None or self.done or self.gate:
            null_or_late_item(item)  # §2.13
            return
        self.gate = True
        if self.requested.get() != 0:
            self.downstream.on_next(item)
            produced(self.requested, 1)
            self.timer.replace(self.worker.schedule(self._open, self.window))
        else:
            self.done = True
            self.cancel()
            self.downstream.on_error(MissingBackpressureException.lack_of_requests(
                "throttle_first", producer="the upstream"))

    def _open(self) -> None:
        self.gate = False

    def on_error(self, error: BaseException) -> None:
        super().on_error(error)  # §2.13; once (a second one to plugins.on_error)
        self.worker.dispose()

    def on_complete(self) -> None:
        super().on_complete()
        self.worker.dispose()

    def cancel(self) -> None:
        self.upstream.cancel()
        self.worker.dispose()
