"""Flowable.switch_map_maybe / switch_map_single (and their ``_delay_error`` forms).

RxJava 2's FlowableSwitchMapMaybe/FlowableSwitchMapSingle: each upstream item is mapped to
a Maybe (a Single) that replaces the running one (disposed); the latest one's success is
emitted under the downstream's demand by one drain loop. The upstream is asked for
everything at once. :class:`SwitchMapZeroOneSubscriber` is also the base of
switch_map_completable.

How, and the error modes: docs/flattening.md, "Inside switch_map_maybe and switch_map_single".
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from typing import ClassVar
from typing import Generic
from typing import TypeVar

from rxpy2 import plugins
from rxpy2._internal.fuseable import HasUpstreamPublisher
from rxpy2._internal.helpers.subscribe_loop import subscribe_tail
from rxpy2._internal.operators.flowable.flowable_flat_map_maybe import InnerObserver
from rxpy2._internal.operators.single.single_flat_map import apply_mapper
from rxpy2._internal.subscribers.drain_support import DrainSubscriptionMixin
from rxpy2._internal.subscribers.drain_support import DrainTerminalsMixin
from rxpy2._internal.subscribers.operator_subscriber import RequestsUpfront
from rxpy2.flowable import Flowable
from rxpy2.maybe import Maybe
from rxpy2.observers import FlowableSubscriber
from rxpy2.operator_kit import UNSUBSCRIBED
from rxpy2.operator_kit import AtomicLong
from rxpy2.operator_kit import AtomicReference
from rxpy2.operator_kit import AtomicThrowable
from rxpy2.operator_kit import Drain
from rxpy2.operator_kit import null_error
from rxpy2.operator_kit import null_item
from rxpy2.reactivestreams import Publisher
from rxpy2.reactivestreams import Subscriber
from rxpy2.reactivestreams import Subscription
from rxpy2.single import Single

__all__ = ["FlowableSwitchMapMaybe", "FlowableSwitchMapSingle", "SwitchMapInnerObserver",
           "SwitchMapMaybeSubscriber", "SwitchMapZeroOneSubscriber"]

T = TypeVar("T")
R = TypeVar("R")


class FlowableSwitchMapMaybe(Flowable[R], HasUpstreamPublisher[T], Generic[T, R]):
    __slots__ = ("source", "mapper", "delay_errors")

    #: what ``mapper`` must return (``FlowableSwitchMapSingle`` sets ``Single``)
    KIND: ClassVar[type] = Maybe

    def __init__(self, source: Publisher[T], mapper: Callable[[T], Any],
                 delay_errors: bool) -> None:
        self.source = source
        self.mapper = mapper
        self.delay_errors = delay_errors

    def subscribe_actual(self, subscriber: Subscriber[R]) -> None:
        subscribe_tail(self.source, SwitchMapMaybeSubscriber(
            subscriber, self.mapper, self.KIND, self.delay_errors))


class FlowableSwitchMapSingle(FlowableSwitchMapMaybe[T, R], Generic[T, R]):
    """switch_map_single: the same operator, ``mapper`` returning Singles."""

    __slots__ = ()

    KIND: ClassVar[type] = Single


class SwitchMapInnerObserver(InnerObserver):
    """Observes one inner source; keeps its success in ``item`` until it is emitted."""

    __slots__ = ("item",)

    def __init__(self, parent: Any) -> None:
        super().__init__(parent)
        self.item: Any = None


#: The mark in ``inner`` once the operator was cancelled or failed: no inner source any more.
DISPOSED_INNER = SwitchMapInnerObserver(None)


class SwitchMapZeroOneSubscriber(DrainTerminalsMixin, DrainSubscriptionMixin, RequestsUpfront, FlowableSubscriber[T], Generic[T]):
    """The upstream side, the inner callbacks and the drain loop of switch_map_maybe/
    single/completable; a subclass is the downstream's Subscription (or Disposable).
    ``request``/``cancel``/``drain``: :class:`DrainSubscriptionMixin`."""

    __slots__ = ("downstream", "mapper", "kind", "delay_errors", "upstream", "errors", "inner",
                 "requested", "gate", "done", "cancelled", "emitted")

    #: dispose the running inner source before mapping the next item (RxJava 2's
    #: switchMapMaybe/Single; switchMapCompletable disposes it once the next one is set)
    DISPOSE_BEFORE_MAPPING: ClassVar[bool] = True

    def __init__(self, downstream: Any, mapper: Callable[[T], Any], kind: type,
                 delay_errors: bool) -> None:
        self.downstream = downstream
        self.mapper = mapper
        self.kind = kind
        self.delay_errors = delay_errors
        self.upstream: Subscription = UNSUBSCRIBED
        self.errors = AtomicThrowable()
        self.inner: AtomicReference[SwitchMapInnerObserver] = AtomicReference()
        self.requested = AtomicLong()
        self.gate = Drain()
        self.done = False
        self.cancelled = False
        self.emitted = 0  # items emitted (drain only)

    # ---------------------------------------------------------------- upstream side
    # on_subscribe: RequestsUpfront's

    def on_next(self, item: T) -> None:
        if item is None:
            raise null_item()  # §2.13
        if self.done or self.cancelled:
            return  # a late item (§3.12 allows them after the cancel): no mapping
        inner = self.inner
        if self.DISPOSE_BEFORE_MAPPING:
            current = inner.get()
            if current is not None:
                current.dispose()
        try:
            source = apply_mapper(self.mapper, item, self.kind)
        except Exception as ex:
            self.upstream.cancel()
            if self.DISPOSE_BEFORE_MAPPING:
                inner.get_and_set(DISPOSED_INNER)  # the disposed inner will not end by itself
            self.on_error(ex)
            return
        observer = SwitchMapInnerObserver(self)
        while True:
            current = inner.get()
            if current is DISPOSED_INNER:
                return
            if inner.compare_and_set(current, observer):
                if current is not None:
                    current.dispose()
                source._subscribe(observer)
                return

    def on_error(self, error: BaseException) -> None:
        if error is None:
            raise null_error()  # §2.13
        if not self.done and self.errors.try_add_throwable(error):
            if not self.delay_errors:
                self.dispose_inner()
            self.done = True
            self.drain()
        else:
            plugins.on_error(error)  # a second error, or one after the cancellation

    def dispose_inner(self) -> None:
        current = self.inner.get_and_set(DISPOSED_INNER)
        if current is not None and current is not DISPOSED_INNER:
            current.dispose()

    # ---------------------------------------------------------------- inner sources
    def inner_success(self, sender: SwitchMapInnerObserver, item: Any) -> None:
        sender.item = item
        self.drain()

    def inner_complete(self, sender: SwitchMapInnerObserver) -> None:
        if self.inner.compare_and_set(sender, None):
            self.drain()

    def inner_error(self, sender: SwitchMapInnerObserver, error: BaseException) -> None:
        if self.inner.compare_and_set(sender, None) and self.errors.try_add_throwable(error):
            if not self.delay_errors:
                self.upstream.cancel()
                self.dispose_inner()
            self.drain()
        else:
            plugins.on_error(error)  # a replaced inner's error, or one after the end

    # ---------------------------------------------------------------- cancellation
    def cancel_upstream(self) -> None:
        """``cancel``: stop the upstream and the running inner source."""
        self.upstream.cancel()
        self.dispose_inner()
        self.errors.try_terminate_and_report()  # an error that lost to the cancellation

    def cleanup(self) -> None:
        """After ``cancel``: nothing is buffered here (a success lives in its observer)."""

    # ---------------------------------------------------------------- the drain loop
    def drain_loop(self) -> None:
        """Emit the current success, or the terminal signal; the caller owns ``gate``."""
        gate = self.gate
        downstream = self.downstream
        errors = self.errors
        inner = self.inner
        delay = self.delay_errors
        while True:
            while True:
                if self.cancelled:
                    return  # the drain is kept for good
                if not delay and errors.get() is not None:
                    errors.try_terminate_consumer(downstream)
                    return
                d = self.done
                current = inner.get()
                if d and (current is None or current is DISPOSED_INNER):
                    # DISPOSED_INNER with done: the mapper failed (RxJava 2 would hang here)
                    errors.try_terminate_consumer(downstream)
                    return
                if current is None or current.item is None \
                        or self.emitted == self.requested.get():
                    break
                inner.compare_and_set(current, None)
                v = current.item
                current.item = None
                downstream.on_next(v)
                self.emitted += 1
            if not gate.leave():
                return


class SwitchMapMaybeSubscriber(SwitchMapZeroOneSubscriber[T], Subscription, Generic[T, R]):
    """switch_map_maybe/single: the downstream's Subscription (``request``/``cancel`` of
    :class:`DrainSubscriptionMixin`)."""

    __slots__ = ()

    downstream: Subscriber[R]

