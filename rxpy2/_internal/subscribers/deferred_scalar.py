"""DeferredScalarSubscriber: consumes the whole upstream, then emits one item under demand.

Base of reduce-like operators (``count``, ``reduce``, ``last``, ``to_list`` ...):
a subclass updates ``self.value`` (and sets ``self.has_value``) in ``on_next``
(raising :func:`~rxpy2.operator_kit.null_item` for ``None``, §2.13);
on completion the value is emitted when the downstream has requested, whatever
the order of the two events.
"""

from __future__ import annotations

from typing import Generic
from typing import TypeVar

from rxpy2._internal.helpers.subscription_helper import UNSUBSCRIBED
from rxpy2._internal.subscribers.operator_subscriber import RequestsUpfront
from rxpy2._internal.subscribers.operator_subscriber import null_error
from rxpy2._internal.subscriptions.deferred_scalar import DeferredScalarSubscription
from rxpy2.observers import FlowableSubscriber
from rxpy2.reactivestreams import Subscriber
from rxpy2.reactivestreams import Subscription

__all__ = ["DeferredScalarSubscriber"]

T = TypeVar("T")
R = TypeVar("R")


class DeferredScalarSubscriber(RequestsUpfront, DeferredScalarSubscription[R], FlowableSubscriber[T],
                               Generic[T, R]):
    __slots__ = ("upstream", "has_value")

    def __init__(self, downstream: Subscriber[R]) -> None:
        super().__init__(downstream)
        self.upstream: Subscription = UNSUBSCRIBED
        self.has_value = False

    def on_error(self, error: BaseException) -> None:
        if error is None:
            raise null_error()  # §2.13
        self.value = None
        self.downstream.on_error(error)

    def on_complete(self) -> None:
        if self.has_value:
            self.complete(self.value)  # type: ignore[arg-type]  # has_value: the value is set
        else:
            self.downstream.on_complete()

    def cancel(self) -> None:
        super().cancel()
        self.upstream.cancel()  # UNSUBSCRIBED before on_subscribe: a no-op
