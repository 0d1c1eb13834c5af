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
from rxpy2.operator_kit import OperatorSubscriber, null_error, null_item
from rxpy2.reactivestreams import Publisher, Subscriber

__all__ = ["FlowableHide"]

T = TypeVar("T")


class FlowableHide(Flowable[T], HasUpstreamPublisher[T], Generic[T]):
    __slots__ = ("source",)

    def __init__(self, source: Publisher[T]) -> None:
        self.source = source

    def subscribe_actual(self, subscriber: Subscriber[T]) -> None:
        subscribe_tail(self.source, HideSubscriber(subscriber))


class HideSubscriber(OperatorSubscriber[T, T], Generic[T]):
    """Passes every signal through; ``request``/``cancel`` go upstream (the base's)."""

    __slots__ = ()

    def on_next(self, item: T) -> None:
        if item is None:
            raise null_item()  # §2.13
        self.downstream.on_next(item)

    def on_error(self, error: BaseException) -> None:
        if error is None:
            raise null_error()  # §2.13
        self.downstream.on_error(error)

    def on_complete(self) -> None:
        self.downstream.on_complete()
