"""Flowable.take_while: items while a predicate holds.

The first item that fails the predicate is not emitted: it cancels the upstream
and completes. A raising predicate cancels the upstream and signals its error.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, TypeVar

from rxpy2 import plugins
from rxpy2.flowable import Flowable
from rxpy2.internal.fuseable import HasUpstreamPublisher
from rxpy2.internal.helpers.subscription_helper import SubscriptionHelper
from rxpy2.observers import FlowableSubscriber
from rxpy2.reactivestreams import Publisher, Subscriber, Subscription

__all__ = ["FlowableTakeWhile"]

T = TypeVar("T")


class FlowableTakeWhile(Flowable[T], HasUpstreamPublisher[T], Generic[T]):
    __slots__ = ("source", "predicate")

    def __init__(self, source: Publisher[T], predicate: Callable[[T], bool]) -> None:
        self.source = source
        self.predicate = predicate

    def subscribe_actual(self, subscriber: Subscriber[T]) -> None:
        self.source.subscribe(TakeWhileSubscriber(subscriber, self.predicate))


class TakeWhileSubscriber(FlowableSubscriber[T], Subscription, Generic[T]):
    __slots__ = ("downstream", "predicate", "upstream", "done")

    def __init__(self, downstream: Subscriber[T], predicate: Callable[[T], bool]) -> None:
        self.downstream = downstream
        self.predicate = predicate
        self.upstream: Subscription | None = None
        self.done = False

    def on_subscribe(self, s: Subscription) -> None:
        if SubscriptionHelper.validate(self.upstream, s):
            self.upstream = s
            self.downstream.on_subscribe(self)

    def on_next(self, item: T) -> None:
        if self.done:
            return
        try:
            b = self.predicate(item)
        except Exception as e:
            self.upstream.cancel()  # type: ignore[union-attr]
            self.on_error(e)
            return
        if not b:
            self.done = True
            self.upstream.cancel()  # type: ignore[union-attr]
            self.downstream.on_complete()
            return
        self.downstream.on_next(item)

    def on_error(self, error: BaseException) -> None:
        if self.done:
            plugins.on_error(error)
            return
        self.done = True
        self.downstream.on_error(error)

    def on_complete(self) -> None:
        if not self.done:
            self.done = True
            self.downstream.on_complete()

    def request(self, n: int) -> None:
        self.upstream.request(n)  # type: ignore[union-attr]

    def cancel(self) -> None:
        self.upstream.cancel()  # type: ignore[union-attr]
