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

from typing import Any
from typing import Generic
from typing import TypeVar

from rxpy2._internal.fuseable import ASYNC
from rxpy2._internal.fuseable import BOUNDARY
from rxpy2._internal.fuseable import NONE
from rxpy2._internal.fuseable import ConditionalSubscriber
from rxpy2._internal.fuseable import QueueSubscription
from rxpy2._internal.helpers.subscription_helper import UNSUBSCRIBED
from rxpy2._internal.helpers.subscription_helper import NoopSubscription
from rxpy2._internal.subscribers.operator_subscriber import OneTerminal
from rxpy2._internal.subscribers.operator_subscriber import null_item
from rxpy2._internal.subscribers.operator_subscriber import validate_upstream
from rxpy2._internal.subscriptions.basic import BasicQueueSubscription
from rxpy2.observers import FlowableSubscriber
from rxpy2.reactivestreams import Subscriber
from rxpy2.reactivestreams import Subscription

__all__ = [
    "BasicFuseableConditionalSubscriber",
    "BasicFuseableSubscriber",
    "FilteringConditionalSubscriber",
    "FilteringSubscriber",
]

T = TypeVar("T")
R = TypeVar("R")


class _NoQueue(BasicQueueSubscription[Any], NoopSubscription):
    """``qs`` of a stage whose upstream is no QueueSubscription: refuses fusion (so
    ``poll``/``is_empty``/``clear`` are never called on it; they answer "empty")."""

    __slots__ = ()

    NAME = "NO_QUEUE"


_NO_QUEUE: QueueSubscription[Any] = _NoQueue()


class _FuseableBase(OneTerminal, QueueSubscription[R], Generic[T, R]):
    """What the two fuseable bases share; the terminal signals, ``fail`` and
    ``request``/``cancel`` come from :class:`~rxpy2._internal.subscribers.operator_subscriber._OneTerminal`."""

    downstream: Any
    upstream: Subscription
    qs: QueueSubscription[T]  # _NO_QUEUE unless the upstream is a QueueSubscription
    done: bool
    source_mode: int

    def _init(self, downstream: Any) -> None:
        self.downstream = downstream
        self.upstream = UNSUBSCRIBED
        self.qs = _NO_QUEUE
        self.done = False
        self.source_mode = NONE

    def on_subscribe(self, s: Subscription) -> None:
        if validate_upstream(self.upstream, s):  # §2.13, §2.5
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

    def transitive_boundary_fusion(self, mode: int) -> int:
        """Ask the upstream for ``mode``; record and return what it granted."""
        if (mode & BOUNDARY) == 0:
            m = self.qs.request_fusion(mode)  # _NO_QUEUE answers NONE
            if m != NONE:
                self.source_mode = m
            return m
        return NONE

    def request_fusion(self, mode: int) -> int:
        # a stage with user code: refuse across a thread boundary
        return self.transitive_boundary_fusion(mode)

    def is_empty(self) -> bool:
        return self.qs.is_empty()

    def clear(self) -> None:
        self.qs.clear()


class BasicFuseableSubscriber(_FuseableBase[T, R], FlowableSubscriber[T], Generic[T, R]):
    """Base of a fuseable 1:1 stage over a plain downstream Subscriber."""

    def __init__(self, downstream: Subscriber[R]) -> None:
        self._init(downstream)


class BasicFuseableConditionalSubscriber(_FuseableBase[T, R], ConditionalSubscriber[T],
                                         Generic[T, R]):
    """Base of a fuseable 1:1 stage whose downstream is a ConditionalSubscriber."""

    def __init__(self, downstream: ConditionalSubscriber[R]) -> None:
        self._init(downstream)


class _FilteringMixin(Generic[T]):
    """A stage that passes each item on unchanged or drops it (``filter``, ``distinct``,
    ``distinct_until_changed``, ``skip_while``): ``passes(item)`` decides, and may raise
    (cancel upstream, error downstream). A dropped item is replaced with ``request(1)``
    upstream, or answered ``False`` to a ConditionalSubscriber upstream (no round trip);
    fused, ``poll`` skips dropped items, replenishing them in ASYNC mode. A subclass may
    set ``passes`` as an instance attribute (``filter`` sets its predicate: no extra call).
    """

    upstream: Subscription
    downstream: Any
    qs: Any
    done: bool
    source_mode: int
    fail: Any  # _FuseableBase.fail

    def passes(self, item: T) -> bool:
        raise NotImplementedError

    def pass_on(self, item: T) -> bool:
        raise NotImplementedError

    def on_next(self, item: T) -> None:
        if not self.try_on_next(item):
            self.upstream.request(1)

    def try_on_next(self, item: T) -> bool:
        if self.done:
            return True  # nothing more will come; ask for no replacement
        if self.source_mode != NONE:  # ASYNC fused: the item is a "ready" signal
            self.downstream.on_next(item)
            return True
        if item is None:
            raise null_item()  # §2.13
        try:
            if not self.passes(item):
                return False
        except Exception as e:
            self.fail(e)
            return True
        return self.pass_on(item)

    def poll(self) -> T | None:
        qs = self.qs
        passes = self.passes
        while True:
            v = qs.poll()
            if v is None:
                return None
            if passes(v):
                return v  # type: ignore[no-any-return]  # the queue holds Any
            if self.source_mode == ASYNC:
                qs.request(1)


class FilteringSubscriber(_FilteringMixin[T], BasicFuseableSubscriber[T, T],
                          ConditionalSubscriber[T], Generic[T]):
    """A filtering stage over a plain Subscriber."""

    def pass_on(self, item: T) -> bool:
        self.downstream.on_next(item)
        return True


class FilteringConditionalSubscriber(_FilteringMixin[T], BasicFuseableConditionalSubscriber[T, T],
                                     Generic[T]):
    """A filtering stage over a ConditionalSubscriber: an item it refuses costs no request."""

    def pass_on(self, item: T) -> bool:
        return self.downstream.try_on_next(item)  # type: ignore[no-any-return]  # the downstream is Any-typed
