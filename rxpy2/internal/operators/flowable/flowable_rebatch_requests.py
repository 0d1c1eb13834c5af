"""Flowable.rebatch_requests(n): request from upstream in a stable pattern.

Whatever the downstream requests (little, much or unbounded), the upstream
sees ``request(n)`` first and then ``request(n - n // 4)`` each time that many
items went downstream (the operator guide's stable-prefetch queue-drain). The
items in between wait in a bounded queue of ``n``; an item the upstream sends
beyond its requests finds the queue full and ends the stream with a
:class:`MissingBackpressureException`. Errors are not delayed: an error
overtakes the queued items. Cancelling clears the queue.
"""

from __future__ import annotations

from typing import Generic, TypeVar

from rxpy2 import plugins
from rxpy2.exceptions import MissingBackpressureException
from rxpy2.flowable import Flowable
from rxpy2.internal.atomic import AtomicInteger, AtomicLong
from rxpy2.internal.fuseable import HasUpstreamPublisher
from rxpy2.internal.helpers.backpressure_helper import BackpressureHelper
from rxpy2.internal.helpers.subscription_helper import SubscriptionHelper
from rxpy2.internal.queues import SpscArrayQueue
from rxpy2.observers import FlowableSubscriber
from rxpy2.reactivestreams import LONG_MAX, Publisher, Subscriber, Subscription

__all__ = ["FlowableRebatchRequests"]

T = TypeVar("T")


class FlowableRebatchRequests(Flowable[T], HasUpstreamPublisher[T], Generic[T]):
    __slots__ = ("source", "n")

    def __init__(self, source: Publisher[T], n: int) -> None:
        self.source = source
        self.n = n

    def subscribe_actual(self, subscriber: Subscriber[T]) -> None:
        self.source.subscribe(RebatchRequestsSubscriber(subscriber, self.n))


class RebatchRequestsSubscriber(FlowableSubscriber[T], Subscription, Generic[T]):
    __slots__ = ("downstream", "upstream", "batch_size", "limit", "queue", "requested",
                 "wip", "done", "error", "cancelled", "emitted")

    def __init__(self, downstream: Subscriber[T], batch_size: int) -> None:
        self.downstream = downstream
        self.upstream: Subscription | None = None
        self.batch_size = batch_size
        self.limit = batch_size - (batch_size >> 2)  # replenish after 75% went out
        self.queue: SpscArrayQueue[T] = SpscArrayQueue(batch_size)
        self.requested = AtomicLong()
        self.wip = AtomicInteger()
        self.done = False
        self.error: BaseException | None = None
        self.cancelled = False
        self.emitted = 0  # items emitted since the last replenishing request (drain only)

    def on_subscribe(self, s: Subscription) -> None:
        if SubscriptionHelper.validate(self.upstream, s):
            self.upstream = s
            self.downstream.on_subscribe(self)
            s.request(self.batch_size)

    def on_next(self, item: T) -> None:
        if self.done:
            return
        if not self.queue.offer(item):
            self.upstream.cancel()  # type: ignore[union-attr]
            self.on_error(MissingBackpressureException(
                "Queue is full?! The upstream emitted more than it was asked for"))
            return
        self.drain()

    def on_error(self, error: BaseException) -> None:
        if self.done:
            plugins.on_error(error)
            return
        self.error = error
        self.done = True
        self.drain()

    def on_complete(self) -> None:
        if self.done:
            return
        self.done = True
        self.drain()

    def request(self, n: int) -> None:
        if SubscriptionHelper.validate_request(n):
            BackpressureHelper.add(self.requested, n)
            self.drain()

    def cancel(self) -> None:
        if self.cancelled:
            return
        self.cancelled = True
        self.upstream.cancel()  # type: ignore[union-attr]
        if self.wip.get_and_increment() == 0:  # nobody drains: the queue is ours to clear
            self.queue.clear()

    def drain(self) -> None:
        if self.wip.get_and_increment() != 0:
            return
        missed = 1
        a = self.downstream
        q = self.queue
        poll = q.poll
        requested = self.requested
        wip = self.wip
        limit = self.limit
        f = self.emitted
        while True:
            r = requested.get()
            e = 0
            while e != r:
                if self.cancelled:
                    q.clear()
                    return
                d = self.done
                if d and self.error is not None:  # errors are not delayed
                    q.clear()
                    a.on_error(self.error)
                    return
                v = poll()
                if v is None:
                    if d:
                        a.on_complete()
                        return
                    break
                a.on_next(v)
                e += 1
                f += 1
                if f == limit:
                    f = 0
                    self.upstream.request(limit)  # type: ignore[union-attr]
            if e == r:
                if self.cancelled:
                    q.clear()
                    return
                if self.done:
                    ex = self.error
                    if ex is not None:
                        q.clear()
                        a.on_error(ex)
                        return
                    if q.is_empty():
                        a.on_complete()
                        return
            if e != 0 and r != LONG_MAX:
                BackpressureHelper.produced(requested, e)
            self.emitted = f
            missed = wip.add_and_get(-missed)
            if missed == 0:
                return
