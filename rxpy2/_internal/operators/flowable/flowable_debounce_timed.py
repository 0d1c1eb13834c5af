"""Flowable.debounce: an item is emitted only after ``timeout`` seconds without a newer one.

Each item gets an index and a delayed emitter task on a worker; a newer item
disposes the pending task, and an emitter whose index is no longer the latest
does nothing. On completion the item still waiting is emitted at once, then
completion. The upstream is requested without bound; an item due for emission
without downstream demand fails the stream with ``MissingBackpressureException``.

RxJava serializes the emitters (on the worker) and the terminal signal (on the
upstream's thread) with a ``SerializedSubscriber``; here a due emitter is
appended to ``ready`` (by its timer, and by the completion for the one still
pending) and whoever owns the :class:`Drain` emits it (once: its ``ran``
flag), then the terminal signal, never under a lock. A terminal signal or a
cancel keeps the drain for good.
"""

from __future__ import annotations

from collections import deque
from typing import Generic
from typing import TypeVar

from rxpy2._internal.fuseable import HasUpstreamPublisher
from rxpy2._internal.operators.flowable._timed_common import TimedDrainSubscriber
from rxpy2._internal.subscribers.drain_support import DrainTerminalsMixin
from rxpy2.disposables import SerialDisposable
from rxpy2.flowable import Flowable
from rxpy2.operator_kit import MissingBackpressureException
from rxpy2.operator_kit import produced
from rxpy2.operator_kit import subscribe_tail
from rxpy2.reactivestreams import Publisher
from rxpy2.reactivestreams import Subscriber
from rxpy2.schedulers.scheduler import Scheduler
from rxpy2.schedulers.scheduler import Worker

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
    """The delayed emission of one item; the drain emits it at most once (``ran``: only
    the drain's owner reads and writes it, so a plain flag)."""

    __slots__ = ("value", "idx", "parent", "ran")

    def __init__(self, value: T, idx: int, parent: DebounceTimedSubscriber[T]) -> None:
        self.value = value
        self.idx = idx
        self.parent = parent
        self.ran = False

    def __call__(self) -> None:
        self.parent.fire(self)


class DebounceTimedSubscriber(DrainTerminalsMixin, TimedDrainSubscriber[T, T], Generic[T]):
    """``index``/``pending``/``done`` are the upstream's (one thread); ``ready`` holds the
    emitters whose item is due, ``error`` the upstream's error, both read by the drain."""

    __slots__ = ("timeout", "worker", "timer", "index", "pending", "ready")

    def __init__(self, downstream: Subscriber[T], timeout: float, worker: Worker) -> None:
        super().__init__(downstream)
        self.timeout = timeout
        self.worker = worker
        self.timer = SerialDisposable()
        self.index = 0
        self.pending: DebounceEmitter[T] | None = None
        self.ready: deque[DebounceEmitter[T]] = deque()

    def hook_on_next(self, item: T) -> None:
        idx = self.index + 1
        self.index = idx
        d = self.timer.get()
        if d is not None:
            d.dispose()
        de = DebounceEmitter(item, idx, self)
        self.pending = de
        self.timer.replace(self.worker.schedule(de, self.timeout))

    def fire(self, de: DebounceEmitter[T]) -> None:
        """The quiet period of ``de`` ended (on the worker)."""
        if de.idx == self.index:
            self.ready.append(de)
            self.drain()

    def on_error(self, error: BaseException) -> None:
        if error is not None and not self.done:
            self.worker.dispose()  # no quiet period ends any more
        super().on_error(error)  # §2.13; recorded for the drain (a second one: plugins)

    def on_complete(self) -> None:
        if not self.done:
            self.worker.dispose()
            de = self.pending
            if de is not None:  # emitted now unless its timer claims it first
                self.ready.append(de)
        super().on_complete()

    def cancel_upstream(self) -> None:
        self.upstream.cancel()
        self.worker.dispose()

    def cleanup(self) -> None:
        self.ready.clear()

    def drain(self) -> None:
        gate = self.gate
        if not gate.enter():
            return  # the owner makes another pass
        ready = self.ready
        a = self.downstream
        requested = self.requested
        while True:
            while True:
                if self.cancelled:
                    ready.clear()
                    return  # keeps the drain
                d = self.done
                e = self.error
                if e is not None:
                    ready.clear()  # an error jumps the queue (as SerializedSubscriber)
                    a.on_error(e)
                    return
                try:
                    de = ready.popleft()
                except IndexError:
                    if d:
                        a.on_complete()
                        return  # keeps the drain
                    break
                if de.ran:
                    continue  # appended by both its timer and the completion: emitted once
                de.ran = True
                if requested.get() != 0:
                    a.on_next(de.value)
                    produced(requested, 1)
                else:
                    self.done = True  # a later upstream signal is dropped (an error: plugins)
                    self.fail_for_lack_of_requests(
                        MissingBackpressureException.lack_of_requests("debounce"))
                    return
            if not gate.leave():
                return
