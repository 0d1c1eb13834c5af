"""Base classes: a QueueSubscription that refuses ``offer``, and a cancel-only flag."""

from __future__ import annotations

from typing import Generic
from typing import TypeVar

from rxpy2._internal.atomic import AtomicBoolean
from rxpy2._internal.fuseable import NONE
from rxpy2._internal.fuseable import QueueSubscription
from rxpy2._internal.helpers.demand import validate_request
from rxpy2.reactivestreams import Subscription

__all__ = ["BasicQueueSubscription", "BooleanSubscription"]

T = TypeVar("T")


class BasicQueueSubscription(QueueSubscription[T], Generic[T]):
    """A QueueSubscription base with no fusion by default and ``offer`` refused."""

    __slots__ = ()

    def request_fusion(self, mode: int) -> int:
        return NONE

    def poll(self) -> T | None:
        return None

    def is_empty(self) -> bool:
        """Return True: a subscription that grants no fusion has nothing to poll."""
        return True

    def clear(self) -> None:
        """Do nothing: there is no queue to clear."""
        pass

    def offer(self, item: T) -> bool:
        """Raise ``NotImplementedError``: nothing is offered to a fused subscription."""
        raise NotImplementedError("Should not be called")


class BooleanSubscription(Subscription):
    """A Subscription that only remembers whether it was cancelled (requests are validated)."""

    __slots__ = ("_cancelled",)

    def __init__(self) -> None:
        self._cancelled = AtomicBoolean(False)

    def request(self, n: int) -> None:
        validate_request(n)

    def cancel(self) -> None:
        self._cancelled.set(True)

    def is_cancelled(self) -> bool:
        return self._cancelled.get()

    def __repr__(self) -> str:
        return f"BooleanSubscription(cancelled={self.is_cancelled()})"
