"""Flowable.single / single_element / single_or_error: the only item, as a Single or a Maybe.

The upstream is requested unbounded. A second item cancels it and signals
``ValueError("Sequence contains more than one element")``. An empty stream
gives an empty Maybe, or for the Single the default item (``IndexError`` when
there is none). The inner subscriber is the Disposable the observer receives.
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

__all__ = ["FlowableSingleMaybe", "FlowableSingleSingle"]

T = TypeVar("T")


class FlowableSingleMaybe(Maybe[T], HasUpstreamPublisher[T], Generic[T]):
    __slots__ = ("source",)

    def __init__(self, source: Publisher[T]) -> None:
        self.source = source

    def subscribe_actual(self, observer: MaybeObserver[T]) -> None:
        self.source.subscribe(SingleElementSubscriber(observer, None, True))


class FlowableSingleSingle(Single[T], HasUpstreamPublisher[T], Generic[T]):
    __slots__ = ("source", "default_item")

    def __init__(self, source: Publisher[T], default_item: T | None) -> None:
        self.source = source
        self.default_item = default_item

    def subscribe_actual(self, observer: SingleObserver[T]) -> None:
        self.source.subscribe(SingleElementSubscriber(observer, self.default_item, False))


class SingleElementSubscriber(FlowableSubscriber[T], Disposable, Generic[T]):
    __slots__ = ("downstream", "default_item", "maybe", "upstream", "item", "done")

    def __init__(self, downstream: Any, default_item: T | None, maybe: bool) -> None:
        self.downstream = downstream
        self.default_item = default_item
        self.maybe = maybe
        self.upstream: Subscription | None = None
        self.item: T | None = None
        self.done = False

    def on_subscribe(self, s: Subscription) -> None:
        if SubscriptionHelper.validate(self.upstream, s):
            self.upstream = s
            self.downstream.on_subscribe(self)
            s.request(LONG_MAX)

    def on_next(self, item: T) -> None:
        if self.done:
            return
        if self.item is not None:
            self.done = True
            self.item = None
            self.upstream.cancel()  # type: ignore[union-attr]
            self.upstream = CANCELLED
            self.downstream.on_error(ValueError("Sequence contains more than one element"))
            return
        self.item = item

    def on_error(self, error: BaseException) -> None:
        if self.done:
            plugins.on_error(error)
            return
        self.done = True
        self.item = None
        self.upstream = CANCELLED
        self.downstream.on_error(error)

    def on_complete(self) -> None:
        self.upstream = CANCELLED
        if self.done:
            return
        self.done = True
        v = self.item
        self.item = None
        if v is not None:
            self.downstream.on_success(v)
        elif self.maybe:
            self.downstream.on_complete()
        elif self.default_item is not None:
            self.downstream.on_success(self.default_item)
        else:
            self.downstream.on_error(IndexError("The sequence is empty"))

    def dispose(self) -> None:
        self.upstream.cancel()  # type: ignore[union-attr]
        self.upstream = CANCELLED

    def is_disposed(self) -> bool:
        return self.upstream is CANCELLED
