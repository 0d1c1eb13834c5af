"""Flowable.parallel: hand the items of one Publisher out to ``parallelism`` rails.

One dispatcher subscribes to the source with a stable request pattern (``prefetch``, then
75% of it at a time) and a queue of at most ``prefetch``; its drain (one
:class:`~rxpy2.operator_kit.Drain`) goes round the rails and gives each item to the next
rail with demand. Completion reaches every rail once the queue is empty, an error at
once; when every rail has cancelled, the source is cancelled. Fuses with the source
(``ANY | BOUNDARY``); shared pieces are :mod:`rxpy2._internal.subscribers.drain_support`'s.

How: docs/parallel.md, "Inside Flowable.parallel".
"""

from __future__ import annotations

from typing import Any
from typing import Generic
from typing import TypeVar

from rxpy2._internal.fuseable import NONE
from rxpy2._internal.fuseable import SYNC
from rxpy2._internal.subscribers.drain_support import DrainTerminalsMixin
from rxpy2._internal.subscribers.drain_support import fuse_upstream
from rxpy2._internal.subscribers.drain_support import missing_backpressure
from rxpy2.observers import FlowableSubscriber
from rxpy2.operator_kit import UNSUBSCRIBED
from rxpy2.operator_kit import AtomicBoolean
from rxpy2.operator_kit import AtomicInteger
from rxpy2.operator_kit import AtomicLong
from rxpy2.operator_kit import Drain
from rxpy2.operator_kit import add_request
from rxpy2.operator_kit import null_item
from rxpy2.operator_kit import subscribe_tail
from rxpy2.operator_kit import validate_request
from rxpy2.operator_kit import validate_upstream
from rxpy2.parallel.parallel_flowable import ParallelFlowable
from rxpy2.reactivestreams import Publisher
from rxpy2.reactivestreams import Subscriber
from rxpy2.reactivestreams import Subscription

__all__ = ["ParallelFromPublisher"]

T = TypeVar("T")


class ParallelFromPublisher(ParallelFlowable[T], Generic[T]):
    __slots__ = ("source", "_parallelism", "prefetch")

    def __init__(self, source: Publisher[T], parallelism: int, prefetch: int) -> None:
        self.source = source
        self._parallelism = parallelism
        self.prefetch = prefetch

    @property
    def parallelism(self) -> int:
        return self._parallelism

    def subscribe_actual(self, subscribers: list[Subscriber[T]]) -> None:
        subscribe_tail(self.source, ParallelDispatcher(subscribers, self.prefetch))


class RailSubscription(Subscription):
    """The Subscription of one rail: its own request counter and cancelled flag."""

    __slots__ = ("parent", "requested", "_cancel_once", "cancelled")

    def __init__(self, parent: ParallelDispatcher[Any]) -> None:
        self.parent = parent
        self.requested = AtomicLong()  # total requested by this rail, capped at LONG_MAX
        self._cancel_once = AtomicBoolean()
        self.cancelled = False

    def request(self, n: int) -> None:
        if n := validate_request(n):
            add_request(self.requested, n)
            p = self.parent
            if p.rails_set_up == p.n:  # the drain waits until every rail is subscribed
                p.drain()

    def cancel(self) -> None:
        if self._cancel_once.compare_and_set(False, True):
            self.cancelled = True
            self.parent.rail_cancelled()


class ParallelDispatcher(DrainTerminalsMixin, FlowableSubscriber[T], Generic[T]):
    __slots__ = ("subscribers", "rails", "n", "emitted", "prefetch", "limit", "upstream",
                 "queue", "error", "done", "cancelled", "index", "consumed", "source_mode",
                 "gate", "rails_left", "rails_set_up")

    def __init__(self, subscribers: list[Subscriber[T]], prefetch: int) -> None:
        n = len(subscribers)
        self.subscribers = subscribers
        self.n = n
        self.rails = [RailSubscription(self) for _ in range(n)]
        self.emitted = [0] * n  # per rail, drain only
        self.prefetch = prefetch
        self.limit = prefetch - (prefetch >> 2)  # replenish after 75% went out
        self.upstream: Subscription = UNSUBSCRIBED
        self.queue: Any = None
        self.error: BaseException | None = None
        self.done = False
        self.cancelled = False
        self.index = 0  # the rail the drain looks at next (drain only)
        self.consumed = 0  # items handed out since the last replenish (drain only)
        self.source_mode = NONE
        self.gate = Drain()
        self.rails_left = AtomicInteger(n)  # rails not cancelled
        self.rails_set_up = 0

    # ---------------------------------------------------------------- upstream side
    def on_subscribe(self, s: Subscription) -> None:
        if not validate_upstream(self.upstream, s):  # §2.13, §2.5
            return
        self.upstream = s
        self.source_mode, self.queue = fuse_upstream(s, self.prefetch)
        if self.source_mode == SYNC:
            self.done = True
            self.set_up_rails()
            self.drain()
            return
        self.set_up_rails()
        s.request(self.prefetch)

    def set_up_rails(self) -> None:
        # every rail gets its on_subscribe, even after a cancel, so no rail waits forever
        for i, (a, rail) in enumerate(zip(self.subscribers, self.rails, strict=True)):
            self.rails_set_up = i + 1
            a.on_subscribe(rail)

    def on_next(self, item: T) -> None:
        if self.source_mode == NONE and item is None:
            raise null_item()  # §2.13 (ASYNC fusion: None is only a "poll me" signal)
        if self.done or self.cancelled:
            return
        if self.source_mode == NONE:
            q = self.queue
            if len(q) >= self.prefetch:  # never hold more than prefetch items
                self.upstream.cancel()
                self.on_error(missing_backpressure("parallel", self.prefetch))  # drains
                return
            q.append(item)
        self.drain()

    # ---------------------------------------------------------------- rails' side
    def rail_cancelled(self) -> None:
        if self.rails_left.decrement_and_get() == 0:
            self.cancelled = True
            self.upstream.cancel()
            if self.gate.enter():  # nobody drains: the queue is ours to clear (kept for good)
                self.queue.clear()

    def drain(self) -> None:
        if not self.gate.enter():
            return  # counted: the owner makes another pass
        if self.source_mode == SYNC:
            self.drain_sync()
        else:
            self.drain_async()

    def _fail(self, error: BaseException) -> None:
        """Polling the source raised: cancel it and signal every rail."""
        self.upstream.cancel()
        self.queue.clear()
        self._signal_error(error)

    def _signal_error(self, error: BaseException) -> None:
        for a, rail in zip(self.subscribers, self.rails, strict=True):
            if not rail.cancelled:
                a.on_error(error)

    def _signal_complete(self) -> None:
        for a, rail in zip(self.subscribers, self.rails, strict=True):
            if not rail.cancelled:
                a.on_complete()

    def drain_async(self) -> None:
        q = self.queue
        poll = q.poll
        is_empty = q.is_empty
        subscribers = self.subscribers
        rails = self.rails
        emitted = self.emitted
        n = self.n
        lim = self.limit
        leave = self.gate.leave
        idx = self.index
        consumed = self.consumed
        while True:
            not_ready = 0
            while True:
                if self.cancelled:
                    q.clear()
                    return
                d = self.done
                if d and self.error is not None:  # errors are not delayed
                    q.clear()
                    self._signal_error(self.error)
                    return
                try:
                    empty = is_empty()
                except Exception as ex:
                    self._fail(ex)
                    return
                if empty:
                    if d:
                        self._signal_complete()
                        return
                    break
                rail = rails[idx]
                e = emitted[idx]
                if rail.requested.get() != e and not rail.cancelled:
                    try:
                        v = poll()
                    except Exception as ex:
                        self._fail(ex)
                        return
                    if v is None:
                        break
                    subscribers[idx].on_next(v)
                    emitted[idx] = e + 1
                    consumed += 1
                    if consumed == lim:
                        consumed = 0
                        self.upstream.request(lim)
                    not_ready = 0
                else:
                    not_ready += 1
                idx += 1
                if idx == n:
                    idx = 0
                if not_ready == n:  # no rail has demand: wait for a request
                    break
            self.index = idx
            self.consumed = consumed
            if not leave():
                return

    def drain_sync(self) -> None:
        """Poll the SYNC-fused source directly: ``poll() is None`` is its end."""
        q = self.queue
        poll = q.poll
        is_empty = q.is_empty
        subscribers = self.subscribers
        rails = self.rails
        emitted = self.emitted
        n = self.n
        leave = self.gate.leave
        idx = self.index
        while True:
            not_ready = 0
            while True:
                if self.cancelled:
                    q.clear()
                    return
                try:
                    empty = is_empty()
                except Exception as ex:
                    self._fail(ex)
                    return
                if empty:
                    self._signal_complete()
                    return
                rail = rails[idx]
                e = emitted[idx]
                if rail.requested.get() != e and not rail.cancelled:
                    try:
                        v = poll()
                    except Exception as ex:
                        self._fail(ex)
                        return
                    if v is None:
                        self._signal_complete()
                        return
                    subscribers[idx].on_next(v)
                    emitted[idx] = e + 1
                    not_ready = 0
                else:
                    not_ready += 1
                idx += 1
                if idx == n:
                    idx = 0
                if not_ready == n:
                    break
            self.index = idx
            if not leave():
                return
