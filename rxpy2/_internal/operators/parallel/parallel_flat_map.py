"""ParallelFlowable.flat_map: ``Flowable.flat_map`` on each rail.

At subscription each rail gets a small Flowable, a :class:`RailInlet`, whose
only subscriber becomes that rail's upstream subscriber; ``inlet.flat_map(...)``
is subscribed with the rail's Subscriber, and the subscriber the flat_map
operator subscribed to the inlet is handed to the upstream ParallelFlowable as
the rail. So each rail behaves exactly as ``Flowable.flat_map`` does (requests,
``max_concurrency``, ``prefetch`` per inner Publisher, ``delay_errors``).

One subscriber per rail (``rail_subscriber``), subscribed by
:class:`~rxpy2._internal.operators.parallel.per_rail.ParallelPerRail`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from typing import Generic
from typing import TypeVar

from rxpy2._internal.operators.parallel.per_rail import ParallelPerRail
from rxpy2._internal.subscribers.cancelling import CancellingSubscriber
from rxpy2._internal.subscriptions.empty import EmptySubscription
from rxpy2.flowable import Flowable
from rxpy2.parallel.parallel_flowable import ParallelFlowable
from rxpy2.reactivestreams import Publisher
from rxpy2.reactivestreams import Subscriber

__all__ = ["ParallelFlatMap", "RailInlet"]

T = TypeVar("T")
R = TypeVar("R")


class RailInlet(Flowable[T], Generic[T]):
    """A Flowable over one rail: it keeps the one subscriber it gets (in ``subscriber``)
    for the rail to be subscribed with."""

    __slots__ = ("subscriber",)

    def __init__(self) -> None:
        self.subscriber: Subscriber[T] | None = None

    def subscribe_actual(self, subscriber: Subscriber[T]) -> None:
        if self.subscriber is not None:
            EmptySubscription.error(RuntimeError("a rail allows only one subscriber"), subscriber)
            return
        self.subscriber = subscriber


class ParallelFlatMap(ParallelPerRail[T, R], Generic[T, R]):
    __slots__ = ("mapper", "delay_errors", "max_concurrency", "prefetch")

    def __init__(self, source: ParallelFlowable[T], mapper: Callable[[T], Publisher[R]],
                 delay_errors: bool, max_concurrency: int, prefetch: int) -> None:
        super().__init__(source)
        self.mapper = mapper
        self.delay_errors = delay_errors
        self.max_concurrency = max_concurrency
        self.prefetch = prefetch

    def rail_subscriber(self, subscriber: Subscriber[R]) -> Subscriber[Any]:
        inlet: RailInlet[T] = RailInlet()
        inlet.flat_map(self.mapper, max_concurrency=self.max_concurrency,
                       delay_errors=self.delay_errors,
                       buffer_size=self.prefetch).subscribe(subscriber)
        p = inlet.subscriber
        return p if p is not None else CancellingSubscriber()  # the rail is cancelled at once
