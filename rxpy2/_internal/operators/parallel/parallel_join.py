"""ParallelFlowable.sequential: merge the rails into one Flowable.

One inner subscriber per rail asks its rail for ``prefetch`` items, then for
``limit = prefetch - prefetch // 4`` more each time that many went downstream,
and keeps the items the downstream has no demand for in a queue of ``prefetch``
(an item beyond that: ``MissingBackpressureException``). A drain loop, serialized
by a :class:`~rxpy2.operator_kit.Drain`, takes the items round-robin from the rails'
queues, one per rail per round, under the downstream's demand. Fast path: a
rail's ``on_next`` that enters the drain (nobody drains) with demand outstanding
emits directly, without touching the queue; else it queues the item and signals
the drain.

``sequential``: a rail's error cancels every rail and ends the Flowable at once
(the queued items are dropped); the same error arriving from several rails
(an upstream error reaches every rail) is signalled once, any other later error
goes to :func:`rxpy2.plugins.on_error`. ``sequential_delay_error``: the errors are
collected and signalled when every rail has ended and the queues are empty.

``request``/``cancel``/``drain`` of :class:`JoinSubscription` come from
:class:`~rxpy2._internal.subscribers.drain_support.DrainSubscriptionMixin`
(``cancel_upstream`` cancels every rail, ``cleanup`` clears their queues; after a
cancel whoever holds the drain cleans up and keeps it for good).
"""

from __future__ import annotations

from typing import Generic
from typing import TypeVar

from rxpy2 import plugins
from rxpy2._internal.subscribers.drain_support import DrainSubscriptionMixin
from rxpy2.exceptions import CompositeException
from rxpy2.exceptions import MissingBackpressureException
from rxpy2.flowable import Flowable
from rxpy2.observers import FlowableSubscriber
from rxpy2.operator_kit import AtomicInteger
from rxpy2.operator_kit import AtomicLong
from rxpy2.operator_kit import AtomicReference
from rxpy2.operator_kit import AtomicThrowable
from rxpy2.operator_kit import Drain
from rxpy2.operator_kit import SpscArrayQueue
from rxpy2.operator_kit import SubscriptionHelper
from rxpy2.operator_kit import null_item
from rxpy2.operator_kit import null_or_late_error
from rxpy2.operator_kit import produced
from rxpy2.operator_kit import subscribe_tail
from rxpy2.parallel.parallel_flowable import ParallelFlowable
from rxpy2.reactivestreams import LONG_MAX
from rxpy2.reactivestreams import Subscriber
from rxpy2.reactivestreams import Subscription

__all__ = ["ParallelJoin"]

T = TypeVar("T")


def _queue_full(prefetch: int) -> MissingBackpressureException:
    return MissingBackpressureException.for_operator(
        "sequential", f"the queue of {prefetch} items is full: a rail emitted more than it "
        "was asked for (it ignores backpressure, §1.1)",
        "increase prefetch or add on_backpressure_*() to the rails' sources")


class ParallelJoin(Flowable[T], Generic[T]):
    __slots__ = ("source", "prefetch", "delay_errors")

    def __init__(self, source: ParallelFlowable[T], prefetch: int, delay_errors: bool) -> None:
        self.source = source
        self.prefetch = prefetch
        self.delay_errors = delay_errors

    def subscribe_actual(self, subscriber: Subscriber[T]) -> None:
        parent: JoinSubscription[T] = JoinSubscription(
            subscriber, self.source.parallelism, self.prefetch, self.delay_errors)
        subscriber.on_subscribe(parent)
        subscribe_tail(self.source, parent.subscribers)


class JoinInnerSubscriber(FlowableSubscriber[T], Generic[T]):
    __slots__ = ("parent", "upstream", "prefetch", "limit", "produced", "queue", "done")

    def __init__(self, parent: JoinSubscription[T], prefetch: int) -> None:
        self.parent = parent
        self.upstream: AtomicReference[Subscription] = AtomicReference()
        self.prefetch = prefetch
        self.limit = prefetch - (prefetch >> 2)
        self.produced = 0  # items consumed since the last replenish (drain holder only)
        self.queue: SpscArrayQueue[T] = SpscArrayQueue(prefetch)
        self.done = False

    def on_subscribe(self, s: Subscription) -> None:
        SubscriptionHelper.set_once_request(self.upstream, s, self.prefetch)  # §2.13 None raises

    def on_next(self, item: T) -> None:
        if item is None:
            raise null_item()  # §2.13
        if not self.done:
            self.parent.inner_next(self, item)

    def on_error(self, error: BaseException) -> None:
        if error is None or self.done:
            null_or_late_error(error)  # §2.13, §1.7
            return
        self.done = True
        self.parent.inner_error(self, error)

    def on_complete(self) -> None:
        if not self.done:
            self.done = True
            self.parent.inner_complete()

    def request_one(self) -> None:
        """One item of this rail went downstream: replenish after ``limit`` of them."""
        p = self.produced + 1
        if p == self.limit:
            self.produced = 0
            s = self.upstream.get()  # set: an item came (or CANCELLED, which ignores it)
            if s is not None:
                s.request(p)
        else:
            self.produced = p

    def cancel(self) -> bool:
        return SubscriptionHelper.cancel(self.upstream)


class JoinSubscription(DrainSubscriptionMixin, Subscription, Generic[T]):
    __slots__ = ("downstream", "subscribers", "delay_errors", "errors", "requested", "gate",
                 "cancelled", "terminated", "done")

    def __init__(self, downstream: Subscriber[T], n: int, prefetch: int,
                 delay_errors: bool) -> None:
        self.downstream = downstream
        self.subscribers = [JoinInnerSubscriber(self, prefetch) for _ in range(n)]
        self.delay_errors = delay_errors
        self.errors = AtomicThrowable()
        self.requested = AtomicLong()
        self.gate = Drain()
        self.cancelled = False
        self.terminated = False
        self.done = AtomicInteger(n)  # rails not terminated yet

    # ---------------------------------------------------------------- downstream side
    def cancel_upstream(self) -> None:
        for inner in self.subscribers:
            inner.cancel()

    def cleanup(self) -> None:
        for inner in self.subscribers:
            inner.queue.clear()

    # ---------------------------------------------------------------- rails' side
    def inner_next(self, inner: JoinInnerSubscriber[T], item: T) -> None:
        if self.cancelled or self.terminated:  # late items of a cancelled rail
            return
        gate = self.gate
        if gate.is_free() and gate.enter():
            q = inner.queue
            requested = self.requested
            r = requested.get()
            if r != 0 and q.is_empty():
                # fast path: nobody drains, there is demand and nothing of this rail waits
                self.downstream.on_next(item)
                if r != LONG_MAX:
                    requested.add_and_get(-1)
                inner.request_one()
                if not gate.leave():
                    return
            else:
                if not q.offer(item):
                    self._overflow(inner)
                elif r == 0 and not gate.leave():
                    return
                # else: items of this rail wait and there is demand: drain them in order
        else:
            # queue first, then signal: a pass that starts after the signal sees the item
            if not inner.queue.offer(item):
                self._overflow(inner)
            if not gate.enter():
                return
        self.drain_loop()

    def _overflow(self, inner: JoinInnerSubscriber[T]) -> None:
        inner.cancel()
        inner.done = True  # whatever the rail signals from now on is ignored
        if self.delay_errors:
            self.errors.try_add_throwable_or_report(_queue_full(inner.prefetch))
            self.done.decrement_and_get()
        else:
            self._error(_queue_full(inner.prefetch))

    def inner_error(self, inner: JoinInnerSubscriber[T], error: BaseException) -> None:
        if not self.delay_errors:
            self._error(error)
            return
        current = self.errors.get()
        # an upstream error reaches every rail: keep it once
        if not (current is error or (isinstance(current, CompositeException)
                                     and any(x is error for x in current.exceptions))):
            self.errors.try_add_throwable_or_report(error)
        self.done.decrement_and_get()
        self.drain()

    def _error(self, error: BaseException) -> None:
        """Not delayed: the first error cancels every rail and ends the Flowable."""
        errors = self.errors
        if errors.compare_and_set(None, error):
            self.cancel_upstream()
            self.drain()
        elif error is not errors.get():  # the same upstream error from another rail: once
            plugins.on_error(error)

    def inner_complete(self) -> None:
        self.done.decrement_and_get()
        self.drain()

    def _terminate(self) -> bool:
        """At a point where no item can go out: signal the end if it has come."""
        if self.cancelled:
            self.cleanup()
            return True
        if not self.delay_errors:
            ex = self.errors.get()
            if ex is not None:
                self.terminated = True
                self.cleanup()
                self.downstream.on_error(ex)
                return True
        if self.done.get() == 0:
            for inner in self.subscribers:
                if not inner.queue.is_empty():
                    return False
            self.terminated = True
            ex = self.errors.terminate() if self.delay_errors else None
            if ex is not None:
                self.downstream.on_error(ex)
            else:
                self.downstream.on_complete()
            return True
        return False

    def drain_loop(self) -> None:
        """The caller owns the drain."""
        inners = self.subscribers
        a = self.downstream
        on_next = a.on_next
        requested = self.requested
        leave = self.gate.leave
        delay = self.delay_errors
        errors = self.errors
        while True:
            r = requested.get()
            e = 0
            while e != r:
                if self.cancelled:
                    self.cleanup()
                    return
                if not delay and errors.get() is not None:
                    self._terminate()
                    return
                d = self.done.get() == 0
                empty = True
                for inner in inners:
                    v = inner.queue.poll()
                    if v is not None:
                        empty = False
                        on_next(v)
                        inner.request_one()
                        e += 1
                        if e == r:
                            break
                if empty:
                    if d and self._terminate():
                        return
                    break
            if e == r and self._terminate():
                return
            if e != 0 and r != LONG_MAX:
                produced(requested, e)
            if not leave():
                return
