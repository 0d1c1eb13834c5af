"""The Subscription that emits one constant item on the first valid request."""

from __future__ import annotations

from typing import Generic
from typing import TypeVar

from rxpy2._internal.atomic import AtomicInteger
from rxpy2._internal.fuseable import SYNC
from rxpy2._internal.fuseable import QueueSubscription
from rxpy2._internal.helpers.demand import validate_request
from rxpy2.reactivestreams import Subscriber

__all__ = ["ScalarSubscription"]

T = TypeVar("T")

_NO_REQUEST = 0
_REQUESTED = 1
_CANCELLED = 2


class ScalarSubscription(QueueSubscription[T], Generic[T]):
    """Emits ``value`` then completes on the first request; fuses in SYNC mode."""

    __slots__ = ("subscriber", "value", "_state")

    def __init__(self, subscriber: Subscriber[T], value: T) -> None:
        self.subscriber = subscriber
        self.value = value
        self._state = AtomicInteger(_NO_REQUEST)

    def request(self, n: int) -> None:
        if not (n := validate_request(n)):
            return
        if self._state.compare_and_set(_NO_REQUEST, _REQUESTED):
            s = self.subscriber
            s.on_next(self.value)
            if self._state.get() != _CANCELLED:
                s.on_complete()

    def cancel(self) -> None:
        self._state.set(_CANCELLED)

    def is_cancelled(self) -> bool:
        return self._state.get() == _CANCELLED

    def request_fusion(self, mode: int) -> int:
        return mode & SYNC

    def poll(self) -> T | None:
        if self._state.get() == _NO_REQUEST:
            self._state.lazy_set(_REQUESTED)
            return self.value
        return None

    def is_empty(self) -> bool:
        return self._state.get() != _NO_REQUEST

    def clear(self) -> None:
        self._state.lazy_set(_REQUESTED)

    def __repr__(self) -> str:
        st = self._state.get()
        name = "waiting" if st == _NO_REQUEST else "requested" if st == _REQUESTED else "cancelled"
        return f"ScalarSubscription({name})"
