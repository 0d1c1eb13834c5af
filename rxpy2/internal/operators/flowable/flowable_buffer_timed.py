"""Flowable.buffer_time: lists of the items of each ``timespan``, or of at most ``count`` items.

A periodic timer emits the current list (possibly empty) every ``timespan``
seconds and starts a new one. With ``count``, a list that reaches ``count``
items is emitted at once and a new one started; the timer keeps its period. On
completion the current list is emitted, then completion; on error it is
dropped. The upstream is requested without bound; a list that finds no
downstream demand fails the stream with ``MissingBackpressureException``.

RxJava's queue-drain: the upstream's thread and the timer's only swap the
current list and append the full one to ``queue`` (under a short lock that
guards nothing else: the order of the queue is the order of the swaps); the
lists and the terminal signal are emitted by the owner of a :class:`Drain`,
never under a lock. A terminal signal or a cancel keeps the drain for good.
"""

from __future__ import annotations

import threading
from collections import deque
from typing import Generic, TypeVar

from rxpy2 import plugins
from rxpy2.flowable import Flowable
from rxpy2.internal.fuseable import HasUpstreamPublisher
from rxpy2.internal.operators.flowable._timed_common import TimedDrainSubscriber
from rxpy2.operators import (
    MissingBackpressureException,
    null_error,
    null_item,
    produced,
    subscribe_tail,
)
from rxpy2.reactivestreams import Publisher, Subscriber
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


class BufferTimedSubscriber(TimedDrainSubscriber[T, list[T]], Generic[T]):
    """``buffer`` is the current list (None once terminated or cancelled); ``queue`` the
    full lists waiting for the drain; ``done``/``error`` the upstream's terminal signal."""

    __slots__ = ("timespan", "worker", "count", "buffer", "lock", "queue")

    def __init__(self, downstream: Subscriber[list[T]], timespan: float, worker: Worker,
                 count: int | None) -> None:
        super().__init__(downstream)
        self.timespan = timespan
        self.worker = worker
        self.count = count
        self.buffer: list[T] | None = []
        self.lock = threading.Lock()  # guards buffer/queue swaps only; nothing is signalled under it
        self.queue: deque[list[T]] = deque()

    def start_timer(self) -> bool:
        if self.cancelled:
            return False
        ts = self.timespan
        self.worker.schedule_periodically(self._tick, ts, ts)
        return True

    def _tick(self) -> None:
        with self.lock:
            b = self.buffer
            if b is None:
                return
            self.buffer = []
            self.queue.append(b)
        self.drain()

    def on_next(self, item: T) -> None:
        if item is None:
            raise null_item()  # §2.13
        with self.lock:
            b = self.buffer
            if b is None:
                return
            b.append(item)
            c = self.count
            if c is None or len(b) < c:
                return
            self.buffer = []
            self.queue.append(b)
        self.drain()

    def on_error(self, error: BaseException) -> None:
        if error is None:
            raise null_error()  # §2.13
        self.worker.dispose()
        with self.lock:
            done = self.done
            live = not done and self.buffer is not None
            if live:
                self.buffer = None
                self.error = error
                self.done = True
        if done:
            plugins.on_error(error)  # never lost
        elif live:
            self.drain()
        # else cancelled by the downstream: dropped

    def on_complete(self) -> None:
        self.worker.dispose()
        with self.lock:
            b = self.buffer
            if self.done or b is None:
                return
            self.buffer = None
            self.queue.append(b)  # the last list, even an empty one (as RxJava)
            self.done = True
        self.drain()

    def cancel_upstream(self) -> None:
        self.upstream.cancel()
        self.worker.dispose()
        with self.lock:
            self.buffer = None

    def cleanup(self) -> None:
        self.queue.clear()

    def drain(self) -> None:
        gate = self.gate
        if not gate.enter():
            return  # the owner makes another pass
        q = self.queue
        a = self.downstream
        requested = self.requested
        while True:
            while True:
                if self.cancelled:
                    q.clear()
                    return  # keeps the drain
                d = self.done
                try:
                    b = q.popleft()
                except IndexError:
                    if d:
                        e = self.error
                        if e is not None:
                            a.on_error(e)
                        else:
                            a.on_complete()
                        return  # keeps the drain
                    break
                if d and self.error is not None:
                    q.clear()  # an error drops the lists still waiting
                    a.on_error(self.error)
                    return
                if requested.get() != 0:
                    a.on_next(b)
                    produced(requested, 1)
                else:
                    self.done = True  # a later upstream error goes to plugins.on_error
                    self.fail_for_lack_of_requests(MissingBackpressureException.lack_of_requests(
                        "buffer_time", "a buffer"))
                    return
            if not gate.leave():
                return
