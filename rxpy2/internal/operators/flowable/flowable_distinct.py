"""Flowable.distinct: items whose key (the item itself by default) was not seen before.

The keys seen are kept in a ``set`` (so they must be hashable) until the stream
terminates. A dropped item is replaced by ``request(1)`` upstream, or, to a
conditional upstream, answered with ``try_on_next(item) -> False``. A key
function that raises, or returns ``None`` (``TypeError``), cancels the upstream
and signals the error. Fuses by dropping seen keys in ``poll``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, TypeVar

from rxpy2.flowable import Flowable
from rxpy2.internal.fuseable import ASYNC, NONE, ConditionalSubscriber, HasUpstreamPublisher
from rxpy2.internal.subscribers.basic_fuseable import BasicFuseableSubscriber
from rxpy2.reactivestreams import Publisher, Subscriber

__all__ = ["FlowableDistinct"]

T = TypeVar("T")


def _none_key() -> TypeError:
    return TypeError("The key function returned None")


class FlowableDistinct(Flowable[T], HasUpstreamPublisher[T], Generic[T]):
    __slots__ = ("source", "key")

    def __init__(self, source: Publisher[T], key: Callable[[T], Any] | None) -> None:
        self.source = source
        self.key = key

    def subscribe_actual(self, subscriber: Subscriber[T]) -> None:
        self.source.subscribe(DistinctSubscriber(subscriber, self.key))


class DistinctSubscriber(BasicFuseableSubscriber[T, T], ConditionalSubscriber[T], Generic[T]):
    def __init__(self, downstream: Subscriber[T], key: Callable[[T], Any] | None) -> None:
        super().__init__(downstream)
        self.key = key
        self.seen: set[Any] = set()

    def on_next(self, item: T) -> None:
        if not self.try_on_next(item):
            self.upstream.request(1)  # type: ignore[union-attr]

    def try_on_next(self, item: T) -> bool:
        if self.done:
            return True  # nothing more will come; ask for no replacement
        if self.source_mode != NONE:  # ASYNC fused: a "ready" signal
            self.downstream.on_next(item)
            return True
        seen = self.seen
        key = self.key
        try:
            k = item if key is None else key(item)
            if k is None:
                raise _none_key()
            if k in seen:  # an unhashable key raises TypeError here
                return False
            seen.add(k)
        except Exception as e:
            self.fail(e)
            return True
        self.downstream.on_next(item)
        return True

    def on_error(self, error: BaseException) -> None:
        if not self.done:
            self.seen.clear()
        super().on_error(error)

    def on_complete(self) -> None:
        if not self.done:
            self.seen.clear()
        super().on_complete()

    def poll(self) -> T | None:
        qs = self.qs
        seen = self.seen
        key = self.key
        while True:
            v = qs.poll()  # type: ignore[union-attr]
            if v is None:
                return None
            k = v if key is None else key(v)
            if k is None:
                raise _none_key()
            if k not in seen:
                seen.add(k)
                return v
            if self.source_mode == ASYNC:
                qs.request(1)  # type: ignore[union-attr]

    def clear(self) -> None:
        self.seen.clear()
        super().clear()
