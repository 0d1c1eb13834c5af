"""Post-complete: emit the items buffered when the upstream completed, under demand.

Used by operators that hold items at completion (``take_last``, ``buffer`` with
overlap, ``on_error_return`` ...): the highest bit of the ``requested`` counter
(``COMPLETED_MASK``, the sign bit) marks "completed"; the low 63 bits stay the demand. A
``request`` that finds the mark set drains; completion that finds demand drains.
Either side can run on any thread; exactly one of them drains at a time.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rxpy2._internal.atomic import AtomicLong
from rxpy2.reactivestreams import LONG_MAX
from rxpy2.reactivestreams import LONG_MIN
from rxpy2.reactivestreams import Subscriber

__all__ = ["COMPLETED_MASK", "REQUESTED_MASK", "QueueDrainHelper"]

# Java's sign bit: the counter stays a signed 64-bit value, so both atomic backends hold it.
COMPLETED_MASK = LONG_MIN
REQUESTED_MASK = LONG_MAX


class QueueDrainHelper:
    """Static post-complete helpers. ``queue`` is a ``collections.deque``-like object."""

    __slots__ = ()

    COMPLETED_MASK = COMPLETED_MASK
    REQUESTED_MASK = REQUESTED_MASK

    @staticmethod
    def post_complete_drain(n: int, actual: Subscriber[Any], queue: Any, state: AtomicLong,
                            is_cancelled: Callable[[], bool]) -> bool:
        """Drain while demand lasts; True when done (queue emptied and on_complete sent)."""
        e = n & COMPLETED_MASK
        while True:
            while e != n:
                if is_cancelled():
                    return True
                if not queue:
                    actual.on_complete()
                    return True
                actual.on_next(queue.popleft())
                e += 1
            if is_cancelled():
                return True
            if not queue:
                actual.on_complete()
                return True
            n = state.get()
            if n == e:
                n = state.add_and_get(-(e & REQUESTED_MASK))
                if (n & REQUESTED_MASK) == 0:
                    return False
                e = n & COMPLETED_MASK

    @staticmethod
    def post_complete_request(n: int, actual: Subscriber[Any], queue: Any, state: AtomicLong,
                              is_cancelled: Callable[[], bool]) -> bool:
        """Handle ``request(n)``; True if this call is (or was) the post-complete drainer.

        Returns False when the stream has not completed yet: the caller then
        requests from upstream as usual.
        """
        r = state.get_and_add_cap_low(n)  # one atomic operation; the mark stays
        if r == COMPLETED_MASK:  # completed with no demand: we drain
            QueueDrainHelper.post_complete_drain(n | COMPLETED_MASK, actual, queue,
                                                 state, is_cancelled)
            return True
        return (r & COMPLETED_MASK) != 0

    @staticmethod
    def post_complete(actual: Subscriber[Any], queue: Any, state: AtomicLong,
                      is_cancelled: Callable[[], bool]) -> None:
        """Mark completion; drain now if there is demand, else leave it to the next request."""
        if not queue:
            actual.on_complete()
            return
        if QueueDrainHelper.post_complete_drain(state.get(), actual, queue, state, is_cancelled):
            return
        r = state.get_and_or(COMPLETED_MASK)  # one atomic operation
        if (r & COMPLETED_MASK) != 0:
            return
        if r != 0:  # demand arrived: drain it
            QueueDrainHelper.post_complete_drain(r | COMPLETED_MASK, actual, queue, state,
                                                 is_cancelled)
