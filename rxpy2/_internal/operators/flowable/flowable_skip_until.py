"""Flowable.skip_until: drops items until another Publisher signals an item (or completes).

The ``other`` Publisher is subscribed first (with an unbounded request), then
the main source. Its first item opens the gate and cancels it; its completion
opens the gate too; its error cancels the main source and is signalled. Items
dropped while the gate is shut are replaced by ``request(1)`` upstream, or, to
a conditional upstream, answered with ``try_on_next(item) -> False``. Main and
other may signal from different threads: delivery is half-serialized
(``take_until``'s :class:`HalfSerializer` over a :class:`Drain`).
"""

from __future__ import annotations

from typing import Any
from typing import Generic
from typing import TypeVar

from rxpy2._internal.fuseable import ConditionalSubscriber
from rxpy2._internal.fuseable import HasUpstreamPublisher
from rxpy2._internal.helpers.half_serializer import HalfSerializer
from rxpy2._internal.helpers.subscribe_loop import subscribe_tail
from rxpy2._internal.helpers.subscription_helper import SubscriptionHelper
from rxpy2._internal.operators.flowable.flowable_take_until import TakeUntilMainSubscriber
from rxpy2._internal.operators.flowable.flowable_take_until import TakeUntilOtherSubscriber
from rxpy2.flowable import Flowable
from rxpy2.operator_kit import null_item
from rxpy2.reactivestreams import Publisher
from rxpy2.reactivestreams import Subscriber

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
        subscribe_tail(self.source, parent)


class SkipUntilOtherSubscriber(TakeUntilOtherSubscriber):
    """Opens the gate (on its first item, or on completion) instead of ending the stream."""

    __slots__ = ()

    def on_next(self, item: Any) -> None:
        if item is None:
            raise null_item()  # §2.13
        self.parent.open = True
        SubscriptionHelper.cancel(self.upstream)

    def on_complete(self) -> None:
        self.parent.open = True


class SkipUntilMainSubscriber(TakeUntilMainSubscriber[T], ConditionalSubscriber[T], Generic[T]):
    """``take_until``'s main subscriber (deferred requests, half-serialized signals,
    ``other`` cancelled on the terminal signal) with a gate (``open``) in front of the items."""

    __slots__ = ("open",)

    other_type = SkipUntilOtherSubscriber

    def __init__(self, downstream: Subscriber[T]) -> None:
        self.open = False  # the other signalled: items pass
        super().__init__(downstream)

    def on_next(self, item: T) -> None:
        if not self.try_on_next(item):  # (which checks §2.13)
            s = self.upstream.get()  # set: the item came through it
            if s is not None:
                s.request(1)  # dropped: replace it

    def try_on_next(self, item: T) -> bool:
        if item is None:
            raise null_item()  # §2.13
        if self.open:
            HalfSerializer.on_next(self.downstream, item, self.gate, self.error)
            return True
        return False
