"""ParallelFlowable.sorted / to_sorted_list: sort each rail, then merge the sorted rails.

``sorted``: each rail is collected into a list and sorted
(``list.sort(key=key, reverse=reverse)``); :class:`ParallelSortedJoin` receives
one sorted list per rail (requesting everything from each rail) and, once every
list is there, emits the items in order under the downstream's demand, exactly
as requested: each item is the smallest (``reverse``: the largest) of the rails'
next items, ties going to the lowest rail. Items that compare equal may come
in another order than ``sorted()`` (which keeps the source order) gives them:
which rail an item went to depends on the rails' demand. A key or comparison that raises cancels the rails and ends the Flowable
with the error.

``to_sorted_list``: the sorted lists are merged pairwise by
``ParallelFlowable.reduce`` with :func:`merger` into one list.

The merge runs in a drain loop serialized by a :class:`~rxpy2.operator_kit.Drain`;
``cancel``/``drain`` of :class:`SortedJoinSubscription` come from
:class:`~rxpy2._internal.subscribers.drain_support.DrainSubscriptionMixin` (after a
cancel whoever holds the drain drops the lists and keeps it for good).
"""

from __future__ import annotations

import heapq
from collections.abc import Callable
from typing import Any
from typing import Generic
from typing import TypeVar

from rxpy2 import plugins
from rxpy2._internal.subscribers.drain_support import DrainSubscriptionMixin
from rxpy2.flowable import Flowable
from rxpy2.observers import FlowableSubscriber
from rxpy2.operator_kit import AtomicInteger
from rxpy2.operator_kit import AtomicLong
from rxpy2.operator_kit import AtomicReference
from rxpy2.operator_kit import Drain
from rxpy2.operator_kit import SubscriptionHelper
from rxpy2.operator_kit import add_request
from rxpy2.operator_kit import null_error
from rxpy2.operator_kit import null_item
from rxpy2.operator_kit import produced
from rxpy2.operator_kit import subscribe_tail
from rxpy2.operator_kit import validate_request
from rxpy2.parallel.parallel_flowable import ParallelFlowable
from rxpy2.reactivestreams import LONG_MAX
from rxpy2.reactivestreams import Subscriber
from rxpy2.reactivestreams import Subscription

__all__ = ["ParallelSortedJoin", "merger", "sorter"]

T = TypeVar("T")

Key = Callable[[Any], Any] | None


def sorter(key: Key, reverse: bool) -> Callable[[list[T]], list[T]]:
    """A mapper that sorts a rail's list in place and returns it."""
    def sort(items: list[T]) -> list[T]:
        items.sort(key=key, reverse=reverse)
        return items
    return sort


def merger(key: Key, reverse: bool) -> Callable[[list[T], list[T]], list[T]]:
    """A reducer that merges two sorted lists into one sorted list."""
    def merge(a: list[T], b: list[T]) -> list[T]:
        return list(heapq.merge(a, b, key=key, reverse=reverse))  # type: ignore[arg-type]  # heapq.merge takes key=None too
    return merge


class ParallelSortedJoin(Flowable[T], Generic[T]):
    __slots__ = ("source", "key", "reverse")

    def __init__(self, source: ParallelFlowable[list[T]], key: Key, reverse: bool) -> None:
        self.source = source
        self.key = key
        self.reverse = reverse

    def subscribe_actual(self, subscriber: Subscriber[T]) -> None:
        parent: SortedJoinSubscription[T] = SortedJoinSubscription(
            subscriber, self.source.parallelism, self.key, self.reverse)
        subscriber.on_subscribe(parent)
        subscribe_tail(self.source, parent.subscribers)


class SortedJoinSubscription(DrainSubscriptionMixin, Subscription, Generic[T]):
    __slots__ = ("downstream", "subscribers", "lists", "indexes", "heads", "key", "reverse",
                 "requested", "gate", "cancelled", "remaining", "error", "started")

    def __init__(self, downstream: Subscriber[T], n: int, key: Key, reverse: bool) -> None:
        self.downstream = downstream
        self.subscribers = [SortedJoinInnerSubscriber(self, i) for i in range(n)]
        self.lists: list[list[T] | None] = [None] * n
        self.indexes = [0] * n  # drain only
        self.heads: list[Any] = [None] * n  # the key of each rail's next item (drain only)
        self.key = key
        self.reverse = reverse
        self.requested = AtomicLong()
        self.gate = Drain()
        self.cancelled = False
        self.remaining = AtomicInteger(n)  # rails whose list has not arrived
        self.error: AtomicReference[BaseException] = AtomicReference()
        self.started = False  # heads computed (drain only)

    def request(self, n: int) -> None:
        if n := validate_request(n):  # §3.9
            add_request(self.requested, n)
            if self.remaining.get() == 0:  # else the last list to arrive drains
                self.drain()


    def cancel_upstream(self) -> None:
        for inner in self.subscribers:
            inner.cancel()

    def cleanup(self) -> None:
        n = len(self.lists)
        self.lists = [None] * n
        self.heads = [None] * n

    def inner_next(self, items: list[T], index: int) -> None:
        self.lists[index] = items
        if self.remaining.decrement_and_get() == 0:
            self.drain()

    def inner_error(self, error: BaseException) -> None:
        if self.error.compare_and_set(None, error):
            self.drain()
        elif error is not self.error.get():
            plugins.on_error(error)

    def _fail(self, error: BaseException) -> None:
        self.cancel_upstream()
        self.cleanup()
        self.downstream.on_error(error)

    def _check_error(self) -> bool:
        ex = self.error.get()
        if ex is not None:
            self._fail(ex)
            return True
        return False

    def drain_loop(self) -> None:
        """The caller owns the drain."""
        a = self.downstream
        key = self.key
        reverse = self.reverse
        requested = self.requested
        leave = self.gate.leave
        lists = self.lists
        indexes = self.indexes
        heads = self.heads
        n = len(lists)
        while True:
            if self.cancelled:
                self.cleanup()
                return
            if self._check_error():
                return
            if self.remaining.get() != 0:  # an error woke us before every list came
                if not leave():
                    return
                continue
            if not self.started:
                self.started = True
                try:
                    for i in range(n):
                        items = lists[i]
                        if items:
                            heads[i] = key(items[0]) if key is not None else items[0]
                except Exception as ex:
                    self._try_error(ex)
                    return
            r = requested.get()
            e = 0
            while e != r:
                if self.cancelled:
                    self.cleanup()
                    return
                if self._check_error():
                    return
                best = -1
                best_key: Any = None
                try:
                    for i in range(n):
                        items = lists[i]
                        if items is None or indexes[i] == len(items):
                            continue
                        k = heads[i]
                        if best < 0 or ((k > best_key) if reverse else (k < best_key)):
                            best = i
                            best_key = k
                except Exception as ex:  # the items (or keys) do not compare
                    self._try_error(ex)
                    return
                if best < 0:
                    self.cleanup()
                    a.on_complete()
                    return
                items = lists[best]
                j = indexes[best]
                v = items[j]  # type: ignore[index]  # best is a rail that has a list
                j += 1
                indexes[best] = j
                if j < len(items):  # type: ignore[arg-type]  # best is a rail that has a list
                    nxt = items[j]  # type: ignore[index]  # best is a rail that has a list
                    try:
                        heads[best] = key(nxt) if key is not None else nxt
                    except Exception as ex:
                        self._try_error(ex)
                        return
                a.on_next(v)
                e += 1
            if e == r:
                if self.cancelled:
                    self.cleanup()
                    return
                if self._check_error():
                    return
                if all(items is None or indexes[i] == len(items)
                       for i, items in enumerate(lists)):
                    self.cleanup()
                    a.on_complete()
                    return
            if e != 0 and r != LONG_MAX:
                produced(requested, e)
            if not leave():
                return

    def _try_error(self, error: BaseException) -> None:
        """A user function failed inside the drain: end with it (or with an earlier error)."""
        if not self.error.compare_and_set(None, error):
            plugins.on_error(error)
        self._fail(self.error.get())  # type: ignore[arg-type]  # set just above


class SortedJoinInnerSubscriber(FlowableSubscriber[list[T]], Generic[T]):
    __slots__ = ("parent", "index", "upstream", "has_value")

    def __init__(self, parent: SortedJoinSubscription[T], index: int) -> None:
        self.parent = parent
        self.index = index
        self.upstream: AtomicReference[Subscription] = AtomicReference()
        self.has_value = False

    def on_subscribe(self, s: Subscription) -> None:
        SubscriptionHelper.set_once_request(self.upstream, s, LONG_MAX)  # §2.13 None raises

    def on_next(self, item: list[T]) -> None:
        if item is None:
            raise null_item()  # §2.13
        if not self.has_value:
            self.has_value = True
            self.parent.inner_next(item, self.index)

    def on_error(self, error: BaseException) -> None:
        if error is None:
            raise null_error()  # §2.13
        self.parent.inner_error(error)

    def on_complete(self) -> None:
        if not self.has_value:  # a rail that ended without its list counts as empty
            self.has_value = True
            self.parent.inner_next([], self.index)

    def cancel(self) -> None:
        SubscriptionHelper.cancel(self.upstream)
