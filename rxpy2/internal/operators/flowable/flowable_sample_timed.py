"""Flowable.sample / throttle_last: the latest item of each period, emitted by a periodic timer.

The upstream is requested without bound; an item only replaces the latest one.
Every ``period`` seconds the timer takes the latest item (if any) and emits it
when the downstream has demand; without demand the stream fails with
``MissingBackpressureException``. On completion the item still waiting is
emitted first when ``emit_last`` (else dropped).

As RxJava's: the latest item is swapped out atomically (``latest``); the
timer's emission and the terminal signal (from different threads) are
serialized by a :class:`Drain` (RxJava wraps the downstream in a
``SerializedSubscriber``): a tick sets ``ticked`` and drains, a terminal signal
sets ``done`` and drains, and only the drain's owner signals, never under a
lock. A terminal signal or a cancel keeps the drain for good. Upstream items
never touch the drain.
"""

from __future__ import annotations

from typing import Generic, TypeVar

from rxpy2 import plugins
from rxpy2.flowable import Flowable
from rxpy2.internal.fuseable import HasUpstreamPublisher
from rxpy2.internal.helpers.disposable_helper import DisposableHelper
from rxpy2.operators import (
    LONG_MAX,
    AtomicLong,
    AtomicReference,
    Drain,
    MissingBackpressureException,
    OperatorSubscriber,
    add_request,
    null_error,
    null_item,
    produced,
    subscribe_tail,
    validate_request,
)
from rxpy2.reactivestreams import Publisher, Subscriber
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


class SampleTimedSubscriber(OperatorSubscriber[T, T], Generic[T]):
    __slots__ = ("period", "scheduler", "emit_last", "latest", "requested", "timer", "gate",
                 "ticked", "terminated", "error", "cancelled")

    def __init__(self, downstream: Subscriber[T], period: float, scheduler: Scheduler,
                 emit_last: bool) -> None:
        super().__init__(downstream)
        self.period = period
        self.scheduler = scheduler
        self.emit_last = emit_last
        self.latest: AtomicReference[T] = AtomicReference()
        self.requested = AtomicLong()
        self.timer: AtomicReference = AtomicReference()
        self.gate = Drain()
        self.ticked = False      # a tick waits for the drain
        self.terminated = False  # the upstream's terminal signal waits for the drain
        self.error: BaseException | None = None
        self.cancelled = False

    def on_start(self) -> bool:
        self.downstream.on_subscribe(self)
        if not self.cancelled:
            DisposableHelper.replace(self.timer, self.scheduler.schedule_periodically_direct(
                self._tick, self.period, self.period))
            self.upstream.request(LONG_MAX)
        return False

    def on_next(self, item: T) -> None:
        if item is None:
            raise null_item()  # §2.13
        self.latest.set(item)

    def _tick(self) -> None:
        self.ticked = True
        self.drain()

    def on_error(self, error: BaseException) -> None:
        if error is None:
            raise null_error()  # §2.13
        DisposableHelper.dispose(self.timer)
        if self.done:
            plugins.on_error(error)  # never lost
            return
        self.done = True
        self.error = error
        self.terminated = True
        self.drain()

    def on_complete(self) -> None:
        DisposableHelper.dispose(self.timer)
        if self.done:
            return
        self.done = True
        self.terminated = True
        self.drain()

    def request(self, n: int) -> None:
        if validate_request(n):  # §3.9
            add_request(self.requested, n)

    def cancel(self) -> None:
        if self.cancelled:
            return
        self.cancelled = True
        DisposableHelper.dispose(self.timer)
        self.upstream.cancel()
        if self.gate.enter():  # no drain runs: the cleanup is ours; the drain stays closed
            self.latest.set(None)

    def drain(self) -> None:
        gate = self.gate
        if not gate.enter():
            return  # the owner makes another pass
        a = self.downstream
        while True:
            if self.cancelled:
                self.latest.set(None)
                return  # keeps the drain
            if self.terminated:
                e = self.error
                if e is not None:
                    self.latest.set(None)
                    a.on_error(e)
                    return
                if self.emit_last and not self._emit():
                    return
                self.latest.set(None)
                a.on_complete()
                return  # keeps the drain
            if self.ticked:
                self.ticked = False
                if not self._emit():
                    return
            if not gate.leave():
                return

    def _emit(self) -> bool:
        """Emit the latest item if there is one (the drain's); False: failed for lack of
        demand (the drain is kept)."""
        v = self.latest.get_and_set(None)
        if v is None:
            return True
        requested = self.requested
        if requested.get() != 0:
            self.downstream.on_next(v)
            produced(requested, 1)
            return True
        self.cancelled = True
        self.done = True  # a later upstream signal is dropped (an error to plugins.on_error)
        DisposableHelper.dispose(self.timer)
        self.upstream.cancel()
        self.downstream.on_error(MissingBackpressureException.lack_of_requests("sample"))
        return False
