"""Flowable.skip: drops the first ``n`` items.

The dropped items are paid for once, up front: the first downstream
``request(k)`` asks upstream for ``k + n`` (capped at ``LONG_MAX``); later
requests pass through unchanged.
"""

from __future__ import annotations

from typing import Generic, TypeVar

from rxpy2.flowable import Flowable
from rxpy2.internal.atomic import AtomicBoolean
from rxpy2.internal.fuseable import HasUpstreamPublisher
from rxpy2.internal.helpers.backpressure_helper import BackpressureHelper
from rxpy2.internal.helpers.subscribe_loop import subscribe_tail
from rxpy2.internal.helpers.subscription_helper import SubscriptionHelper
from rxpy2.observers import FlowableSubscriber
from rxpy2.reactivestreams import Publisher, Subscriber, Subscription

__all__ = ["FlowableSkip"]

T = TypeVar("T")


class FlowableSkip(Flowable[T], HasUpstreamPublisher[T], Generic[T]):
    __slots__ = ("source", "n")

    def __init__(self, source: Publisher[T], n: int) -> None:
        self.source = source
        self.n = n

    def subscribe_actual(self, subscriber: Subscriber[T]) -> None:
        subscribe_tail(self.source, SkipSubscriber(subscriber, self.n))


class SkipSubscriber(FlowableSubscriber[T], Subscription, Generic[T]):
    __slots__ = ("downstream", "n", "remaining", "first_request", "upstream")

    def __init__(self, downstream: Subscriber[T], n: int) -> None:
        self.downstream = downstream
        self.n = n
        self.remaining = n
        self.first_request = AtomicBoolean(True)
        self.upstream: Subscription | None = None

    def on_subscribe(self, s: Subscription) -> None:
        if SubscriptionHelper.validate(self.upstream, s):
            self.upstream = s
            self.downstream.on_subscribe(self)

    def on_next(self, item: T) -> None:
        r = self.remaining
        if r != 0:
            self.remaining = r - 1
        else:
            self.downstream.on_next(item)

    def on_error(self, error: BaseException) -> None:
        self.downstream.on_error(error)

    def on_complete(self) -> None:
        self.downstream.on_complete()

    def request(self, n: int) -> None:
        if SubscriptionHelper.validate_request(n):
            first = self.first_request
            if first.get() and first.compare_and_set(True, False):
                n = BackpressureHelper.add_cap(n, self.n)
            self.upstream.request(n)  # type: ignore[union-attr]

    def cancel(self) -> None:
        self.upstream.cancel()  # type: ignore[union-attr]
