"""The subscriber side shared by the timed operators that request their upstream without bound.

``buffer_time``, ``debounce``, ``sample``, ``throttle_first`` and
``throttle_latest`` cannot slow their upstream down (a timer decides when an
item is due): they request ``LONG_MAX`` once subscribed and count the
downstream's requests only to tell whether a due emission may go out, or must
fail the stream with ``MissingBackpressureException``.

* :class:`UnboundedSubscriber`: the ``on_backpressure_*`` operators' base (the
  unbounded request, ``requested``, ``request`` adds to it) whose ``on_start``
  gives the downstream the subscriber first, then starts the timer
  (:meth:`UnboundedSubscriber.start_timer`) and requests without bound.
* :class:`TimedDrainSubscriber`: also serializes its emissions with a
  :class:`~rxpy2._internal.drain.Drain` (the upstream's thread and the timer's
  only record state and drain; the drain's owner signals, never under a lock).
  ``cancel`` is :class:`DrainSubscriptionMixin`'s;
  :meth:`TimedDrainSubscriber.fail_for_lack_of_requests` ends the stream when a
  due emission finds no demand. Each operator keeps its own ``drain`` (its
  per-item path).
"""

from __future__ import annotations

from typing import Any
from typing import Generic
from typing import TypeVar

from rxpy2._internal.operators.flowable.flowable_on_backpressure import BaseUnboundedSubscriber
from rxpy2._internal.subscribers.drain_support import DrainSubscriptionMixin
from rxpy2.exceptions import MissingBackpressureException
from rxpy2.operator_kit import Drain
from rxpy2.reactivestreams import LONG_MAX
from rxpy2.reactivestreams import Subscriber

__all__ = ["TimedDrainSubscriber", "UnboundedSubscriber"]

T = TypeVar("T")
R = TypeVar("R")


class UnboundedSubscriber(BaseUnboundedSubscriber[Any], Generic[T, R]):
    """Requests the upstream without bound once the downstream has the subscriber and the
    timer runs; ``requested`` is the downstream's demand (items ``T`` in, ``R`` out)."""

    __slots__ = ()

    def on_start(self) -> bool:
        # the downstream first, then the timer and the unbounded request
        self.downstream.on_subscribe(self)
        if self.start_timer():
            self.upstream.request(LONG_MAX)
        return False

    def start_timer(self) -> bool:
        """Start the timer that runs for the whole subscription, if the operator has one;
        False: the downstream cancelled in ``on_subscribe``, nothing is requested."""
        return True


class TimedDrainSubscriber(DrainSubscriptionMixin, UnboundedSubscriber[T, R], Generic[T, R]):
    """An :class:`UnboundedSubscriber` whose emissions and terminal signal go out in
    ``drain`` (by the owner of ``gate``; a terminal signal or a cancel keeps
    the drain for good). ``error`` is the upstream's error, ``cancelled`` set by
    ``cancel`` and by a failure for lack of demand.

    A subclass writes ``drain``, ``cancel_upstream`` (cancel the upstream,
    release the timers) and ``cleanup`` (drop what waits for the drain)."""

    __slots__ = ("gate", "error", "cancelled")

    def __init__(self, downstream: Subscriber[R]) -> None:
        super().__init__(downstream)
        self.gate = Drain()
        self.error: BaseException | None = None
        self.cancelled = False

    # a request only adds to the demand (not DrainSubscriptionMixin's: no drain, a due
    # emission never waits for one)
    request = BaseUnboundedSubscriber.request

    def drain(self) -> None:
        """Emit what is due under demand, then the terminal signal (a pass per signal;
        written by each operator, not DrainSubscriptionMixin's: one call per emission)."""
        raise NotImplementedError

    def cancel_upstream(self) -> None:
        raise NotImplementedError

    def cleanup(self) -> None:
        raise NotImplementedError

    def fail_for_lack_of_requests(self, error: MissingBackpressureException) -> None:
        """No demand for a due emission: cancel everything, drop what waits, signal
        ``error`` (the drain's owner, which keeps the drain)."""
        self.cancelled = True
        self.cancel_upstream()
        self.cleanup()
        self.downstream.on_error(error)
