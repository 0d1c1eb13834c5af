"""Flowable.ignore_elements: only the terminal event, as a Completable (requests everything)."""

from __future__ import annotations

from typing import Any, Generic, TypeVar

from rxpy2 import plugins
from rxpy2.completable import Completable
from rxpy2.disposables import Disposable
from rxpy2.internal.fuseable import HasUpstreamPublisher
from rxpy2.internal.helpers.subscription_helper import CANCELLED, SubscriptionHelper
from rxpy2.observers import CompletableObserver, FlowableSubscriber
from rxpy2.reactivestreams import LONG_MAX, Publisher, Subscription

__all__ = ["FlowableIgnoreElementsCompletable"]

T = TypeVar("T")


class FlowableIgnoreElementsCompletable(Completable, HasUpstreamPublisher[T], Generic[T]):
    __slots__ = ("source",)

    def __init__(self, source: Publisher[T]) -> None:
        self.source = source

    def subscribe_actual(self, observer: CompletableObserver) -> None:
        self.source.subscribe(IgnoreElementsSubscriber(observer))


class IgnoreElementsSubscriber(FlowableSubscriber[Any], Disposable):
    """Drops the items; disposing it cancels the upstream."""

    __slots__ = ("downstream", "upstream", "done")

    def __init__(self, downstream: CompletableObserver) -> None:
        self.downstream = downstream
        self.upstream: Subscription | None = None
        self.done = False

    def on_subscribe(self, s: Subscription) -> None:
        if SubscriptionHelper.validate(self.upstream, s):
            self.upstream = s
            self.downstream.on_subscribe(self)
            s.request(LONG_MAX)

    def on_next(self, item: Any) -> None:
        pass

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
        self.downstream.on_complete()

    def dispose(self) -> None:
        self.upstream.cancel()  # type: ignore[union-attr]
        self.upstream = CANCELLED

    def is_disposed(self) -> bool:
        return self.upstream is CANCELLED
