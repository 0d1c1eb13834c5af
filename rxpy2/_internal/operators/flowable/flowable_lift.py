"""Flowable.lift: plug a custom operator given as ``operator(downstream) -> upstream subscriber``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from typing import Generic
from typing import TypeVar

from rxpy2._internal.fuseable import HasUpstreamPublisher
from rxpy2._internal.helpers.subscribe_loop import subscribe_tail
from rxpy2.flowable import Flowable
from rxpy2.reactivestreams import Publisher
from rxpy2.reactivestreams import Subscriber

__all__ = ["FlowableLift"]

T = TypeVar("T")
R = TypeVar("R")


class FlowableLift(Flowable[R], HasUpstreamPublisher[T], Generic[T, R]):
    __slots__ = ("source", "operator")

    def __init__(self, source: Publisher[T], operator: Callable[[Subscriber[R]], Any]) -> None:
        self.source = source
        self.operator = operator

    def subscribe_actual(self, subscriber: Subscriber[R]) -> None:
        upstream_subscriber = self.operator(subscriber)
        if upstream_subscriber is None:
            raise TypeError(f"Operator {self.operator!r} returned a None Subscriber")
        subscribe_tail(self.source, upstream_subscriber)
