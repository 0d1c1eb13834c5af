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
* :class:`TimestampedQueueSubscriber`: ``take_last_time`` and ``skip_last_time``'s base,
  which queues every item with the scheduler's ``now()`` and ends the stream from one
  place (:meth:`TimestampedQueueSubscriber.terminated`); each keeps its ``on_next`` and
  its ``drain``, where they differ.
"""

from __future__ import annotations

from typing import Any
from typing import Generic
from typing import TypeVar

from rxpy2._internal.operators.flowable.flowable_on_backpressure import BaseUnboundedSubscriber
from rxpy2._internal.queues import SpscLinkedArrayQueue
from rxpy2._internal.subscribers.drain_support import DrainSubscriptionMixin
from rxpy2._internal.subscribers.operator_subscriber import UnboundedStart
from rxpy2.exceptions import MissingBackpressureException
from rxpy2.operator_kit import AtomicLong
from rxpy2.operator_kit import Drain
from rxpy2.operator_kit import OperatorSubscriber
from rxpy2.operator_kit import null_or_late_error
from rxpy2.reactivestreams import LONG_MAX
from rxpy2.reactivestreams import Subscriber
from rxpy2.schedulers.scheduler import Scheduler

__all__ = ["TimedDrainSubscriber", "TimestampedQueueSubscriber", "UnboundedSubscriber"]

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


class TimestampedQueueSubscriber(UnboundedStart, DrainSubscriptionMixin, OperatorSubscriber[T, T], Generic[T]):
    """Consumes the upstream at once (``request(LONG_MAX)``) into ``queue``, (timestamp,
    item) pairs oldest first, and emits from it under the downstream's demand in the
    subclass's ``drain``. ``done``: the upstream terminated (``error`` its error); the
    drain keeps the drain for good after the terminal signal."""

    __slots__ = ("span", "scheduler", "queue", "delay_error", "requested", "gate",
                 "cancelled", "error")

    def __init__(self, downstream: Subscriber[T], span: float, scheduler: Scheduler,
                 buffer_size: int, delay_error: bool) -> None:
        super().__init__(downstream)
        self.span = span
        self.scheduler = scheduler
        #: (timestamp, item) pairs, oldest first; ``buffer_size`` is its chunk size
        self.queue: SpscLinkedArrayQueue[tuple[float, T]] = SpscLinkedArrayQueue(buffer_size)
        self.delay_error = delay_error
        self.requested = AtomicLong()
        self.gate = Drain()
        self.cancelled = False
        self.error: BaseException | None = None

    def at_end(self, error: BaseException | None) -> None:
        """Called once, before ``done`` is set: the termination's hook on the queue."""

    def on_error(self, error: BaseException) -> None:
        if error is None or self.done:
            null_or_late_error(error)  # §2.13, §1.7
            return
        self.at_end(error)
        self.error = error
        self.done = True
        self.drain()

    def on_complete(self) -> None:
        if self.done:
            return
        self.at_end(None)
        self.done = True
        self.drain()

    def cancel(self) -> None:
        if not self.cancelled:
            self.cancelled = True
            self.upstream.cancel()
            if self.gate.enter():
                self.queue.clear()  # no drain runs: drop the items (the drain stays taken)

    def drain(self) -> None:
        raise NotImplementedError

    def terminated(self, done: bool, empty: bool) -> bool:
        """Whether the stream has ended (cancelled, or terminated and signalled now);
        ``empty``: nothing at the head of the queue may go out. Without ``delay_error``
        an error drops the queue and goes out at once; otherwise the queue is emptied
        first."""
        if self.cancelled:
            self.queue.clear()
            return True
        if not done:
            return False
        error = self.error
        if self.delay_error:
            if not empty:
                return False
        elif error is not None:
            self.queue.clear()
        elif not empty:
            return False
        if error is not None:
            self.downstream.on_error(error)
        else:
            self.downstream.on_complete()
        return True

    def __repr__(self) -> str:
        return f"{type(self).__name__}(queued={len(self.queue)}, done={self.done})"
