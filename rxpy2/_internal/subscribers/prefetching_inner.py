"""PrefetchingInnerSubscriber: the inner source of an operator whose parent drains its queue.

Base of the inners of ``zip``, ``sequence_equal``, ``combine_latest``, ``switch_map`` and
of :class:`InnerQueuedSubscriber` (``concat_map_eager``). What they share is the upstream
side: setting the Subscription once (a cancel may come first, from another thread),
fusing with a QueueSubscription (:func:`fuse_upstream`, :attr:`FUSION_MODE`) or
prefetching into a bounded queue, and replenishing once 75% of ``prefetch`` was consumed.
The signals default to what ``zip`` and ``sequence_equal`` need; subclasses replace the
ones they handle differently.

Details: docs/architecture.md, "Queue-drain pieces".
"""

from __future__ import annotations

from typing import Any
from typing import ClassVar
from typing import Generic
from typing import TypeVar

from rxpy2._internal.atomic import AtomicReference
from rxpy2._internal.fuseable import ANY
from rxpy2._internal.fuseable import NONE
from rxpy2._internal.fuseable import SYNC
from rxpy2._internal.helpers.subscription_helper import SubscriptionHelper
from rxpy2._internal.subscribers.drain_support import fuse_upstream
from rxpy2._internal.subscribers.operator_subscriber import null_or_late_item
from rxpy2.observers import FlowableSubscriber
from rxpy2.reactivestreams import Subscription

__all__ = ["PrefetchingInnerSubscriber"]

T = TypeVar("T")


class PrefetchingInnerSubscriber(FlowableSubscriber[T], Subscription, Generic[T]):
    """Prefetches ``prefetch`` items into a queue (or fuses); the parent drains and replenishes."""

    __slots__ = ("parent", "prefetch", "limit", "upstream", "queue", "produced", "done",
                 "fusion_mode")

    #: What ``on_subscribe`` asks a QueueSubscription for (``ANY | BOUNDARY`` where the
    #: parent may poll on another thread than the one the source emits on).
    FUSION_MODE: ClassVar[int] = ANY

    def __init__(self, parent: Any, prefetch: int) -> None:
        self.parent = parent
        self.prefetch = prefetch
        self.limit = prefetch - (prefetch >> 2)  # replenish after 75% were consumed
        self.upstream: AtomicReference[Subscription] = AtomicReference()
        # None until on_subscribe: a parent on another thread may see the inner before that
        self.queue: Any = None
        self.produced = 0  # consumed since the last replenishing request (parent's drain only)
        self.done = False
        self.fusion_mode = NONE

    def on_subscribe(self, s: Subscription) -> None:
        if not SubscriptionHelper.set_once(self.upstream, s):
            return
        # the mode is assigned first: whoever sees the queue sees the mode
        self.fusion_mode, self.queue = fuse_upstream(s, self.prefetch, self.FUSION_MODE)
        if self.fusion_mode == SYNC:  # the parent polls the source: no request, ever
            self.done = True
            self.on_sync_fused()
        else:
            s.request(self.prefetch)

    def on_sync_fused(self) -> None:
        """SYNC fusion: every item is in ``queue`` already and ``done`` is set."""
        self.parent.drain()

    def on_next(self, item: T) -> None:
        if self.fusion_mode == NONE:  # ASYNC: the item (None) only says "poll"
            if item is None or self.done:
                null_or_late_item(item)  # §2.13
                return
            q = self.queue
            if q is None:  # cancelled before on_subscribe: a late item (§3.12), dropped
                return
            if len(q) >= self.prefetch:
                self.overflow()
                return
            q.append(item)
        elif self.done:
            return
        self.parent.drain()

    def overflow(self) -> None:
        """The queue was full: the source emitted more than it was asked for (§1.1)."""
        raise NotImplementedError

    def on_complete(self) -> None:
        if self.done:
            return
        self.done = True
        self.parent.drain()

    def request(self, n: int) -> None:
        """``n`` items were consumed: replenish once ``limit`` is reached (not in SYNC mode)."""
        if self.fusion_mode != SYNC:
            p = self.produced + n
            if p >= self.limit:
                self.produced = 0
                s = self.upstream.get()  # read once, then test: None before on_subscribe
                if s is not None:
                    s.request(p)
            else:
                self.produced = p

    def request_one(self) -> None:
        """One item was consumed."""
        if self.fusion_mode != SYNC:
            p = self.produced + 1
            if p == self.limit:
                self.produced = 0
                s = self.upstream.get()  # read once, then test: None before on_subscribe
                if s is not None:
                    s.request(p)
            else:
                self.produced = p

    def cancel(self) -> None:
        SubscriptionHelper.cancel(self.upstream)

    def clear(self) -> None:
        """Drop what the queue holds (by the holder of the parent's drain)."""
        q = self.queue
        if q is not None:
            q.clear()
