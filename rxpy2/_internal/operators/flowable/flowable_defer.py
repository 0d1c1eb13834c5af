"""Flowable.defer: calls a supplier per subscriber for the Publisher to subscribe it to."""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic
from typing import TypeVar

from rxpy2._internal.helpers.subscribe_loop import subscribe_tail
from rxpy2._internal.subscriptions.empty import EmptySubscription
from rxpy2.flowable import Flowable
from rxpy2.reactivestreams import Publisher
from rxpy2.reactivestreams import Subscriber

__all__ = ["FlowableDefer"]

T = TypeVar("T")


class FlowableDefer(Flowable[T], Generic[T]):
    __slots__ = ("supplier",)

    def __init__(self, supplier: Callable[[], Publisher[T]]) -> None:
        self.supplier = supplier

    def subscribe_actual(self, subscriber: Subscriber[T]) -> None:
        try:
            p = self.supplier()
        except Exception as e:
            EmptySubscription.error(e, subscriber)
            return
        if p is None:
            EmptySubscription.error(TypeError("the supplier returned a None Publisher"), subscriber)
            return
        if not isinstance(p, Publisher):
            EmptySubscription.error(
                TypeError(f"the supplier returned a {type(p).__name__}, not a Publisher"),
                subscriber)
            return
        subscribe_tail(p, subscriber)
