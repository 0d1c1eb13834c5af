"""ParallelFlowable.filter: ``Flowable.filter``'s subscriber on each rail.

A dropped item costs the rail a ``request(1)`` upstream (or, under a
ConditionalSubscriber upstream, ``try_on_next -> False``). A predicate that
raises cancels that rail's upstream and ends the rail with the error.

One subscriber per rail (``rail_subscriber``), subscribed by
:class:`~rxpy2._internal.operators.parallel.per_rail.ParallelPerRail`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from typing import Generic
from typing import TypeVar

from rxpy2._internal.fuseable import is_conditional
from rxpy2._internal.operators.flowable.flowable_filter import FilterConditionalSubscriber
from rxpy2._internal.operators.flowable.flowable_filter import FilterSubscriber
from rxpy2._internal.operators.parallel.per_rail import ParallelPerRail
from rxpy2.parallel.parallel_flowable import ParallelFlowable
from rxpy2.reactivestreams import Subscriber

__all__ = ["ParallelFilter"]

T = TypeVar("T")


class ParallelFilter(ParallelPerRail[T, T], Generic[T]):
    __slots__ = ("predicate",)

    def __init__(self, source: ParallelFlowable[T], predicate: Callable[[T], bool]) -> None:
        super().__init__(source)
        self.predicate = predicate

    def rail_subscriber(self, subscriber: Subscriber[T]) -> Subscriber[Any]:
        if is_conditional(subscriber):
            return FilterConditionalSubscriber(subscriber, self.predicate)
        return FilterSubscriber(subscriber, self.predicate)
