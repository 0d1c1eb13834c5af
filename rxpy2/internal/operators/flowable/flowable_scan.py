"""Flowable.scan: running accumulation.

* :class:`FlowableScan` (no seed): the first item is emitted as it is and
  starts the accumulation; afterwards ``accumulator(acc, item)`` per item. 1:1,
  so requests pass straight through.
* :class:`FlowableScanSeed`: the seed (``seed_supplier()``, per subscriber) is
  emitted first, then one result per item: one item more than the upstream
  emits. So that no item is emitted without demand, the results go through a
  bounded queue drained under the downstream's demand (queue-drain); the
  upstream is requested ``prefetch - 1`` items first (the seed takes one queue
  slot) and then replenished by ``prefetch - prefetch // 4`` each time that
  many results were emitted. An upstream error is signalled as soon as it
  arrives; results still queued for lack of demand are dropped.

An accumulator that raises, or returns ``None`` (``TypeError``), cancels the
upstream and signals the error.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, TypeVar

from rxpy2 import plugins
from rxpy2.exceptions import MissingBackpressureException
from rxpy2.flowable import BUFFER_SIZE, Flowable
from rxpy2.internal.atomic import AtomicInteger, AtomicLong
from rxpy2.internal.fuseable import HasUpstreamPublisher
from rxpy2.internal.helpers.backpressure_helper import BackpressureHelper
from rxpy2.internal.helpers.subscription_helper import SubscriptionHelper
from rxpy2.internal.queues import SpscArrayQueue
from rxpy2.internal.subscriptions.empty import EmptySubscription
from rxpy2.observers import FlowableSubscriber
from rxpy2.reactivestreams import LONG_MAX, Publisher, Subscriber, Subscription

__all__ = ["FlowableScan", "FlowableScanSeed"]

T = TypeVar("T")
R = TypeVar("R")


def _none_result() -> TypeError:
    return TypeError("The accumulator returned None")


class FlowableScan(Flowable[T], HasUpstreamPublisher[T], Generic[T]):
    __slots__ = ("source", "accumulator")

    def __init__(self, source: Publisher[T], accumulator: Callable[[T, T], T]) -> None:
        self.source = source
        self.accumulator = accumulator

    def subscribe_actual(self, subscriber: Subscriber[T]) -> None:
        self.source.subscribe(ScanSubscriber(subscriber, self.accumulator))


class ScanSubscriber(FlowableSubscriber[T], Subscription, Generic[T]):
    __slots__ = ("downstream", "accumulator", "upstream", "value", "done")

    def __init__(self, downstream: Subscriber[T], accumulator: Callable[[T, T], T]) -> None:
        self.downstream = downstream
        self.accumulator = accumulator
        self.upstream: Subscription | None = None
        self.value: T | None = None
        self.done = False

    def on_subscribe(self, s: Subscription) -> None:
        if SubscriptionHelper.validate(self.upstream, s):
            self.upstream = s
            self.downstream.on_subscribe(self)

    def on_next(self, item: T) -> None:
        if self.done:
            return
        v = self.value
        if v is None:
            self.value = item
            self.downstream.on_next(item)
            return
        try:
            v = self.accumulator(v, item)
        except Exception as e:
            self.upstream.cancel()  # type: ignore[union-attr]
            self.on_error(e)
            return
        if v is None:
            self.upstream.cancel()  # type: ignore[union-attr]
            self.on_error(_none_result())
            return
        self.value = v
        self.downstream.on_next(v)

    def on_error(self, error: BaseException) -> None:
        if self.done:
            plugins.on_error(error)
            return
        self.done = True
        self.value = None
        self.downstream.on_error(error)

    def on_complete(self) -> None:
        if self.done:
            return
        self.done = True
        self.value = None
        self.downstream.on_complete()

    def request(self, n: int) -> None:
        self.upstream.request(n)  # type: ignore[union-attr]

    def cancel(self) -> None:
        self.upstream.cancel()  # type: ignore[union-attr]


class FlowableScanSeed(Flowable[R], HasUpstreamPublisher[T], Generic[T, R]):
    __slots__ = ("source", "seed_supplier", "accumulator", "prefetch")

    def __init__(self, source: Publisher[T], seed_supplier: Callable[[], R],
                 accumulator: Callable[[R, T], R], prefetch: int = BUFFER_SIZE) -> None:
        if prefetch < 2:
            raise ValueError(f"prefetch >= 2 required but it was {prefetch}")
        self.source = source
        self.seed_supplier = seed_supplier
        self.accumulator = accumulator
        self.prefetch = prefetch

    def subscribe_actual(self, subscriber: Subscriber[R]) -> None:
        try:
            seed = self.seed_supplier()
            if seed is None:
                raise TypeError("The seed_supplier returned None")
        except Exception as e:
            EmptySubscription.error(e, subscriber)
            return
        self.source.subscribe(
            ScanSeedSubscriber(subscriber, self.accumulator, seed, self.prefetch))


class ScanSeedSubscriber(FlowableSubscriber[T], Subscription, Generic[T, R]):
    """Queue-drain: ``on_next`` accumulates and queues, the drain loop emits under demand."""

    __slots__ = ("downstream", "accumulator", "value", "prefetch", "limit", "queue",
                 "requested", "wip", "upstream", "consumed", "done", "error", "cancelled")

    def __init__(self, downstream: Subscriber[R], accumulator: Callable[[R, T], R],
                 seed: R, prefetch: int) -> None:
        self.downstream = downstream
        self.accumulator = accumulator
        self.value: R | None = seed
        self.prefetch = prefetch
        self.limit = prefetch - (prefetch >> 2)
        q: SpscArrayQueue[R] = SpscArrayQueue(prefetch)
        q.offer(seed)
        self.queue = q
        self.requested = AtomicLong()
        self.wip = AtomicInteger()
        self.upstream: Subscription | None = None
        self.consumed = 0
        self.done = False
        self.error: BaseException | None = None
        self.cancelled = False

    def on_subscribe(self, s: Subscription) -> None:
        if SubscriptionHelper.validate(self.upstream, s):
            self.upstream = s
            self.downstream.on_subscribe(self)
            s.request(self.prefetch - 1)  # the seed holds one slot of the queue

    def on_next(self, item: T) -> None:
        if self.done:
            return
        try:
            v = self.accumulator(self.value, item)  # type: ignore[arg-type]
        except Exception as e:
            self.upstream.cancel()  # type: ignore[union-attr]
            self.on_error(e)
            return
        if v is None:
            self.upstream.cancel()  # type: ignore[union-attr]
            self.on_error(_none_result())
            return
        self.value = v
        q = self.queue
        wip = self.wip
        if wip.get() == 0 and wip.compare_and_set(0, 1):
            # fast path: we hold the drain; with nothing queued and demand, emit directly
            if q.is_empty() and not self.cancelled:
                requested = self.requested
                r = requested.get()
                if r != 0:
                    self.downstream.on_next(v)
                    if r != LONG_MAX:
                        BackpressureHelper.produced(requested, 1)
                    c = self.consumed + 1
                    lim = self.limit
                    if c == lim:
                        c = 0
                        self.upstream.request(lim)  # type: ignore[union-attr]
                    self.consumed = c
                    if wip.decrement_and_get() == 0:
                        return
                    self._drain_loop()
                    return
            if not q.offer(v):
                self._overflow()
            self._drain_loop()
            return
        if not q.offer(v):
            self._overflow()
            return
        self.drain()

    def _overflow(self) -> None:
        """The upstream emitted more than it was asked for: the queue has no room."""
        self.upstream.cancel()  # type: ignore[union-attr]
        self.on_error(MissingBackpressureException("Queue is full?!"))

    def on_error(self, error: BaseException) -> None:
        if self.done:
            plugins.on_error(error)
            return
        self.error = error
        self.done = True
        self.drain()

    def on_complete(self) -> None:
        if self.done:
            return
        self.done = True
        self.drain()

    def request(self, n: int) -> None:
        if SubscriptionHelper.validate_request(n):
            BackpressureHelper.add(self.requested, n)
            self.drain()

    def cancel(self) -> None:
        if self.cancelled:
            return
        self.cancelled = True
        self.upstream.cancel()  # type: ignore[union-attr]
        if self.wip.get_and_increment() == 0:
            self.queue.clear()

    def drain(self) -> None:
        if self.wip.get_and_increment() == 0:
            self._drain_loop()

    def _drain_loop(self) -> None:
        """Emit queued results under demand; the caller holds the drain (``wip`` > 0)."""
        wip = self.wip
        missed = 1
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
                if d and self.error is not None:  # an error cuts ahead of queued results
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
                    self.upstream.request(lim)  # type: ignore[union-attr]
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
                BackpressureHelper.produced(requested, e)
            self.consumed = c
            missed = wip.add_and_get(-missed)
            if missed == 0:
                return

    def _signal_error(self, a: Subscriber[Any]) -> None:
        ex = self.error
        self.error = None
        a.on_error(ex)  # type: ignore[arg-type]
