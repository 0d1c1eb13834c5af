"""Flowable.collect: ``collector(container, item)`` per item into ``initial_supplier()``, as a Single.

The container is created per subscriber; the upstream is requested in full.
A collector that raises cancels the upstream and signals the error.
``to_list`` is a collect into a new list (:mod:`.flowable_to_list`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from typing import Generic
from typing import TypeVar

from rxpy2._internal.fuseable import HasUpstreamPublisher
from rxpy2._internal.helpers.fused_stage import FusedFold
from rxpy2._internal.helpers.fused_stage import declare_fold
from rxpy2._internal.helpers.subscribe_loop import subscribe_tail
from rxpy2._internal.subscribers.to_observer import ToObserverSubscriber
from rxpy2._internal.subscribers.to_observer import initial_value
from rxpy2.observers import SingleObserver
from rxpy2.operator_kit import null_or_late_item
from rxpy2.reactivestreams import Publisher
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
        u = initial_value(self.initial_supplier, "initial_supplier", observer)
        if u is not None:
            subscribe_tail(self.source, CollectSubscriber(observer, u, self.collector))


class CollectSubscriber(ToObserverSubscriber[T], Generic[T, U]):
    """``self.value`` is the container; completion signals it."""

    __slots__ = ("collector",)

    def __init__(self, downstream: SingleObserver[U], value: U,
                 collector: Callable[[U, T], Any]) -> None:
        super().__init__(downstream, value)
        self.collector = collector

    def fold_function(self) -> Any:
        return self.collector  # the fold's g (a fused chain folding into it)

    def on_next(self, item: T) -> None:
        if item is None or self.done:
            null_or_late_item(item)  # §2.13
            return
        try:
            self.collector(self.value, item)
        except Exception as e:
            self.fail(e)


#: a fused chain into collect (collect_into, to_list: ``g`` is list.append): ``g(acc, x)``
COLLECT_FOLD = FusedFold("collect", ["g(acc, x)"])
declare_fold(CollectSubscriber, COLLECT_FOLD)
