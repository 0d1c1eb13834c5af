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
from rxpy2._internal.operators.flowable._timed_common import TimestampedQueueSubscriber
from rxpy2.flowable import Flowable
from rxpy2.operator_kit import null_or_late_item
from rxpy2.operator_kit import produced
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


class TakeLastTimedSubscriber(TimestampedQueueSubscriber[T], Generic[T]):
    """The queue is trimmed at every item and at the end; emitted once ``done``."""

    __slots__ = ("max_count",)

    def __init__(self, downstream: Subscriber[T], max_count: int, span: float,
                 scheduler: Scheduler, buffer_size: int, delay_error: bool) -> None:
        super().__init__(downstream, span, scheduler, buffer_size, delay_error)
        self.max_count = max_count

    def on_next(self, item: T) -> None:
        if item is None or self.done:
            null_or_late_item(item)  # §2.13
            return
        now = self.scheduler.now()
        self.queue.offer((now, item))
        self._trim(now)

    def at_end(self, error: BaseException | None) -> None:
        if error is None or self.delay_error:
            self._trim(self.scheduler.now())

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
                    if self.terminated(True, q.is_empty()):
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
