"""SafeSubscriber: the wrapper behind ``Flowable.safe_subscribe``.

It shields the source from a Subscriber that raises: an exception out of the
wrapped ``on_next`` cancels the upstream and becomes the wrapped ``on_error``;
one out of ``on_subscribe``, ``on_error``, ``on_complete``, ``request`` or
``cancel`` goes to :func:`rxpy2.plugins.on_error` (it has nowhere else to go).
A ``None`` item, or a signal that comes before ``on_subscribe``, is reported to
the wrapped Subscriber as an error instead of being raised at the source. After
the first terminal signal nothing more reaches the wrapped Subscriber. Fatal
exceptions are not caught.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic
from typing import TypeVar

from rxpy2 import plugins
from rxpy2._internal.helpers.exception_helper import call_on_error
from rxpy2._internal.helpers.exception_helper import call_reporting
from rxpy2._internal.helpers.subscription_helper import SubscriptionHelper
from rxpy2._internal.subscriptions.empty import EmptySubscription
from rxpy2.exceptions import CompositeException
from rxpy2.exceptions import ProtocolViolationException
from rxpy2.observers import FlowableSubscriber
from rxpy2.reactivestreams import Subscriber
from rxpy2.reactivestreams import Subscription

__all__ = ["SafeSubscriber"]

T = TypeVar("T")


def _not_subscribed() -> ProtocolViolationException:
    return ProtocolViolationException("a signal came before on_subscribe (§1.9)")


def _cancel_and_report(up: Subscription, error: BaseException,
                       report: Callable[[BaseException], object]) -> None:
    """Cancel ``up`` because of ``error``, then ``report(error)``; a ``cancel`` that raises
    too makes it ``report(CompositeException(error, that))``."""
    try:
        up.cancel()
    except Exception as e2:
        report(CompositeException(error, e2))
        return
    report(error)


class SafeSubscriber(FlowableSubscriber[T], Subscription, Generic[T]):
    __slots__ = ("downstream", "upstream", "done")

    def __init__(self, downstream: Subscriber[T]) -> None:
        self.downstream = downstream
        self.upstream: Subscription | None = None
        self.done = False

    def on_subscribe(self, s: Subscription) -> None:
        if not SubscriptionHelper.validate(self.upstream, s):
            return
        self.upstream = s
        try:
            self.downstream.on_subscribe(self)
        except Exception as e:
            self.done = True
            _cancel_and_report(s, e, plugins.on_error)

    def on_next(self, item: T) -> None:
        if self.done:
            return
        up = self.upstream
        if up is None:
            self.done = True
            self._error_without_subscription(_not_subscribed())
            return
        if item is None:
            _cancel_and_report(up, TypeError("on_next called with None (§2.13)"), self.on_error)
            return
        try:
            self.downstream.on_next(item)
        except Exception as e:
            _cancel_and_report(up, e, self.on_error)

    def _error_without_subscription(self, error: BaseException) -> None:
        """§1.9: give the wrapped Subscriber a Subscription first, then the error."""
        try:
            self.downstream.on_subscribe(EmptySubscription.INSTANCE)
        except Exception as e:
            plugins.on_error(CompositeException(error, e))
            return
        call_on_error(self.downstream.on_error, error)

    def on_error(self, error: BaseException) -> None:
        if self.done:
            plugins.on_error(error)
            return
        self.done = True
        if error is None:
            error = TypeError("on_error called with None (§2.13)")
        if self.upstream is None:
            self._error_without_subscription(CompositeException(error, _not_subscribed()))
            return
        call_on_error(self.downstream.on_error, error)

    def on_complete(self) -> None:
        if self.done:
            return
        self.done = True
        if self.upstream is None:
            self._error_without_subscription(_not_subscribed())
            return
        call_reporting(self.downstream.on_complete)

    def request(self, n: int) -> None:
        up = self.upstream
        if up is None:
            return
        try:
            up.request(n)
        except Exception as e:
            _cancel_and_report(up, e, plugins.on_error)

    def cancel(self) -> None:
        up = self.upstream
        if up is not None:
            call_reporting(up.cancel)
