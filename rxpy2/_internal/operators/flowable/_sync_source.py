"""SyncSourceSubscription: what ``range``, ``from_array`` and ``from_iterable`` share.

The subscription emits on the thread that calls ``request``. Only the call that
moves the demand off zero emits (§3.3: the others just add to it, and the
running loop picks that up): ``request(LONG_MAX)`` runs :meth:`fast_path`, which
ignores demand, any other amount :meth:`slow_path`. Cancelling sets a flag the
loops check before each item. It fuses in SYNC mode (the consumer calls ``poll``).

A subclass implements ``fast_path``, ``slow_path`` and the QueueSubscription
methods (``poll``, ``is_empty``, ``clear``).
"""

from __future__ import annotations

from typing import Any
from typing import Generic
from typing import TypeVar

from rxpy2._internal.atomic import AtomicLong
from rxpy2._internal.fuseable import SYNC
from rxpy2._internal.subscriptions.basic import BasicQueueSubscription
from rxpy2.operator_kit import add_request
from rxpy2.operator_kit import validate_request
from rxpy2.reactivestreams import LONG_MAX
from rxpy2.reactivestreams import Subscriber

__all__ = ["SyncSourceSubscription"]

T = TypeVar("T")


class SyncSourceSubscription(BasicQueueSubscription[T], Generic[T]):
    __slots__ = ("downstream", "cancelled", "requested")

    def __init__(self, downstream: Subscriber[T]) -> None:
        self.downstream: Any = downstream
        self.cancelled = False
        self.requested = AtomicLong()

    def request(self, n: int) -> None:
        # already unbounded (a filter's replacement request(1) while the fast path runs):
        # nothing to add, no one to start; one read instead of the two calls below
        if self.requested.get() == LONG_MAX and type(n) is int and n > 0:
            return
        if n := validate_request(n):
            if add_request(self.requested, n) == 0:  # §3.3: one emitter at a time
                if n == LONG_MAX:
                    self.fast_path()
                else:
                    self.slow_path(n)

    def fast_path(self) -> None:
        """Emit everything, ignoring demand (it is unbounded)."""
        raise NotImplementedError

    def slow_path(self, r: int) -> None:
        """Emit under demand, starting with ``r`` requested."""
        raise NotImplementedError

    def cancel(self) -> None:
        self.cancelled = True

    def request_fusion(self, mode: int) -> int:
        return mode & SYNC
