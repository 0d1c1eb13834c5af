"""Flowable.timeout with indicator Publishers (RxJava 2's FlowableTimeout).

The first item must come before ``first_timeout`` signals (when given); each item
starts ``item_timeout(item)``, and the next item must come before that signals. An
indicator's first item or its completion is the timeout: ``TimeoutError`` without
a message (RxJava 2's bare ``TimeoutException``), or a switch to ``fallback``; an
indicator's error, when the indicator is still the current one, is the downstream's
error. As in the timed version (``flowable_timeout_timed.py``) the item index
decides every race: an item moves it on with ``compare_and_set(idx, idx + 1)``, an
indicator ends it with ``compare_and_set(idx, LONG_MAX)``.

A new indicator replaces the previous one (which was already cancelled by the item
that made it obsolete); the indicators ask for everything (``LONG_MAX``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from typing import Generic
from typing import TypeVar

from rxpy2 import plugins
from rxpy2._internal.atomic import AtomicLong
from rxpy2._internal.atomic import AtomicReference
from rxpy2._internal.fuseable import HasUpstreamPublisher
from rxpy2._internal.helpers.subscribe_loop import subscribe_tail
from rxpy2._internal.helpers.subscription_helper import CANCELLED
from rxpy2._internal.helpers.subscription_helper import SubscriptionHelper
from rxpy2._internal.operators.flowable.flowable_scalar_x_map import check_inner
from rxpy2._internal.operators.flowable.flowable_timeout_timed import FallbackTimeout
from rxpy2._internal.operators.flowable.flowable_timeout_timed import IndexedTimeout
from rxpy2._internal.operators.flowable.flowable_timeout_timed import PlainTimeout
from rxpy2.disposables import Disposable
from rxpy2.disposables import SerialDisposable
from rxpy2.flowable import Flowable
from rxpy2.observers import FlowableSubscriber
from rxpy2.operator_kit import null_error
from rxpy2.operator_kit import null_item
from rxpy2.reactivestreams import LONG_MAX
from rxpy2.reactivestreams import Publisher
from rxpy2.reactivestreams import Subscriber
from rxpy2.reactivestreams import Subscription

__all__ = ["FlowableTimeout", "IndicatorSubscriber"]

T = TypeVar("T")


class FlowableTimeout(Flowable[T], HasUpstreamPublisher[T], Generic[T]):
    __slots__ = ("source", "first_timeout", "item_timeout", "fallback")

    def __init__(self, source: Publisher[T], first_timeout: Publisher[Any] | None,
                 item_timeout: Callable[[T], Publisher[Any]],
                 fallback: Publisher[T] | None) -> None:
        self.source = source
        self.first_timeout = first_timeout
        self.item_timeout = item_timeout
        self.fallback = fallback

    def subscribe_actual(self, subscriber: Subscriber[T]) -> None:
        parent: _SelectorTimeout[T]
        if self.fallback is None:
            parent = TimeoutSubscriber(subscriber, self.item_timeout)
        else:
            parent = TimeoutFallbackSubscriber(subscriber, self.item_timeout, self.fallback)
        subscriber.on_subscribe(parent)
        parent.start_first_timeout(self.first_timeout)
        subscribe_tail(self.source, parent)


class _SelectorTimeout(IndexedTimeout[T], Generic[T]):
    """The timeouts of the selector form: an indicator Publisher per item
    (``item_timeout(item)``), subscribed with a :class:`TimeoutConsumer` held in ``task``."""

    __slots__ = ()

    item_timeout: Callable[[T], Publisher[Any]]

    def start_first_timeout(self, first: Publisher[Any] | None) -> None:
        if first is not None:
            consumer = TimeoutConsumer(0, self)
            if self.task.replace(consumer):
                first.subscribe(consumer)

    def next_timeout(self, item: T, idx: int) -> None:
        try:
            p = check_inner(self.item_timeout(item), self.item_timeout, "timeout")
        except Exception as ex:
            up = self.upstream.get()
            if up is not None:
                up.cancel()
            self.index.get_and_set(LONG_MAX)
            self.downstream.on_error(ex)
            return
        consumer = TimeoutConsumer(idx, self)
        if self.task.replace(consumer):
            p.subscribe(consumer)

    def stop_timeouts(self) -> None:
        self.task.dispose()

    def on_timeout_error(self, idx: int, error: BaseException) -> None:
        if self.index.compare_and_set(idx, LONG_MAX):
            SubscriptionHelper.cancel(self.upstream)
            self.downstream.on_error(error)
        else:
            plugins.on_error(error)


class TimeoutSubscriber(_SelectorTimeout[T], PlainTimeout[T], Generic[T]):
    __slots__ = ("downstream", "item_timeout", "task", "upstream", "index", "requested")

    def __init__(self, downstream: Subscriber[T], item_timeout: Callable[[T], Publisher[Any]]) -> None:
        self.downstream = downstream
        self.item_timeout = item_timeout
        self.task = SerialDisposable()
        self.upstream = AtomicReference()
        self.index = AtomicLong()
        self.requested = AtomicLong()

    def timed_out(self) -> None:
        self.downstream.on_error(TimeoutError())


class TimeoutFallbackSubscriber(_SelectorTimeout[T], FallbackTimeout[T], Generic[T]):
    """With a fallback."""

    def __init__(self, downstream: Subscriber[T], item_timeout: Callable[[T], Publisher[Any]],
                 fallback: Publisher[T]) -> None:
        super().__init__(fallback)
        self.downstream = downstream
        self.item_timeout = item_timeout
        self.task = SerialDisposable()
        self.upstream = AtomicReference()
        self.index = AtomicLong()

    def timed_out(self) -> None:
        self.switch()


class IndicatorSubscriber(FlowableSubscriber[Any], Disposable):
    """Subscribes to an indicator Publisher (requesting everything): its first item or its
    completion calls ``fire()`` once, its error ``fire_error(e)`` (after either, or after
    ``dispose``, a late error goes to ``plugins.on_error``). Used by the selector forms of
    ``timeout``, ``debounce`` and ``delay``."""

    __slots__ = ("upstream",)

    def __init__(self) -> None:
        self.upstream: AtomicReference[Subscription] = AtomicReference()

    def fire(self) -> None:
        raise NotImplementedError

    def fire_error(self, error: BaseException) -> None:
        raise NotImplementedError

    def on_subscribe(self, s: Subscription) -> None:
        SubscriptionHelper.set_once_request(self.upstream, s, LONG_MAX)

    def on_next(self, item: Any) -> None:
        if item is None:
            raise null_item()  # §2.13
        s = self.upstream.get_and_set(CANCELLED)
        if s is not CANCELLED:
            if s is not None:
                s.cancel()
            self.fire()

    def on_error(self, error: BaseException) -> None:
        if error is None:
            raise null_error()  # §2.13
        if self.upstream.get_and_set(CANCELLED) is not CANCELLED:
            self.fire_error(error)
        else:
            plugins.on_error(error)

    def on_complete(self) -> None:
        if self.upstream.get_and_set(CANCELLED) is not CANCELLED:
            self.fire()

    def dispose(self) -> None:
        SubscriptionHelper.cancel(self.upstream)

    def is_disposed(self) -> bool:
        return self.upstream.get() is CANCELLED


class TimeoutConsumer(IndicatorSubscriber):
    """The indicator of item ``idx``: it fires the timeout."""

    __slots__ = ("idx", "parent")

    def __init__(self, idx: int, parent: _SelectorTimeout[Any]) -> None:
        super().__init__()
        self.idx = idx
        self.parent = parent

    def fire(self) -> None:
        self.parent.on_timeout(self.idx)

    def fire_error(self, error: BaseException) -> None:
        self.parent.on_timeout_error(self.idx, error)
