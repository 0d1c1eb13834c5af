"""Flowable.take_until: items until another Publisher signals, or until a predicate holds.

:class:`FlowableTakeUntil`: the ``other`` Publisher is subscribed first (with an
unbounded request), then the main source. An item or completion from ``other``
cancels the main source and completes; an error from ``other`` cancels it and
is signalled. Main and other may signal from different threads: items and
terminal events are half-serialized (:class:`HalfSerializer` over a :class:`Drain`: a terminal signal that finds
an item going out is counted and delivered by the item's thread when it leaves), so no item follows the terminal
event and exactly one terminal event is delivered.

:class:`FlowableTakeUntilPredicate`: emits each item, then completes (cancelling
the upstream) after the first item for which ``stop_predicate`` returns true.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from typing import ClassVar
from typing import Generic
from typing import TypeVar

from rxpy2._internal.atomic import AtomicLong
from rxpy2._internal.atomic import AtomicReference
from rxpy2._internal.fuseable import HasUpstreamPublisher
from rxpy2._internal.helpers.exception_helper import AtomicThrowable
from rxpy2._internal.helpers.half_serializer import HalfSerializedItems
from rxpy2._internal.helpers.half_serializer import HalfSerializer
from rxpy2._internal.helpers.subscribe_loop import subscribe_tail
from rxpy2._internal.helpers.subscription_helper import SubscriptionHelper
from rxpy2._internal.subscribers.pass_through import DeferredUpstream
from rxpy2.flowable import Flowable
from rxpy2.observers import FlowableSubscriber
from rxpy2.operator_kit import Drain
from rxpy2.operator_kit import OperatorSubscriber
from rxpy2.operator_kit import null_error
from rxpy2.operator_kit import null_item
from rxpy2.operator_kit import null_or_late_item
from rxpy2.reactivestreams import LONG_MAX
from rxpy2.reactivestreams import Publisher
from rxpy2.reactivestreams import Subscriber
from rxpy2.reactivestreams import Subscription

__all__ = ["FlowableTakeUntil", "FlowableTakeUntilPredicate"]

T = TypeVar("T")


class FlowableTakeUntil(Flowable[T], HasUpstreamPublisher[T], Generic[T]):
    __slots__ = ("source", "other")

    def __init__(self, source: Publisher[T], other: Publisher[Any]) -> None:
        self.source = source
        self.other = other

    def subscribe_actual(self, subscriber: Subscriber[T]) -> None:
        parent = TakeUntilMainSubscriber(subscriber)
        subscriber.on_subscribe(parent)
        self.other.subscribe(parent.other)
        subscribe_tail(self.source, parent)


class TakeUntilOtherSubscriber(FlowableSubscriber[Any]):
    __slots__ = ("parent", "upstream")

    def __init__(self, parent: Any) -> None:
        self.parent = parent
        self.upstream: AtomicReference[Subscription] = AtomicReference()

    def on_subscribe(self, s: Subscription) -> None:
        SubscriptionHelper.set_once_request(self.upstream, s, LONG_MAX)

    def on_next(self, item: Any) -> None:
        if item is None:
            raise null_item()  # §2.13
        SubscriptionHelper.cancel(self.upstream)
        self.on_complete()

    def on_error(self, error: BaseException) -> None:
        if error is None:
            raise null_error()  # §2.13
        p = self.parent
        SubscriptionHelper.cancel(p.upstream)
        HalfSerializer.on_error(p.downstream, error, p.gate, p.error)

    def on_complete(self) -> None:
        p = self.parent
        SubscriptionHelper.cancel(p.upstream)
        HalfSerializer.on_complete(p.downstream, p.gate, p.error)


class TakeUntilMainSubscriber(HalfSerializedItems, DeferredUpstream, FlowableSubscriber[T], Subscription,
                              Generic[T]):
    """Subscribes to the main source; requests made before it arrives are deferred
    (:class:`DeferredUpstream`).

    Shared with ``skip_until``, whose subclasses change ``on_next`` and ``other_type``.
    """

    __slots__ = ("downstream", "upstream", "requested", "gate", "error", "other")

    other_type: ClassVar[type[TakeUntilOtherSubscriber]] = TakeUntilOtherSubscriber

    def __init__(self, downstream: Subscriber[T]) -> None:
        self.downstream = downstream
        self.upstream: AtomicReference[Subscription] = AtomicReference()
        self.requested = AtomicLong()
        self.gate = Drain()  # half-serializes the items with the terminal signals
        self.error = AtomicThrowable()
        self.other = self.other_type(self)

    def on_error(self, error: BaseException) -> None:
        if error is None:
            raise null_error()  # §2.13
        SubscriptionHelper.cancel(self.other.upstream)
        HalfSerializer.on_error(self.downstream, error, self.gate, self.error)

    def on_complete(self) -> None:
        SubscriptionHelper.cancel(self.other.upstream)
        HalfSerializer.on_complete(self.downstream, self.gate, self.error)

    def cancel(self) -> None:
        SubscriptionHelper.cancel(self.upstream)
        SubscriptionHelper.cancel(self.other.upstream)


class FlowableTakeUntilPredicate(Flowable[T], HasUpstreamPublisher[T], Generic[T]):
    __slots__ = ("source", "predicate")

    def __init__(self, source: Publisher[T], predicate: Callable[[T], bool]) -> None:
        self.source = source
        self.predicate = predicate

    def subscribe_actual(self, subscriber: Subscriber[T]) -> None:
        subscribe_tail(self.source, TakeUntilPredicateSubscriber(subscriber, self.predicate))


class TakeUntilPredicateSubscriber(OperatorSubscriber[T, T], Generic[T]):
    __slots__ = ("predicate",)

    def __init__(self, downstream: Subscriber[T], predicate: Callable[[T], bool]) -> None:
        super().__init__(downstream)
        self.predicate = predicate

    def on_next(self, item: T) -> None:
        if item is None or self.done:
            null_or_late_item(item)  # §2.13
            return
        self.downstream.on_next(item)
        try:
            b = self.predicate(item)
        except Exception as e:
            self.fail(e)
            return
        if b:
            self.complete_early()
