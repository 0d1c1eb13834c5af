"""Flowable.skip_until: drops items until another Publisher signals an item (or completes).

The ``other`` Publisher is subscribed first (with an unbounded request), then
the main source. Its first item opens the gate and cancels it; its completion
opens the gate too; its error cancels the main source and is signalled. Items
dropped while the gate is shut are replaced by ``request(1)`` upstream, or, to
a conditional upstream, answered with ``try_on_next(item) -> False``. Main and
other may signal from different threads: delivery is half-serialized.
"""

from __future__ import annotations

from typing import Any, Generic, TypeVar

from rxpy2.flowable import Flowable
from rxpy2.internal.atomic import AtomicInteger, AtomicLong, AtomicReference
from rxpy2.internal.fuseable import ConditionalSubscriber, HasUpstreamPublisher
from rxpy2.internal.helpers.exception_helper import AtomicThrowable
from rxpy2.internal.helpers.half_serializer import HalfSerializer
from rxpy2.internal.helpers.subscription_helper import SubscriptionHelper
from rxpy2.observers import FlowableSubscriber
from rxpy2.reactivestreams import LONG_MAX, Publisher, Subscriber, Subscription

__all__ = ["FlowableSkipUntil"]

T = TypeVar("T")


class FlowableSkipUntil(Flowable[T], HasUpstreamPublisher[T], Generic[T]):
    __slots__ = ("source", "other")

    def __init__(self, source: Publisher[T], other: Publisher[Any]) -> None:
        self.source = source
        self.other = other

    def subscribe_actual(self, subscriber: Subscriber[T]) -> None:
        parent = SkipUntilMainSubscriber(subscriber)
        subscriber.on_subscribe(parent)
        self.other.subscribe(parent.other)
        self.source.subscribe(parent)


class SkipUntilMainSubscriber(ConditionalSubscriber[T], Subscription, Generic[T]):
    __slots__ = ("downstream", "upstream", "requested", "wip", "error", "other", "gate")

    def __init__(self, downstream: Subscriber[T]) -> None:
        self.downstream = downstream
        self.upstream: AtomicReference[Subscription] = AtomicReference()
        self.requested = AtomicLong()
        self.wip = AtomicInteger()
        self.error = AtomicThrowable()
        self.other = SkipUntilOtherSubscriber(self)
        self.gate = False

    def on_subscribe(self, s: Subscription) -> None:
        SubscriptionHelper.deferred_set_once(self.upstream, self.requested, s)

    def on_next(self, item: T) -> None:
        if not self.try_on_next(item):
            self.upstream.get().request(1)  # type: ignore[union-attr]

    def try_on_next(self, item: T) -> bool:
        if self.gate:
            HalfSerializer.on_next(self.downstream, item, self.wip, self.error)
            return True
        return False

    def on_error(self, error: BaseException) -> None:
        SubscriptionHelper.cancel(self.other.upstream)
        HalfSerializer.on_error(self.downstream, error, self.wip, self.error)

    def on_complete(self) -> None:
        SubscriptionHelper.cancel(self.other.upstream)
        HalfSerializer.on_complete(self.downstream, self.wip, self.error)

    def request(self, n: int) -> None:
        SubscriptionHelper.deferred_request(self.upstream, self.requested, n)

    def cancel(self) -> None:
        SubscriptionHelper.cancel(self.upstream)
        SubscriptionHelper.cancel(self.other.upstream)


class SkipUntilOtherSubscriber(FlowableSubscriber[Any]):
    __slots__ = ("parent", "upstream")

    def __init__(self, parent: SkipUntilMainSubscriber[Any]) -> None:
        self.parent = parent
        self.upstream: AtomicReference[Subscription] = AtomicReference()

    def on_subscribe(self, s: Subscription) -> None:
        SubscriptionHelper.set_once_request(self.upstream, s, LONG_MAX)

    def on_next(self, item: Any) -> None:
        self.parent.gate = True
        SubscriptionHelper.cancel(self.upstream)

    def on_error(self, error: BaseException) -> None:
        p = self.parent
        SubscriptionHelper.cancel(p.upstream)
        HalfSerializer.on_error(p.downstream, error, p.wip, p.error)

    def on_complete(self) -> None:
        self.parent.gate = True
