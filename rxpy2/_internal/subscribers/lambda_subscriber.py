"""LambdaSubscriber: the subscriber behind ``Flowable.subscribe(on_next, on_error, on_complete)``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from typing import Generic
from typing import TypeVar

from rxpy2 import plugins
from rxpy2._internal.atomic import AtomicReference
from rxpy2._internal.fuseable import ChecksItems
from rxpy2._internal.fuseable import DirectSink
from rxpy2._internal.helpers.exception_helper import call_on_error
from rxpy2._internal.helpers.exception_helper import call_reporting
from rxpy2._internal.helpers.subscription_helper import CANCELLED
from rxpy2._internal.helpers.subscription_helper import SubscriptionHelper
from rxpy2._internal.subscribers.operator_subscriber import null_error
from rxpy2._internal.subscribers.operator_subscriber import null_item
from rxpy2.disposables import Disposable
from rxpy2.exceptions import OnErrorNotImplementedException
from rxpy2.observers import FlowableSubscriber
from rxpy2.reactivestreams import LONG_MAX
from rxpy2.reactivestreams import Subscription

__all__ = ["LambdaSubscriber"]

T = TypeVar("T")


def _request_all(s: Subscription) -> None:
    s.request(LONG_MAX)


def _missing_on_error(e: BaseException) -> None:
    plugins.on_error(OnErrorNotImplementedException(e))


class LambdaSubscriber(FlowableSubscriber[T], Subscription, Disposable, DirectSink[T],
                       ChecksItems, Generic[T]):
    """Calls the given functions; a raising ``on_next`` cancels upstream and goes to ``on_error``.

    Without ``on_error`` an error goes to :func:`rxpy2.plugins.on_error` wrapped in
    :class:`OnErrorNotImplementedException`. ``on_subscribe`` defaults to
    requesting everything (``LONG_MAX``).
    """

    __slots__ = ("_on_next", "_on_error", "_on_complete", "_on_subscribe", "upstream", "_done",
                 "_ended")

    def __init__(self, on_next: Callable[[T], Any] | None = None,
                 on_error: Callable[[BaseException], Any] | None = None,
                 on_complete: Callable[[], Any] | None = None,
                 on_subscribe: Callable[[Subscription], Any] | None = None) -> None:
        self._on_next = on_next
        self._on_error = on_error if on_error is not None else _missing_on_error
        self._on_complete = on_complete
        self._on_subscribe = on_subscribe if on_subscribe is not None else _request_all
        self.upstream: AtomicReference[Subscription] = AtomicReference()
        self._done = False
        self._ended = False  # a terminal signal arrived (for __repr__: done, not disposed)

    def on_subscribe(self, s: Subscription) -> None:
        if SubscriptionHelper.set_once(self.upstream, s):
            try:
                self._on_subscribe(self)
            except Exception as e:
                s.cancel()
                self.on_error(e)

    def on_next(self, item: T) -> None:
        if item is None:
            raise null_item()  # §2.13
        if self._done:  # after a terminal event or dispose() items are dropped
            return
        f = self._on_next
        if f is not None:
            try:
                f(item)
            except Exception as e:
                self._cancel_upstream()
                self.on_error(e)

    def on_error(self, error: BaseException) -> None:
        if error is None:
            raise null_error()  # §2.13
        if not self._done and self.upstream.get() is not CANCELLED:
            self._done = self._ended = True
            self.upstream.lazy_set(CANCELLED)
            call_on_error(self._on_error, error)
        else:
            plugins.on_error(error)

    def on_complete(self) -> None:
        if not self._done and self.upstream.get() is not CANCELLED:
            self._done = self._ended = True
            self.upstream.lazy_set(CANCELLED)
            call_reporting(self._on_complete)

    def direct_sink(self) -> Callable[[T], object] | None:
        """The ``on_next`` function itself (:class:`~rxpy2._internal.fuseable.DirectSink`);
        ``None`` for a subclass with an ``on_next`` of its own, which must see every item."""
        if type(self).on_next is not LambdaSubscriber.on_next:
            return None
        f = self._on_next
        return f if f is not None else id  # id: a side-effect-free C function for "nothing"

    def sink_failed(self, error: Exception) -> None:
        """The ``on_next`` function raised while called through :meth:`direct_sink`: the
        upstream is cancelled, then ``on_error``."""
        self._cancel_upstream()
        self.on_error(error)

    def _cancel_upstream(self) -> None:
        # an item came, so the upstream is set (or CANCELLED): read once, test, cancel
        s = self.upstream.get()
        if s is not None:
            s.cancel()

    def request(self, n: int) -> None:
        SubscriptionHelper.request(self.upstream, n)

    def cancel(self) -> None:
        # a plain flag for on_next's per-item check; the terminal methods also look at the
        # upstream reference (CANCELLED), which is the atomic record of the cancel
        self._done = True
        SubscriptionHelper.cancel(self.upstream)

    def dispose(self) -> None:
        self.cancel()

    def is_disposed(self) -> bool:
        return self.upstream.get() is CANCELLED

    def has_custom_on_error(self) -> bool:
        return self._on_error is not _missing_on_error

    def __repr__(self) -> str:
        # done: a terminal signal arrived; disposed: cancelled without one
        up = self.upstream.get()
        if self._ended:
            state = "done"
        elif up is CANCELLED:
            state = "disposed"
        else:
            state = "unsubscribed" if up is None else "active"
        return f"LambdaSubscriber({state})"
