"""Flowable.do_on_lifecycle (do_on_subscribe, do_on_request, do_on_cancel).

Calls ``on_subscribe(upstream_subscription)`` before the downstream's
``on_subscribe``, ``on_request(n)`` before each request goes upstream and
``on_cancel()`` once, before the first cancellation goes upstream.

* ``on_subscribe`` raising: the upstream is cancelled and the downstream gets
  ``on_subscribe(EmptySubscription)`` then ``on_error`` (§1.9).
* ``on_request`` / ``on_cancel`` raising: the error goes to
  :func:`rxpy2.plugins.on_error` and the request / cancellation still proceeds
  (a Subscription's methods must return normally, §3.15, §3.16).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from typing import Generic
from typing import TypeVar

from rxpy2 import plugins
from rxpy2._internal.atomic import AtomicBoolean
from rxpy2._internal.fuseable import HasUpstreamPublisher
from rxpy2._internal.helpers.exception_helper import call_reporting
from rxpy2._internal.helpers.subscribe_loop import subscribe_tail
from rxpy2._internal.helpers.subscription_helper import CANCELLED
from rxpy2._internal.helpers.subscription_helper import SubscriptionHelper
from rxpy2._internal.subscribers.pass_through import PassThrough
from rxpy2._internal.subscriptions.empty import EmptySubscription
from rxpy2.flowable import Flowable
from rxpy2.observers import FlowableSubscriber
from rxpy2.operator_kit import UNSUBSCRIBED
from rxpy2.operator_kit import null_error
from rxpy2.operator_kit import null_subscription
from rxpy2.reactivestreams import Publisher
from rxpy2.reactivestreams import Subscriber
from rxpy2.reactivestreams import Subscription

__all__ = ["FlowableDoOnLifecycle"]

T = TypeVar("T")


class FlowableDoOnLifecycle(Flowable[T], HasUpstreamPublisher[T], Generic[T]):
    __slots__ = ("source", "on_subscribe", "on_request", "on_cancel")

    def __init__(self, source: Publisher[T],
                 on_subscribe: Callable[[Subscription], Any] | None,
                 on_request: Callable[[int], Any] | None,
                 on_cancel: Callable[[], Any] | None) -> None:
        self.source = source
        self.on_subscribe = on_subscribe
        self.on_request = on_request
        self.on_cancel = on_cancel

    def subscribe_actual(self, subscriber: Subscriber[T]) -> None:
        subscribe_tail(self.source, LifecycleSubscriber(subscriber, self.on_subscribe,
                                                  self.on_request, self.on_cancel))


class LifecycleSubscriber(PassThrough, FlowableSubscriber[T], Subscription, Generic[T]):
    __slots__ = ("downstream", "upstream", "_on_subscribe", "_on_request", "_on_cancel",
                 "_cancelled")

    def __init__(self, downstream: Subscriber[T],
                 on_subscribe: Callable[[Subscription], Any] | None,
                 on_request: Callable[[int], Any] | None,
                 on_cancel: Callable[[], Any] | None) -> None:
        self.downstream = downstream
        self.upstream: Subscription = UNSUBSCRIBED
        self._on_subscribe = on_subscribe
        self._on_request = on_request
        self._on_cancel = on_cancel
        self._cancelled = AtomicBoolean()

    def on_subscribe(self, s: Subscription) -> None:
        if s is None:
            raise null_subscription()  # §2.13
        f = self._on_subscribe
        if f is not None:
            try:
                f(s)
            except Exception as e:
                s.cancel()
                self.upstream = CANCELLED
                self._cancelled.set(True)
                EmptySubscription.error(e, self.downstream)  # §1.9
                return
        if self.upstream is not UNSUBSCRIBED:
            s.cancel()  # §2.5
            SubscriptionHelper.report_subscription_set()
            return
        self.upstream = s
        self.downstream.on_subscribe(self)

    def on_error(self, error: BaseException) -> None:
        if error is None:
            raise null_error()  # §2.13
        if self.upstream is not CANCELLED:
            self.downstream.on_error(error)
        else:
            plugins.on_error(error)

    def on_complete(self) -> None:
        if self.upstream is not CANCELLED:
            self.downstream.on_complete()

    def request(self, n: int) -> None:
        f = self._on_request
        if f is not None:
            try:
                f(n)
            except Exception as e:
                plugins.on_error(e)  # §3.15/§3.16: request returns normally
        self.upstream.request(n)

    def cancel(self) -> None:
        # the flag makes on_cancel run once even when cancel() races itself
        if self._cancelled.compare_and_set(False, True):
            s = self.upstream
            self.upstream = CANCELLED
            call_reporting(self._on_cancel)
            s.cancel()  # UNSUBSCRIBED before on_subscribe: a no-op
