"""Flowable.concat_map_maybe / concat_map_single (and their ``_delay_error`` forms).

RxJava 2's FlowableConcatMapMaybe/FlowableConcatMapSingle: each upstream item is mapped
to a Maybe (a Single) and the inner sources run one at a time, in upstream order, served
by one :class:`ConcatMapInnerObserver` and one drain loop (constant stack depth for
synchronous inners). Errors follow :class:`ErrorMode`. :class:`ConcatMapZeroOneSubscriber`
is also the base of concat_map_completable.

How: docs/flattening.md, "Inside concat_map_maybe and concat_map_single".
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from typing import ClassVar
from typing import Generic
from typing import TypeVar

from rxpy2._internal.fuseable import HasUpstreamPublisher
from rxpy2._internal.helpers.disposable_helper import DisposableHelper
from rxpy2._internal.helpers.error_mode import ErrorMode
from rxpy2._internal.helpers.subscribe_loop import subscribe_tail
from rxpy2._internal.operators.flowable.flowable_flat_map_maybe import InnerObserver
from rxpy2._internal.operators.single.single_flat_map import apply_mapper
from rxpy2._internal.subscribers.drain_support import DrainSubscriptionMixin
from rxpy2._internal.subscribers.drain_support import DrainTerminalsMixin
from rxpy2._internal.subscribers.drain_support import missing_backpressure
from rxpy2.disposables import Disposable
from rxpy2.flowable import Flowable
from rxpy2.maybe import Maybe
from rxpy2.observers import FlowableSubscriber
from rxpy2.operator_kit import UNSUBSCRIBED
from rxpy2.operator_kit import AtomicLong
from rxpy2.operator_kit import AtomicThrowable
from rxpy2.operator_kit import Drain
from rxpy2.operator_kit import SpscArrayQueue
from rxpy2.operator_kit import null_or_late_error
from rxpy2.operator_kit import null_or_late_item
from rxpy2.operator_kit import validate_upstream
from rxpy2.reactivestreams import Publisher
from rxpy2.reactivestreams import Subscriber
from rxpy2.reactivestreams import Subscription
from rxpy2.single import Single

__all__ = ["ConcatMapInnerObserver", "ConcatMapMaybeSubscriber", "ConcatMapZeroOneSubscriber",
           "FlowableConcatMapMaybe", "FlowableConcatMapSingle"]

T = TypeVar("T")
R = TypeVar("R")

INACTIVE = 0  # no inner source runs: the drain takes the next upstream item
ACTIVE = 1  # an inner source runs
RESULT = 2  # the inner source succeeded: ``item`` waits for demand


class FlowableConcatMapMaybe(Flowable[R], HasUpstreamPublisher[T], Generic[T, R]):
    __slots__ = ("source", "mapper", "error_mode", "prefetch")

    #: what ``mapper`` must return (``FlowableConcatMapSingle`` sets ``Single``)
    KIND: ClassVar[type] = Maybe

    def __init__(self, source: Publisher[T], mapper: Callable[[T], Any], error_mode: ErrorMode,
                 prefetch: int) -> None:
        self.source = source
        self.mapper = mapper
        self.error_mode = error_mode
        self.prefetch = prefetch

    def subscribe_actual(self, subscriber: Subscriber[R]) -> None:
        subscribe_tail(self.source, ConcatMapMaybeSubscriber(
            subscriber, self.mapper, self.KIND, self.error_mode, self.prefetch))


class FlowableConcatMapSingle(FlowableConcatMapMaybe[T, R], Generic[T, R]):
    """concat_map_single: the same operator, ``mapper`` returning Singles."""

    __slots__ = ()

    KIND: ClassVar[type] = Single


class ConcatMapInnerObserver(InnerObserver):
    """The one observer of every inner source in turn: each ``on_subscribe`` replaces the
    previous (finished) inner's Disposable; once disposed, a new one is disposed at once."""

    __slots__ = ()

    def on_subscribe(self, d: Disposable) -> None:
        DisposableHelper.replace(self, d)


class ConcatMapZeroOneSubscriber(DrainTerminalsMixin, DrainSubscriptionMixin, FlowableSubscriber[T], Generic[T]):
    """The upstream side, the inner callbacks and the drain loop of concat_map_maybe/
    single/completable; a subclass is the downstream's Subscription (or Disposable).
    ``request``/``cancel``/``drain``: :class:`DrainSubscriptionMixin`."""

    __slots__ = ("downstream", "mapper", "kind", "error_mode", "prefetch", "limit", "queue",
                 "inner", "upstream", "errors", "requested", "gate", "done", "cancelled",
                 "emitted", "consumed", "item", "state")

    def __init__(self, downstream: Any, mapper: Callable[[T], Any], kind: type,
                 error_mode: ErrorMode, prefetch: int) -> None:
        self.downstream = downstream
        self.mapper = mapper
        self.kind = kind
        self.error_mode = error_mode
        self.prefetch = prefetch
        self.limit = prefetch - (prefetch >> 1)  # replenish after half (rounded up) was mapped
        self.queue: SpscArrayQueue[T] = SpscArrayQueue(prefetch)
        self.inner = ConcatMapInnerObserver(self)
        self.upstream: Subscription = UNSUBSCRIBED
        self.errors = AtomicThrowable()
        self.requested = AtomicLong()
        self.gate = Drain()
        self.done = False
        self.cancelled = False
        self.emitted = 0  # items emitted (drain only)
        self.consumed = 0  # items mapped since the last replenishing request (drain only)
        self.item: Any = None  # the success that waits for demand (state RESULT)
        self.state = INACTIVE

    # ---------------------------------------------------------------- upstream side
    def on_subscribe(self, s: Subscription) -> None:
        if not validate_upstream(self.upstream, s):  # §2.13, §2.5
            return
        self.upstream = s
        self.downstream.on_subscribe(self)
        s.request(self.prefetch)

    def on_next(self, item: T) -> None:
        if item is None or self.done:
            null_or_late_item(item)  # §2.13
            return
        if not self.queue.offer(item):
            self.upstream.cancel()
            self.on_error(missing_backpressure(self._name(), self.prefetch))
            return
        self.drain()

    def on_error(self, error: BaseException) -> None:
        if error is None or self.done:
            null_or_late_error(error)  # §2.13, §1.7
            return
        if self.errors.try_add_throwable_or_report(error):  # reported after a cancel
            if self.error_mode == ErrorMode.IMMEDIATE:
                self.inner.dispose()
            self.done = True
            self.drain()

    def _name(self) -> str:
        return f"concat_map_{self.kind.__name__.lower()}"

    # ---------------------------------------------------------------- inner source
    def inner_success(self, inner: InnerObserver, item: Any) -> None:
        self.item = item
        self.state = RESULT
        self.drain()

    def inner_complete(self, inner: InnerObserver) -> None:
        self.state = INACTIVE
        self.drain()

    def inner_error(self, inner: InnerObserver, error: BaseException) -> None:
        if self.errors.try_add_throwable_or_report(error):  # reported after a cancel
            if self.error_mode != ErrorMode.END:
                self.upstream.cancel()
            self.state = INACTIVE
            self.drain()

    # ---------------------------------------------------------------- cancellation
    def cancel_upstream(self) -> None:
        """``cancel``: stop the upstream and the running inner source."""
        self.upstream.cancel()
        self.inner.dispose()
        self.errors.try_terminate_and_report()  # an error that lost to the cancellation

    def cleanup(self) -> None:
        """After ``cancel``, by the holder of the drain."""
        self.queue.clear()
        self.item = None

    # ---------------------------------------------------------------- the drain loop
    def drain_loop(self) -> None:
        """Emit the waiting success, subscribe the next inner source; the caller owns ``gate``."""
        gate = self.gate
        downstream = self.downstream
        errors = self.errors
        queue = self.queue
        immediate = self.error_mode == ErrorMode.IMMEDIATE
        boundary = self.error_mode == ErrorMode.BOUNDARY
        while True:
            while True:
                if self.cancelled:
                    self.cleanup()
                    return  # the drain is kept for good
                s = self.state
                if errors.get() is not None and (immediate or (boundary and s == INACTIVE)):
                    queue.clear()
                    self.item = None
                    errors.try_terminate_consumer(downstream)
                    return
                if s == INACTIVE:
                    d = self.done
                    v = queue.poll()
                    if v is None:
                        if d:
                            errors.try_terminate_consumer(downstream)  # the errors of END
                            return
                        break
                    c = self.consumed + 1
                    if c == self.limit:
                        self.consumed = 0
                        self.upstream.request(c)
                    else:
                        self.consumed = c
                    try:
                        source = apply_mapper(self.mapper, v, self.kind)
                    except Exception as ex:
                        self.upstream.cancel()
                        queue.clear()
                        errors.try_add_throwable_or_report(ex)
                        errors.try_terminate_consumer(downstream)  # with the errors so far
                        return
                    self.state = ACTIVE
                    source._subscribe(self.inner)  # a synchronous end signals this drain
                    break
                if s == RESULT and self.emitted != self.requested.get():
                    w = self.item
                    self.item = None
                    downstream.on_next(w)
                    self.emitted += 1
                    self.state = INACTIVE
                    continue
                break  # ACTIVE, or a success without demand
            if not gate.leave():
                return


class ConcatMapMaybeSubscriber(ConcatMapZeroOneSubscriber[T], Subscription, Generic[T, R]):
    """concat_map_maybe/single: the downstream's Subscription (``request``/``cancel`` of
    :class:`DrainSubscriptionMixin`)."""

    __slots__ = ()

    downstream: Subscriber[R]
