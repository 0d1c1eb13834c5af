"""Flowable.element_at: the item at an index, as a Maybe or a Single.

The upstream is requested unbounded; the item at ``index`` cancels it and is
signalled as ``on_success``. A shorter stream gives an empty Maybe, or for the
Single ``default_item`` (or ``IndexError`` when ``error_if_missing``).
``first*`` are ``element_at(0 ...)``. The inner subscriber is the Disposable the
observer receives: disposing it cancels the upstream.
"""

from __future__ import annotations

from typing import Any
from typing import Generic
from typing import TypeVar

from rxpy2._internal.fuseable import HasUpstreamPublisher
from rxpy2._internal.helpers.subscribe_loop import subscribe_tail
from rxpy2._internal.subscribers.to_observer import ItemOrMissingSubscriber
from rxpy2.maybe import Maybe
from rxpy2.observers import MaybeObserver
from rxpy2.observers import SingleObserver
from rxpy2.operator_kit import null_or_late_item
from rxpy2.reactivestreams import Publisher
from rxpy2.single import Single

__all__ = ["FlowableElementAtMaybe", "FlowableElementAtSingle"]

T = TypeVar("T")


class FlowableElementAtMaybe(Maybe[T], HasUpstreamPublisher[T], Generic[T]):
    __slots__ = ("source", "index")

    def __init__(self, source: Publisher[T], index: int) -> None:
        self.source = source
        self.index = index

    def subscribe_actual(self, observer: MaybeObserver[T]) -> None:
        subscribe_tail(self.source, ElementAtSubscriber(observer, self.index, None, False, True))


class FlowableElementAtSingle(Single[T], HasUpstreamPublisher[T], Generic[T]):
    __slots__ = ("source", "index", "default_item", "error_if_missing")

    def __init__(self, source: Publisher[T], index: int, default_item: T | None,
                 error_if_missing: bool) -> None:
        self.source = source
        self.index = index
        self.default_item = default_item
        self.error_if_missing = error_if_missing

    def subscribe_actual(self, observer: SingleObserver[T]) -> None:
        subscribe_tail(self.source, ElementAtSubscriber(observer, self.index, self.default_item,
                                                  self.error_if_missing, False))


class ElementAtSubscriber(ItemOrMissingSubscriber[T], Generic[T]):
    """Counts items; the one at ``index`` stops the upstream and is the result."""

    __slots__ = ("index", "count")

    def __init__(self, downstream: Any, index: int, default_item: T | None,
                 error_if_missing: bool, maybe: bool) -> None:
        super().__init__(downstream, None if error_if_missing else default_item, maybe)
        self.index = index
        self.count = 0

    def on_next(self, item: T) -> None:
        if item is None or self.done:
            null_or_late_item(item)  # §2.13
            return
        c = self.count
        if c == self.index:
            self.stop()
            self.downstream.on_success(item)
            return
        self.count = c + 1

    def missing(self) -> BaseException:
        return IndexError(f"index {self.index} is out of range: the sequence had "
                          f"{self.count} element(s)")
