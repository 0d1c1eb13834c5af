"""Flowable.dematerialize: :class:`Notification` items (via ``selector``) back into signals.

An ``on_next`` notification emits its value; an ``on_error`` or
``on_complete`` notification cancels the upstream and ends the stream with that
signal. Items that arrive after that are dropped (an error notification among
them goes to :func:`rxpy2.plugins.on_error`). A selector that raises, or returns
something that is not a Notification (``TypeError``), cancels the upstream and
signals the error. 1:1 otherwise, so requests pass straight through.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, TypeVar

from rxpy2 import plugins
from rxpy2.flowable import Flowable
from rxpy2.internal.fuseable import HasUpstreamPublisher
from rxpy2.internal.helpers.subscription_helper import SubscriptionHelper
from rxpy2.notification import Notification
from rxpy2.observers import FlowableSubscriber
from rxpy2.reactivestreams import Publisher, Subscriber, Subscription

__all__ = ["FlowableDematerialize"]

T = TypeVar("T")
R = TypeVar("R")


class FlowableDematerialize(Flowable[R], HasUpstreamPublisher[T], Generic[T, R]):
    __slots__ = ("source", "selector")

    def __init__(self, source: Publisher[T],
                 selector: Callable[[T], Notification[R]]) -> None:
        self.source = source
        self.selector = selector

    def subscribe_actual(self, subscriber: Subscriber[R]) -> None:
        self.source.subscribe(DematerializeSubscriber(subscriber, self.selector))


class DematerializeSubscriber(FlowableSubscriber[T], Subscription, Generic[T, R]):
    __slots__ = ("downstream", "selector", "upstream", "done")

    def __init__(self, downstream: Subscriber[R],
                 selector: Callable[[T], Notification[R]]) -> None:
        self.downstream = downstream
        self.selector = selector
        self.upstream: Subscription | None = None
        self.done = False

    def on_subscribe(self, s: Subscription) -> None:
        if SubscriptionHelper.validate(self.upstream, s):
            self.upstream = s
            self.downstream.on_subscribe(self)

    def on_next(self, item: T) -> None:
        if self.done:  # §1.7: nothing goes downstream after the terminal signal
            if isinstance(item, Notification) and item.is_on_error():
                plugins.on_error(item.error)  # type: ignore[arg-type]
            return
        try:
            n = self.selector(item)
            if not isinstance(n, Notification):
                raise TypeError(f"The selector returned {n!r}, not a Notification")
        except Exception as e:
            self.upstream.cancel()  # type: ignore[union-attr]
            self.on_error(e)
            return
        if n.is_on_error():
            self.upstream.cancel()  # type: ignore[union-attr]
            self.on_error(n.error)  # type: ignore[arg-type]
        elif n.is_on_complete():
            self.upstream.cancel()  # type: ignore[union-attr]
            self.on_complete()
        else:
            self.downstream.on_next(n.value)  # type: ignore[arg-type]

    def on_error(self, error: BaseException) -> None:
        if self.done:
            plugins.on_error(error)
            return
        self.done = True
        self.downstream.on_error(error)

    def on_complete(self) -> None:
        if self.done:
            return
        self.done = True
        self.downstream.on_complete()

    def request(self, n: int) -> None:
        self.upstream.request(n)  # type: ignore[union-attr]

    def cancel(self) -> None:
        self.upstream.cancel()  # type: ignore[union-attr]
