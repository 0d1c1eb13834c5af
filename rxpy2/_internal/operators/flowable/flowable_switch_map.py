"""Flowable.switch_map / switch_map_delay_error: the items of the latest inner Publisher.

Each upstream item cancels the running inner and subscribes a new one (the signals of a
replaced inner are ignored, its error goes to ``plugins.on_error``). Inners are
:class:`PrefetchingInnerSubscriber` s; one drain loop (a :class:`~rxpy2.operator_kit.Drain`,
``gate``) emits from the current inner under the downstream's demand, shared by all the
inners. Completion waits for the last inner; ``delay_errors`` holds errors until the end.

How: docs/flattening.md, "Inside switch_map".
"""

from __future__ import annotations

from collections.abc import Callable as Fn
from typing import Any
from typing import Generic
from typing import TypeVar
from typing import cast

from rxpy2 import plugins
from rxpy2._internal.atomic import AtomicLong
from rxpy2._internal.atomic import AtomicReference
from rxpy2._internal.fuseable import ANY
from rxpy2._internal.fuseable import BOUNDARY
from rxpy2._internal.fuseable import NONE
from rxpy2._internal.fuseable import SYNC
from rxpy2._internal.fuseable import Callable
from rxpy2._internal.fuseable import HasUpstreamPublisher
from rxpy2._internal.helpers.exception_helper import TERMINATED
from rxpy2._internal.helpers.exception_helper import AtomicThrowable
from rxpy2._internal.helpers.subscribe_loop import subscribe_tail
from rxpy2._internal.operators.flowable.flowable_scalar_x_map import check_inner
from rxpy2._internal.operators.flowable.flowable_scalar_x_map import try_scalar_x_map_subscribe
from rxpy2._internal.subscribers.prefetching_inner import PrefetchingInnerSubscriber
from rxpy2._internal.subscriptions.empty import EmptySubscription
from rxpy2._internal.subscriptions.scalar import ScalarSubscription
from rxpy2.exceptions import MissingBackpressureException
from rxpy2.flowable import Flowable
from rxpy2.observers import FlowableSubscriber
from rxpy2.operator_kit import UNSUBSCRIBED
from rxpy2.operator_kit import Drain
from rxpy2.operator_kit import add_request
from rxpy2.operator_kit import null_error
from rxpy2.operator_kit import null_item
from rxpy2.operator_kit import null_or_late_item
from rxpy2.operator_kit import validate_request
from rxpy2.operator_kit import validate_upstream
from rxpy2.reactivestreams import LONG_MAX
from rxpy2.reactivestreams import Publisher
from rxpy2.reactivestreams import Subscriber
from rxpy2.reactivestreams import Subscription

__all__ = ["FlowableSwitchMap"]

T = TypeVar("T")
R = TypeVar("R")


class FlowableSwitchMap(Flowable[R], HasUpstreamPublisher[T], Generic[T, R]):
    __slots__ = ("source", "mapper", "prefetch", "delay_errors")

    def __init__(self, source: Publisher[T], mapper: Fn[[T], Publisher[R]], buffer_size: int,
                 delay_errors: bool) -> None:
        self.source = source
        self.mapper = mapper
        self.prefetch = buffer_size
        self.delay_errors = delay_errors

    def subscribe_actual(self, subscriber: Subscriber[R]) -> None:
        if try_scalar_x_map_subscribe(self.source, subscriber, self.mapper):
            return
        subscribe_tail(self.source, SwitchMapSubscriber(
            subscriber, self.mapper, self.prefetch, self.delay_errors))


class SwitchMapSubscriber(FlowableSubscriber[T], Subscription, Generic[T, R]):
    __slots__ = ("downstream", "mapper", "buffer_size", "delay_errors", "upstream", "done",
                 "cancelled", "errors", "active", "requested", "unique", "upstream_requested",
                 "gate")

    def __init__(self, downstream: Subscriber[R], mapper: Fn[[T], Publisher[R]],
                 buffer_size: int, delay_errors: bool) -> None:
        self.downstream = downstream
        self.mapper = mapper
        self.buffer_size = buffer_size
        self.delay_errors = delay_errors
        self.upstream: Subscription = UNSUBSCRIBED
        self.done = False
        self.cancelled = False
        self.errors = AtomicThrowable()
        self.active: AtomicReference[SwitchMapInnerSubscriber[R]] = AtomicReference()
        self.requested = AtomicLong()
        self.unique = 0  # the index of the latest upstream item (written by on_next only)
        self.upstream_requested = False
        self.gate = Drain()  # serializes the drain loop (module docstring)

    # ---------------------------------------------------------------- upstream side
    def on_subscribe(self, s: Subscription) -> None:
        if not validate_upstream(self.upstream, s):  # §2.13, §2.5
            return
        self.upstream = s
        self.downstream.on_subscribe(self)

    def on_next(self, item: T) -> None:
        if item is None or self.done:
            null_or_late_item(item)  # §2.13
            return
        c = self.unique + 1
        self.unique = c  # from now on the current inner's signals are stale
        current = self.active.get()
        if current is not None:
            current.cancel()
        try:
            p = check_inner(self.mapper(item), self.mapper, "switch_map")
        except Exception as e:
            self.upstream.cancel()
            # the cancelled inner will not end by itself: it no longer counts
            self.active.compare_and_set(current, None)
            self.on_error(e)
            return
        next_inner: SwitchMapInnerSubscriber[R] = SwitchMapInnerSubscriber(
            self, c, self.buffer_size)
        active = self.active
        while True:
            current = active.get()
            if current is _CANCELLED:
                return
            if active.compare_and_set(current, next_inner):
                break
        if isinstance(p, Callable):  # no subscription: the value (or the end) directly
            try:
                v = p.call()
            except Exception as e:
                EmptySubscription.error(e, next_inner)
                return
            if v is None:
                EmptySubscription.complete(next_inner)
            else:
                next_inner.on_subscribe(ScalarSubscription(next_inner, v))
        else:
            p.subscribe(next_inner)

    def on_error(self, error: BaseException) -> None:
        if error is None:
            raise null_error()  # §2.13
        if not self.done and self.errors.try_add_throwable(error):
            if not self.delay_errors:
                self.dispose_inner()
            self.done = True
            self.drain()
        else:
            plugins.on_error(error)

    def on_complete(self) -> None:
        if self.done:
            return
        self.done = True
        self.drain()

    # ---------------------------------------------------------------- downstream side
    def request(self, n: int) -> None:
        if n := validate_request(n):
            add_request(self.requested, n)
            if not self.upstream_requested:
                self.upstream_requested = True
                self.upstream.request(LONG_MAX)
            self.drain()

    def cancel(self) -> None:
        if self.cancelled:
            return
        self.cancelled = True
        self.upstream.cancel()
        self.dispose_inner()
        self.errors.try_terminate_and_report()  # later errors go to plugins.on_error

    def dispose_inner(self) -> None:
        a = self.active.get()
        if a is not _CANCELLED:
            a = self.active.get_and_set(_CANCELLED)
            if a is not _CANCELLED and a is not None:
                a.cancel()

    # ---------------------------------------------------------------- the drain
    def _signal_error(self) -> None:
        ex = self.errors.terminate()
        if ex is not None and ex is not TERMINATED:
            self.downstream.on_error(ex)

    def drain(self) -> None:
        """After a state change: run the drain loop, or make its owner run another pass."""
        gate = self.gate
        if not gate.enter():
            return
        leave = gate.leave
        a = self.downstream
        active = self.active
        errors = self.errors
        requested = self.requested
        delay = self.delay_errors
        while True:
            if self.cancelled:
                return
            if self.done:
                if delay:
                    if active.get() is None:
                        errors.try_terminate_consumer(a)
                        return
                else:
                    if errors.get() is not None:
                        self.dispose_inner()
                        self._signal_error()
                        return
                    if active.get() is None:
                        a.on_complete()
                        return
            inner = active.get()
            q = inner.queue if inner is not None else None
            if inner is not None and q is not None:
                r = requested.get()
                e = 0
                retry = False
                poll = q.poll
                while e != r:
                    if self.cancelled:
                        return
                    d = inner.done
                    try:
                        v = poll()
                    except Exception as ex:
                        inner.cancel()
                        errors.try_add_throwable_or_report(ex)
                        d = True
                        v = None
                    if inner is not active.get():
                        retry = True  # a later inner took over: drop this one's item
                        break
                    if d:
                        if not delay and errors.get() is not None:
                            self.dispose_inner()
                            self._signal_error()
                            return
                        if v is None:
                            active.compare_and_set(inner, None)
                            retry = True
                            break
                    if v is None:
                        break
                    a.on_next(v)
                    e += 1
                if e == r and not retry and inner.done:
                    # no demand left (or none at all): a finished inner still ends here
                    if not delay and errors.get() is not None:
                        self.dispose_inner()
                        self._signal_error()
                        return
                    if q.is_empty():
                        active.compare_and_set(inner, None)
                        retry = True
                if e != 0 and not self.cancelled:
                    if r != LONG_MAX:
                        requested.add_and_get(-e)
                    inner.request(e)
                if retry:
                    continue
            if not leave():
                return


class SwitchMapInnerSubscriber(PrefetchingInnerSubscriber[R], Generic[R]):
    """One inner Publisher's subscriber; ``index`` is its upstream item's.

    Prefetching, fusion and ``cancel``: :class:`PrefetchingInnerSubscriber`
    (internal/subscribers/prefetching_inner.py); ``request`` is its own (no 75% batching).
    """

    __slots__ = ("index",)

    FUSION_MODE = ANY | BOUNDARY  # the drain may poll on another thread

    parent: SwitchMapSubscriber[Any, R]

    def __init__(self, parent: SwitchMapSubscriber[Any, R], index: int,
                 buffer_size: int) -> None:
        super().__init__(parent, buffer_size)
        self.index = index

    def on_next(self, item: R) -> None:
        p = self.parent
        if self.fusion_mode == NONE:
            if item is None:
                raise null_item()  # §2.13
            if self.index == p.unique:
                q = self.queue
                if q is None:  # cancelled before on_subscribe: a late item (§3.12), dropped
                    return
                if not q.offer(item):
                    self.cancel()
                    self.on_error(MissingBackpressureException.queue_full(
                        "switch_map", self.prefetch, inner=True))
                    return
                p.drain()
        elif self.index == p.unique:  # ASYNC: the item only says "poll"
            p.drain()

    def on_error(self, error: BaseException) -> None:
        if error is None:
            raise null_error()  # §2.13
        p = self.parent
        if self.index == p.unique and p.errors.try_add_throwable(error):
            if not p.delay_errors:
                p.upstream.cancel()
                p.done = True
            self.done = True
            p.drain()
        else:
            plugins.on_error(error)  # a stale inner's error, or one after the end

    def on_complete(self) -> None:
        p = self.parent
        if self.index == p.unique:
            self.done = True
            p.drain()

    def request(self, n: int) -> None:
        """``n`` items went downstream: ask for as many again at once (not in SYNC mode)."""
        if self.fusion_mode != SYNC:
            s = self.upstream.get()  # None: not subscribed yet (the drain saw no queue then)
            if s is not None:
                s.request(n)


#: The mark in ``active`` once the operator was cancelled or failed: no inner any more
#: (it has no parent: it is never subscribed, so nothing calls back).
_CANCELLED: SwitchMapInnerSubscriber[Any] = SwitchMapInnerSubscriber(cast(Any, None), -1, 1)
_CANCELLED.cancel()
