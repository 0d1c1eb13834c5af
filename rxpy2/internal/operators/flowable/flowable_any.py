"""Flowable.any: True as soon as an item satisfies the predicate (the upstream is then
cancelled), False when the stream completes without one; as a Single."""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, TypeVar

from rxpy2 import plugins
from rxpy2.disposables import Disposable
from rxpy2.internal.fuseable import HasUpstreamPublisher
from rxpy2.internal.helpers.subscription_helper import CANCELLED, SubscriptionHelper
from rxpy2.observers import FlowableSubscriber, SingleObserver
from rxpy2.reactivestreams import LONG_MAX, Publisher, Subscription
from rxpy2.single import Single

__all__ = ["FlowableAnySingle"]

T = TypeVar("T")


class FlowableAnySingle(Single[bool], HasUpstreamPublisher[T], Generic[T]):
    __slots__ = ("source", "predicate")

    def __init__(self, source: Publisher[T], predicate: Callable[[T], bool]) -> None:
        self.source = source
        self.predicate = predicate

    def subscribe_actual(self, observer: SingleObserver[bool]) -> None:
        self.source.subscribe(AnySubscriber(observer, self.predicate))


class AnySubscriber(FlowableSubscriber[T], Disposable, Generic[T]):
    __slots__ = ("downstream", "predicate", "upstream", "done")

    def __init__(self, downstream: SingleObserver[bool], predicate: Callable[[T], bool]) -> None:
        self.downstream = downstream
        self.predicate = predicate
        self.upstream: Subscription | None = None
        self.done = False

    def on_subscribe(self, s: Subscription) -> None:
        if SubscriptionHelper.validate(self.upstream, s):
            self.upstream = s
            self.downstream.on_subscribe(self)
            s.request(LONG_MAX)

    def on_next(self, item: T) -> None:
        if self.done:
            return
        try:
            b = self.predicate(item)
        except Exception as e:
            self.upstream.cancel()  # type: ignore[union-attr]
            self.on_error(e)
            return
        if b:
            self.done = True
            up = self.upstream
            self.upstream = CANCELLED
            up.cancel()  # type: ignore[union-attr]
            self.downstream.on_success(True)

    def on_error(self, error: BaseException) -> None:
        if self.done:
            plugins.on_error(error)
            return
        self.done = True
        self.upstream = CANCELLED
        self.downstream.on_error(error)

    def on_complete(self) -> None:
        if self.done:
            return
        self.done = True
        self.upstream = CANCELLED
        self.downstream.on_success(False)

    def dispose(self) -> None:
        self.upstream.cancel()  # type: ignore[union-attr]
        self.upstream = CANCELLED

    def is_disposed(self) -> bool:
        return self.upstream is CANCELLED
