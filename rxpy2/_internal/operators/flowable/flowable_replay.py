"""``Flowable.replay(buffer_size=None, time=None, scheduler=None)`` and ``Flowable.cache()``.

The items live in a singly linked list of nodes: the connection appends, each subscriber
walks from its own node with its own drain loop, so a slow subscriber never blocks a fast
one. ``buffer_size`` and ``time`` bound what new subscribers see. ``replay`` requests the
largest total any subscriber requested, and (as RxJava 2.2.21's ``FlowableReplay``)
delivers completion only under demand and an error without it (§1.4, §1.9); ``cache``
requests without bound and never disconnects.

The rules: docs/processors.md, "Inside replay and cache".
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from typing import Generic
from typing import TypeVar

from rxpy2._internal.atomic import AtomicBoolean
from rxpy2._internal.atomic import AtomicLong
from rxpy2._internal.atomic import AtomicReference
from rxpy2._internal.helpers.backpressure_helper import BackpressureHelper
from rxpy2._internal.helpers.subscribe_loop import subscribe_tail
from rxpy2._internal.helpers.subscription_helper import SubscriptionHelper
from rxpy2.connectable_flowable import ConnectableFlowable
from rxpy2.disposables import Disposable
from rxpy2.flowable import Flowable
from rxpy2.observers import FlowableSubscriber
from rxpy2.operator_kit import Drain
from rxpy2.operator_kit import add_cap
from rxpy2.operator_kit import null_or_late_error
from rxpy2.operator_kit import null_or_late_item
from rxpy2.operator_kit import validate_request
from rxpy2.reactivestreams import LONG_MAX
from rxpy2.reactivestreams import LONG_MIN
from rxpy2.reactivestreams import Publisher
from rxpy2.reactivestreams import Subscriber
from rxpy2.reactivestreams import Subscription
from rxpy2.schedulers.scheduler import Scheduler

__all__ = ["FlowableCache", "FlowableReplay", "ReplayConnection"]

T = TypeVar("T")

_EMPTY: tuple[Any, ...] = ()
_TERMINATED: tuple[Any, ...] = ("terminated",)
_COMPLETE = object()


class _Node:
    __slots__ = ("value", "next", "index", "time")

    def __init__(self, value: Any, index: int, time: float = 0.0) -> None:
        self.value = value
        self.next: _Node | None = None
        self.index = index  # the item's position in the stream (1 for the first)
        self.time = time  # scheduler.now() when it came (time-bound buffers only)


class FlowableReplay(ConnectableFlowable[T], Generic[T]):
    """See the module docstring."""

    __slots__ = ("source", "size_bound", "max_age", "scheduler", "current")

    def __init__(self, source: Publisher[T], buffer_size: int | None,
                 max_age: float | None = None, scheduler: Scheduler | None = None) -> None:
        self.source = source
        self.size_bound = buffer_size
        self.max_age = max_age  # with ``scheduler``, its clock: a time-bound buffer
        self.scheduler = scheduler
        self.current: AtomicReference[ReplayConnection[T]] = AtomicReference()

    def _current(self) -> ReplayConnection[T]:
        cur = self.current
        while True:
            ps = cur.get()
            if ps is not None and not ps.is_disposed():
                return ps
            u: ReplayConnection[T] = ReplayConnection(self.size_bound, False,
                                                      self.max_age, self.scheduler)
            if cur.compare_and_set(ps, u):
                return u

    def connect_actual(self, on_connect: Callable[[Disposable], Any]) -> None:
        ps = self._current()
        do_connect = ps.should_connect.compare_and_set(False, True)
        on_connect(ps)
        if do_connect:
            self.source.subscribe(ps)

    def reset(self, connection: Any) -> None:
        self.current.compare_and_set(connection, None)

    def subscribe_actual(self, subscriber: Subscriber[T]) -> None:
        inner: ReplayInner[T] = ReplayInner(subscriber)
        subscriber.on_subscribe(inner)  # §1.9: before the connection can signal it anything
        while True:
            ps = self._current()
            if ps.add(inner):  # False: disposed meanwhile, take the next connection
                break
        ps.start(inner)


class FlowableCache(Flowable[T], Generic[T]):
    """Subscribes upstream (unbounded) with the first subscriber; replays everything."""

    __slots__ = ("source", "connection")

    def __init__(self, source: Publisher[T]) -> None:
        self.source = source
        self.connection: ReplayConnection[T] = ReplayConnection(None, True)

    def subscribe_actual(self, subscriber: Subscriber[T]) -> None:
        c = self.connection
        c.subscribe_inner(subscriber)
        if c.should_connect.compare_and_set(False, True):
            subscribe_tail(self.source, c)


class ReplayInner(Subscription, Generic[T]):
    """One subscriber: ``requested`` is its outstanding demand (``LONG_MIN``: cancelled),
    ``total`` all it ever requested (for the connection's upstream demand). ``parent`` is
    None until it joined a connection: requests made in ``on_subscribe`` are only
    recorded, :meth:`ReplayConnection.start` acts on them."""

    __slots__ = ("child", "parent", "node", "requested", "total", "skipped", "gate")

    def __init__(self, child: Subscriber[T]) -> None:
        self.child = child
        self.parent: ReplayConnection[T] | None = None  # set once added to a connection
        self.node: _Node | None = None  # set on add, under the parent's add
        self.requested = AtomicLong(0)
        self.total = 0
        self.skipped = 0  # items dropped from a bounded buffer before it joined
        self.gate = Drain()

    def request(self, n: int) -> None:
        if not (n := validate_request(n)):
            return
        if BackpressureHelper.add_cancel(self.requested, n) == LONG_MIN:
            return
        self.total = add_cap(self.total, n)
        p = self.parent
        if p is not None:  # else start() requests and replays for it
            p.manage_requests()
            p.replay(self)

    def cancel(self) -> None:
        if self.requested.get() != LONG_MIN and self.requested.get_and_set(LONG_MIN) != LONG_MIN:
            p = self.parent
            if p is not None:  # else start() finds it cancelled and removes it
                p.remove(self)
                p.manage_requests()
            self.node = None


class ReplayConnection(FlowableSubscriber[T], Disposable, Generic[T]):
    """The shared upstream subscriber and the linked buffer."""

    __slots__ = ("limit", "unbounded", "head", "tail", "size", "done", "error", "upstream",
                 "subscribers", "should_connect", "req_gate", "upstream_requested", "disposed",
                 "lock_add", "max_age", "clock")

    def __init__(self, limit: int | None, unbounded: bool, max_age: float | None = None,
                 clock: Scheduler | None = None) -> None:
        self.limit = limit
        self.unbounded = unbounded
        self.max_age = max_age
        self.clock = clock
        self.head = _Node(None, 0)
        self.tail = self.head
        self.size = 0
        self.done = False
        self.error: BaseException | None = None
        self.upstream: AtomicReference[Subscription] = AtomicReference()
        self.subscribers: AtomicReference[tuple[ReplayInner[T], ...]] = AtomicReference(_EMPTY)
        self.should_connect = AtomicBoolean(False)
        self.req_gate = Drain()
        self.upstream_requested = 0
        self.disposed = False

    # ---- Disposable

    def dispose(self) -> None:
        if not self.disposed:
            self.disposed = True
            self.subscribers.set(_TERMINATED)
            SubscriptionHelper.cancel(self.upstream)

    def is_disposed(self) -> bool:
        return self.disposed

    # ---- subscribers

    def subscribe_inner(self, child: Subscriber[T]) -> None:
        """Subscribe ``child`` to this connection (``cache``: it is never disposed)."""
        inner: ReplayInner[T] = ReplayInner(child)
        child.on_subscribe(inner)  # §1.9: first, so no terminal event can overtake it
        if self.add(inner):
            self.start(inner)

    def add(self, inner: ReplayInner[T]) -> bool:
        """Join ``inner`` (already subscribed); False if disposed meanwhile."""
        subs = self.subscribers
        while True:
            a = subs.get()
            if a is _TERMINATED:
                return False
            head = self.head if self.max_age is None else self._live_head()
            inner.node = head  # the oldest retained item comes next
            inner.skipped = head.index
            if subs.compare_and_set(a, (*a, inner)):  # type: ignore[misc]  # never None (AtomicReference.get() is V | None)
                inner.parent = self
                return True

    def start(self, inner: ReplayInner[T]) -> None:
        """After :meth:`add`: act on what ``inner`` requested (or its cancel) meanwhile."""
        if inner.requested.get() == LONG_MIN:  # cancelled before it was added
            self.remove(inner)
            inner.node = None
            return
        self.manage_requests()
        self.replay(inner)  # a terminated stream: the items and the terminal event

    def remove(self, inner: ReplayInner[T]) -> None:
        subs = self.subscribers
        while True:
            a = subs.get()
            if a is _TERMINATED or a is None or inner not in a:
                return
            b = tuple(x for x in a if x is not inner)
            if subs.compare_and_set(a, b if b else _EMPTY):
                return

    # ---- upstream

    def on_subscribe(self, s: Subscription) -> None:
        if SubscriptionHelper.set_once(self.upstream, s):
            if self.unbounded:
                s.request(LONG_MAX)
            else:
                self.manage_requests()

    def on_next(self, item: T) -> None:
        if item is None or self.done:
            null_or_late_item(item)  # §2.13
            return
        if self.max_age is not None:
            self._add_timed(item)
        else:
            n = _Node(item, self.tail.index + 1)
            self.tail.next = n
            self.tail = n
            limit = self.limit
            if limit is not None:
                if self.size == limit:
                    self.head = self.head.next  # type: ignore[assignment]  # there is a next node here
                else:
                    self.size += 1
        self._replay_all()

    # ---- the time-bound buffer (RxJava 2's SizeAndTimeBoundReplayBuffer)

    def _add_timed(self, item: T) -> None:
        now = self.clock.now()  # type: ignore[union-attr]  # a timed buffer has a clock and max_age
        n = _Node(item, self.tail.index + 1, now)
        self.tail.next = n
        self.tail = n
        self.size += 1
        self._drop_old(now - self.max_age, self.limit)  # type: ignore[operator]  # a timed buffer has a clock and max_age

    def _drop_old(self, time_limit: float, limit: int | None) -> None:
        """Move the head past the items beyond ``limit`` (never the last one) and those
        stamped at or before ``time_limit``."""
        head = self.head
        nxt = head.next
        size = self.size
        while nxt is not None:
            if (limit is not None and size > limit and size > 1) or nxt.time <= time_limit:
                size -= 1
                head = nxt
                nxt = nxt.next
            else:
                break
        self.size = size
        self.head = head

    def _live_head(self) -> _Node:
        """Where a new subscriber starts: after the items already expired (not dropped)."""
        time_limit = self.clock.now() - self.max_age  # type: ignore[union-attr,operator]  # a timed buffer has a clock and max_age
        head = self.head
        nxt = head.next
        while nxt is not None and nxt.time <= time_limit:
            head = nxt
            nxt = nxt.next
        return head

    def _drop_final(self) -> None:
        if self.max_age is not None:  # the terminal event stays: every expired item goes
            self._drop_old(self.clock.now() - self.max_age, None)  # type: ignore[union-attr]  # a timed buffer has a clock and max_age

    def on_error(self, error: BaseException) -> None:
        if error is None or self.done:
            null_or_late_error(error)  # §2.13, §1.7
            return
        self.error = error
        self._drop_final()
        self.done = True
        self._replay_all()

    def on_complete(self) -> None:
        if not self.done:
            self._drop_final()
            self.done = True
            self._replay_all()

    def _replay_all(self) -> None:
        a = self.subscribers.get()
        if a is _TERMINATED or a is None:
            return
        for inner in a:
            self.replay(inner)

    # ---- demand: upstream gets the largest total requested by a subscriber

    def manage_requests(self) -> None:
        if self.unbounded:
            return
        w = self.req_gate
        if not w.enter():
            return
        while True:
            s = self.upstream.get()
            a = self.subscribers.get()
            # RxJava 2 FlowableReplay: nothing more is requested after the terminal event
            if s is not None and a is not _TERMINATED and a and not self.done:
                # a subscriber's demand counts from the stream's first item: one that joined
                # a bounded buffer after items were dropped adds them (RxJava 2's node index)
                m = max(add_cap(inner.total, inner.skipped)
                        for inner in a)
                diff = m - self.upstream_requested
                if diff > 0:
                    self.upstream_requested = m
                    s.request(diff)  # LONG_MAX - already requested, as RxJava 2 asks
            if not w.leave():
                return

    # ---- emission to one subscriber

    def replay(self, inner: ReplayInner[T]) -> None:
        if not inner.gate.enter():
            return
        child = inner.child
        req = inner.requested
        while True:
            node = inner.node
            if node is None:  # cancelled
                return
            r = req.get()
            e = 0
            while e != r:
                if req.get() == LONG_MIN:
                    inner.node = None
                    return
                d = self.done
                nxt = node.next
                if nxt is None:
                    if d:
                        self._terminate(inner)
                        return
                    break
                child.on_next(nxt.value)
                node = nxt
                e += 1
            if e == r:
                if req.get() == LONG_MIN:
                    inner.node = None
                    return
                # cache() (RxJava 2 FlowableCache) ends without demand; replay() (FlowableReplay)
                # delivers the completion as one more buffer entry: it waits for a request. An
                # error does not (RxJava 2 would hold it back too, failing §1.4/§1.9: a failed
                # replay must signal on_error to a subscriber that requested nothing)
                if self.done and node.next is None and (self.unbounded
                                                        or self.error is not None):
                    self._terminate(inner)
                    return
            inner.node = node
            if e != 0 and r != LONG_MAX:
                BackpressureHelper.produced_cancel(req, e)
            if not inner.gate.leave():
                return

    def _terminate(self, inner: ReplayInner[T]) -> None:
        inner.node = None
        if inner.requested.get_and_set(LONG_MIN) == LONG_MIN:
            return
        self.remove(inner)
        e = self.error
        if e is not None:
            inner.child.on_error(e)
        else:
            inner.child.on_complete()
