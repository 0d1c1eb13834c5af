"""Flowable.observe_on: deliver the signals on a scheduler's worker, through a bounded queue.

The upstream gets a stable request pattern (``buffer_size``, then 75% of it at a time);
items wait in a queue of at most ``buffer_size`` (beyond it:
``MissingBackpressureException``). All delivery happens in one drain task on ONE worker,
serialized by a :class:`~rxpy2.operator_kit.Drain`, so signals stay in order. A
``subscribe_on`` right above hands SYNC-polled items over in batches
(:meth:`ObserveOnSubscriber.on_next_batch`). Fuses upstream (``ANY | BOUNDARY``) and offers
ASYNC fusion downstream.

How the drain and the thread hop work: docs/schedulers.md, "Inside observe_on".
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Iterable
from itertools import repeat
from typing import Any
from typing import Generic
from typing import TypeVar

from rxpy2._internal.atomic import AtomicLong
from rxpy2._internal.fuseable import ASYNC
from rxpy2._internal.fuseable import NONE
from rxpy2._internal.fuseable import SYNC
from rxpy2._internal.fuseable import BatchSink
from rxpy2._internal.fuseable import ChecksItems
from rxpy2._internal.fuseable import HasUpstreamPublisher
from rxpy2._internal.fuseable import QueueSubscription
from rxpy2._internal.fuseable import direct_sink
from rxpy2._internal.helpers.subscribe_loop import subscribe_tail
from rxpy2._internal.subscribers.drain_support import DrainSubscriptionMixin
from rxpy2._internal.subscribers.drain_support import DrainTerminalsMixin
from rxpy2._internal.subscribers.drain_support import fuse_upstream
from rxpy2.exceptions import MissingBackpressureException
from rxpy2.flowable import Flowable
from rxpy2.observers import FlowableSubscriber
from rxpy2.operator_kit import UNSUBSCRIBED
from rxpy2.operator_kit import Drain
from rxpy2.operator_kit import null_or_late_item
from rxpy2.operator_kit import validate_upstream
from rxpy2.reactivestreams import LONG_MAX
from rxpy2.reactivestreams import Publisher
from rxpy2.reactivestreams import Subscriber
from rxpy2.reactivestreams import Subscription
from rxpy2.schedulers.scheduler import Scheduler
from rxpy2.schedulers.scheduler import Worker

__all__ = ["FlowableObserveOn"]

T = TypeVar("T")


def _reraise(error: Exception) -> None:
    raise error


class FlowableObserveOn(Flowable[T], HasUpstreamPublisher[T], Generic[T]):
    __slots__ = ("source", "scheduler", "delay_error", "prefetch")

    def __init__(self, source: Publisher[T], scheduler: Scheduler, delay_error: bool,
                 buffer_size: int) -> None:
        self.source = source
        self.scheduler = scheduler
        self.delay_error = delay_error
        self.prefetch = buffer_size

    def subscribe_actual(self, subscriber: Subscriber[T]) -> None:
        subscribe_tail(self.source, ObserveOnSubscriber(
            subscriber, self.scheduler.create_worker(), self.delay_error, self.prefetch))


class ObserveOnSubscriber(DrainTerminalsMixin, DrainSubscriptionMixin, FlowableSubscriber[T],
                          QueueSubscription[T], ChecksItems, BatchSink[T], Generic[T]):
    __slots__ = ("downstream", "worker", "delay_error", "prefetch", "limit", "upstream",
                 "queue", "requested", "gate", "cancelled", "done", "error", "source_mode",
                 "produced", "output_fused", "dq", "queue_drain", "signals", "seen")

    def __init__(self, downstream: Subscriber[T], worker: Worker, delay_error: bool,
                 prefetch: int) -> None:
        self.downstream = downstream
        self.worker = worker
        self.delay_error = delay_error
        self.prefetch = prefetch
        self.limit = prefetch - (prefetch >> 2)  # replenish after 75% went out
        self.upstream: Subscription = UNSUBSCRIBED
        self.queue: Any = None
        self.requested = AtomicLong()
        self.gate = Drain()  # owned by whoever scheduled the drain task, until it leaves
        self.cancelled = False
        self.done = False
        self.error: BaseException | None = None
        self.source_mode = NONE
        # SYNC: total items emitted; otherwise: items consumed since the last replenish
        self.produced = 0
        self.output_fused = False
        self.dq: Any = None  # our own queue's deque (no upstream fusion), for the hot paths
        # True when run_queue is the drain: our own queue, no output fusion
        self.queue_drain = False
        # ASYNC-fused upstream: its "poll me" signals so far, and how many of them a poll
        # that found nothing had seen. They differ when there may be something to pull:
        # what run_backfused asks instead of the upstream's is_empty, which in a chain of
        # n fused observe_on stages runs down all the stages above (n² per wake-up)
        self.signals = 0
        self.seen = 0

    # ---------------------------------------------------------------- upstream side
    def on_subscribe(self, s: Subscription) -> None:
        if not validate_upstream(self.upstream, s):  # §2.13, §2.5
            return
        self.upstream = s
        self.source_mode, self.queue = fuse_upstream(s, self.prefetch)
        if self.source_mode == SYNC:
            self.done = True
            self.downstream.on_subscribe(self)
            return
        if self.source_mode == NONE:
            self.dq = self.queue.items
            self.queue_drain = True
        self.downstream.on_subscribe(self)  # may ask for output fusion: queue_drain = False
        s.request(self.prefetch)

    def on_next(self, item: T) -> None:
        dq = self.dq
        if dq is None:  # ASYNC-fused upstream: the item (None) is a "ready" signal
            if not self.done:
                self.signals += 1  # the upstream queued before it signalled
                self.drain()
            return
        if item is None or self.done:
            null_or_late_item(item)  # §2.13
            return
        if len(dq) >= self.prefetch:  # never hold more than buffer_size items
            self.upstream.cancel()
            self.error = MissingBackpressureException.queue_full("observe_on", self.prefetch)
            self.done = True
            self.drain()
            return
        dq.append(item)  # one C call: atomic for the drain on the other thread
        gate = self.gate
        # a pass already due covers this item: no call per item while the worker drains
        if not gate.missed and gate.enter():  # else the task makes another pass
            self.worker.schedule(self.run)

    def takes_batches(self) -> bool:
        """Whether :meth:`on_next_batch` may be used: our own queue (no upstream fusion)."""
        return self.dq is not None and not self.done

    def on_next_batch(self, items: Iterable[T]) -> None:
        """Several items at once, from a ``subscribe_on`` that polls a SYNC-fused source
        (see :mod:`~rxpy2._internal.operators.flowable.flowable_subscribe_on`).

        Never more than requested (the caller polls up to our requests) and never
        None (``poll``'s end marker): no per-item check; one wake-up per batch."""
        if self.cancelled:
            return
        self.dq.extend(items)  # one C call: each item is appended atomically for the drain
        gate = self.gate
        if not gate.missed and gate.enter():
            self.worker.schedule(self.run)

    # on_error / on_complete (DrainTerminalsMixin), request / cancel (DrainSubscriptionMixin):
    # each records the signal and calls drain(), which schedules the drain task

    # ---------------------------------------------------------------- downstream side
    def cancel_upstream(self) -> None:
        # the upstream only: the worker is disposed by cleanup(), run by whoever holds the
        # drain (disposing it here could drop a task that is running or scheduled, and
        # leave the queue full)
        self.upstream.cancel()

    def cleanup(self) -> None:
        """After cancellation, by the holder of the drain: clear the queue, dispose the worker."""
        if not self.output_fused:  # an output-fused downstream clears the queue itself
            self.queue.clear()
        self.worker.dispose()

    def drain_loop(self) -> None:
        """The drain is ours (``drain()`` entered it): run it as one task on the worker."""
        self.worker.schedule(self.run)

    def run(self) -> None:
        if self.queue_drain:
            self.run_queue()
        elif self.output_fused:
            self.run_backfused()
        elif self.source_mode == SYNC:
            self.run_sync()
        else:
            self.run_async()

    def _fail(self, error: BaseException) -> None:
        self.cancelled = True
        self.upstream.cancel()
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

    def _sink(self) -> tuple[Callable[[T], object], Callable[[Exception], None]]:
        """Where the drain's items go: a ``DirectSink``'s function itself (as flat_map
        and the fused chains do: its ``dispose`` cancels us, which the drain looks at before
        each item; what the function raises goes to its ``sink_failed``), else ``on_next``."""
        a = self.downstream
        return direct_sink(a) or (a.on_next, _reraise)  # a raising on_next broke §2.13: let it propagate

    def _sink_failed(self, failed: Callable[[Exception], None], error: Exception) -> None:
        failed(error)  # the subscriber cancels us (the drain is ours to clean up), then on_error
        self.cancel()  # a no-op after that cancel
        self.cleanup()

    def run_sync(self) -> None:
        """Poll the SYNC-fused source directly; ``requested`` only grows, ``produced`` counts."""
        emit, failed = self._sink()
        q = self.queue
        poll = q.poll
        leave = self.gate.leave
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
                try:
                    emit(v)
                except Exception as ex:
                    self._sink_failed(failed, ex)
                    return
                e += 1
            if self.cancelled:
                self.cleanup()
                return
            if q.is_empty():
                self._finish(None)
                return
            self.produced = e
            if not leave():
                return

    def run_async(self) -> None:
        a = self.downstream
        q = self.queue
        poll = q.poll
        leave = self.gate.leave
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
                    self.upstream.request(e)
                    e = 0
            if e == r and self.check_terminated(self.done, q.is_empty()):
                return
            self.produced = e
            if not leave():
                return

    def run_queue(self) -> None:
        """Drain our own queue (the upstream did not fuse): the hot path of a thread hop.

        ``on_next`` appends, then ``gate.enter()``: an item appended during a pass
        is seen by this pass or, the enter() having been counted, by the next one
        that ``leave()`` starts. The pass emits in runs of what the queue holds at
        the run's start, up to the demand and the next replenish point: per item
        only ``cancelled`` is read (a terminal event is looked at between runs: an
        error that overtakes the queued items does so at the next run); the items go
        to :meth:`_sink`."""
        emit, failed = self._sink()
        dq = self.dq
        popleft = dq.popleft
        leave = self.gate.leave
        requested = self.requested
        lim = self.limit
        e = self.produced
        while True:
            r = requested.get()
            while e != r:
                if self.cancelled:
                    self.cleanup()
                    return
                # ``done`` is read before the queue: done and empty means nothing follows
                if self.done and self.check_terminated(True, not dq):
                    return
                n = len(dq)  # only this drain removes items: at least n are there
                if n == 0:
                    break
                k = r - e
                if k < n:
                    n = k
                k = lim - e
                if k < n:
                    n = k
                try:
                    for _ in repeat(None, n):
                        if self.cancelled:  # also set by a LambdaSubscriber's dispose
                            self.cleanup()
                            return
                        emit(popleft())
                except Exception as ex:
                    self._sink_failed(failed, ex)
                    return
                e += n
                if e == lim:
                    if r != LONG_MAX:
                        r = requested.add_and_get(-e)
                    self.upstream.request(e)
                    e = 0
            if e == r and self.check_terminated(self.done, not dq):
                return
            self.produced = e
            if not leave():
                return

    def run_backfused(self) -> None:
        """Output fusion: tell the downstream to poll; it pulls the items itself.

        Only when there is something to pull (or the end): a pass that a request started
        finds nothing new, and saying "poll me" then would start the downstream's pass,
        whose request starts ours: in a chain of n such stages each request would run
        through the n stages below it (n² passes while a chain subscribes). A SYNC source
        is not asked (its ``is_empty`` may read ahead, on the downstream's thread only); an
        ASYNC-fused one is not asked either: whether it said "poll me" since a poll last
        found nothing (see :meth:`poll`) is known here, so a wake-up costs O(1) per stage."""
        a = self.downstream
        leave = self.gate.leave
        q = self.queue
        mode = self.source_mode
        while True:
            if self.cancelled:
                self.worker.dispose()
                return
            d = self.done
            if mode == SYNC or (self.signals != self.seen if mode == ASYNC else not q.is_empty()):
                a.on_next(None)  # type: ignore[arg-type]  # ASYNC output fusion: None only says "poll me"
            if d:
                self.cancelled = True
                e = self.error
                if e is not None:
                    a.on_error(e)
                else:
                    a.on_complete()
                self.worker.dispose()
                return
            if not leave():
                return

    # ---------------------------------------------------------------- fusion (downstream)
    def request_fusion(self, mode: int) -> int:
        if mode & ASYNC:
            self.output_fused = True
            self.queue_drain = False
            return ASYNC
        return NONE

    def poll(self) -> T | None:
        # the signals read before the poll: their items were queued before they were sent,
        # so finding nothing covers them; one sent during the poll keeps signals != seen
        signals = self.signals
        v: T | None = self.queue.poll()
        if v is None:
            self.seen = signals
            return None
        if self.source_mode != SYNC:
            p = self.produced + 1
            if p == self.limit:
                self.produced = 0
                self.upstream.request(p)
            else:
                self.produced = p
        return v

    def is_empty(self) -> bool:
        return self.queue.is_empty()  # type: ignore[no-any-return]  # the queue is typed Any

    def clear(self) -> None:
        self.queue.clear()
