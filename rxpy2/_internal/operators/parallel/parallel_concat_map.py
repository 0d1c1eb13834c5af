"""ParallelFlowable.concat_map / concat_map_delay_error: ``Flowable.concat_map`` on each rail.

Each rail gets ``Flowable.concat_map``'s own subscriber (as RxJava 2's
ParallelConcatMap uses ``FlowableConcatMap.subscribe``): the rail is asked for
``prefetch`` items, then 75% of that as they are mapped; one inner Publisher
runs at a time; errors are signalled at once (IMMEDIATE), when the running inner
ended (BOUNDARY) or when the rail and every inner ended (END).

One subscriber per rail (``rail_subscriber``), subscribed by
:class:`~rxpy2._internal.operators.parallel.per_rail.ParallelPerRail`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from typing import Generic
from typing import TypeVar

from rxpy2._internal.helpers.error_mode import ErrorMode
from rxpy2._internal.operators.flowable.flowable_concat_map import ConcatMapDelayed
from rxpy2._internal.operators.flowable.flowable_concat_map import ConcatMapImmediate
from rxpy2._internal.operators.parallel.per_rail import ParallelPerRail
from rxpy2.parallel.parallel_flowable import ParallelFlowable
from rxpy2.reactivestreams import Publisher
from rxpy2.reactivestreams import Subscriber

__all__ = ["ParallelConcatMap"]

T = TypeVar("T")
R = TypeVar("R")


class ParallelConcatMap(ParallelPerRail[T, R], Generic[T, R]):
    __slots__ = ("mapper", "prefetch", "error_mode")

    def __init__(self, source: ParallelFlowable[T], mapper: Callable[[T], Publisher[R]],
                 prefetch: int, error_mode: ErrorMode) -> None:
        super().__init__(source)
        self.mapper = mapper
        self.prefetch = prefetch
        self.error_mode = error_mode

    def rail_subscriber(self, subscriber: Subscriber[R]) -> Subscriber[Any]:
        if self.error_mode == ErrorMode.IMMEDIATE:
            return ConcatMapImmediate(subscriber, self.mapper, self.prefetch)
        return ConcatMapDelayed(subscriber, self.mapper, self.prefetch,
                                self.error_mode == ErrorMode.END)
