"""Flowable.concat_map_eager / concat_map_eager_delay_error (and concat_eager).

Every upstream item is mapped to a Publisher that is subscribed at once, up to
``max_concurrency`` of them (the upstream is asked for that many items, or for
``LONG_MAX`` when unbounded, then for one more each time an inner finished). Each
inner is an :class:`InnerQueuedSubscriber`: it prefetches ``prefetch`` items into
its own queue (or fuses with a SYNC/ASYNC QueueSubscription) and is replenished
by 75% as its items go out.

One drain loop, guarded by a :class:`Drain` (a signal while it runs makes
``leave()`` ask for another pass), emits, under the downstream's demand, from the head inner
only (``current``); when it is done and empty, the next inner in upstream order
becomes the head. So the items come out in order, each inner's after the
previous one's, while the later inners already run and buffer.

Errors (:class:`ErrorMode`): IMMEDIATE cancels everything and signals at once;
BOUNDARY cancels the upstream and signals when the head inner ended; END waits
until the upstream and every inner ended, then signals every error (several as a
:class:`CompositeException`). An error after the end or after cancellation goes
to ``plugins.on_error``.
"""

from __future__ import annotations

from collections.abc import Callable as Fn
from typing import Generic
from typing import TypeVar

from rxpy2 import plugins
from rxpy2._internal.atomic import AtomicLong
from rxpy2._internal.fuseable import HasUpstreamPublisher
from rxpy2._internal.helpers.error_mode import ErrorMode
from rxpy2._internal.helpers.exception_helper import TERMINATED
from rxpy2._internal.helpers.exception_helper import AtomicThrowable
from rxpy2._internal.helpers.subscribe_loop import subscribe_tail
from rxpy2._internal.operators.flowable.flowable_scalar_x_map import check_inner
from rxpy2._internal.queues import SpscLinkedArrayQueue
from rxpy2._internal.subscribers.drain_support import DrainSubscriptionMixin
from rxpy2._internal.subscribers.drain_support import DrainTerminalsMixin
from rxpy2._internal.subscribers.inner_queued import InnerQueuedSubscriber
from rxpy2._internal.subscribers.inner_queued import InnerQueuedSubscriberSupport
from rxpy2._internal.subscribers.operator_subscriber import RequestsUpfront
from rxpy2.exceptions import MissingBackpressureException
from rxpy2.flowable import Flowable
from rxpy2.observers import FlowableSubscriber
from rxpy2.operator_kit import UNSUBSCRIBED
from rxpy2.operator_kit import Drain
from rxpy2.operator_kit import null_or_late_error
from rxpy2.operator_kit import null_or_late_item
from rxpy2.reactivestreams import LONG_MAX
from rxpy2.reactivestreams import Publisher
from rxpy2.reactivestreams import Subscriber
from rxpy2.reactivestreams import Subscription

__all__ = ["FlowableConcatMapEager"]

T = TypeVar("T")
R = TypeVar("R")


class FlowableConcatMapEager(Flowable[R], HasUpstreamPublisher[T], Generic[T, R]):
    __slots__ = ("source", "mapper", "max_concurrency", "prefetch", "error_mode")

    def __init__(self, source: Publisher[T], mapper: Fn[[T], Publisher[R]],
                 max_concurrency: int, prefetch: int, error_mode: ErrorMode) -> None:
        self.source = source
        self.mapper = mapper
        self.max_concurrency = max_concurrency
        self.prefetch = prefetch
        self.error_mode = error_mode

    def subscribe_actual(self, subscriber: Subscriber[R]) -> None:
        subscribe_tail(self.source, ConcatMapEagerSubscriber(
            subscriber, self.mapper, self.max_concurrency, self.prefetch, self.error_mode))


class ConcatMapEagerSubscriber(DrainTerminalsMixin, DrainSubscriptionMixin, RequestsUpfront, FlowableSubscriber[T], Subscription,
                               InnerQueuedSubscriberSupport[R], Generic[T, R]):
    __slots__ = ("downstream", "mapper", "max_concurrency", "prefetch", "error_mode",
                 "errors", "requested", "subscribers", "upstream", "cancelled", "done",
                 "current", "gate")

    def __init__(self, downstream: Subscriber[R], mapper: Fn[[T], Publisher[R]],
                 max_concurrency: int, prefetch: int, error_mode: ErrorMode) -> None:
        self.downstream = downstream
        self.mapper = mapper
        self.max_concurrency = max_concurrency
        self.prefetch = prefetch
        self.error_mode = error_mode
        self.errors = AtomicThrowable()
        self.requested = AtomicLong()
        # the running inners in upstream order (producer: on_next; consumer: the drain)
        self.subscribers: SpscLinkedArrayQueue[InnerQueuedSubscriber[R]] = SpscLinkedArrayQueue(
            min(prefetch, max_concurrency))
        self.upstream: Subscription = UNSUBSCRIBED
        self.cancelled = False
        self.done = False
        self.current: InnerQueuedSubscriber[R] | None = None  # the head inner (drain only)
        self.gate = Drain()

    # ---------------------------------------------------------------- upstream side
    # on_subscribe: RequestsUpfront's
    def first_request(self) -> int:
        return self.max_concurrency  # LONG_MAX when unbounded

    def on_next(self, item: T) -> None:
        if item is None or self.done:
            null_or_late_item(item)  # §2.13
            return
        try:
            p = check_inner(self.mapper(item), self.mapper, "concat_map_eager")
        except Exception as e:
            self.upstream.cancel()
            self.on_error(e)
            return
        inner: InnerQueuedSubscriber[R] = InnerQueuedSubscriber(self, self.prefetch)
        if self.cancelled:
            return
        self.subscribers.offer(inner)
        p.subscribe(inner)
        if self.cancelled:  # cancelled meanwhile: make sure this one goes too
            inner.cancel()
            self.drain_and_cancel()

    def on_error(self, error: BaseException) -> None:
        if error is None or self.done:
            null_or_late_error(error)  # §2.13, §1.7
            return
        if self.errors.try_add_throwable(error):
            self.done = True
            self.drain()
        else:
            plugins.on_error(error)

    # ---------------------------------------------------------------- inner side
    def inner_next(self, inner: InnerQueuedSubscriber[R], item: R) -> None:
        if inner.queue.offer(item):
            self.drain()
        else:
            inner.cancel()
            self.inner_error(inner, MissingBackpressureException.queue_full(
                "concat_map_eager", self.prefetch, "prefetch", inner=True))

    def inner_error(self, inner: InnerQueuedSubscriber[R], error: BaseException) -> None:
        if self.errors.try_add_throwable(error):
            inner.set_done()
            if self.error_mode != ErrorMode.END:
                self.upstream.cancel()
            self.drain()
        else:
            plugins.on_error(error)

    def inner_complete(self, inner: InnerQueuedSubscriber[R]) -> None:
        inner.set_done()
        self.drain()

    # ---------------------------------------------------------------- downstream side
    def cancel(self) -> None:
        if self.cancelled:
            return
        self.cancelled = True
        self.upstream.cancel()
        self.errors.try_terminate_and_report()  # later errors go to plugins.on_error
        self.drain_and_cancel()

    def drain_and_cancel(self) -> None:
        gate = self.gate
        if gate.enter():
            while True:
                self.cancel_all()
                if not gate.leave():
                    return

    def cancel_all(self) -> None:
        """Cancel the head and every waiting inner (by the holder of the drain)."""
        inner = self.current
        self.current = None
        if inner is not None:
            inner.cancel()
        poll = self.subscribers.poll
        while True:
            inner = poll()
            if inner is None:
                return
            inner.cancel()

    def _signal_errors(self) -> None:
        self.cancel_all()
        ex = self.errors.terminate()
        if ex is not None and ex is not TERMINATED:
            self.downstream.on_error(ex)

    def _poll_failed(self, inner: InnerQueuedSubscriber[R], error: BaseException) -> bool:
        """A fused inner's ``poll`` raised: an inner error. True if the stream ended."""
        inner.cancel()
        inner.set_done()
        if self.error_mode == ErrorMode.IMMEDIATE:
            self.current = None
            self.errors.try_add_throwable_or_report(error)
            self._signal_errors()
            return True
        if self.errors.try_add_throwable_or_report(error) \
                and self.error_mode == ErrorMode.BOUNDARY:
            self.upstream.cancel()
        return False

    def drain(self) -> None:
        gate = self.gate
        if not gate.enter():
            return  # the owner makes another pass
        inner = self.current
        a = self.downstream
        immediate = self.error_mode == ErrorMode.IMMEDIATE
        delay_till_end = self.error_mode == ErrorMode.END
        bounded = self.max_concurrency != LONG_MAX
        errors = self.errors
        requested = self.requested
        while True:
            if self.cancelled:
                self.cancel_all()
                return
            r = requested.get()
            e = 0
            if inner is None:
                if not delay_till_end and errors.get() is not None:
                    self._signal_errors()  # IMMEDIATE, or BOUNDARY at a boundary
                    return
                outer_done = self.done
                inner = self.subscribers.poll()
                if inner is None:
                    if outer_done:
                        errors.try_terminate_consumer(a)
                        return
                else:
                    self.current = inner
            next_source = False
            if inner is not None:
                q = inner.queue
                if q is not None:  # None: the inner has not seen on_subscribe yet
                    poll = q.poll
                    while e != r:
                        if self.cancelled:
                            self.cancel_all()
                            return
                        if immediate and errors.get() is not None:
                            self._signal_errors()
                            return
                        d = inner.done
                        try:
                            v = poll()
                        except Exception as ex:
                            if self._poll_failed(inner, ex):
                                return
                            v = None
                            d = True
                        if v is None:
                            if d:
                                next_source = True
                            break
                        a.on_next(v)
                        e += 1
                        inner.request_one()
                    if e == r and not next_source:
                        if self.cancelled:
                            self.cancel_all()
                            return
                        if immediate and errors.get() is not None:
                            self._signal_errors()
                            return
                        if inner.done and q.is_empty():
                            next_source = True
                    if next_source:  # the head is done and empty: on to the next inner
                        inner = None
                        self.current = None
                        if bounded:
                            self.upstream.request(1)
            if e != 0 and r != LONG_MAX:
                requested.add_and_get(-e)
            if next_source:
                continue
            if not gate.leave():
                return
