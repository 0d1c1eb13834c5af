"""Flowable.just(x): one constant item; a ScalarCallable for assembly-time fusion."""

from __future__ import annotations

from typing import Generic, TypeVar

from rxpy2.flowable import Flowable
from rxpy2.internal.fuseable import ScalarCallable
from rxpy2.internal.subscriptions.scalar import ScalarSubscription
from rxpy2.reactivestreams import Subscriber

__all__ = ["FlowableJust"]

T = TypeVar("T")


class FlowableJust(Flowable[T], ScalarCallable[T], Generic[T]):
    __slots__ = ("value",)

    def __init__(self, value: T) -> None:
        self.value = value

    def subscribe_actual(self, subscriber: Subscriber[T]) -> None:
        subscriber.on_subscribe(ScalarSubscription(subscriber, self.value))

    def call(self) -> T:
        return self.value
