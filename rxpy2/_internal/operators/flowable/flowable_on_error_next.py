"""Flowable.on_error_resume_next: on error, continue with the Publisher ``fn(error)`` returns.

A :class:`SubscriptionArbiter` carries the downstream's outstanding demand over:
before switching, the items emitted from the main source are reported with
``produced``, and the fallback receives what is left. It switches once only: an
error from the fallback goes downstream. A ``fn`` that raises, or returns
something that is not a Publisher (``TypeError``), ends the stream with a
:class:`CompositeException` of the original error and the new one.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic
from typing import TypeVar

from rxpy2 import plugins
from rxpy2._internal.fuseable import HasUpstreamPublisher
from rxpy2._internal.helpers.subscribe_loop import subscribe_tail
from rxpy2._internal.subscriptions.arbiter import SubscriptionArbiter
from rxpy2.exceptions import CompositeException
from rxpy2.flowable import Flowable
from rxpy2.observers import FlowableSubscriber
from rxpy2.operator_kit import null_error
from rxpy2.operator_kit import null_or_late_item
from rxpy2.operator_kit import null_subscription
from rxpy2.reactivestreams import Publisher
from rxpy2.reactivestreams import Subscriber
from rxpy2.reactivestreams import Subscription

__all__ = ["FlowableOnErrorNext"]

T = TypeVar("T")


class FlowableOnErrorNext(Flowable[T], HasUpstreamPublisher[T], Generic[T]):
    __slots__ = ("source", "fn")

    def __init__(self, source: Publisher[T],
                 fn: Callable[[BaseException], Publisher[T]]) -> None:
        self.source = source
        self.fn = fn

    def subscribe_actual(self, subscriber: Subscriber[T]) -> None:
        parent = OnErrorNextSubscriber(subscriber, self.fn)
        subscriber.on_subscribe(parent)
        subscribe_tail(self.source, parent)


class OnErrorNextSubscriber(SubscriptionArbiter, FlowableSubscriber[T], Generic[T]):
    """Subscribed to the main source, then (once) to the fallback; the arbiter is downstream's
    Subscription throughout."""

    def __init__(self, downstream: Subscriber[T],
                 fn: Callable[[BaseException], Publisher[T]]) -> None:
        # the main source has terminated when the fallback arrives: nothing to cancel
        super().__init__(cancel_on_replace=False)
        self.downstream = downstream
        self.fn = fn
        self.once = False
        self.done = False
        self.produced_count = 0

    def on_subscribe(self, s: Subscription) -> None:
        if s is None:
            raise null_subscription()  # §2.13
        self.set_subscription(s)

    def on_next(self, item: T) -> None:
        if item is None or self.done:
            null_or_late_item(item)  # §2.13
            return
        if not self.once:
            self.produced_count += 1
        self.downstream.on_next(item)

    def on_error(self, error: BaseException) -> None:
        if error is None:
            raise null_error()  # §2.13
        if self.once:
            if self.done:
                plugins.on_error(error)
                return
            self.done = True
            self.downstream.on_error(error)
            return
        self.once = True
        try:
            p = self.fn(error)
            if not isinstance(p, Publisher):
                raise TypeError(f"The fallback function returned {p!r}, not a Publisher")
        except Exception as e:
            self.done = True
            self.downstream.on_error(CompositeException(error, e))
            return
        main_produced = self.produced_count
        if main_produced != 0:
            self.produced(main_produced)
        p.subscribe(self)

    def on_complete(self) -> None:
        if self.done:
            return
        self.done = True
        self.once = True
        self.downstream.on_complete()
