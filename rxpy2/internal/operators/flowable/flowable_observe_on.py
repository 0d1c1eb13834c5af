"""Flowable.observe_on: deliver the signals on a scheduler's worker, through a bounded queue.

The upstream is asked for ``buffer_size`` items at once and then for
``limit = buffer_size - buffer_size // 4`` more each time that many were
delivered (a stable request pattern, whatever the downstream requests). Items
wait in a queue of at most ``buffer_size``; an item beyond that (the upstream
ignored backpressure) ends the stream with ``MissingBackpressureException``.

All the delivery happens in one drain task on ONE worker; the task is scheduled
only when ``wip`` goes from 0 to 1, so the worker never runs two drains at once
and signals stay in order. Cancelling cancels the upstream at once; whoever
holds the drain (the canceller when no drain runs or waits, else that drain)
then clears the queue and disposes the worker.

Fusion: an upstream ``QueueSubscription`` is asked for ``ANY | BOUNDARY``. SYNC:
the drain polls the source directly (no queue, no request upstream). ASYNC:
its queue is used in place of our own. Downstream, ASYNC fusion is offered: the
drain then only signals "ready" and the downstream polls.
"""

from __future__ import annotations

from typing import Any, Generic, TypeVar

from rxpy2 import plugins
from rxpy2.exceptions import MissingBackpressureException
from rxpy2.flowable import Flowable
from rxpy2.internal.atomic import AtomicInteger, AtomicLong
from rxpy2.internal.fuseable import (
    ANY,
    ASYNC,
    BOUNDARY,
    NONE,
    SYNC,
    HasUpstreamPublisher,
    QueueSubscription,
)
from rxpy2.internal.helpers.backpressure_helper import BackpressureHelper
from rxpy2.internal.helpers.subscription_helper import SubscriptionHelper
from rxpy2.internal.queues import SpscArrayQueue
from rxpy2.observers import FlowableSubscriber
from rxpy2.reactivestreams import LONG_MAX, Publisher, Subscriber, Subscription
from rxpy2.schedulers.scheduler import Scheduler, Worker

__all__ = ["FlowableObserveOn"]

T = TypeVar("T")


class FlowableObserveOn(Flowable[T], HasUpstreamPublisher[T], Generic[T]):
    __slots__ = ("source", "scheduler", "delay_error", "buffer_size")

    def __init__(self, source: Publisher[T], scheduler: Scheduler, delay_error: bool,
                 buffer_size: int) -> None:
        self.source = source
        self.scheduler = scheduler
        self.delay_error = delay_error
        self.buffer_size = buffer_size

    def subscribe_actual(self, subscriber: Subscriber[T]) -> None:
        self.source.subscribe(ObserveOnSubscriber(
            subscriber, self.scheduler.create_worker(), self.delay_error, self.buffer_size))


class ObserveOnSubscriber(FlowableSubscriber[T], QueueSubscription[T], Generic[T]):
    __slots__ = ("downstream", "worker", "delay_error", "prefetch", "limit", "upstream",
                 "queue", "requested", "wip", "cancelled", "done", "error", "source_mode",
                 "produced", "output_fused")

    def __init__(self, downstream: Subscriber[T], worker: Worker, delay_error: bool,
                 prefetch: int) -> None:
        self.downstream = downstream
        self.worker = worker
        self.delay_error = delay_error
        self.prefetch = prefetch
        self.limit = prefetch - (prefetch >> 2)  # replenish after 75% went out
        self.upstream: Subscription | None = None
        self.queue: Any = None
        self.requested = AtomicLong()
        self.wip = AtomicInteger()
        self.cancelled = False
        self.done = False
        self.error: BaseException | None = None
        self.source_mode = NONE
        # SYNC: total items emitted; otherwise: items consumed since the last replenish
        self.produced = 0
        self.output_fused = False

    # ---------------------------------------------------------------- upstream side
    def on_subscribe(self, s: Subscription) -> None:
        if not SubscriptionHelper.validate(self.upstream, s):
            return
        self.upstream = s
        if isinstance(s, QueueSubscription):
            m = s.request_fusion(ANY | BOUNDARY)
            if m == SYNC:
                self.source_mode = SYNC
                self.queue = s
                self.done = True
                self.downstream.on_subscribe(self)
                return
            if m == ASYNC:
                self.source_mode = ASYNC
                self.queue = s
                self.downstream.on_subscribe(self)
                s.request(self.prefetch)
                return
        self.queue = SpscArrayQueue(self.prefetch)
        self.downstream.on_subscribe(self)
        s.request(self.prefetch)

    def on_next(self, item: T) -> None:
        if self.done:
            return
        if self.source_mode == ASYNC:  # the item is a "ready" signal
            self.schedule()
            return
        if item is None:  # §2.13
            raise TypeError("on_next called with None")
        q = self.queue
        if len(q) >= self.prefetch:  # never hold more than buffer_size items
            self.upstream.cancel()  # type: ignore[union-attr]
            self.error = MissingBackpressureException(
                "Queue is full?! The upstream emitted more than it was asked for")
            self.done = True
        else:
            q.append(item)
        self.schedule()

    def on_error(self, error: BaseException) -> None:
        if self.done:
            plugins.on_error(error)
            return
        self.error = error
        self.done = True
        self.schedule()

    def on_complete(self) -> None:
        if not self.done:
            self.done = True
            self.schedule()

    # ---------------------------------------------------------------- downstream side
    def request(self, n: int) -> None:
        if SubscriptionHelper.validate_request(n):
            BackpressureHelper.add(self.requested, n)
            self.schedule()

    def cancel(self) -> None:
        if self.cancelled:
            return
        self.cancelled = True
        self.upstream.cancel()  # type: ignore[union-attr]
        if self.wip.get_and_increment() == 0:
            self.cleanup()  # no drain running or pending: the cleanup is ours
        # else the drain that is running (or scheduled) sees ``cancelled`` and cleans up:
        # disposing the worker here could drop that drain and leave the queue full

    def cleanup(self) -> None:
        """After cancellation, by the holder of the drain: clear the queue, dispose the worker."""
        if not self.output_fused:  # an output-fused downstream clears the queue itself
            self.queue.clear()
        self.worker.dispose()

    def schedule(self) -> None:
        if self.wip.get_and_increment() != 0:
            return
        self.worker.schedule(self.run)

    def run(self) -> None:
        if self.output_fused:
            self.run_backfused()
        elif self.source_mode == SYNC:
            self.run_sync()
        else:
            self.run_async()

    def _fail(self, error: BaseException) -> None:
        self.cancelled = True
        self.upstream.cancel()  # type: ignore[union-attr]
        self.queue.clear()
        self.downstream.on_error(error)
        self.worker.dispose()

    def _finish(self, error: BaseException | None) -> None:
        self.cancelled = True
        if error is not None:
            self.downstream.on_error(error)
        else:
            self.downstream.on_complete()
        self.worker.dispose()

    def check_terminated(self, d: bool, empty: bool) -> bool:
        if self.cancelled:
            self.cleanup()
            return True
        if d:
            if self.delay_error:
                if empty:
                    self._finish(self.error)
                    return True
            else:
                e = self.error
                if e is not None:
                    self.queue.clear()
                    self._finish(e)
                    return True
                if empty:
                    self._finish(None)
                    return True
        return False

    def run_sync(self) -> None:
        """Poll the SYNC-fused source directly; ``requested`` only grows, ``produced`` counts."""
        missed = 1
        a = self.downstream
        q = self.queue
        poll = q.poll
        wip = self.wip
        requested = self.requested
        e = self.produced
        while True:
            r = requested.get()
            while e != r:
                try:
                    v = poll()
                except Exception as ex:
                    self._fail(ex)
                    return
                if self.cancelled:
                    self.cleanup()
                    return
                if v is None:
                    self._finish(None)
                    return
                a.on_next(v)
                e += 1
            if self.cancelled:
                self.cleanup()
                return
            if q.is_empty():
                self._finish(None)
                return
            w = wip.get()
            if missed == w:
                self.produced = e
                missed = wip.add_and_get(-missed)
                if missed == 0:
                    return
            else:
                missed = w

    def run_async(self) -> None:
        missed = 1
        a = self.downstream
        q = self.queue
        poll = q.poll
        wip = self.wip
        requested = self.requested
        lim = self.limit
        e = self.produced
        while True:
            r = requested.get()
            while e != r:
                d = self.done
                try:
                    v = poll()
                except Exception as ex:
                    self._fail(ex)
                    return
                empty = v is None
                if self.check_terminated(d, empty):
                    return
                if empty:
                    break
                a.on_next(v)
                e += 1
                if e == lim:
                    if r != LONG_MAX:
                        r = requested.add_and_get(-e)
                    self.upstream.request(e)  # type: ignore[union-attr]
                    e = 0
            if e == r and self.check_terminated(self.done, q.is_empty()):
                return
            w = wip.get()
            if missed == w:
                self.produced = e
                missed = wip.add_and_get(-missed)
                if missed == 0:
                    return
            else:
                missed = w

    def run_backfused(self) -> None:
        """Output fusion: tell the downstream to poll; it pulls the items itself."""
        missed = 1
        a = self.downstream
        wip = self.wip
        while True:
            if self.cancelled:
                self.worker.dispose()
                return
            d = self.done
            a.on_next(None)  # type: ignore[arg-type]
            if d:
                self.cancelled = True
                e = self.error
                if e is not None:
                    a.on_error(e)
                else:
                    a.on_complete()
                self.worker.dispose()
                return
            missed = wip.add_and_get(-missed)
            if missed == 0:
                return

    # ---------------------------------------------------------------- fusion (downstream)
    def request_fusion(self, mode: int) -> int:
        if mode & ASYNC:
            self.output_fused = True
            return ASYNC
        return NONE

    def poll(self) -> T | None:
        v = self.queue.poll()
        if v is not None and self.source_mode != SYNC:
            p = self.produced + 1
            if p == self.limit:
                self.produced = 0
                self.upstream.request(p)  # type: ignore[union-attr]
            else:
                self.produced = p
        return v

    def is_empty(self) -> bool:
        return self.queue.is_empty()

    def clear(self) -> None:
        self.queue.clear()
