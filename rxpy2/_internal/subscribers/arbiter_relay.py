"""ArbiterSubscriber: a :class:`SubscriptionArbiter` that subscribes itself to one source
after another, the downstream's Subscription throughout.

It counts the items of the current source in ``produced_count``, so that the next source
is asked only for the demand still outstanding (:meth:`ArbiterSubscriber.carry_over`).
The base of ``concat_map``'s inner, ``on_error_resume_next`` and ``switch_if_empty``;
:class:`ArbiterRelay` (``concat``: its sources in turn; ``retry``/``repeat``: the same
source again) also relays the items downstream, its resubscription loop serialized by
``gate``.
"""

from __future__ import annotations

from typing import Generic
from typing import TypeVar

from rxpy2._internal.drain import Drain
from rxpy2._internal.subscribers.operator_subscriber import null_item
from rxpy2._internal.subscribers.operator_subscriber import null_subscription
from rxpy2._internal.subscriptions.arbiter import SubscriptionArbiter
from rxpy2.observers import FlowableSubscriber
from rxpy2.reactivestreams import Subscriber
from rxpy2.reactivestreams import Subscription

__all__ = ["ArbiterRelay", "ArbiterSubscriber"]

T = TypeVar("T")


class ArbiterSubscriber(SubscriptionArbiter, FlowableSubscriber[T], Generic[T]):
    """Takes each source's Subscription into the arbiter; a subclass counts the items in
    ``produced_count`` and calls :meth:`carry_over` before the next source."""

    def __init__(self) -> None:
        super().__init__(False)  # a source that terminated needs no cancel
        self.produced_count = 0  # items of the current source (its signals are serial, §1.3)

    def on_subscribe(self, s: Subscription) -> None:
        if s is None:
            raise null_subscription()  # §2.13
        self.set_subscription(s)

    def carry_over(self) -> None:
        """Before the next subscription: what the last source emitted is no longer owed."""
        n = self.produced_count
        if n != 0:
            self.produced_count = 0
            self.produced(n)


class ArbiterRelay(ArbiterSubscriber[T], Generic[T]):
    """Relays the items of the source it is subscribed to; a subclass writes the
    resubscription (``on_error``/``on_complete``)."""

    def __init__(self, downstream: Subscriber[T]) -> None:
        super().__init__()
        self.downstream = downstream
        self.gate = Drain()  # the resubscription loop

    def on_next(self, item: T) -> None:
        if item is None:
            raise null_item()  # §2.13
        self.produced_count += 1
        self.downstream.on_next(item)
