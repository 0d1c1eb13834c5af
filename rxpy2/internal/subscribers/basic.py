"""BasicSubscriber: base of the 1:1 stages that do not fuse (``take_while``, ``dematerialize`` ...).

The counterpart of :class:`~rxpy2.internal.subscribers.basic_fuseable.BasicFuseableSubscriber`
without the QueueSubscription side. A subclass implements ``on_next`` (checking
``self.done`` first). The base passes *itself* downstream in ``on_subscribe``,
forwards ``request``/``cancel``, and delivers one terminal signal (a later error
goes to :func:`rxpy2.plugins.on_error`); :meth:`~BasicSubscriber.fail` and
:meth:`~BasicSubscriber.complete_early` end the stream from ``on_next``.
"""

from __future__ import annotations

from typing import Any, Generic, TypeVar

from rxpy2 import plugins
from rxpy2.internal.helpers.subscription_helper import SubscriptionHelper
from rxpy2.observers import FlowableSubscriber
from rxpy2.reactivestreams import Subscriber, Subscription

__all__ = ["BasicSubscriber"]

T = TypeVar("T")
R = TypeVar("R")


class BasicSubscriber(FlowableSubscriber[T], Subscription, Generic[T, R]):
    __slots__ = ("downstream", "upstream", "done")

    def __init__(self, downstream: Subscriber[R]) -> None:
        self.downstream: Any = downstream
        self.upstream: Subscription | None = None
        self.done = False

    def on_subscribe(self, s: Subscription) -> None:
        if SubscriptionHelper.validate(self.upstream, s):
            self.upstream = s
            self.downstream.on_subscribe(self)

    def fail(self, error: BaseException) -> None:
        """A user function raised (or broke a rule): cancel the upstream, signal the error."""
        self.upstream.cancel()  # type: ignore[union-attr]
        self.on_error(error)

    def complete_early(self) -> None:
        """The stream ends before the upstream does: cancel it and complete."""
        self.done = True
        self.upstream.cancel()  # type: ignore[union-attr]
        self.downstream.on_complete()

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
