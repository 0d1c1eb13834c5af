"""Flowable.collect: ``collector(container, item)`` per item into ``initial_supplier()``, as a Single.

The container is created per subscriber; the upstream is requested in full.
A collector that raises cancels the upstream and signals the error.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, TypeVar

from rxpy2 import plugins
from rxpy2.disposables import Disposable, Disposables
from rxpy2.internal.fuseable import HasUpstreamPublisher
from rxpy2.internal.helpers.subscription_helper import CANCELLED, SubscriptionHelper
from rxpy2.observers import FlowableSubscriber, SingleObserver
from rxpy2.reactivestreams import LONG_MAX, Publisher, Subscription
from rxpy2.single import Single

__all__ = ["FlowableCollectSingle"]

T = TypeVar("T")
U = TypeVar("U")


class FlowableCollectSingle(Single[U], HasUpstreamPublisher[T], Generic[T, U]):
    __slots__ = ("source", "initial_supplier", "collector")

    def __init__(self, source: Publisher[T], initial_supplier: Callable[[], U],
                 collector: Callable[[U, T], Any]) -> None:
        self.source = source
        self.initial_supplier = initial_supplier
        self.collector = collector

    def subscribe_actual(self, observer: SingleObserver[U]) -> None:
        try:
            u = self.initial_supplier()
            if u is None:
                raise TypeError("The initial_supplier returned None")
        except Exception as e:
            observer.on_subscribe(Disposables.disposed())
            observer.on_error(e)
            return
        self.source.subscribe(CollectSubscriber(observer, u, self.collector))


class CollectSubscriber(FlowableSubscriber[T], Disposable, Generic[T, U]):
    __slots__ = ("downstream", "collector", "value", "upstream", "done")

    def __init__(self, downstream: SingleObserver[U], value: U,
                 collector: Callable[[U, T], Any]) -> None:
        self.downstream = downstream
        self.collector = collector
        self.value: U | None = value
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
            self.collector(self.value, item)  # type: ignore[arg-type]
        except Exception as e:
            self.upstream.cancel()  # type: ignore[union-attr]
            self.on_error(e)

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
