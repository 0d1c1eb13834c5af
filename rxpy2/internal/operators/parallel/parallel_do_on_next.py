"""ParallelFlowable.do_on_next: ``Flowable.do_on_next``'s subscriber on each rail.

A callback that raises cancels that rail's upstream and ends the rail with the error.

One subscriber per rail (``rail_subscriber``), subscribed by
:class:`~rxpy2.internal.operators.parallel.per_rail.ParallelPerRail`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, TypeVar

from rxpy2.internal.fuseable import is_conditional
from rxpy2.internal.operators.flowable.flowable_do_on_each import (
    DoOnEachConditionalSubscriber,
    DoOnEachSubscriber,
)
from rxpy2.internal.operators.parallel.per_rail import ParallelPerRail
from rxpy2.parallel.parallel_flowable import ParallelFlowable
from rxpy2.reactivestreams import Subscriber

__all__ = ["ParallelDoOnNext"]

T = TypeVar("T")


class ParallelDoOnNext(ParallelPerRail[T, T], Generic[T]):
    __slots__ = ("on_next",)

    def __init__(self, source: ParallelFlowable[T], on_next: Callable[[T], Any]) -> None:
        super().__init__(source)
        self.on_next = on_next

    def rail_subscriber(self, subscriber: Subscriber[T]) -> Subscriber[Any]:
        if is_conditional(subscriber):
            return DoOnEachConditionalSubscriber(subscriber, self.on_next, None, None, None)
        return DoOnEachSubscriber(subscriber, self.on_next, None, None, None)
