"""Base classes of 1:1 stages (``map``, ``filter``, ``do_on_next`` ...) that support fusion.

A subclass implements ``on_next`` (and ``poll`` for fusion; ``try_on_next`` for the
conditional variant). The base handles ``on_subscribe`` (keeping the upstream as
a QueueSubscription when it is one), passing *itself* downstream, the terminal
signals, ``request``/``cancel`` forwarding and fusion negotiation:
``request_fusion`` asks the upstream for the same mode, and refuses when the
downstream marks a thread BOUNDARY and the stage runs user code
(:meth:`transitive_boundary_fusion`).
"""

from __future__ import annotations

from typing import Any, Generic, TypeVar

from rxpy2 import plugins
from rxpy2.internal.fuseable import BOUNDARY, NONE, ConditionalSubscriber, QueueSubscription
from rxpy2.internal.helpers.subscription_helper import SubscriptionHelper
from rxpy2.observers import FlowableSubscriber
from rxpy2.reactivestreams import Subscriber, Subscription

__all__ = ["BasicFuseableConditionalSubscriber", "BasicFuseableSubscriber"]

T = TypeVar("T")
R = TypeVar("R")


class _FuseableBase(QueueSubscription[R], Generic[T, R]):
    downstream: Any
    upstream: Subscription | None
    qs: QueueSubscription[T] | None
    done: bool
    source_mode: int

    def _init(self, downstream: Any) -> None:
        self.downstream = downstream
        self.upstream = None
        self.qs = None
        self.done = False
        self.source_mode = NONE

    def on_subscribe(self, s: Subscription) -> None:
        if SubscriptionHelper.validate(self.upstream, s):
            self.upstream = s
            if isinstance(s, QueueSubscription):
                self.qs = s
            if self.before_downstream():
                self.downstream.on_subscribe(self)
                self.after_downstream()

    def before_downstream(self) -> bool:
        """Hook run before ``downstream.on_subscribe``; False skips it."""
        return True

    def after_downstream(self) -> None:
        """Hook run after ``downstream.on_subscribe``."""

    def fail(self, error: BaseException) -> None:
        """A user function raised: cancel upstream and signal the error."""
        self.upstream.cancel()  # type: ignore[union-attr]
        self.on_error(error)

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

    def transitive_boundary_fusion(self, mode: int) -> int:
        """Ask the upstream for ``mode``; record and return what it granted."""
        qs = self.qs
        if qs is not None and (mode & BOUNDARY) == 0:
            m = qs.request_fusion(mode)
            if m != NONE:
                self.source_mode = m
            return m
        return NONE

    def request_fusion(self, mode: int) -> int:
        # a stage with user code: refuse across a thread boundary
        return self.transitive_boundary_fusion(mode)

    def request(self, n: int) -> None:
        self.upstream.request(n)  # type: ignore[union-attr]

    def cancel(self) -> None:
        self.upstream.cancel()  # type: ignore[union-attr]

    def is_empty(self) -> bool:
        return self.qs.is_empty()  # type: ignore[union-attr]

    def clear(self) -> None:
        self.qs.clear()  # type: ignore[union-attr]


class BasicFuseableSubscriber(_FuseableBase[T, R], FlowableSubscriber[T], Generic[T, R]):
    """Base of a fuseable 1:1 stage over a plain downstream Subscriber."""

    def __init__(self, downstream: Subscriber[R]) -> None:
        self._init(downstream)


class BasicFuseableConditionalSubscriber(_FuseableBase[T, R], ConditionalSubscriber[T],
                                         Generic[T, R]):
    """Base of a fuseable 1:1 stage whose downstream is a ConditionalSubscriber."""

    def __init__(self, downstream: ConditionalSubscriber[R]) -> None:
        self._init(downstream)
