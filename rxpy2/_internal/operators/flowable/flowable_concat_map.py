"""Flowable.concat_map / concat_map_delay_error (and concat of a Publisher of Publishers).

The upstream's items are prefetched (or fused) and mapped one at a time; one inner runs at
a time, under :class:`ConcatMapInner`, a :class:`SubscriptionArbiter` that carries the
downstream's demand from one inner to the next. A :class:`Drain` loop subscribes the next
inner, so synchronous inners run in constant stack depth. Errors follow
:class:`ErrorMode` (IMMEDIATE, BOUNDARY, END).

How: docs/flattening.md, "Inside concat_map".
"""

from __future__ import annotations

from collections.abc import Callable as Fn
from typing import Any
from typing import ClassVar
from typing import Generic
from typing import TypeVar

from rxpy2 import plugins
from rxpy2._internal.fuseable import ANY
from rxpy2._internal.fuseable import ASYNC
from rxpy2._internal.fuseable import BOUNDARY
from rxpy2._internal.fuseable import NONE
from rxpy2._internal.fuseable import SYNC
from rxpy2._internal.fuseable import Callable
from rxpy2._internal.fuseable import HasUpstreamPublisher
from rxpy2._internal.helpers.error_mode import ErrorMode
from rxpy2._internal.helpers.exception_helper import TERMINATED
from rxpy2._internal.helpers.exception_helper import AtomicThrowable
from rxpy2._internal.helpers.fused_stage import FusedFlatten
from rxpy2._internal.helpers.fused_stage import FusedStage
from rxpy2._internal.helpers.fused_stage import Lines
from rxpy2._internal.helpers.half_serializer import HalfSerializer
from rxpy2._internal.helpers.stage_compiler import inner_publisher_leaf
from rxpy2._internal.helpers.subscribe_loop import subscribe_tail
from rxpy2._internal.operators.flowable.flowable_scalar_x_map import check_inner
from rxpy2._internal.operators.flowable.flowable_scalar_x_map import try_scalar_x_map_subscribe
from rxpy2._internal.subscribers.arbiter_relay import ArbiterSubscriber
from rxpy2._internal.subscribers.drain_support import fuse_upstream
from rxpy2._internal.subscribers.drain_support import missing_backpressure
from rxpy2._internal.subscriptions.scalar import ScalarSubscription
from rxpy2.flowable import Flowable
from rxpy2.observers import FlowableSubscriber
from rxpy2.operator_kit import UNSUBSCRIBED
from rxpy2.operator_kit import Drain
from rxpy2.operator_kit import null_error
from rxpy2.operator_kit import null_item
from rxpy2.operator_kit import null_or_late_error
from rxpy2.operator_kit import null_or_late_item
from rxpy2.operator_kit import validate_upstream
from rxpy2.reactivestreams import Publisher
from rxpy2.reactivestreams import Subscriber
from rxpy2.reactivestreams import Subscription

__all__ = ["ConcatMapInner", "FlowableConcatMap"]

T = TypeVar("T")
R = TypeVar("R")


def _fused_leaf(i: int, source: str, emit: Lines, derive: bool) -> Lines:
    return inner_publisher_leaf(i, source, emit, derive, False,
                                f"classify_checked(p, f{i}, 'concat_map')")


def _hand_over(rest: Publisher[Any], mapper: Any, arg: tuple[Any, int],
               subscriber: Subscriber[Any], scalars: int | None) -> None:
    FlowableConcatMap(rest, mapper, arg[1], ErrorMode.IMMEDIATE)._subscribe(subscriber)


class FlowableConcatMap(Flowable[R], HasUpstreamPublisher[T], Generic[T, R]):
    __slots__ = ("source", "mapper", "prefetch", "error_mode")

    #: concat_map as a chain's last stage (argument ``(mapper, prefetch)``)
    STAGE: ClassVar[FusedStage] = FusedStage(
        "concat_map",
        operator=lambda up, a: FlowableConcatMap(up, a[0], a[1], ErrorMode.IMMEDIATE),
        arguments=lambda a: (a[0],), flatten=FusedFlatten(leaf=_fused_leaf, hand_over=_hand_over))

    def __init__(self, source: Publisher[T], mapper: Fn[[T], Publisher[R]], prefetch: int,
                 error_mode: ErrorMode) -> None:
        self.source = source
        self.mapper = mapper
        self.prefetch = prefetch
        self.error_mode = error_mode

    def subscribe_actual(self, subscriber: Subscriber[R]) -> None:
        if try_scalar_x_map_subscribe(self.source, subscriber, self.mapper):
            return
        if self.error_mode == ErrorMode.IMMEDIATE:
            parent: _BaseConcatMapSubscriber[T, R] = ConcatMapImmediate(
                subscriber, self.mapper, self.prefetch)
        else:
            parent = ConcatMapDelayed(subscriber, self.mapper, self.prefetch,
                                      self.error_mode == ErrorMode.END)
        subscribe_tail(self.source, parent)


class ConcatMapInner(ArbiterSubscriber[R], Generic[R]):
    """Subscribes to each inner Publisher in turn; holds the downstream's demand."""

    def __init__(self, parent: _BaseConcatMapSubscriber[Any, R]) -> None:
        super().__init__()
        self.parent = parent

    def on_next(self, item: R) -> None:
        if item is None:
            raise null_item()  # §2.13
        self.produced_count += 1
        self.parent.inner_next(item)

    def on_error(self, error: BaseException) -> None:
        if error is None:
            raise null_error()  # §2.13
        self.carry_over()  # the next inner gets only the outstanding demand
        self.parent.inner_error(error)

    def on_complete(self) -> None:
        self.carry_over()  # the next inner gets only the outstanding demand
        self.parent.inner_complete()


class _BaseConcatMapSubscriber(FlowableSubscriber[T], Subscription, Generic[T, R]):
    """The upstream side: prefetch queue, fusion, the ``active`` flag and the drain loop."""

    def __init__(self, downstream: Subscriber[R], mapper: Fn[[T], Publisher[R]],
                 prefetch: int) -> None:
        self.downstream = downstream
        self.mapper = mapper
        self.prefetch = prefetch
        self.limit = prefetch - (prefetch >> 2)  # replenish after 75% were mapped
        self.inner: ConcatMapInner[R] = ConcatMapInner(self)
        self.upstream: Subscription = UNSUBSCRIBED
        self.queue: Any = None
        self.source_mode = NONE
        self.consumed = 0  # items mapped since the last replenishing request (drain only)
        self.done = False
        self.cancelled = False
        self.active = False  # an inner is running
        self.errors = AtomicThrowable()
        self.gate = Drain()  # the drain loop (subscribes the inners one after another)

    # ---------------------------------------------------------------- upstream side
    def on_subscribe(self, s: Subscription) -> None:
        if not validate_upstream(self.upstream, s):  # §2.13, §2.5
            return
        self.upstream = s
        # RxJava 2.2.21's BaseConcatMapSubscriber asks ANY | BOUNDARY (mode first)
        self.source_mode, self.queue = fuse_upstream(s, self.prefetch, ANY | BOUNDARY)
        if self.source_mode == SYNC:  # every item is there: no request, ever
            self.done = True
            self.downstream.on_subscribe(self)
            self.drain()
            return
        self.downstream.on_subscribe(self)
        s.request(self.prefetch)

    def on_next(self, item: T) -> None:
        if self.source_mode != ASYNC:  # ASYNC: the item is a "ready" signal
            if item is None or self.done:
                null_or_late_item(item)  # §2.13
                return
            if not self.queue.offer(item):
                self.upstream.cancel()
                self.on_error(missing_backpressure("concat_map", self.prefetch))
                return
        self.drain()

    def on_complete(self) -> None:
        self.done = True
        self.drain()

    def inner_complete(self) -> None:
        self.active = False
        self.drain()

    # ---------------------------------------------------------------- downstream side
    def request(self, n: int) -> None:
        self.inner.request(n)  # the arbiter validates (§3.9) and hands it to the inner

    def cancel(self) -> None:
        if self.cancelled:
            return
        self.cancelled = True
        self.inner.cancel()
        self.upstream.cancel()
        if self.gate.enter():  # no drain runs: the queue is ours to clear (kept for good)
            self.queue.clear()

    # ---------------------------------------------------------------- the drain
    def inner_next(self, item: R) -> None:
        raise NotImplementedError

    def inner_error(self, error: BaseException) -> None:
        raise NotImplementedError

    def fail(self, error: BaseException) -> None:
        """The mapper or a fused poll raised: the stream ends with ``error``."""
        raise NotImplementedError

    def finish(self) -> bool:
        """The upstream is done and empty, no inner runs: signal the end; True to stop."""
        raise NotImplementedError

    def stop_at_boundary(self, done: bool) -> bool:
        """Between inners: True if an error ended the stream (it was signalled)."""
        raise NotImplementedError

    def emit_scalar(self, value: R) -> bool:
        """Emit a Callable inner's value under unbounded demand; False if the stream ended."""
        raise NotImplementedError

    def scalar_failed(self, error: BaseException) -> bool:
        """A Callable inner raised; True if the stream ended."""
        raise NotImplementedError

    def drain(self) -> None:
        gate = self.gate
        if not gate.enter():
            return  # the owner makes another pass
        q = self.queue
        inner = self.inner
        limit = self.limit
        sync = self.source_mode == SYNC
        while True:
            if self.cancelled:
                q.clear()
                return
            if not self.active:
                d = self.done
                if self.stop_at_boundary(d):
                    q.clear()
                    return
                try:
                    v = q.poll()
                except Exception as e:
                    self.fail(e)
                    return
                if v is None:
                    if d and self.finish():
                        return
                else:
                    try:
                        p = check_inner(self.mapper(v), self.mapper, "concat_map")
                    except Exception as e:
                        self.fail(e)
                        return
                    if not sync:
                        c = self.consumed + 1
                        if c == limit:
                            self.consumed = 0
                            self.upstream.request(c)
                        else:
                            self.consumed = c
                    if isinstance(p, Callable):
                        try:
                            vr = p.call()
                        except Exception as e:
                            if self.scalar_failed(e):
                                return
                            continue  # delayed: on to the next item
                        if vr is None:
                            continue  # an empty inner: on to the next item
                        if inner.is_unbounded():
                            if not self.emit_scalar(vr):
                                return
                            continue
                        self.active = True
                        # emits when the downstream asks for it, then completes the inner
                        inner.set_subscription(ScalarSubscription(inner, vr))
                    else:
                        self.active = True
                        p.subscribe(inner)
            if not gate.leave():
                return


class ConcatMapImmediate(_BaseConcatMapSubscriber[T, R], Generic[T, R]):
    """ErrorMode.IMMEDIATE: the first error cancels everything and goes downstream at once."""

    def __init__(self, downstream: Subscriber[R], mapper: Fn[[T], Publisher[R]],
                 prefetch: int) -> None:
        super().__init__(downstream, mapper, prefetch)
        self.half = Drain()  # half-serializes inner items with the terminal events

    def _signal_error(self, error: BaseException) -> None:
        HalfSerializer.on_error(self.downstream, error, self.half, self.errors)

    def on_error(self, error: BaseException) -> None:
        if error is None or self.cancelled:
            null_or_late_error(error)  # §2.13, §1.7
            return
        if self.errors.try_add_throwable(error):
            self.inner.cancel()
            if self.half.enter():  # kept for good: nothing follows the terminal signal
                self.errors.try_terminate_consumer(self.downstream)
        else:
            plugins.on_error(error)

    def inner_next(self, item: R) -> None:
        if not self.cancelled:  # §1.8: an inner that missed the cancel emits no more
            HalfSerializer.on_next(self.downstream, item, self.half, self.errors)

    def inner_error(self, error: BaseException) -> None:
        if self.cancelled:
            plugins.on_error(error)
            return
        if self.errors.try_add_throwable(error):
            self.upstream.cancel()
            if self.half.enter():  # kept for good: nothing follows the terminal signal
                self.errors.try_terminate_consumer(self.downstream)
        else:
            plugins.on_error(error)

    def fail(self, error: BaseException) -> None:
        self.done = True  # items that still arrive are dropped
        self.upstream.cancel()
        self.queue.clear()
        self.inner.cancel()
        self._signal_error(error)

    def finish(self) -> bool:
        HalfSerializer.on_complete(self.downstream, self.half, self.errors)
        return True

    def stop_at_boundary(self, done: bool) -> bool:
        return self.errors.get() is not None  # signalled (or being signalled) by its reporter

    def emit_scalar(self, value: R) -> bool:
        return not HalfSerializer.on_next(self.downstream, value, self.half, self.errors) \
            and self.errors.get() is None

    def scalar_failed(self, error: BaseException) -> bool:
        self.fail(error)
        return True


class ConcatMapDelayed(_BaseConcatMapSubscriber[T, R], Generic[T, R]):
    """ErrorMode.BOUNDARY (``till_the_end`` False) and END (True): errors wait."""

    def __init__(self, downstream: Subscriber[R], mapper: Fn[[T], Publisher[R]],
                 prefetch: int, till_the_end: bool) -> None:
        super().__init__(downstream, mapper, prefetch)
        self.till_the_end = till_the_end

    def on_error(self, error: BaseException) -> None:
        if error is None or self.done or self.cancelled:
            null_or_late_error(error)  # §2.13, §1.7
            return
        if self.errors.try_add_throwable(error):
            self.done = True
            self.drain()
        else:
            plugins.on_error(error)

    def inner_next(self, item: R) -> None:
        # no terminal event goes out while an inner runs: no serialization needed
        if not self.cancelled:  # §1.8: an inner that missed the cancel emits no more
            self.downstream.on_next(item)

    def _add_inner_error(self, error: BaseException) -> bool:
        if self.cancelled or not self.errors.try_add_throwable(error):
            plugins.on_error(error)
            return False
        if not self.till_the_end:
            self.upstream.cancel()
            self.done = True
        return True

    def inner_error(self, error: BaseException) -> None:
        if self._add_inner_error(error):
            self.active = False
            self.drain()

    def fail(self, error: BaseException) -> None:
        self.done = True  # items that still arrive are dropped, errors go to plugins
        self.upstream.cancel()
        self.queue.clear()
        self.errors.try_add_throwable(error)
        ex = self.errors.terminate()
        if ex is not None and ex is not TERMINATED:
            self.downstream.on_error(ex)  # with the errors collected so far

    def finish(self) -> bool:
        self.errors.try_terminate_consumer(self.downstream)
        return True

    def stop_at_boundary(self, done: bool) -> bool:
        if done and not self.till_the_end and self.errors.get() is not None:
            ex = self.errors.terminate()
            if ex is not None and ex is not TERMINATED:
                self.downstream.on_error(ex)
            return True
        return False

    def emit_scalar(self, value: R) -> bool:
        self.downstream.on_next(value)
        return True

    def scalar_failed(self, error: BaseException) -> bool:
        # a failing Callable inner is an inner that failed: the mode decides
        self._add_inner_error(error)
        return False
