"""Flowable.skip_last: all but the last ``n`` items.

The latest ``n`` items wait in a buffer; each new item releases the oldest one.
The buffered items are paid for once, up front: the first downstream
``request(k)`` asks upstream for ``k + n`` (capped); later requests pass through.
"""

from __future__ import annotations

from collections import deque
from typing import Generic, TypeVar

from rxpy2.flowable import Flowable
from rxpy2.internal.atomic import AtomicBoolean
from rxpy2.internal.fuseable import HasUpstreamPublisher
from rxpy2.internal.helpers.backpressure_helper import BackpressureHelper
from rxpy2.internal.helpers.subscription_helper import SubscriptionHelper
from rxpy2.observers import FlowableSubscriber
from rxpy2.reactivestreams import Publisher, Subscriber, Subscription

__all__ = ["FlowableSkipLast"]

T = TypeVar("T")


class FlowableSkipLast(Flowable[T], HasUpstreamPublisher[T], Generic[T]):
    __slots__ = ("source", "n")

    def __init__(self, source: Publisher[T], n: int) -> None:
        self.source = source
        self.n = n

    def subscribe_actual(self, subscriber: Subscriber[T]) -> None:
        self.source.subscribe(SkipLastSubscriber(subscriber, self.n))


class SkipLastSubscriber(FlowableSubscriber[T], Subscription, Generic[T]):
    __slots__ = ("downstream", "n", "buffer", "first_request", "upstream")

    def __init__(self, downstream: Subscriber[T], n: int) -> None:
        self.downstream = downstream
        self.n = n
        self.buffer: deque[T] = deque()
        self.first_request = AtomicBoolean(True)
        self.upstream: Subscription | None = None

    def on_subscribe(self, s: Subscription) -> None:
        if SubscriptionHelper.validate(self.upstream, s):
            self.upstream = s
            self.downstream.on_subscribe(self)

    def on_next(self, item: T) -> None:
        b = self.buffer
        b.append(item)
        if len(b) > self.n:
            self.downstream.on_next(b.popleft())

    def on_error(self, error: BaseException) -> None:
        self.buffer.clear()
        self.downstream.on_error(error)

    def on_complete(self) -> None:
        self.buffer.clear()
        self.downstream.on_complete()

    def request(self, n: int) -> None:
        if SubscriptionHelper.validate_request(n):
            first = self.first_request
            if first.get() and first.compare_and_set(True, False):
                n = BackpressureHelper.add_cap(n, self.n)
            self.upstream.request(n)  # type: ignore[union-attr]

    def cancel(self) -> None:
        self.upstream.cancel()  # type: ignore[union-attr]
