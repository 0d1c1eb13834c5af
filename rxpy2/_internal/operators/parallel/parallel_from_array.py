"""ParallelFlowable.from_publishers: each given Publisher is one rail."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Generic
from typing import TypeVar

from rxpy2.parallel.parallel_flowable import ParallelFlowable
from rxpy2.reactivestreams import Publisher
from rxpy2.reactivestreams import Subscriber

__all__ = ["ParallelFromArray"]

T = TypeVar("T")


class ParallelFromArray(ParallelFlowable[T], Generic[T]):
    __slots__ = ("sources",)

    def __init__(self, sources: Sequence[Publisher[T]]) -> None:
        self.sources = tuple(sources)

    @property
    def parallelism(self) -> int:
        return len(self.sources)

    def subscribe_actual(self, subscribers: list[Subscriber[T]]) -> None:
        for source, subscriber in zip(self.sources, subscribers, strict=True):
            source.subscribe(subscriber)
