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
from rxpy2.operators import OperatorSubscriber, null_error, null_item
from rxpy2.reactivestreams import Publisher, Subscriber

__all__ = ["FlowableSkip"]

T = TypeVar("T")


class FlowableSkip(Flowable[T], HasUpstreamPublisher[T], Generic[T]):
    __slots__ = ("source", "n")

    def __init__(self, source: Publisher[T], n: int) -> None:
        self.source = source
        self.n = n

    def subscribe_actual(self, subscriber: Subscriber[T]) -> None:
        subscribe_tail(self.source, SkipSubscriber(subscriber, self.n))


class SkipSubscriber(OperatorSubscriber[T, T], Generic[T]):
    __slots__ = ("n", "remaining", "first_request")

    def __init__(self, downstream: Subscriber[T], n: int) -> None:
        super().__init__(downstream)
        self.n = n
        self.remaining = n
        self.first_request = AtomicBoolean(True)

    def on_next(self, item: T) -> None:
        if item is None:
            raise null_item()  # §2.13
        r = self.remaining
        if r != 0:
            self.remaining = r - 1
        else:
            self.downstream.on_next(item)

    def on_error(self, error: BaseException) -> None:
        if error is None:
            raise null_error()  # §2.13
        self.downstream.on_error(error)

    def on_complete(self) -> None:
        self.downstream.on_complete()

    def request(self, n: int) -> None:
        if SubscriptionHelper.validate_request(n):
            first = self.first_request
            if first.get() and first.compare_and_set(True, False):
                n = BackpressureHelper.add_cap(n, self.n)
            self.upstream.request(n)
