"""ParallelFlowable.filter(predicate, error_handling=...): RxJava 2's ParallelFilterTry.

An item the predicate rejects, or one skipped after the predicate raised, costs
the rail a ``request(1)`` upstream (``try_on_next -> False`` for a conditional
upstream). A predicate that raises is handed to the error handler
(:mod:`~rxpy2._internal.operators.parallel.failure_handling`).
"""

from __future__ import annotations

from typing import Any
from typing import Generic
from typing import TypeVar

from rxpy2._internal.operators.parallel.failure_handling import ParallelTry
from rxpy2._internal.operators.parallel.failure_handling import TryRailSubscriber

__all__ = ["ParallelFilterTry"]

T = TypeVar("T")


class FilterTrySubscriber(TryRailSubscriber[T, T], Generic[T]):
    __slots__ = ()

    def attempt(self, item: T) -> Any:
        return self.fn(item)

    def emit(self, item: T, result: Any) -> bool:
        return self.deliver(item) if result else False


class ParallelFilterTry(ParallelTry[T, T], Generic[T]):
    __slots__ = ()

    subscriber_type = FilterTrySubscriber
