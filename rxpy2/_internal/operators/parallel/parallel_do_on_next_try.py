"""ParallelFlowable.do_on_next(on_next, error_handling=...): RxJava 2's ParallelDoOnNextTry.

A callback that raises is handed to the error handler
(:mod:`~rxpy2._internal.operators.parallel.failure_handling`); the item goes on
once the callback returned.
"""

from __future__ import annotations

from typing import Any
from typing import Generic
from typing import TypeVar

from rxpy2._internal.operators.parallel.failure_handling import ParallelTry
from rxpy2._internal.operators.parallel.failure_handling import TryRailSubscriber

__all__ = ["ParallelDoOnNextTry"]

T = TypeVar("T")


class DoOnNextTrySubscriber(TryRailSubscriber[T, T], Generic[T]):
    __slots__ = ()

    def attempt(self, item: T) -> Any:
        self.fn(item)

    def emit(self, item: T, result: Any) -> bool:
        return self.deliver(item)

    def on_next(self, item: T) -> None:
        # RxJava 2: towards a plain rail Subscriber this variant asks for one more even
        # after STOP/ERROR cancelled the upstream (a no-op there, §3.6)
        if not self.try_on_next(item) and (not self.done or not self.conditional):
            self.upstream.request(1)


class ParallelDoOnNextTry(ParallelTry[T, T], Generic[T]):
    __slots__ = ()

    subscriber_type = DoOnNextTrySubscriber
