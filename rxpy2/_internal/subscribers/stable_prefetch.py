"""StablePrefetchSubscriber: queue-drain with a stable request pattern upstream.

Base of ``rebatch_requests`` and ``scan(seed)``. Whatever the downstream
requests, the upstream is asked for ``first_request`` items on subscription and
then for ``limit = prefetch - prefetch // 4`` more each time that many items
went downstream. Items wait in a bounded queue of ``prefetch``; one the
upstream sends beyond its requests finds it full and ends the stream with a
:class:`MissingBackpressureException`. Errors are not delayed: an error
overtakes the queued items. Cancelling clears the queue.

A subclass implements ``on_next``: ``queue.offer`` the item (:meth:`overflow`
when that fails) and :meth:`drain`, or, holding the drain itself, emit it
directly and run :meth:`drain_loop`. ``ParallelFlowable.run_on`` also overrides
:meth:`prepare` (its worker), :meth:`drain` (schedule a drain task on the
worker), :meth:`cleanup` and the drain loop (a ConditionalSubscriber rail).

``on_error``/``on_complete`` and ``request``/``cancel``/``drain`` come from
:mod:`rxpy2._internal.subscribers.drain_support`.
"""

from __future__ import annotations

from typing import Any
from typing import Generic
from typing import TypeVar

from rxpy2._internal.atomic import AtomicLong
from rxpy2._internal.drain import Drain
from rxpy2._internal.helpers.demand import produced
from rxpy2._internal.helpers.subscription_helper import UNSUBSCRIBED
from rxpy2._internal.queues import SpscArrayQueue
from rxpy2._internal.subscribers.drain_support import DrainSubscriptionMixin
from rxpy2._internal.subscribers.drain_support import DrainTerminalsMixin
from rxpy2._internal.subscribers.drain_support import missing_backpressure
from rxpy2._internal.subscribers.operator_subscriber import validate_upstream
from rxpy2.observers import FlowableSubscriber
from rxpy2.reactivestreams import LONG_MAX
from rxpy2.reactivestreams import Subscriber
from rxpy2.reactivestreams import Subscription

__all__ = ["StablePrefetchSubscriber"]

T = TypeVar("T")
R = TypeVar("R")


class StablePrefetchSubscriber(DrainTerminalsMixin, DrainSubscriptionMixin, FlowableSubscriber[T],
                               Subscription, Generic[T, R]):
    __slots__ = ("downstream", "upstream", "first_request", "limit", "queue", "requested",
                 "gate", "consumed", "done", "error", "cancelled")

    def __init__(self, downstream: Subscriber[R], prefetch: int, first_request: int) -> None:
        self.downstream = downstream
        self.upstream: Subscription = UNSUBSCRIBED
        self.first_request = first_request
        self.limit = prefetch - (prefetch >> 2)  # replenish after 75% went out
        self.queue: SpscArrayQueue[R] = SpscArrayQueue(prefetch)
        self.requested = AtomicLong()
        self.gate = Drain()
        self.consumed = 0  # items emitted since the last replenishing request (drain only)
        self.done = False
        self.error: BaseException | None = None
        self.cancelled = False

    def on_subscribe(self, s: Subscription) -> None:
        if validate_upstream(self.upstream, s):  # §2.13, §2.5
            self.upstream = s
            self.prepare()
            self.downstream.on_subscribe(self)
            s.request(self.first_request)

    def prepare(self) -> None:
        """The upstream is set; the downstream's ``on_subscribe`` comes next (a hook)."""

    def fail(self, error: BaseException) -> None:
        """A user function raised (or broke a rule): cancel the upstream, signal the error."""
        self.upstream.cancel()
        self.on_error(error)

    #: The operator's name in the MissingBackpressureException message (subclasses set it).
    operator_name = "a prefetching operator"

    def overflow(self) -> None:
        """``queue.offer`` failed: the upstream emitted more than it was asked for."""
        self.fail(missing_backpressure(self.operator_name, self.queue.capacity))

    def cancel_upstream(self) -> None:
        self.upstream.cancel()

    def cleanup(self) -> None:
        """After a cancel, by whoever holds the drain: the queue is ours to clear."""
        self.queue.clear()

    def drain_loop(self) -> None:
        """Emit queued items under demand; the caller owns ``gate`` (released at the end,
        kept for good after a terminal signal or a cancel)."""
        leave = self.gate.leave
        a = self.downstream
        q = self.queue
        poll = q.poll
        lim = self.limit
        c = self.consumed
        requested = self.requested
        while True:
            r = requested.get()
            e = 0
            while e != r:
                if self.cancelled:
                    q.clear()
                    return
                d = self.done
                if d and self.error is not None:  # errors are not delayed
                    q.clear()
                    self._signal_error(a)
                    return
                v = poll()
                if v is None:
                    if d:
                        a.on_complete()
                        return
                    break
                a.on_next(v)
                e += 1
                c += 1
                if c == lim:
                    c = 0
                    self.upstream.request(lim)
            if e == r:
                if self.cancelled:
                    q.clear()
                    return
                if self.done:
                    if self.error is not None:
                        q.clear()
                        self._signal_error(a)
                        return
                    if q.is_empty():
                        a.on_complete()
                        return
            if e != 0 and r != LONG_MAX:
                produced(requested, e)
            self.consumed = c
            if not leave():
                return

    def _signal_error(self, a: Subscriber[Any]) -> None:
        ex = self.error
        self.error = None
        a.on_error(ex)  # type: ignore[arg-type]  # an error was recorded before this
