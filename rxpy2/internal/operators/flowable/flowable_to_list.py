"""Flowable.to_list: all items in a new list per subscriber, as a Single (requests everything)."""

from __future__ import annotations

from typing import Generic, TypeVar

from rxpy2 import plugins
from rxpy2.disposables import Disposable
from rxpy2.internal.fuseable import HasUpstreamPublisher
from rxpy2.internal.helpers.subscription_helper import CANCELLED, SubscriptionHelper
from rxpy2.observers import FlowableSubscriber, SingleObserver
from rxpy2.reactivestreams import LONG_MAX, Publisher, Subscription
from rxpy2.single import Single

__all__ = ["FlowableToListSingle"]

T = TypeVar("T")


class FlowableToListSingle(Single[list[T]], HasUpstreamPublisher[T], Generic[T]):
    __slots__ = ("source",)

    def __init__(self, source: Publisher[T]) -> None:
        self.source = source

    def subscribe_actual(self, observer: SingleObserver[list[T]]) -> None:
        self.source.subscribe(ToListSubscriber(observer))


class ToListSubscriber(FlowableSubscriber[T], Disposable, Generic[T]):
    __slots__ = ("downstream", "value", "append", "upstream", "done")

    def __init__(self, downstream: SingleObserver[list[T]]) -> None:
        self.downstream = downstream
        value: list[T] = []
        self.value: list[T] | None = value
        self.append = value.append
        self.upstream: Subscription | None = None
        self.done = False

    def on_subscribe(self, s: Subscription) -> None:
        if SubscriptionHelper.validate(self.upstream, s):
            self.upstream = s
            self.downstream.on_subscribe(self)
            s.request(LONG_MAX)

    def on_next(self, item: T) -> None:
        if not self.done:
            self.append(item)

    def on_error(self, error: BaseException) -> None:
        if self.done:
            plugins.on_error(error)
            return
        self.done = True
        self.value = None
        self.upstream = CANCELLED
        self.downstream.on_error(error)

    def on_complete(self) -> None:
        if self.done:
            return
        self.done = True
        self.upstream = CANCELLED
        v = self.value
        self.value = None
        self.downstream.on_success(v)  # type: ignore[arg-type]

    def dispose(self) -> None:
        self.upstream.cancel()  # type: ignore[union-attr]
        self.upstream = CANCELLED

    def is_disposed(self) -> bool:
        return self.upstream is CANCELLED
