"""Flowable.debounce: an item is emitted only after ``timeout`` seconds without a newer one.

Each item gets an index and a delayed emitter task on a worker; a newer item
disposes the pending task, and an emitter whose index is no longer the latest
does nothing. On completion the item still waiting is emitted at once, then
completion. The upstream is requested without bound; an item due for emission
without downstream demand fails the stream with ``MissingBackpressureException``.
An emission (on the worker) and a terminal signal (on the upstream's thread)
are kept apart by an ``RLock`` taken per emission, not per upstream item.
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

__all__ = ["FlowableDebounceTimed"]

T = TypeVar("T")


class FlowableDebounceTimed(Flowable[T], HasUpstreamPublisher[T], Generic[T]):
    """``debounce``: the upstream is requested without bound.

    Backpressure: the timer cannot be slowed down; it signals
    ``MissingBackpressureException`` when an item's quiet period ends (or the upstream
    completes) and the downstream has not requested it: add ``on_backpressure_*()`` after
    it, or request more."""

    __slots__ = ("source", "timeout_time", "scheduler")

    def __init__(self, source: Publisher[T], timeout: float, scheduler: Scheduler) -> None:
        self.source = source
        self.timeout_time = timeout
        self.scheduler = scheduler

    def subscribe_actual(self, subscriber: Subscriber[T]) -> None:
        subscribe_tail(self.source, DebounceTimedSubscriber(
            subscriber, self.timeout_time, self.scheduler.create_worker()))


class DebounceEmitter(Generic[T]):
    """The delayed emission of one item; runs at most once."""

    __slots__ = ("value", "idx", "parent", "ran")

    def __init__(self, value: T, idx: int, parent: DebounceTimedSubscriber[T]) -> None:
        self.value = value
        self.idx = idx
        self.parent = parent
        self.ran = False

    def __call__(self) -> None:
        self.parent.emit(self)


class DebounceTimedSubscriber(FlowableSubscriber[T], Subscription, Generic[T]):
    __slots__ = ("downstream", "timeout", "worker", "upstream", "requested", "timer", "index",
                 "pending", "lock", "done")

    def __init__(self, downstream: Subscriber[T], timeout: float, worker: Worker) -> None:
        self.downstream = downstream
        self.timeout = timeout
        self.worker = worker
        self.upstream: Subscription | None = None
        self.requested = AtomicLong()
        self.timer = SerialDisposable()
        self.index = 0
        self.pending: DebounceEmitter[T] | None = None
        self.lock = threading.RLock()
        self.done = False

    def on_subscribe(self, s: Subscription) -> None:
        if SubscriptionHelper.validate(self.upstream, s):
            self.upstream = s
            self.downstream.on_subscribe(self)
            s.request(LONG_MAX)

    def on_next(self, item: T) -> None:
        if self.done:
            return
        idx = self.index + 1
        self.index = idx
        d = self.timer.get()
        if d is not None:
            d.dispose()
        de = DebounceEmitter(item, idx, self)
        self.pending = de
        self.timer.replace(self.worker.schedule(de, self.timeout))

    def emit(self, de: DebounceEmitter[T]) -> None:
        with self.lock:
            if de.ran or self.done:
                return
            de.ran = True
            if de.idx != self.index:
                return
            if self.requested.get() != 0:
                self.downstream.on_next(de.value)
                BackpressureHelper.produced(self.requested, 1)
            else:
                self.done = True
                self.cancel()
                self.downstream.on_error(
                    MissingBackpressureException.lack_of_requests("debounce"))

    def on_error(self, error: BaseException) -> None:
        self.worker.dispose()
        with self.lock:
            if self.done:
                plugins.on_error(error)
                return
            self.done = True
            self.downstream.on_error(error)

    def on_complete(self) -> None:
        self.worker.dispose()
        with self.lock:
            if self.done:
                return
            de = self.pending
            if de is not None:
                self.emit(de)
                if self.done:
                    return
            self.done = True
            self.downstream.on_complete()

    def request(self, n: int) -> None:
        if SubscriptionHelper.validate_request(n):
            BackpressureHelper.add(self.requested, n)

    def cancel(self) -> None:
        self.upstream.cancel()  # type: ignore[union-attr]
        self.worker.dispose()
