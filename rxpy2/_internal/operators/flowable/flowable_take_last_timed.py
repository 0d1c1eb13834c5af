"""Flowable.take_last_time: the items of the last ``duration`` seconds before completion
(at most ``count`` of them), emitted after the upstream completes.

As RxJava 2's ``FlowableTakeLastTimed``: the upstream is consumed at once
(``request(LONG_MAX)``); each item is queued with the scheduler's ``now()`` and the
queue is trimmed at every item and at completion, dropping the items older than
``now - duration`` and, with a ``count``, the oldest beyond ``count``. The queue is
emitted after the completion under the downstream's demand, the completion right
after the last item. An error ends the stream at once (the queue dropped), or with
``delay_error`` after the items the error's trim kept.
"""

from __future__ import annotations

from typing import Generic
from typing import TypeVar

from rxpy2._internal.fuseable import HasUpstreamPublisher
from rxpy2._internal.helpers.subscribe_loop import subscribe_tail
from rxpy2._internal.queues import SpscLinkedArrayQueue
from rxpy2.flowable import Flowable
from rxpy2.operator_kit import AtomicLong
from rxpy2.operator_kit import Drain
from rxpy2.operator_kit import OperatorSubscriber
from rxpy2.operator_kit import add_request
from rxpy2.operator_kit import null_or_late_error
from rxpy2.operator_kit import null_or_late_item
from rxpy2.operator_kit import produced
from rxpy2.operator_kit import validate_request
from rxpy2.reactivestreams import LONG_MAX
from rxpy2.reactivestreams import Publisher
from rxpy2.reactivestreams import Subscriber
from rxpy2.schedulers.scheduler import Scheduler

__all__ = ["FlowableTakeLastTimed"]

T = TypeVar("T")


class FlowableTakeLastTimed(Flowable[T], HasUpstreamPublisher[T], Generic[T]):
    """``max_count`` is ``LONG_MAX`` for no bound on the number of items."""

    __slots__ = ("source", "max_count", "span", "scheduler", "chunk_size", "delay_error")

    def __init__(self, source: Publisher[T], max_count: int, span: float, scheduler: Scheduler,
                 buffer_size: int, delay_error: bool) -> None:
        self.source = source
        self.max_count = max_count
        self.span = span
        self.scheduler = scheduler
        self.chunk_size = buffer_size
        self.delay_error = delay_error

    def subscribe_actual(self, subscriber: Subscriber[T]) -> None:
        subscribe_tail(self.source, TakeLastTimedSubscriber(
            subscriber, self.max_count, self.span, self.scheduler, self.chunk_size,
            self.delay_error))


class TakeLastTimedSubscriber(OperatorSubscriber[T, T], Generic[T]):
    """``done``: the upstream terminated (``error`` its error); the drain emits under
    demand once it is set, and keeps the drain for good after the terminal signal."""

    __slots__ = ("max_count", "span", "scheduler", "queue", "delay_error", "requested",
                 "gate", "cancelled", "error")

    def __init__(self, downstream: Subscriber[T], max_count: int, span: float,
                 scheduler: Scheduler, buffer_size: int, delay_error: bool) -> None:
        super().__init__(downstream)
        self.max_count = max_count
        self.span = span
        self.scheduler = scheduler
        #: (timestamp, item) pairs, oldest first; ``buffer_size`` is its chunk size
        self.queue: SpscLinkedArrayQueue[tuple[float, T]] = SpscLinkedArrayQueue(buffer_size)
        self.delay_error = delay_error
        self.requested = AtomicLong()
        self.gate = Drain()
        self.cancelled = False
        self.error: BaseException | None = None

    def on_start(self) -> bool:
        self.downstream.on_subscribe(self)
        self.upstream.request(LONG_MAX)
        return False  # on_subscribe went downstream already (before the request)

    def on_next(self, item: T) -> None:
        if item is None or self.done:
            null_or_late_item(item)  # §2.13
            return
        now = self.scheduler.now()
        self.queue.offer((now, item))
        self._trim(now)

    def on_error(self, error: BaseException) -> None:
        if error is None or self.done:
            null_or_late_error(error)  # §2.13, §1.7
            return
        if self.delay_error:
            self._trim(self.scheduler.now())
        self.error = error
        self.done = True
        self.drain()

    def on_complete(self) -> None:
        if self.done:
            return
        self._trim(self.scheduler.now())
        self.done = True
        self.drain()

    def _trim(self, now: float) -> None:
        """Drop the items older than ``now - span`` and those beyond ``max_count``."""
        q = self.queue
        oldest_kept = now - self.span
        c = self.max_count
        bounded = c != LONG_MAX
        while True:
            head = q.peek()
            if head is None:
                return
            if head[0] < oldest_kept or (bounded and len(q) > c):
                q.poll()
            else:
                return

    def request(self, n: int) -> None:
        if n := validate_request(n):
            add_request(self.requested, n)
            self.drain()

    def cancel(self) -> None:
        if not self.cancelled:
            self.cancelled = True
            self.upstream.cancel()
            if self.gate.enter():
                self.queue.clear()  # no drain runs: drop the items (the drain stays taken)

    def drain(self) -> None:
        gate = self.gate
        if not gate.enter():
            return
        q = self.queue
        downstream = self.downstream
        while True:
            if self.done:  # before the upstream's end nothing goes out
                r = self.requested.get()
                e = 0
                while True:
                    if self._terminated(q.is_empty()):
                        return  # the drain stays taken: nothing more
                    if e == r:
                        break
                    pair = q.poll()
                    assert pair is not None  # (only this drain polls)
                    downstream.on_next(pair[1])
                    e += 1
                if e:
                    produced(self.requested, e)
            if not gate.leave():
                return

    def _terminated(self, empty: bool) -> bool:
        if self.cancelled:
            self.queue.clear()
            return True
        error = self.error
        if self.delay_error:
            if not empty:
                return False
        elif error is not None:
            self.queue.clear()
        elif not empty:
            return False
        if error is not None:
            self.downstream.on_error(error)
        else:
            self.downstream.on_complete()
        return True

    def __repr__(self) -> str:
        return f"{type(self).__name__}(queued={len(self.queue)}, done={self.done})"


