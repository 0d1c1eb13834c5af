"""Flowable.hide: hide the upstream's identity and Subscription.

The stage is a plain FlowableSubscriber and a plain Subscription: it is neither a
QueueSubscription nor a ConditionalSubscriber, so no fusion and no conditional
fast path crosses it, and the Flowable it returns is no ``Callable``.
"""

from __future__ import annotations

from typing import Generic
from typing import TypeVar

from rxpy2._internal.fuseable import HasUpstreamPublisher
from rxpy2._internal.helpers.subscribe_loop import subscribe_tail
from rxpy2._internal.subscribers.pass_through import PassThrough
from rxpy2.flowable import Flowable
from rxpy2.operator_kit import OperatorSubscriber
from rxpy2.reactivestreams import Publisher
from rxpy2.reactivestreams import Subscriber

__all__ = ["FlowableHide"]

T = TypeVar("T")


class FlowableHide(Flowable[T], HasUpstreamPublisher[T], Generic[T]):
    __slots__ = ("source",)

    def __init__(self, source: Publisher[T]) -> None:
        self.source = source

    def subscribe_actual(self, subscriber: Subscriber[T]) -> None:
        subscribe_tail(self.source, HideSubscriber(subscriber))


class HideSubscriber(PassThrough, OperatorSubscriber[T, T], Generic[T]):
    """Passes every signal through; ``request``/``cancel`` go upstream (the base's)."""

    __slots__ = ()

