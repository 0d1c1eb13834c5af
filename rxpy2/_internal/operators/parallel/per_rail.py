"""ParallelPerRail: the base of the ParallelFlowable operators that work rail by rail.

``map``, ``filter``, ``do_on_next``, ``run_on``, ``flat_map`` and ``reduce_with``/
``collect`` keep their upstream ParallelFlowable in ``source`` and have its
``parallelism``. ``subscribe_actual`` makes one subscriber per rail,
``rail_subscriber(a)`` for the rail's Subscriber ``a`` (in rail order), and
subscribes ``source`` with them.
"""

from __future__ import annotations

from abc import abstractmethod
from typing import Any
from typing import Generic
from typing import TypeVar

from rxpy2._internal.helpers.subscribe_loop import subscribe_tail
from rxpy2.parallel.parallel_flowable import ParallelFlowable
from rxpy2.reactivestreams import Subscriber

__all__ = ["ParallelPerRail"]

T = TypeVar("T")
R = TypeVar("R")


class ParallelPerRail(ParallelFlowable[R], Generic[T, R]):
    __slots__ = ("source",)

    def __init__(self, source: ParallelFlowable[T]) -> None:
        self.source = source

    @property
    def parallelism(self) -> int:
        return self.source.parallelism

    def subscribe_actual(self, subscribers: list[Subscriber[R]]) -> None:
        subscribe_tail(self.source, [self.rail_subscriber(a) for a in subscribers])

    @abstractmethod
    def rail_subscriber(self, subscriber: Subscriber[R]) -> Subscriber[Any]:
        """The subscriber of one rail of ``source``, signalling ``subscriber``."""
