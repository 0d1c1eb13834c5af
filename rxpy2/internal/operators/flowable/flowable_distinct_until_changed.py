"""Flowable.distinct_until_changed: drops an item whose key equals the previous item's key.

The key is the item itself unless a ``key`` function is given; two keys are
equal by ``==`` unless a ``comparer(previous, current)`` is given. A dropped
item is replaced by ``request(1)`` upstream, or, to a conditional upstream,
answered with ``try_on_next(item) -> False``. A raising key function or
comparer, or a key function returning ``None`` (``TypeError``), cancels the
upstream and signals the error. Fuses by dropping in ``poll``. The stage is a
``FilteringSubscriber`` (internal/subscribers/basic_fuseable.py) whose test compares keys.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, TypeVar

from rxpy2.flowable import Flowable
from rxpy2.internal.fuseable import ConditionalSubscriber, HasUpstreamPublisher, is_conditional
from rxpy2.internal.helpers.subscribe_loop import subscribe_tail
from rxpy2.internal.subscribers.basic_fuseable import (
    FilteringConditionalSubscriber,
    FilteringSubscriber,
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

    def __init__(self, source: Publisher[T], key: KeyFn[T], comparer: Comparer) -> None:
        self.source = source
        self.key = key
        self.comparer = comparer

    def subscribe_actual(self, subscriber: Subscriber[T]) -> None:
        if is_conditional(subscriber):
            subscribe_tail(self.source,
                DistinctUntilChangedConditionalSubscriber(subscriber, self.key, self.comparer))
        else:
            subscribe_tail(self.source,
                DistinctUntilChangedSubscriber(subscriber, self.key, self.comparer))


class _DistinctUntilChangedMixin(Generic[T]):
    """The shared state and test: ``passes(item)`` says whether ``item`` is to be emitted."""

    key: KeyFn[T]
    comparer: Comparer
    last: Any
    has_last: bool

    def _init_state(self, key: KeyFn[T], comparer: Comparer) -> None:
        self.key = key
        self.comparer = comparer
        self.last = None
        self.has_last = False

    def passes(self, item: T) -> bool:
        """True when the key changed (the item goes on); may raise (the user's key function or comparer)."""
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


class DistinctUntilChangedSubscriber(_DistinctUntilChangedMixin[T], FilteringSubscriber[T],
                                     Generic[T]):
    def __init__(self, downstream: Subscriber[T], key: KeyFn[T], comparer: Comparer) -> None:
        FilteringSubscriber.__init__(self, downstream)
        self._init_state(key, comparer)


class DistinctUntilChangedConditionalSubscriber(_DistinctUntilChangedMixin[T],
                                                FilteringConditionalSubscriber[T],
                                                Generic[T]):
    def __init__(self, downstream: ConditionalSubscriber[T], key: KeyFn[T],
                 comparer: Comparer) -> None:
        FilteringConditionalSubscriber.__init__(self, downstream)
        self._init_state(key, comparer)
