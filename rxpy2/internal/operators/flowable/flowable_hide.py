"""Flowable.hide: hide the upstream's identity and Subscription.

The stage is a plain FlowableSubscriber and a plain Subscription: it is neither a
QueueSubscription nor a ConditionalSubscriber, so no fusion and no conditional
fast path crosses it, and the Flowable it returns is no ``Callable``.
"""

from __future__ import annotations

from typing import Generic, TypeVar

from rxpy2.flowable import Flowable
from rxpy2.internal.fuseable import HasUpstreamPublisher
from rxpy2.internal.helpers.subscribe_loop import subscribe_tail
from rxpy2.internal.helpers.subscription_helper import SubscriptionHelper
from rxpy2.observers import FlowableSubscriber
from rxpy2.reactivestreams import Publisher, Subscriber, Subscription

__all__ = ["FlowableHide"]

T = TypeVar("T")


class FlowableHide(Flowable[T], HasUpstreamPublisher[T], Generic[T]):
    __slots__ = ("source",)

    def __init__(self, source: Publisher[T]) -> None:
        self.source = source

    def subscribe_actual(self, subscriber: Subscriber[T]) -> None:
        subscribe_tail(self.source, HideSubscriber(subscriber))


class HideSubscriber(FlowableSubscriber[T], Subscription, Generic[T]):
    __slots__ = ("downstream", "upstream")

    def __init__(self, downstream: Subscriber[T]) -> None:
        self.downstream = downstream
        self.upstream: Subscription | None = None

    def on_subscribe(self, s: Subscription) -> None:
        if SubscriptionHelper.validate(self.upstream, s):
            self.upstream = s
            self.downstream.on_subscribe(self)

    def on_next(self, item: T) -> None:
        self.downstream.on_next(item)

    def on_error(self, error: BaseException) -> None:
        self.downstream.on_error(error)

    def on_complete(self) -> None:
        self.downstream.on_complete()

    def request(self, n: int) -> None:
        self.upstream.request(n)  # type: ignore[union-attr]

    def cancel(self) -> None:
        self.upstream.cancel()  # type: ignore[union-attr]
