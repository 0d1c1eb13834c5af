"""Flowable.switch_if_empty: the items, or, if the upstream completes empty, those of ``other``.

A :class:`SubscriptionArbiter` (not cancelling on replace: the first upstream
has completed) stands between the two upstreams and the downstream, so the
demand not yet served by the empty first source carries over to ``other``.
"""

from __future__ import annotations

from typing import Generic
from typing import TypeVar

from rxpy2._internal.fuseable import HasUpstreamPublisher
from rxpy2._internal.helpers.subscribe_loop import subscribe_tail
from rxpy2._internal.subscribers.pass_through import PassThrough
from rxpy2._internal.subscriptions.arbiter import SubscriptionArbiter
from rxpy2.flowable import Flowable
from rxpy2.observers import FlowableSubscriber
from rxpy2.operator_kit import null_item
from rxpy2.operator_kit import null_subscription
from rxpy2.reactivestreams import Publisher
from rxpy2.reactivestreams import Subscriber
from rxpy2.reactivestreams import Subscription

__all__ = ["FlowableSwitchIfEmpty"]

T = TypeVar("T")


class FlowableSwitchIfEmpty(Flowable[T], HasUpstreamPublisher[T], Generic[T]):
    __slots__ = ("source", "other")

    def __init__(self, source: Publisher[T], other: Publisher[T]) -> None:
        self.source = source
        self.other = other

    def subscribe_actual(self, subscriber: Subscriber[T]) -> None:
        parent = SwitchIfEmptySubscriber(subscriber, self.other)
        subscriber.on_subscribe(parent)
        subscribe_tail(self.source, parent)


class SwitchIfEmptySubscriber(PassThrough, SubscriptionArbiter, FlowableSubscriber[T], Generic[T]):
    """Relays errors as they come (``PassThrough``); items and completion are its own."""

    def __init__(self, downstream: Subscriber[T], other: Publisher[T]) -> None:
        super().__init__(cancel_on_replace=False)
        self.downstream = downstream
        self.other = other
        self.empty = True

    def on_subscribe(self, s: Subscription) -> None:
        if s is None:
            raise null_subscription()  # §2.13
        self.set_subscription(s)

    def on_next(self, item: T) -> None:
        if item is None:
            raise null_item()  # §2.13
        self.empty = False
        self.downstream.on_next(item)

    def on_complete(self) -> None:
        if self.empty:
            self.empty = False  # other's completion ends the stream
            self.other.subscribe(self)
        else:
            self.downstream.on_complete()
