"""Flowable.last / last_element / last_or_error: the last item, as a Single or a Maybe.

The upstream is requested unbounded and only its latest item is kept. An empty
stream gives an empty Maybe, or for the Single the default item
(``IndexError`` when there is none). The inner subscriber is the Disposable the
observer receives: disposing it cancels the upstream.
"""

from __future__ import annotations

from typing import Any, Generic, TypeVar

from rxpy2.disposables import Disposable
from rxpy2.internal.fuseable import HasUpstreamPublisher
from rxpy2.internal.helpers.subscription_helper import CANCELLED, SubscriptionHelper
from rxpy2.maybe import Maybe
from rxpy2.observers import FlowableSubscriber, MaybeObserver, SingleObserver
from rxpy2.reactivestreams import LONG_MAX, Publisher, Subscription
from rxpy2.single import Single

__all__ = ["FlowableLastMaybe", "FlowableLastSingle"]

T = TypeVar("T")


class FlowableLastMaybe(Maybe[T], HasUpstreamPublisher[T], Generic[T]):
    __slots__ = ("source",)

    def __init__(self, source: Publisher[T]) -> None:
        self.source = source

    def subscribe_actual(self, observer: MaybeObserver[T]) -> None:
        self.source.subscribe(LastSubscriber(observer, None, True))


class FlowableLastSingle(Single[T], HasUpstreamPublisher[T], Generic[T]):
    __slots__ = ("source", "default_item")

    def __init__(self, source: Publisher[T], default_item: T | None) -> None:
        self.source = source
        self.default_item = default_item

    def subscribe_actual(self, observer: SingleObserver[T]) -> None:
        self.source.subscribe(LastSubscriber(observer, self.default_item, False))


class LastSubscriber(FlowableSubscriber[T], Disposable, Generic[T]):
    __slots__ = ("downstream", "default_item", "maybe", "upstream", "item")

    def __init__(self, downstream: Any, default_item: T | None, maybe: bool) -> None:
        self.downstream = downstream
        self.default_item = default_item
        self.maybe = maybe
        self.upstream: Subscription | None = None
        self.item: T | None = None

    def on_subscribe(self, s: Subscription) -> None:
        if SubscriptionHelper.validate(self.upstream, s):
            self.upstream = s
            self.downstream.on_subscribe(self)
            s.request(LONG_MAX)

    def on_next(self, item: T) -> None:
        self.item = item

    def on_error(self, error: BaseException) -> None:
        self.item = None
        self.upstream = CANCELLED
        self.downstream.on_error(error)

    def on_complete(self) -> None:
        self.upstream = CANCELLED
        v = self.item
        if v is not None:
            self.item = None
            self.downstream.on_success(v)
            return
        if self.maybe:
            self.downstream.on_complete()
            return
        v = self.default_item
        if v is not None:
            self.downstream.on_success(v)
        else:
            self.downstream.on_error(IndexError("The sequence is empty"))

    def dispose(self) -> None:
        self.upstream.cancel()  # type: ignore[union-attr]
        self.upstream = CANCELLED

    def is_disposed(self) -> bool:
        return self.upstream is CANCELLED
