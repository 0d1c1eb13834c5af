"""Flowable.ignore_elements: only the terminal event, as a Completable (requests everything)."""

from __future__ import annotations

from typing import Any
from typing import Generic
from typing import TypeVar

from rxpy2._internal.fuseable import HasUpstreamPublisher
from rxpy2._internal.helpers.subscribe_loop import subscribe_tail
from rxpy2._internal.subscribers.to_observer import ToObserverSubscriber
from rxpy2.completable import Completable
from rxpy2.observers import CompletableObserver
from rxpy2.operator_kit import null_item
from rxpy2.reactivestreams import Publisher

__all__ = ["FlowableIgnoreElementsCompletable"]

T = TypeVar("T")


class FlowableIgnoreElementsCompletable(Completable, HasUpstreamPublisher[T], Generic[T]):
    __slots__ = ("source",)

    def __init__(self, source: Publisher[T]) -> None:
        self.source = source

    def subscribe_actual(self, observer: CompletableObserver) -> None:
        subscribe_tail(self.source, IgnoreElementsSubscriber(observer))


class IgnoreElementsSubscriber(ToObserverSubscriber[Any]):
    """Drops the items; disposing it cancels the upstream."""

    __slots__ = ()

    def on_next(self, item: Any) -> None:
        if item is None:
            raise null_item()  # §2.13
        pass

    def end(self, value: Any) -> None:
        self.downstream.on_complete()
