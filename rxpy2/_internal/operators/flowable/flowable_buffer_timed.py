"""Flowable.buffer_time: collections of the items of each ``timespan``, or of at most ``count`` items.

Two subscribers, as RxJava's ``FlowableBufferTimed``: exact (``timeskip == timespan``,
optionally bounded by ``count``) and skip (overlapping collections or gaps). The upstream
is requested without bound; a collection without downstream demand fails the stream with
``MissingBackpressureException``. The threads only swap collections under a short lock;
emission is by the owner of a :class:`Drain`. :class:`BufferExactSubscriberBase` is also
``buffer(boundary)``'s.

How: docs/schedulers.md, "Inside buffer_time".
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable
from functools import partial
from typing import Any
from typing import ClassVar
from typing import Generic
from typing import TypeVar

from rxpy2 import plugins
from rxpy2._internal.fuseable import HasUpstreamPublisher
from rxpy2._internal.operators.flowable._buffer_common import add_item
from rxpy2._internal.operators.flowable._buffer_common import new_buffer
from rxpy2._internal.operators.flowable._timed_common import TimedDrainSubscriber
from rxpy2._internal.subscriptions.empty import EmptySubscription
from rxpy2.flowable import Flowable
from rxpy2.operator_kit import MissingBackpressureException
from rxpy2.operator_kit import null_error
from rxpy2.operator_kit import null_item
from rxpy2.operator_kit import produced
from rxpy2.operator_kit import subscribe_tail
from rxpy2.reactivestreams import Publisher
from rxpy2.reactivestreams import Subscriber
from rxpy2.schedulers.scheduler import Scheduler
from rxpy2.schedulers.scheduler import Worker

__all__ = ["FlowableBufferTimed"]

T = TypeVar("T")


class FlowableBufferTimed(Flowable[Any], HasUpstreamPublisher[T], Generic[T]):
    """``buffer_time``: the upstream is requested without bound.

    Backpressure: the timer cannot be slowed down; it signals
    ``MissingBackpressureException`` when a collection is due (timer or ``count``)
    and the downstream has not requested it: add ``on_backpressure_buffer()`` (or
    drop/latest) after it, or request more."""

    __slots__ = ("source", "timespan", "timeskip", "scheduler", "max_size", "restart",
                 "buffer_factory")

    def __init__(self, source: Publisher[T], timespan: float, scheduler: Scheduler,
                 count: int | None, timeskip: float | None = None, restart: bool = False,
                 buffer_factory: Callable[[], Any] = list) -> None:
        self.source = source
        self.timespan = timespan
        self.timeskip = timespan if timeskip is None else timeskip
        self.scheduler = scheduler
        self.max_size = count
        self.restart = restart
        self.buffer_factory = buffer_factory

    def subscribe_actual(self, subscriber: Subscriber[Any]) -> None:
        worker = self.scheduler.create_worker()
        s: BufferDrainSubscriber[T]
        if self.timeskip == self.timespan:
            s = BufferExactTimedSubscriber(subscriber, self.buffer_factory, self.timespan,
                                           worker, self.max_size, self.restart)
        else:
            s = BufferSkipTimedSubscriber(subscriber, self.buffer_factory, self.timespan,
                                          self.timeskip, worker)
        subscribe_tail(self.source, s)


class BufferDrainSubscriber(TimedDrainSubscriber[T, Any], Generic[T]):
    """The queue, the drain and the terminal signals; a subclass keeps the open
    collections (:meth:`open_initial`, :meth:`close_all`, ``on_next``) and the
    producer of the closings (``start_timer``, :meth:`stop_signals`).
    ``done``/``error`` are the upstream's terminal signal."""

    __slots__ = ("factory", "lock", "queue")

    OPERATOR: ClassVar[str] = "buffer_time"
    PRODUCER: ClassVar[str] = "the timer"

    def __init__(self, downstream: Subscriber[Any], factory: Callable[[], Any]) -> None:
        super().__init__(downstream)
        self.factory = factory
        self.lock = threading.Lock()  # guards the open collections and queue; nothing is signalled under it
        self.queue: deque[Any] = deque()

    def make(self) -> Any:
        return new_buffer(self.factory, self.OPERATOR)

    def open_initial(self) -> None:
        """Open the first collection(s) (the factory may raise)."""
        raise NotImplementedError

    def close_all(self) -> list[Any] | None:
        """Under ``lock``: take the open collections (oldest first) and accept no more
        items; None if that happened already (terminal signal or cancel)."""
        raise NotImplementedError

    def stop_signals(self) -> None:
        """Stop what closes collections (the timer, the boundary)."""
        raise NotImplementedError

    def on_start(self) -> bool:
        try:
            self.open_initial()
        except Exception as ex:
            self.cancelled = True
            self.done = True
            self.upstream.cancel()
            self.stop_signals()
            EmptySubscription.error(ex, self.downstream)
            return False
        return super().on_start()

    def on_error(self, error: BaseException) -> None:
        if error is None:
            raise null_error()  # §2.13
        self.stop_signals()
        with self.lock:
            done = self.done
            live = not done and self.close_all() is not None
            if live:
                self.error = error
                self.done = True
        if done:
            plugins.on_error(error)  # never lost
        elif live:
            self.drain()
        # else cancelled by the downstream: dropped

    def on_complete(self) -> None:
        self.stop_signals()
        with self.lock:
            if self.done:
                return
            bs = self.close_all()
            if bs is None:
                return
            self.queue.extend(bs)  # the last ones, even empty (as RxJava)
            self.done = True
        self.drain()

    def cancel_upstream(self) -> None:
        self.upstream.cancel()
        self.stop_signals()
        with self.lock:
            self.close_all()

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
                    q.clear()  # an error drops the collections still waiting
                    a.on_error(self.error)
                    return
                if requested.get() != 0:
                    a.on_next(b)
                    produced(requested, 1)
                else:
                    self.done = True  # a later upstream error goes to plugins.on_error
                    self.fail_for_lack_of_requests(MissingBackpressureException.lack_of_requests(
                        self.OPERATOR, "a buffer", self.PRODUCER))
                    return
            if not gate.leave():
                return


class BufferExactSubscriberBase(BufferDrainSubscriber[T], Generic[T]):
    """One open collection (``buffer``), swapped for a new one by :meth:`swap` or when
    it holds ``count`` items. ``pending``: a full one was closed and its successor is
    being made (a swap meanwhile is skipped, as RxJava's producer/consumer index)."""

    __slots__ = ("count", "buffer", "pending", "generation")

    def __init__(self, downstream: Subscriber[Any], factory: Callable[[], Any],
                 count: int | None) -> None:
        super().__init__(downstream, factory)
        self.count = count
        self.buffer: Any = None
        self.pending = False
        self.generation = 0  # swap(generation) from an outdated timer is ignored

    def open_initial(self) -> None:
        self.buffer = self.make()

    def close_all(self) -> list[Any] | None:
        b = self.buffer
        live = b is not None or self.pending
        self.buffer = None
        self.pending = False
        if b is not None:
            return [b]
        return [] if live else None

    def swap(self, generation: int | None = None) -> None:
        """Close the open collection (the timer's tick, a boundary item) and open a new one."""
        try:
            nxt = self.make()
        except Exception as ex:
            self.fail(ex)
            return
        with self.lock:
            b = self.buffer
            if b is None or (generation is not None and generation != self.generation):
                return
            self.buffer = nxt
            self.queue.append(b)
        self.drain()

    def on_next(self, item: T) -> None:
        if item is None:
            raise null_item()  # §2.13
        with self.lock:
            b = self.buffer
            if b is None:
                return
            add_item(b, item)
            c = self.count
            if c is None or len(b) < c:
                return
            self.buffer = None
            self.pending = True
            self.generation += 1
            self.queue.append(b)
        self.full_closed()
        self.drain()
        try:
            nxt = self.make()
        except Exception as ex:
            self.fail(ex)
            return
        with self.lock:
            if not self.pending:
                return  # terminated or cancelled meanwhile
            self.pending = False
            self.buffer = nxt
            generation = self.generation
        self.full_replaced(generation)

    def full_closed(self) -> None:
        """A collection was closed for holding ``count`` items."""

    def full_replaced(self, generation: int) -> None:
        """Its successor is open (``generation``: the current one)."""


class BufferExactTimedSubscriber(BufferExactSubscriberBase[T], Generic[T]):
    __slots__ = ("timespan", "worker", "restart", "timer")

    def __init__(self, downstream: Subscriber[Any], factory: Callable[[], Any], timespan: float,
                 worker: Worker, count: int | None, restart: bool) -> None:
        super().__init__(downstream, factory, count)
        self.timespan = timespan
        self.worker = worker
        self.restart = restart
        self.timer: Any = None

    def start_timer(self) -> bool:
        if self.cancelled:
            return False
        self._schedule(0 if self.restart else None)
        return True

    def _schedule(self, generation: int | None) -> None:
        ts = self.timespan
        self.timer = self.worker.schedule_periodically(partial(self.swap, generation), ts, ts)

    def full_closed(self) -> None:
        if self.restart:
            t = self.timer
            if t is not None:
                t.dispose()  # the old timer's ticks are also outdated by the generation

    def full_replaced(self, generation: int) -> None:
        if self.restart:
            self._schedule(generation)

    def stop_signals(self) -> None:
        self.worker.dispose()


class BufferSkipTimedSubscriber(BufferDrainSubscriber[T], Generic[T]):
    """``buffers``: the open collections, oldest first (None once terminated or cancelled)."""

    __slots__ = ("timespan", "timeskip", "worker", "buffers")

    def __init__(self, downstream: Subscriber[Any], factory: Callable[[], Any], timespan: float,
                 timeskip: float, worker: Worker) -> None:
        super().__init__(downstream, factory)
        self.timespan = timespan
        self.timeskip = timeskip
        self.worker = worker
        self.buffers: list[Any] | None = []

    def open_initial(self) -> None:
        self.buffers = [self.make()]

    def close_all(self) -> list[Any] | None:
        bs = self.buffers
        self.buffers = None
        return bs

    def start_timer(self) -> bool:
        if self.cancelled:
            return False
        bs = self.buffers
        if bs:
            self.worker.schedule(partial(self._close, bs[0]), self.timespan)
        self.worker.schedule_periodically(self._open, self.timeskip, self.timeskip)
        return True

    def stop_signals(self) -> None:
        self.worker.dispose()

    def _open(self) -> None:
        if self.cancelled:
            return
        try:
            b = self.make()
        except Exception as ex:
            self.fail(ex)
            return
        with self.lock:
            bs = self.buffers
            if bs is None:
                return
            bs.append(b)
        self.worker.schedule(partial(self._close, b), self.timespan)

    def _close(self, b: Any) -> None:
        with self.lock:
            bs = self.buffers
            if bs is None:
                return  # emitted by the terminal signal, or dropped
            for i, x in enumerate(bs):
                if x is b:  # by identity: two empty lists are equal
                    del bs[i]
                    break
            else:
                return
            self.queue.append(b)
        self.drain()

    def on_next(self, item: T) -> None:
        if item is None:
            raise null_item()  # §2.13
        with self.lock:
            bs = self.buffers
            if bs is None:
                return
            for b in bs:
                add_item(b, item)
