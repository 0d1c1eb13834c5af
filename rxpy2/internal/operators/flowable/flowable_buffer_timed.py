"""Flowable.buffer_time: lists of the items of each ``timespan``, or of at most ``count`` items.

A periodic timer emits the current list (possibly empty) every ``timespan``
seconds and starts a new one. With ``count``, a list that reaches ``count``
items is emitted at once and a new one started; the timer keeps its period. On
completion the current list is emitted, then completion; on error it is
dropped. The upstream is requested without bound; a list that finds no
downstream demand fails the stream with ``MissingBackpressureException``.
Items, timer and terminal signals meet under an ``RLock`` (the list is shared
state between the upstream's thread and the timer's).
"""

from __future__ import annotations

import threading
from typing import Generic, TypeVar

from rxpy2 import plugins
from rxpy2.disposables import SerialDisposable
from rxpy2.exceptions import MissingBackpressureException
from rxpy2.flowable import Flowable
from rxpy2.internal.atomic import AtomicLong
from rxpy2.internal.fuseable import HasUpstreamPublisher
from rxpy2.internal.helpers.backpressure_helper import BackpressureHelper
from rxpy2.internal.helpers.subscribe_loop import subscribe_tail
from rxpy2.internal.helpers.subscription_helper import SubscriptionHelper
from rxpy2.observers import FlowableSubscriber
from rxpy2.reactivestreams import LONG_MAX, Publisher, Subscriber, Subscription
from rxpy2.schedulers.scheduler import Scheduler, Worker

__all__ = ["FlowableBufferTimed"]

T = TypeVar("T")

class FlowableBufferTimed(Flowable[list[T]], HasUpstreamPublisher[T], Generic[T]):
    """``buffer_time``: the upstream is requested without bound.

    Backpressure: the timer cannot be slowed down; it signals
    ``MissingBackpressureException`` when a list is due (timer or ``count``) and the
    downstream has not requested it: add ``on_backpressure_buffer()`` (or drop/latest)
    after it, or request more."""

    __slots__ = ("source", "timespan", "scheduler", "max_size")

    def __init__(self, source: Publisher[T], timespan: float, scheduler: Scheduler,
                 count: int | None) -> None:
        self.source = source
        self.timespan = timespan
        self.scheduler = scheduler
        self.max_size = count

    def subscribe_actual(self, subscriber: Subscriber[list[T]]) -> None:
        subscribe_tail(self.source, BufferTimedSubscriber(
            subscriber, self.timespan, self.scheduler.create_worker(), self.max_size))


class BufferTimedSubscriber(FlowableSubscriber[T], Subscription, Generic[T]):
    __slots__ = ("downstream", "timespan", "worker", "count", "upstream", "requested",
                 "timer", "buffer", "lock", "done")

    def __init__(self, downstream: Subscriber[list[T]], timespan: float, worker: Worker,
                 count: int | None) -> None:
        self.downstream = downstream
        self.timespan = timespan
        self.worker = worker
        self.count = count
        self.upstream: Subscription | None = None
        self.requested = AtomicLong()
        self.timer = SerialDisposable()
        self.buffer: list[T] = []
        self.lock = threading.RLock()
        self.done = False

    def on_subscribe(self, s: Subscription) -> None:
        if SubscriptionHelper.validate(self.upstream, s):
            self.upstream = s
            self.downstream.on_subscribe(self)
            ts = self.timespan
            self.timer.replace(self.worker.schedule_periodically(self._tick, ts, ts))
            s.request(LONG_MAX)

    def _tick(self) -> None:
        with self.lock:
            if self.done:
                return
            b = self.buffer
            self.buffer = []
            self._emit(b)

    def _emit(self, b: list[T]) -> None:
        """Emit a list (holding the lock, not done)."""
        if self.requested.get() != 0:
            self.downstream.on_next(b)
            BackpressureHelper.produced(self.requested, 1)
        else:
            self.done = True
            self.buffer = []
            self.cancel()
            self.downstream.on_error(
                MissingBackpressureException.lack_of_requests("buffer_time", "a buffer"))

    def on_next(self, item: T) -> None:
        with self.lock:
            if self.done:
                return
            b = self.buffer
            b.append(item)
            c = self.count
            if c is None or len(b) < c:
                return
            self.buffer = []
            self._emit(b)

    def on_error(self, error: BaseException) -> None:
        self.worker.dispose()
        with self.lock:
            if self.done:
                plugins.on_error(error)
                return
            self.done = True
            self.buffer = []
            self.downstream.on_error(error)

    def on_complete(self) -> None:
        self.worker.dispose()
        with self.lock:
            if self.done:
                return
            b = self.buffer
            self._emit(b)
            if self.done:
                return
            self.done = True
            self.buffer = []
            self.downstream.on_complete()

    def request(self, n: int) -> None:
        if SubscriptionHelper.validate_request(n):
            BackpressureHelper.add(self.requested, n)

    def cancel(self) -> None:
        self.upstream.cancel()  # type: ignore[union-attr]
        self.worker.dispose()
