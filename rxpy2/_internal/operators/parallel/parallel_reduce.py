"""ParallelFlowable.reduce_with / collect: fold each rail into one item.

Each rail starts from its own ``seed_supplier()`` (called at subscription, once
per rail), requests everything from its upstream and, when the rail completes,
emits the accumulator under the rail's demand. A seed supplier that raises (or
returns ``None``) fails every rail before anything is subscribed; a reducer that
raises (or returns ``None``: ``TypeError``) cancels that rail's upstream and
ends the rail with the error.

One subscriber per rail (``rail_subscriber``), subscribed by
:class:`~rxpy2._internal.operators.parallel.per_rail.ParallelPerRail`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from typing import Generic
from typing import TypeVar

from rxpy2._internal.operators.parallel.per_rail import ParallelPerRail
from rxpy2._internal.subscribers.deferred_scalar import DeferredScalarSubscriber
from rxpy2.operator_kit import EmptySubscription
from rxpy2.operator_kit import null_item
from rxpy2.operator_kit import null_or_late_error
from rxpy2.operator_kit import subscribe_tail
from rxpy2.parallel.parallel_flowable import ParallelFlowable
from rxpy2.reactivestreams import Subscriber

__all__ = ["ParallelReduce", "collecting"]

T = TypeVar("T")
R = TypeVar("R")


def collecting(collector: Callable[[R, T], Any]) -> Callable[[R, T], R]:
    """A reducer that calls ``collector(container, item)`` and keeps the container."""
    def reducer(container: R, item: T) -> R:
        collector(container, item)
        return container
    return reducer


class ParallelReduce(ParallelPerRail[T, R], Generic[T, R]):
    __slots__ = ("seed_supplier", "reducer")

    def __init__(self, source: ParallelFlowable[T], seed_supplier: Callable[[], R],
                 reducer: Callable[[R, T], R]) -> None:
        super().__init__(source)
        self.seed_supplier = seed_supplier
        self.reducer = reducer

    def subscribe_actual(self, subscribers: list[Subscriber[R]]) -> None:
        try:
            parents = [self.rail_subscriber(a) for a in subscribers]
        except Exception as e:  # from seed_supplier: every rail fails, nothing is subscribed
            for s in subscribers:
                EmptySubscription.error(e, s)
            return
        subscribe_tail(self.source, parents)

    def rail_subscriber(self, subscriber: Subscriber[R]) -> Subscriber[Any]:
        seed = self.seed_supplier()
        if seed is None:
            raise TypeError("The seed_supplier returned None")
        return ReduceRailSubscriber(subscriber, seed, self.reducer)


class ReduceRailSubscriber(DeferredScalarSubscriber[T, R], Generic[T, R]):
    __slots__ = ("reducer", "done")

    def __init__(self, downstream: Subscriber[R], seed: R, reducer: Callable[[R, T], R]) -> None:
        super().__init__(downstream)
        self.value = seed
        self.has_value = True
        self.reducer = reducer
        self.done = False

    def on_next(self, item: T) -> None:
        if item is None:
            raise null_item()  # §2.13
        if self.done or self.is_cancelled():  # §2.8: items may still come after a cancel
            return
        try:
            v = self.reducer(self.value, item)  # type: ignore[arg-type]  # set by the first item
            if v is None:
                raise TypeError("The reducer returned None")
        except Exception as e:
            self.upstream.cancel()
            self.on_error(e)
            return
        self.value = v

    def on_error(self, error: BaseException) -> None:
        if error is None or self.done:
            null_or_late_error(error)  # §2.13, §1.7
            return
        self.done = True
        super().on_error(error)

    def on_complete(self) -> None:
        if not self.done:
            self.done = True
            super().on_complete()
