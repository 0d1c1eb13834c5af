"""Flowable.skip_last_time: all but the items of the last ``duration`` seconds before
the upstream terminates.

As RxJava 2's ``FlowableSkipLastTimed``: the upstream is consumed at once
(``request(LONG_MAX)``); each item is queued with the scheduler's ``now()``. An item
goes out, under the downstream's demand, once it is ``duration`` seconds old; that is
looked at only when something happens (an item, a request, the termination), against
the scheduler's ``now()`` then. At the termination the items not yet old enough are
dropped: the stream ends when the queue holds no old-enough item (after an error
without ``delay_error`` at once, the queue dropped). The termination is looked at on
every pass, demand or not, where RxJava 2 looks only under demand: a failed or
finished stream no longer waits for a request to say so (docs/rxjava-differences.md).
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
from rxpy2.reactivestreams import Publisher
from rxpy2.reactivestreams import Subscriber
from rxpy2.schedulers.scheduler import Scheduler

__all__ = ["FlowableSkipLastTimed"]

T = TypeVar("T")


class FlowableSkipLastTimed(Flowable[T], HasUpstreamPublisher[T], Generic[T]):
    __slots__ = ("source", "span", "scheduler", "chunk_size", "delay_error")

    def __init__(self, source: Publisher[T], span: float, scheduler: Scheduler,
                 buffer_size: int, delay_error: bool) -> None:
        self.source = source
        self.span = span
        self.scheduler = scheduler
        self.chunk_size = buffer_size
        self.delay_error = delay_error

    def subscribe_actual(self, subscriber: Subscriber[T]) -> None:
        subscribe_tail(self.source, SkipLastTimedSubscriber(
            subscriber, self.span, self.scheduler, self.chunk_size, self.delay_error))


class SkipLastTimedSubscriber(TimestampedQueueSubscriber[T], Generic[T]):
    """An item goes out once ``span`` seconds old, under demand."""

    __slots__ = ()

    def on_next(self, item: T) -> None:
        if item is None or self.done:
            null_or_late_item(item)  # §2.13
            return
        self.queue.offer((self.scheduler.now(), item))
        self.drain()

    def drain(self) -> None:
        gate = self.gate
        if not gate.enter():
            return
        q = self.queue
        downstream = self.downstream
        scheduler = self.scheduler
        span = self.span
        while True:
            r = self.requested.get()
            e = 0
            while True:
                done = self.done  # read before the queue: an item queued before the end counts
                head = q.peek()
                ready = head is not None and head[0] <= scheduler.now() - span
                if self.terminated(done, not ready):  # demand or not (unlike RxJava 2)
                    return  # the drain stays taken: nothing more
                if not ready or e == r:
                    break
                q.poll()
                assert head is not None
                downstream.on_next(head[1])
                e += 1
            if e:
                produced(self.requested, e)
            if not gate.leave():
                return
