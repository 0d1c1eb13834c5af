"""``Flowable.publish(buffer_size)``: one upstream subscription shared by all subscribers.

The connection (:class:`PublishConnection`) keeps at most ``buffer_size`` items and emits
each to every subscriber at once, at the pace of the slowest (RxJava 2.2.21's
``FlowablePublish``). Under ``ref_count``/``share()`` (:meth:`FlowablePublish.on_ref_count`)
the drain follows RxJava 2.2's ``FlowablePublishAlt`` instead (errors behind the queued
items, 75% replenishing). A subscriber that joins or leaves during a pass ends it.

The rules of both: docs/processors.md, "Inside publish".
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from typing import Generic
from typing import TypeVar

from rxpy2 import plugins
from rxpy2._internal.atomic import AtomicBoolean
from rxpy2._internal.atomic import AtomicLong
from rxpy2._internal.atomic import AtomicReference
from rxpy2._internal.helpers.backpressure_helper import BackpressureHelper
from rxpy2._internal.helpers.subscription_helper import SubscriptionHelper
from rxpy2._internal.queues import SpscArrayQueue
from rxpy2.connectable_flowable import ConnectableFlowable
from rxpy2.disposables import Disposable
from rxpy2.exceptions import MissingBackpressureException
from rxpy2.observers import FlowableSubscriber
from rxpy2.operator_kit import Drain
from rxpy2.operator_kit import null_or_late_error
from rxpy2.operator_kit import null_or_late_item
from rxpy2.operator_kit import validate_request
from rxpy2.reactivestreams import LONG_MAX
from rxpy2.reactivestreams import LONG_MIN
from rxpy2.reactivestreams import Publisher
from rxpy2.reactivestreams import Subscriber
from rxpy2.reactivestreams import Subscription

__all__ = ["FlowablePublish", "PublishConnection"]

T = TypeVar("T")

_EMPTY: tuple[Any, ...] = ()
_TERMINATED: tuple[Any, ...] = ("terminated",)  # a distinct marker tuple (never a real list)
_COMPLETE = object()


class FlowablePublish(ConnectableFlowable[T], Generic[T]):
    """See the module docstring."""

    __slots__ = ("source", "prefetch", "current", "ref_counted")

    def __init__(self, source: Publisher[T], buffer_size: int,
                 ref_counted: bool = False) -> None:
        self.source = source
        self.prefetch = buffer_size
        self.current: AtomicReference[PublishConnection[T]] = AtomicReference()
        self.ref_counted = ref_counted  # keep a terminated connection until reset()

    def on_ref_count(self) -> ConnectableFlowable[T]:
        if self.ref_counted:
            return self
        return FlowablePublish(self.source, self.prefetch, True)

    def _current(self, keep_terminated: bool) -> PublishConnection[T]:
        """The current connection, or a fresh one if there is none or it is disposed
        (``keep_terminated``: one that terminated normally is still current)."""
        cur = self.current
        while True:
            ps = cur.get()
            if ps is not None and (not ps.is_disposed()
                                   or (keep_terminated and ps.is_terminated())):
                return ps
            u = PublishConnection(self, self.prefetch)
            if cur.compare_and_set(ps, u):
                return u

    def connect_actual(self, on_connect: Callable[[Disposable], Any]) -> None:
        ps = self._current(False)  # a terminated connection never connects again
        do_connect = ps.should_connect.compare_and_set(False, True)
        on_connect(ps)
        if do_connect:
            self.source.subscribe(ps)

    def reset(self, connection: Any) -> None:
        ps = self.current.get()
        if ps is connection and ps is not None and ps.is_disposed():
            self.current.compare_and_set(ps, None)

    def subscribe_actual(self, subscriber: Subscriber[T]) -> None:
        inner: PublishInner[T] = PublishInner(subscriber)
        subscriber.on_subscribe(inner)
        keep = self.ref_counted
        while True:
            ps = self._current(keep)
            if ps.add(inner):
                break
            if keep and ps.is_terminated():
                # it terminated before this subscriber got in: its terminal event, not a
                # fresh connection nobody would connect (§1.7: after on_subscribe)
                if inner.requested.get() != LONG_MIN:
                    term = ps.terminal
                    if term is _COMPLETE:
                        subscriber.on_complete()
                    else:
                        subscriber.on_error(term)
                return
        if inner.requested.get() == LONG_MIN:  # cancelled before it was added
            ps.remove(inner)
        else:
            inner.parent = ps
        ps.dispatch()


class PublishInner(Subscription, Generic[T]):
    """One subscriber of a publish: ``requested`` is its outstanding demand (``LONG_MIN``:
    cancelled)."""

    __slots__ = ("child", "requested", "parent")

    def __init__(self, child: Subscriber[T]) -> None:
        self.child = child
        self.requested = AtomicLong(0)
        self.parent: PublishConnection[T] | None = None

    def request(self, n: int) -> None:
        if n := validate_request(n):
            BackpressureHelper.add_cancel(self.requested, n)
            p = self.parent
            if p is not None:
                p.dispatch()

    def cancel(self) -> None:
        if self.requested.get() != LONG_MIN and self.requested.get_and_set(LONG_MIN) != LONG_MIN:
            p = self.parent
            if p is not None:
                p.remove(self)
                p.dispatch()


class PublishConnection(FlowableSubscriber[T], Disposable, Generic[T]):
    """The shared upstream subscriber, its queue and its drain loop."""

    __slots__ = ("parent", "buffer_size", "queue", "upstream", "subscribers", "terminal",
                 "should_connect", "gate", "disposed", "consumed")

    def __init__(self, parent: FlowablePublish[T], buffer_size: int) -> None:
        self.parent = parent
        self.buffer_size = buffer_size
        self.queue: SpscArrayQueue[T] = SpscArrayQueue(buffer_size)
        self.upstream: AtomicReference[Subscription] = AtomicReference()
        self.subscribers: AtomicReference[tuple[PublishInner[T], ...]] = AtomicReference(_EMPTY)
        self.terminal: Any = None  # _COMPLETE or the error
        self.should_connect = AtomicBoolean(False)
        self.gate = Drain()
        self.disposed = False  # dispose() was called (not just terminated)
        self.consumed = 0  # items emitted since the last upstream request (ref_count only)

    # ---- Disposable (the connection)

    def dispose(self) -> None:
        self.disposed = True  # before the marker: is_terminated() must never see it alone
        subs = self.subscribers
        if subs.get() is not _TERMINATED and subs.get_and_set(_TERMINATED) is not _TERMINATED:
            self.parent.current.compare_and_set(self, None)
            SubscriptionHelper.cancel(self.upstream)

    def is_disposed(self) -> bool:
        return self.subscribers.get() is _TERMINATED

    def is_terminated(self) -> bool:
        """Done by the upstream's terminal event (every subscriber has had it), not disposed."""
        return (self.subscribers.get() is _TERMINATED and self.terminal is not None
                and not self.disposed)

    # ---- subscribers

    def add(self, inner: PublishInner[T]) -> bool:
        subs = self.subscribers
        while True:
            a = subs.get()
            if a is _TERMINATED:
                return False
            if subs.compare_and_set(a, (*a, inner)):  # type: ignore[misc]  # never None (AtomicReference.get() is V | None)
                return True

    def remove(self, inner: PublishInner[T]) -> None:
        subs = self.subscribers
        while True:
            a = subs.get()
            if a is _TERMINATED or a is _EMPTY or a is None:
                return
            if inner not in a:
                return
            b = tuple(x for x in a if x is not inner)
            if subs.compare_and_set(a, b if b else _EMPTY):
                return

    # ---- upstream signals

    def on_subscribe(self, s: Subscription) -> None:
        SubscriptionHelper.set_once_request(self.upstream, s, self.buffer_size)  # §2.13 None raises

    def on_next(self, item: T) -> None:
        if item is None or self.terminal is not None:
            null_or_late_item(item)  # §2.13
            return
        if not self.queue.offer(item):
            SubscriptionHelper.cancel(self.upstream)
            self.on_error(MissingBackpressureException.queue_full("publish", self.buffer_size))
            return
        self.dispatch()

    def on_error(self, error: BaseException) -> None:
        if error is None or self.terminal is not None:
            null_or_late_error(error)  # §2.13, §1.7
            return
        self.terminal = error
        self.dispatch()

    def on_complete(self) -> None:
        if self.terminal is None:
            self.terminal = _COMPLETE
            self.dispatch()

    # ---- drain

    def _check_terminated(self, term: Any, empty: bool) -> bool:
        if term is None:
            return False
        keep = self.parent.ref_counted  # ref_count resets it once nobody can still join
        if term is _COMPLETE or keep:
            # RxJava 2.2's FlowablePublishAlt (ref_count, share): an error, like completion,
            # waits behind the items already queued
            if not empty:
                return False
        if not keep:
            self.parent.current.compare_and_set(self, None)
        if term is not _COMPLETE:
            self.queue.clear()
        a = self.subscribers.get_and_set(_TERMINATED)
        if a is _TERMINATED:  # disposed meanwhile
            return True
        if term is _COMPLETE:
            for inner in a:  # type: ignore[union-attr]  # never None (AtomicReference.get() is V | None)
                if inner.requested.get() != LONG_MIN:
                    inner.child.on_complete()
        elif a or keep:
            for inner in a:  # type: ignore[union-attr]  # never None (AtomicReference.get() is V | None)
                if inner.requested.get() != LONG_MIN:
                    inner.child.on_error(term)
        else:
            plugins.on_error(term)  # RxJava 2 FlowablePublish: nobody to tell
        return True

    def dispatch(self) -> None:
        gate = self.gate
        if not gate.enter():
            return
        q = self.queue
        subscribers = self.subscribers
        keep = self.parent.ref_counted
        # ref_count (FlowablePublishAlt): upstream gets `limit` more each time `limit` items
        # went out; publish() alone (FlowablePublish): what each pass emitted
        limit = self.buffer_size - (self.buffer_size >> 2)
        while True:
            subs = subscribers.get()
            if subs is _TERMINATED:
                q.clear()
            else:
                term = self.terminal
                empty = q.is_empty()
                if self._check_terminated(term, empty):
                    return
                if not empty and subs:
                    max_req = LONG_MAX
                    cancelled = 0
                    for inner in subs:
                        r = inner.requested.get()
                        if r == LONG_MIN:
                            cancelled += 1
                        elif r < max_req:
                            max_req = r
                    if cancelled == len(subs):
                        if keep:
                            max_req = 0  # FlowablePublishAlt: the items wait
                        else:
                            # everyone cancelled (but still listed): drop an item, keep going
                            term = self.terminal
                            v = q.poll()
                            if self._check_terminated(term, v is None):
                                return
                            up = self.upstream.get()
                            if up is not None:
                                up.request(1)
                            continue
                    d = 0
                    changed = False
                    while d < max_req:
                        term = self.terminal
                        v = q.poll()
                        empty = v is None
                        if self._check_terminated(term, empty):
                            return
                        if v is None:
                            break
                        for inner in subs:
                            if inner.requested.get() > 0:
                                inner.child.on_next(v)
                                BackpressureHelper.produced_cancel(inner.requested, 1)
                        d += 1
                        if keep:
                            self.consumed += 1
                            if self.consumed == limit:
                                self.consumed = 0
                                self._request_upstream(limit)
                        if subscribers.get() is not subs:
                            changed = True  # someone came or went: next pass with them
                            break
                    if d and not keep:
                        self._request_upstream(d)  # replenish what went out
                    if changed or (max_req != 0 and not empty):
                        continue
            if not gate.leave():
                return

    def _request_upstream(self, n: int) -> None:
        up = self.upstream.get()
        if up is not None:
            up.request(n)
