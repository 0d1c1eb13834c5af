"""ParallelFlowable.map(mapper, error_handling=...): RxJava 2's ParallelMapTry.

A mapper that raises (or returns ``None``: ``TypeError``) is handed to the
error handler, which retries, skips the item, stops or fails the rail
(:mod:`~rxpy2._internal.operators.parallel.failure_handling`).
"""

from __future__ import annotations

from typing import Any
from typing import Generic
from typing import TypeVar

from rxpy2._internal.helpers.function_names import returned_none
from rxpy2._internal.operators.parallel.failure_handling import ParallelTry
from rxpy2._internal.operators.parallel.failure_handling import TryRailSubscriber

__all__ = ["ParallelMapTry"]

T = TypeVar("T")
R = TypeVar("R")


class MapTrySubscriber(TryRailSubscriber[T, R], Generic[T, R]):
    __slots__ = ()

    def attempt(self, item: T) -> Any:
        v = self.fn(item)
        if v is None:
            raise returned_none("map", self.fn)  # §2.13: a failure the handler sees
        return v

    def emit(self, item: T, result: Any) -> bool:
        return self.deliver(result)


class ParallelMapTry(ParallelTry[T, R], Generic[T, R]):
    __slots__ = ()

    subscriber_type = MapTrySubscriber
