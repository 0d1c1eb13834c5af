"""Flowable.sample / throttle_last: the latest item of each period, emitted by a periodic timer.

The upstream is requested without bound; an item only replaces the latest one.
Every ``period`` seconds the timer takes the latest item (if any) and emits it
when the downstream has demand; without demand the stream fails with
``MissingBackpressureException``. On completion the item still waiting is
emitted first when ``emit_last`` (else dropped). The timer's emission and the
terminal signal come from different threads: an ``RLock`` keeps them apart (it
is taken once per period and per terminal signal, never per upstream item).
"""

from __future__ import annotations

import threading
from typing import Generic, TypeVar

from rxpy2 import plugins
from rxpy2.exceptions import MissingBackpressureException
from rxpy2.flowable import Flowable
from rxpy2.internal.atomic import AtomicLong, AtomicReference
from rxpy2.internal.fuseable import HasUpstreamPublisher
from rxpy2.internal.helpers.backpressure_helper import BackpressureHelper
from rxpy2.internal.helpers.disposable_helper import DisposableHelper
from rxpy2.internal.helpers.subscribe_loop import subscribe_tail
from rxpy2.internal.helpers.subscription_helper import SubscriptionHelper
from rxpy2.observers import FlowableSubscriber
from rxpy2.reactivestreams import LONG_MAX, Publisher, Subscriber, Subscription
from rxpy2.schedulers.scheduler import Scheduler

__all__ = ["FlowableSampleTimed"]

T = TypeVar("T")


class FlowableSampleTimed(Flowable[T], HasUpstreamPublisher[T], Generic[T]):
    """``sample`` / ``throttle_last``: the upstream is requested without bound.

    Backpressure: the timer cannot be slowed down; it signals
    ``MissingBackpressureException`` when a sample is due and the downstream has not
    requested it: add ``on_backpressure_latest()`` (or buffer/drop) after it."""

    __slots__ = ("source", "period", "scheduler", "emit_last")

    def __init__(self, source: Publisher[T], period: float, scheduler: Scheduler,
                 emit_last: bool) -> None:
        self.source = source
        self.period = period
        self.scheduler = scheduler
        self.emit_last = emit_last

    def subscribe_actual(self, subscriber: Subscriber[T]) -> None:
        subscribe_tail(self.source, SampleTimedSubscriber(
            subscriber, self.period, self.scheduler, self.emit_last))


class SampleTimedSubscriber(FlowableSubscriber[T], Subscription, Generic[T]):
    __slots__ = ("downstream", "period", "scheduler", "emit_last", "upstream", "latest",
                 "requested", "timer", "lock", "done")

    def __init__(self, downstream: Subscriber[T], period: float, scheduler: Scheduler,
                 emit_last: bool) -> None:
        self.downstream = downstream
        self.period = period
        self.scheduler = scheduler
        self.emit_last = emit_last
        self.upstream: Subscription | None = None
        self.latest: AtomicReference[T] = AtomicReference()
        self.requested = AtomicLong()
        self.timer: AtomicReference = AtomicReference()
        self.lock = threading.RLock()
        self.done = False

    def on_subscribe(self, s: Subscription) -> None:
        if SubscriptionHelper.validate(self.upstream, s):
            self.upstream = s
            self.downstream.on_subscribe(self)
            DisposableHelper.replace(self.timer, self.scheduler.schedule_periodically_direct(
                self._tick, self.period, self.period))
            s.request(LONG_MAX)

    def on_next(self, item: T) -> None:
        self.latest.set(item)

    def _tick(self) -> None:
        with self.lock:
            if not self.done:
                self._emit()

    def _emit(self) -> None:
        """Emit the latest item if there is one (holding the lock, not done)."""
        v = self.latest.get_and_set(None)
        if v is None:
            return
        if self.requested.get() != 0:
            self.downstream.on_next(v)
            BackpressureHelper.produced(self.requested, 1)
        else:
            self.done = True
            self.cancel()
            self.downstream.on_error(MissingBackpressureException.lack_of_requests("sample"))

    def on_error(self, error: BaseException) -> None:
        DisposableHelper.dispose(self.timer)
        with self.lock:
            if self.done:
                plugins.on_error(error)
                return
            self.done = True
            self.latest.set(None)
            self.downstream.on_error(error)

    def on_complete(self) -> None:
        DisposableHelper.dispose(self.timer)
        with self.lock:
            if self.done:
                return
            if self.emit_last:
                self._emit()
                if self.done:
                    return
            self.done = True
            self.latest.set(None)
            self.downstream.on_complete()

    def request(self, n: int) -> None:
        if SubscriptionHelper.validate_request(n):
            BackpressureHelper.add(self.requested, n)

    def cancel(self) -> None:
        DisposableHelper.dispose(self.timer)
        self.upstream.cancel()  # type: ignore[union-attr]
