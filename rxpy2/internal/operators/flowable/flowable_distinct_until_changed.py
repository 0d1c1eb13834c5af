"""Flowable.distinct_until_changed: drops an item whose key equals the previous item's key.

The key is the item itself unless a ``key`` function is given; two keys are
equal by ``==`` unless a ``comparer(previous, current)`` is given. A dropped
item is replaced by ``request(1)`` upstream, or, to a conditional upstream,
answered with ``try_on_next(item) -> False``. A raising key function or
comparer, or a key function returning ``None`` (``TypeError``), cancels the
upstream and signals the error. Fuses by dropping in ``poll``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, TypeVar

from rxpy2.flowable import Flowable
from rxpy2.internal.fuseable import NONE, SYNC, ConditionalSubscriber, HasUpstreamPublisher
from rxpy2.internal.subscribers.basic_fuseable import (
    BasicFuseableConditionalSubscriber,
    BasicFuseableSubscriber,
)
from rxpy2.reactivestreams import Publisher, Subscriber

__all__ = ["FlowableDistinctUntilChanged"]

T = TypeVar("T")

KeyFn = Callable[[T], Any] | None
Comparer = Callable[[Any, Any], bool] | None


def _none_key() -> TypeError:
    return TypeError("The key function returned None")


class FlowableDistinctUntilChanged(Flowable[T], HasUpstreamPublisher[T], Generic[T]):
    __slots__ = ("source", "key", "comparer")

    def __init__(self, source: Publisher[T], key: KeyFn, comparer: Comparer) -> None:
        self.source = source
        self.key = key
        self.comparer = comparer

    def subscribe_actual(self, subscriber: Subscriber[T]) -> None:
        if isinstance(subscriber, ConditionalSubscriber):
            self.source.subscribe(
                DistinctUntilChangedConditionalSubscriber(subscriber, self.key, self.comparer))
        else:
            self.source.subscribe(
                DistinctUntilChangedSubscriber(subscriber, self.key, self.comparer))


class _DistinctUntilChangedMixin(Generic[T]):
    """The shared state and test: ``changed(item)`` says whether ``item`` is to be emitted."""

    key: KeyFn
    comparer: Comparer
    last: Any
    has_last: bool

    def _init_state(self, key: KeyFn, comparer: Comparer) -> None:
        self.key = key
        self.comparer = comparer
        self.last = None
        self.has_last = False

    def changed(self, item: T) -> bool:
        """May raise (the user's key function or comparer)."""
        key = self.key
        k = item if key is None else key(item)
        if k is None:
            raise _none_key()
        if not self.has_last:
            self.has_last = True
            self.last = k
            return True
        cmp = self.comparer
        equal = (self.last == k) if cmp is None else cmp(self.last, k)
        self.last = k
        return not equal

    def poll(self) -> T | None:
        qs = self.qs  # type: ignore[attr-defined]
        changed = self.changed
        while True:
            v = qs.poll()
            if v is None:
                return None
            if changed(v):
                return v
            if self.source_mode != SYNC:  # type: ignore[attr-defined]
                qs.request(1)


class DistinctUntilChangedSubscriber(_DistinctUntilChangedMixin[T],
                                     BasicFuseableSubscriber[T, T],
                                     ConditionalSubscriber[T], Generic[T]):
    def __init__(self, downstream: Subscriber[T], key: KeyFn, comparer: Comparer) -> None:
        BasicFuseableSubscriber.__init__(self, downstream)
        self._init_state(key, comparer)

    def on_next(self, item: T) -> None:
        if not self.try_on_next(item):
            self.upstream.request(1)  # type: ignore[union-attr]

    def try_on_next(self, item: T) -> bool:
        if self.done:
            return True  # nothing more will come; ask for no replacement
        if self.source_mode != NONE:  # ASYNC fused: a "ready" signal
            self.downstream.on_next(item)
            return True
        try:
            if not self.changed(item):
                return False
        except Exception as e:
            self.fail(e)
            return True
        self.downstream.on_next(item)
        return True


class DistinctUntilChangedConditionalSubscriber(_DistinctUntilChangedMixin[T],
                                                BasicFuseableConditionalSubscriber[T, T],
                                                Generic[T]):
    def __init__(self, downstream: ConditionalSubscriber[T], key: KeyFn,
                 comparer: Comparer) -> None:
        BasicFuseableConditionalSubscriber.__init__(self, downstream)
        self._init_state(key, comparer)

    def on_next(self, item: T) -> None:
        if not self.try_on_next(item):
            self.upstream.request(1)  # type: ignore[union-attr]

    def try_on_next(self, item: T) -> bool:
        if self.done:
            return True
        if self.source_mode != NONE:
            self.downstream.on_next(item)
            return True
        try:
            if not self.changed(item):
                return False
        except Exception as e:
            self.fail(e)
            return True
        return self.downstream.try_on_next(item)
