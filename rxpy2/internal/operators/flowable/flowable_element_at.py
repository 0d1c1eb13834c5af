"""Flowable.element_at: the item at an index, as a Maybe or a Single.

The upstream is requested unbounded; the item at ``index`` cancels it and is
signalled as ``on_success``. A shorter stream gives an empty Maybe, or for the
Single ``default_item`` (or ``IndexError`` when ``error_if_missing``).
``first*`` are ``element_at(0 ...)``. The inner subscriber is the Disposable the
observer receives: disposing it cancels the upstream.
"""

from __future__ import annotations

from typing import Any, Generic, TypeVar

from rxpy2 import plugins
from rxpy2.disposables import Disposable
from rxpy2.internal.fuseable import HasUpstreamPublisher
from rxpy2.internal.helpers.subscription_helper import CANCELLED, SubscriptionHelper
from rxpy2.maybe import Maybe
from rxpy2.observers import FlowableSubscriber, MaybeObserver, SingleObserver
from rxpy2.reactivestreams import LONG_MAX, Publisher, Subscription
from rxpy2.single import Single

__all__ = ["FlowableElementAtMaybe", "FlowableElementAtSingle"]

T = TypeVar("T")


class FlowableElementAtMaybe(Maybe[T], HasUpstreamPublisher[T], Generic[T]):
    __slots__ = ("source", "index")

    def __init__(self, source: Publisher[T], index: int) -> None:
        self.source = source
        self.index = index

    def subscribe_actual(self, observer: MaybeObserver[T]) -> None:
        self.source.subscribe(ElementAtSubscriber(observer, self.index, None, False, True))


class FlowableElementAtSingle(Single[T], HasUpstreamPublisher[T], Generic[T]):
    __slots__ = ("source", "index", "default_item", "error_if_missing")

    def __init__(self, source: Publisher[T], index: int, default_item: T | None,
                 error_if_missing: bool) -> None:
        self.source = source
        self.index = index
        self.default_item = default_item
        self.error_if_missing = error_if_missing

    def subscribe_actual(self, observer: SingleObserver[T]) -> None:
        self.source.subscribe(ElementAtSubscriber(observer, self.index, self.default_item,
                                                  self.error_if_missing, False))


class ElementAtSubscriber(FlowableSubscriber[T], Disposable, Generic[T]):
    __slots__ = ("downstream", "index", "default_item", "error_if_missing", "maybe",
                 "upstream", "count", "done")

    def __init__(self, downstream: Any, index: int, default_item: T | None,
                 error_if_missing: bool, maybe: bool) -> None:
        self.downstream = downstream
        self.index = index
        self.default_item = default_item
        self.error_if_missing = error_if_missing
        self.maybe = maybe
        self.upstream: Subscription | None = None
        self.count = 0
        self.done = False

    def on_subscribe(self, s: Subscription) -> None:
        if SubscriptionHelper.validate(self.upstream, s):
            self.upstream = s
            self.downstream.on_subscribe(self)
            s.request(LONG_MAX)

    def on_next(self, item: T) -> None:
        if self.done:
            return
        c = self.count
        if c == self.index:
            self.done = True
            self.upstream.cancel()  # type: ignore[union-attr]
            self.upstream = CANCELLED
            self.downstream.on_success(item)
            return
        self.count = c + 1

    def on_error(self, error: BaseException) -> None:
        if self.done:
            plugins.on_error(error)
            return
        self.done = True
        self.upstream = CANCELLED
        self.downstream.on_error(error)

    def on_complete(self) -> None:
        self.upstream = CANCELLED
        if self.done:
            return
        self.done = True
        if self.maybe:
            self.downstream.on_complete()
        elif self.error_if_missing or self.default_item is None:
            self.downstream.on_error(
                IndexError(f"index {self.index} is out of range: the sequence had "
                           f"{self.count} element(s)"))
        else:
            self.downstream.on_success(self.default_item)

    def dispose(self) -> None:
        self.upstream.cancel()  # type: ignore[union-attr]
        self.upstream = CANCELLED

    def is_disposed(self) -> bool:
        return self.upstream is CANCELLED
