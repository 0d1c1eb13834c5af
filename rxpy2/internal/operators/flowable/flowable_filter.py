"""Flowable.filter: only items that pass a predicate.

A dropped item is replaced by ``request(1)`` upstream (the operator guide's
rule for operators that are not 1:1); to a ConditionalSubscriber upstream the
filter answers ``try_on_next(item) -> False`` instead, so the source emits the
next item without a request round trip. Fuses by filtering in ``poll``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, TypeVar

from rxpy2.flowable import Flowable
from rxpy2.internal.fuseable import ASYNC, ConditionalSubscriber, HasUpstreamPublisher
from rxpy2.internal.subscribers.basic_fuseable import (
    BasicFuseableConditionalSubscriber,
    BasicFuseableSubscriber,
)
from rxpy2.reactivestreams import Publisher, Subscriber

__all__ = ["FlowableFilter"]

T = TypeVar("T")


class FlowableFilter(Flowable[T], HasUpstreamPublisher[T], Generic[T]):
    __slots__ = ("source", "predicate")

    def __init__(self, source: Publisher[T], predicate: Callable[[T], bool]) -> None:
        self.source = source
        self.predicate = predicate

    def subscribe_actual(self, subscriber: Subscriber[T]) -> None:
        if isinstance(subscriber, ConditionalSubscriber):
            self.source.subscribe(FilterConditionalSubscriber(subscriber, self.predicate))
        else:
            self.source.subscribe(FilterSubscriber(subscriber, self.predicate))


class FilterSubscriber(BasicFuseableSubscriber[T, T], ConditionalSubscriber[T], Generic[T]):
    def __init__(self, downstream: Subscriber[T], predicate: Callable[[T], bool]) -> None:
        super().__init__(downstream)
        self.predicate = predicate

    def on_next(self, item: T) -> None:
        if not self.try_on_next(item):
            self.upstream.request(1)  # type: ignore[union-attr]

    def try_on_next(self, item: T) -> bool:
        if self.done:
            return False
        if self.source_mode != 0:  # ASYNC fused: pass the "ready" signal on
            self.downstream.on_next(None)  # type: ignore[arg-type]
            return True
        try:
            b = self.predicate(item)
        except Exception as e:
            self.fail(e)
            return True
        if b:
            self.downstream.on_next(item)
        return bool(b)

    def poll(self) -> T | None:
        qs = self.qs
        p = self.predicate
        while True:
            t = qs.poll()  # type: ignore[union-attr]
            if t is None:
                return None
            if p(t):
                return t
            if self.source_mode == ASYNC:
                qs.request(1)  # type: ignore[union-attr]


class FilterConditionalSubscriber(BasicFuseableConditionalSubscriber[T, T], Generic[T]):
    def __init__(self, downstream: ConditionalSubscriber[T], predicate: Callable[[T], bool]) -> None:
        super().__init__(downstream)
        self.predicate = predicate

    def on_next(self, item: T) -> None:
        if not self.try_on_next(item):
            self.upstream.request(1)  # type: ignore[union-attr]

    def try_on_next(self, item: T) -> bool:
        if self.done:
            return False
        if self.source_mode != 0:
            self.downstream.on_next(None)
            return True
        try:
            b = self.predicate(item)
        except Exception as e:
            self.fail(e)
            return True
        return bool(b) and self.downstream.try_on_next(item)

    def poll(self) -> T | None:
        qs = self.qs
        p = self.predicate
        while True:
            t = qs.poll()  # type: ignore[union-attr]
            if t is None:
                return None
            if p(t):
                return t
            if self.source_mode == ASYNC:
                qs.request(1)  # type: ignore[union-attr]
