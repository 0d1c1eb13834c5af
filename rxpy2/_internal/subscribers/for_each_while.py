"""ForEachWhileSubscriber: the subscriber behind ``Flowable.for_each_while``.

It requests everything and calls ``predicate(item)`` per item; the first ``False``
cancels the upstream and calls ``on_complete`` (the loop ended early as it ends
normally). A raising predicate cancels the upstream and goes to ``on_error``.
Terminal callbacks run once (``done``); a raising callback, an error after the
end, or an error without ``on_error`` goes to :func:`rxpy2.plugins.on_error`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from typing import Generic
from typing import TypeVar

from rxpy2 import plugins
from rxpy2._internal.atomic import AtomicReference
from rxpy2._internal.helpers.exception_helper import call_on_error
from rxpy2._internal.helpers.exception_helper import call_reporting
from rxpy2._internal.helpers.subscription_helper import CANCELLED
from rxpy2._internal.helpers.subscription_helper import SubscriptionHelper
from rxpy2._internal.subscribers.operator_subscriber import null_or_late_error
from rxpy2._internal.subscribers.operator_subscriber import null_or_late_item
from rxpy2.disposables import Disposable
from rxpy2.exceptions import OnErrorNotImplementedException
from rxpy2.observers import FlowableSubscriber
from rxpy2.reactivestreams import LONG_MAX
from rxpy2.reactivestreams import Subscription

__all__ = ["ForEachWhileSubscriber"]

T = TypeVar("T")


class ForEachWhileSubscriber(FlowableSubscriber[T], Disposable, Generic[T]):
    __slots__ = ("predicate", "on_error_fn", "on_complete_fn", "upstream", "done")

    def __init__(self, predicate: Callable[[T], bool],
                 on_error: Callable[[BaseException], Any] | None,
                 on_complete: Callable[[], Any] | None) -> None:
        self.predicate = predicate
        self.on_error_fn = on_error
        self.on_complete_fn = on_complete
        self.upstream: AtomicReference[Subscription] = AtomicReference()
        self.done = False

    def on_subscribe(self, s: Subscription) -> None:
        SubscriptionHelper.set_once_request(self.upstream, s, LONG_MAX)  # §2.13 None raises

    def on_next(self, item: T) -> None:
        if item is None or self.done:
            null_or_late_item(item)  # §2.13
            return
        try:
            keep_going = self.predicate(item)
        except Exception as e:
            self.dispose()
            self.on_error(e)
            return
        if not keep_going:
            self.dispose()
            self.on_complete()

    def on_error(self, error: BaseException) -> None:
        if error is None or self.done:
            null_or_late_error(error)  # §2.13, §1.7
            return
        self.done = True
        f = self.on_error_fn
        if f is None:
            plugins.on_error(OnErrorNotImplementedException(error))
            return
        call_on_error(f, error)

    def on_complete(self) -> None:
        if self.done:
            return
        self.done = True
        call_reporting(self.on_complete_fn)

    def dispose(self) -> None:
        SubscriptionHelper.cancel(self.upstream)

    def is_disposed(self) -> bool:
        return self.upstream.get() is CANCELLED
