"""Flowable.count: the number of items, as a Single (requests everything upstream)."""

from __future__ import annotations

from typing import Any
from typing import Generic
from typing import TypeVar

from rxpy2._internal.fuseable import HasUpstreamPublisher
from rxpy2._internal.helpers.fused_stage import FusedFold
from rxpy2._internal.helpers.fused_stage import declare_fold
from rxpy2._internal.helpers.subscribe_loop import subscribe_tail
from rxpy2._internal.subscribers.to_observer import ToObserverSubscriber
from rxpy2.observers import SingleObserver
from rxpy2.operator_kit import null_item
from rxpy2.reactivestreams import Publisher
from rxpy2.single import Single

__all__ = ["FlowableCountSingle"]

T = TypeVar("T")


class FlowableCountSingle(Single[int], HasUpstreamPublisher[T], Generic[T]):
    __slots__ = ("source",)

    def __init__(self, source: Publisher[T]) -> None:
        self.source = source

    def subscribe_actual(self, observer: SingleObserver[int]) -> None:
        subscribe_tail(self.source, CountSubscriber(observer))


class CountSubscriber(ToObserverSubscriber[Any]):
    """Counts items in ``self.value``; disposing it cancels the upstream."""

    __slots__ = ()

    def __init__(self, downstream: SingleObserver[int]) -> None:
        super().__init__(downstream, 0)

    def on_next(self, item: Any) -> None:
        if item is None:
            raise null_item()  # §2.13
        self.value += 1


#: a fused chain into count
declare_fold(CountSubscriber, FusedFold("count", ["acc += 1"]))
