"""ParallelFlowable.map: ``Flowable.map``'s subscriber on each rail.

A mapper that raises (or returns ``None``: ``TypeError``) cancels that rail's
upstream and ends the rail with the error. A ConditionalSubscriber rail keeps
the conditional path (``try_on_next``).

One subscriber per rail (``rail_subscriber``), subscribed by
:class:`~rxpy2._internal.operators.parallel.per_rail.ParallelPerRail`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from typing import Generic
from typing import TypeVar

from rxpy2._internal.fuseable import is_conditional
from rxpy2._internal.operators.flowable.flowable_map import MapConditionalSubscriber
from rxpy2._internal.operators.flowable.flowable_map import MapSubscriber
from rxpy2._internal.operators.parallel.per_rail import ParallelPerRail
from rxpy2.parallel.parallel_flowable import ParallelFlowable
from rxpy2.reactivestreams import Subscriber

__all__ = ["ParallelMap"]

T = TypeVar("T")
R = TypeVar("R")


class ParallelMap(ParallelPerRail[T, R], Generic[T, R]):
    __slots__ = ("mapper",)

    def __init__(self, source: ParallelFlowable[T], mapper: Callable[[T], R]) -> None:
        super().__init__(source)
        self.mapper = mapper

    def rail_subscriber(self, subscriber: Subscriber[R]) -> Subscriber[Any]:
        if is_conditional(subscriber):
            return MapConditionalSubscriber(subscriber, self.mapper)
        return MapSubscriber(subscriber, self.mapper)
