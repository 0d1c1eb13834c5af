"""Flowable.throttle_latest: emit an item, then at most one (the latest) per ``timeout``.

The first item is emitted at once and starts a timer; items arriving while it
runs only replace the latest one, which the timer emits when it fires (and that
emission starts the timer again). When the timer fires with nothing waiting,
the next item is emitted at once. On completion the item still waiting is
emitted when ``emit_last``. Upstream items and timer firings meet in a drain
loop run by the owner of a :class:`Drain`, so emissions never overlap and none
is made under a lock; a terminal signal or a cancel keeps the drain for good. The upstream is requested
without bound; an emission without downstream demand fails the stream with
``MissingBackpressureException``.
"""

from __future__ import annotations

from typing import Generic
from typing import TypeVar

from rxpy2._internal.fuseable import HasUpstreamPublisher
from rxpy2._internal.operators.flowable._timed_common import TimedDrainSubscriber
from rxpy2._internal.subscribers.drain_support import DrainTerminalsMixin
from rxpy2.flowable import Flowable
from rxpy2.operator_kit import AtomicReference
from rxpy2.operator_kit import MissingBackpressureException
from rxpy2.operator_kit import null_item
from rxpy2.operator_kit import subscribe_tail
from rxpy2.reactivestreams import Publisher
from rxpy2.reactivestreams import Subscriber
from rxpy2.schedulers.scheduler import Scheduler
from rxpy2.schedulers.scheduler import Worker

__all__ = ["FlowableThrottleLatest"]

T = TypeVar("T")


class FlowableThrottleLatest(Flowable[T], HasUpstreamPublisher[T], Generic[T]):
    """``throttle_latest``: the upstream is requested without bound.

    Backpressure: the timer cannot be slowed down; it signals
    ``MissingBackpressureException`` when an item is due and the downstream has not
    requested it: add ``on_backpressure_latest()`` (or buffer/drop) after it."""

    __slots__ = ("source", "timeout_time", "scheduler", "emit_last")

    def __init__(self, source: Publisher[T], timeout: float, scheduler: Scheduler,
                 emit_last: bool) -> None:
        self.source = source
        self.timeout_time = timeout
        self.scheduler = scheduler
        self.emit_last = emit_last

    def subscribe_actual(self, subscriber: Subscriber[T]) -> None:
        subscribe_tail(self.source, ThrottleLatestSubscriber(
            subscriber, self.timeout_time, self.scheduler.create_worker(), self.emit_last))


class ThrottleLatestSubscriber(DrainTerminalsMixin, TimedDrainSubscriber[T, T], Generic[T]):
    __slots__ = ("timeout", "worker", "emit_last", "latest", "emitted", "timer_fired",
                 "timer_running")

    def __init__(self, downstream: Subscriber[T], timeout: float, worker: Worker,
                 emit_last: bool) -> None:
        super().__init__(downstream)
        self.timeout = timeout
        self.worker = worker
        self.emit_last = emit_last
        self.latest: AtomicReference[T] = AtomicReference()
        self.emitted = 0
        self.timer_fired = False
        self.timer_running = False

    def on_next(self, item: T) -> None:
        if item is None:
            raise null_item()  # §2.13
        self.latest.set(item)
        self.drain()

    def _tick(self) -> None:
        self.timer_fired = True
        self.drain()

    def cancel_upstream(self) -> None:
        self.upstream.cancel()
        self.worker.dispose()

    def cleanup(self) -> None:
        self.latest.set(None)

    def _fail_mbe(self) -> None:
        self.fail_for_lack_of_requests(
            MissingBackpressureException.lack_of_requests("throttle_latest"))

    def drain(self) -> None:
        gate = self.gate
        if not gate.enter():
            return  # the owner makes another pass
        latest = self.latest
        a = self.downstream
        while True:
            while True:
                if self.cancelled:
                    latest.set(None)
                    return
                d = self.done
                if d and self.error is not None:
                    latest.set(None)
                    a.on_error(self.error)
                    self.worker.dispose()
                    return
                empty = latest.get() is None
                if d:
                    if not empty and self.emit_last:
                        v = latest.get_and_set(None)
                        if self.emitted != self.requested.get():
                            self.emitted += 1
                            a.on_next(v)
                            a.on_complete()
                            self.worker.dispose()
                        else:
                            self._fail_mbe()
                        return
                    latest.set(None)
                    a.on_complete()
                    self.worker.dispose()
                    return
                if empty:
                    if self.timer_fired:
                        self.timer_running = False
                        self.timer_fired = False
                    break
                if not self.timer_running or self.timer_fired:
                    v = latest.get_and_set(None)
                    if self.emitted != self.requested.get():
                        self.emitted += 1
                        a.on_next(v)
                    else:
                        self._fail_mbe()
                        return
                    self.timer_fired = False
                    self.timer_running = True
                    self.worker.schedule(self._tick, self.timeout)
                else:
                    break
            if not gate.leave():
                return
