"""Flowable.skip_while: drops items while a predicate holds, then relays everything.

A dropped item is replaced by ``request(1)`` upstream, or, to a conditional
upstream, answered with ``try_on_next(item) -> False``; to a conditional
downstream the items go by ``try_on_next`` too. Once an item fails the
predicate, the predicate is not called any more. Fuses by skipping in ``poll``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, TypeVar

from rxpy2.flowable import Flowable
from rxpy2.internal.fuseable import ASYNC, NONE, ConditionalSubscriber, HasUpstreamPublisher
from rxpy2.internal.subscribers.basic_fuseable import (
    BasicFuseableConditionalSubscriber,
    BasicFuseableSubscriber,
)
from rxpy2.reactivestreams import Publisher, Subscriber

__all__ = ["FlowableSkipWhile"]

T = TypeVar("T")


class FlowableSkipWhile(Flowable[T], HasUpstreamPublisher[T], Generic[T]):
    __slots__ = ("source", "predicate")

    def __init__(self, source: Publisher[T], predicate: Callable[[T], bool]) -> None:
        self.source = source
        self.predicate = predicate

    def subscribe_actual(self, subscriber: Subscriber[T]) -> None:
        if isinstance(subscriber, ConditionalSubscriber):
            self.source.subscribe(SkipWhileConditionalSubscriber(subscriber, self.predicate))
        else:
            self.source.subscribe(SkipWhileSubscriber(subscriber, self.predicate))


class _SkipWhileMixin(Generic[T]):
    """The predicate state, ``on_next`` and ``poll`` shared by both variants."""

    predicate: Callable[[T], bool]
    passing: bool
    qs: Any
    upstream: Any
    source_mode: int

    def on_next(self, item: T) -> None:
        if not self.try_on_next(item):  # type: ignore[attr-defined]
            self.upstream.request(1)

    def poll(self) -> T | None:
        qs = self.qs
        if not self.passing:
            p = self.predicate
            while True:
                t = qs.poll()
                if t is None:
                    return None
                if not p(t):
                    self.passing = True
                    return t  # type: ignore[no-any-return]
                if self.source_mode == ASYNC:
                    qs.request(1)
        return qs.poll()  # type: ignore[no-any-return]


class SkipWhileSubscriber(_SkipWhileMixin[T], BasicFuseableSubscriber[T, T],
                          ConditionalSubscriber[T], Generic[T]):
    def __init__(self, downstream: Subscriber[T], predicate: Callable[[T], bool]) -> None:
        BasicFuseableSubscriber.__init__(self, downstream)
        self.predicate = predicate
        self.passing = False

    def try_on_next(self, item: T) -> bool:
        if self.done:
            return True  # nothing more will come; ask for no replacement
        if self.passing or self.source_mode != NONE:  # ASYNC fused: a "ready" signal
            self.downstream.on_next(item)
            return True
        try:
            b = self.predicate(item)
        except Exception as e:
            self.fail(e)
            return True
        if b:
            return False
        self.passing = True
        self.downstream.on_next(item)
        return True


class SkipWhileConditionalSubscriber(_SkipWhileMixin[T], BasicFuseableConditionalSubscriber[T, T],
                                     Generic[T]):
    """Over a ConditionalSubscriber: an item it drops costs no request either."""

    def __init__(self, downstream: ConditionalSubscriber[T],
                 predicate: Callable[[T], bool]) -> None:
        BasicFuseableConditionalSubscriber.__init__(self, downstream)
        self.predicate = predicate
        self.passing = False

    def try_on_next(self, item: T) -> bool:
        if self.done:
            return True
        if self.source_mode != NONE:
            self.downstream.on_next(item)
            return True
        if self.passing:
            return self.downstream.try_on_next(item)  # type: ignore[no-any-return]
        try:
            b = self.predicate(item)
        except Exception as e:
            self.fail(e)
            return True
        if b:
            return False
        self.passing = True
        return self.downstream.try_on_next(item)  # type: ignore[no-any-return]
