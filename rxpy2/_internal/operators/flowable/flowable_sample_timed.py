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

from typing import Any
from typing import ClassVar
from typing import Generic
from typing import TypeVar

from rxpy2 import plugins
from rxpy2._internal.fuseable import HasUpstreamPublisher
from rxpy2._internal.helpers.disposable_helper import DisposableHelper
from rxpy2._internal.operators.flowable._timed_common import TimedDrainSubscriber
from rxpy2.flowable import Flowable
from rxpy2.operator_kit import AtomicReference
from rxpy2.operator_kit import MissingBackpressureException
from rxpy2.operator_kit import null_error
from rxpy2.operator_kit import null_item
from rxpy2.operator_kit import produced
from rxpy2.operator_kit import subscribe_tail
from rxpy2.reactivestreams import Publisher
from rxpy2.reactivestreams import Subscriber
from rxpy2.schedulers.scheduler import Scheduler

__all__ = ["FlowableSampleTimed", "SampleSubscriber"]

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


class SampleSubscriber(TimedDrainSubscriber[T, T], Generic[T]):
    """The latest item, taken by a tick (:meth:`tick`: the timer's, or an item of the
    sampler Publisher of ``sample(sampler)``); a subclass starts the ticks
    (``start_timer``) and stops them (:meth:`stop_timer`)."""

    __slots__ = ("emit_last", "latest", "ticked", "terminated")

    PRODUCER: ClassVar[str] = "the timer"

    def __init__(self, downstream: Subscriber[T], emit_last: bool) -> None:
        super().__init__(downstream)
        self.emit_last = emit_last
        self.latest: AtomicReference[T] = AtomicReference()
        self.ticked = False      # a tick waits for the drain
        self.terminated = False  # the upstream's terminal signal waits for the drain

    def stop_timer(self) -> None:
        raise NotImplementedError

    def on_next(self, item: T) -> None:
        if item is None:
            raise null_item()  # §2.13
        self.latest.set(item)

    def tick(self) -> None:
        self.ticked = True
        self.drain()

    def on_error(self, error: BaseException) -> None:
        if error is None:
            raise null_error()  # §2.13
        self.stop_timer()
        if self.done:
            plugins.on_error(error)  # never lost
            return
        self.done = True
        self.error = error
        self.terminated = True
        self.drain()

    def on_complete(self) -> None:
        self.stop_timer()
        if self.done:
            return
        self.done = True
        self.terminated = True
        self.drain()

    def cancel_upstream(self) -> None:
        self.stop_timer()
        self.upstream.cancel()

    def cleanup(self) -> None:
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
        self.done = True  # a later upstream signal is dropped (an error to plugins.on_error)
        self.fail_for_lack_of_requests(MissingBackpressureException.lack_of_requests(
            "sample", "a value", self.PRODUCER))
        return False


class SampleTimedSubscriber(SampleSubscriber[T], Generic[T]):
    __slots__ = ("period", "scheduler", "timer")

    def __init__(self, downstream: Subscriber[T], period: float, scheduler: Scheduler,
                 emit_last: bool) -> None:
        super().__init__(downstream, emit_last)
        self.period = period
        self.scheduler = scheduler
        self.timer: AtomicReference[Any] = AtomicReference()

    def start_timer(self) -> bool:
        if self.cancelled:
            return False
        DisposableHelper.replace(self.timer, self.scheduler.schedule_periodically_direct(
            self.tick, self.period, self.period))
        return True

    def stop_timer(self) -> None:
        DisposableHelper.dispose(self.timer)
