"""SinglePostCompleteSubscriber: relays items, then one extra item after upstream completes.

For operators that append a final item (``materialize``'s completion notice,
``on_error_return``'s fallback, ``start_with``'s reverse ``end_with`` ...). The
final item needs demand of its own: if there is none when upstream completes,
it waits for the next ``request``. The highest bit of the request counter marks
"completed, final item pending".

A subclass calls ``self.produced += 1`` for each item it relays and
:meth:`complete` with the final item.
"""

from __future__ import annotations

from typing import Generic, TypeVar

from rxpy2.internal.atomic import AtomicLong
from rxpy2.internal.helpers.backpressure_helper import BackpressureHelper
from rxpy2.internal.helpers.subscription_helper import SubscriptionHelper
from rxpy2.observers import FlowableSubscriber
from rxpy2.reactivestreams import LONG_MAX, LONG_MIN, Subscriber, Subscription

__all__ = ["SinglePostCompleteSubscriber"]

T = TypeVar("T")
R = TypeVar("R")

COMPLETE_MASK = LONG_MIN
REQUEST_MASK = LONG_MAX


class SinglePostCompleteSubscriber(FlowableSubscriber[T], Subscription, Generic[T, R]):
    def __init__(self, downstream: Subscriber[R]) -> None:
        self.downstream = downstream
        self.upstream: Subscription | None = None
        self.value: R | None = None
        self.produced = 0
        self.state = AtomicLong()

    def on_subscribe(self, s: Subscription) -> None:
        if SubscriptionHelper.validate(self.upstream, s):
            self.upstream = s
            self.downstream.on_subscribe(self)

    def complete(self, n: R) -> None:
        """Emit ``n`` and ``on_complete`` now if there is demand, else on the next request."""
        p = self.produced
        state = self.state
        if p != 0:
            BackpressureHelper.produced(state, p)
        while True:
            r = state.get()
            if r & COMPLETE_MASK:
                self.on_drop(n)
                return
            if r & REQUEST_MASK:
                state.lazy_set(COMPLETE_MASK + 1)
                self.downstream.on_next(n)
                self.downstream.on_complete()
                return
            self.value = n
            if state.compare_and_set(0, COMPLETE_MASK):
                return
            self.value = None

    def on_drop(self, n: R) -> None:
        """Hook: the final item could not be emitted (already completed)."""

    def request(self, n: int) -> None:
        if not SubscriptionHelper.validate_request(n):
            return
        state = self.state
        while True:
            r = state.get()
            if r & COMPLETE_MASK:
                if state.compare_and_set(COMPLETE_MASK, COMPLETE_MASK + 1):
                    v = self.value
                    self.value = None
                    self.downstream.on_next(v)  # type: ignore[arg-type]
                    self.downstream.on_complete()
                return
            u = BackpressureHelper.add_cap(r, n)
            if state.compare_and_set(r, u):
                self.upstream.request(n)  # type: ignore[union-attr]
                return

    def cancel(self) -> None:
        self.upstream.cancel()  # type: ignore[union-attr]
