"""Flowable.group_by: one :class:`GroupedFlowable` per key, each with its own buffer.

:class:`GroupBySubscriber` maps ``key(item)`` to a live group; each group is a
single-subscriber queue-drain (:class:`GroupState`) with its own demand. Backpressure is
RxJava 2.2.21's ``FlowableGroupBy`` (the upstream gets back what the passes emitted, so
groups must be consumed for the operator to proceed); the upstream is cancelled once the
outer and every group are gone (``refs``). Options: ``abandon_unsubscribed`` (RxJava 3's
rule), ``map_factory`` (an evicting map), ``delay_error``. Where it departs from RxJava 2
(which hangs): groups queued at a cancel, items of new keys after it, evicted groups.
A ``cancel()`` returns at once (§3.5): what it gives back to the upstream it requests as
*cancel work*, whose dropped items are replaced later (``owed``), not by that call.

The rules in full: docs/flattening.md, "Inside group_by".
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from collections.abc import MutableMapping
from threading import Lock
from threading import local
from typing import Any
from typing import Generic
from typing import TypeVar

from rxpy2._internal.atomic import AtomicBoolean
from rxpy2._internal.atomic import AtomicInteger
from rxpy2._internal.atomic import AtomicLong
from rxpy2._internal.fuseable import HasUpstreamPublisher
from rxpy2._internal.helpers.sentinel import Sentinel
from rxpy2._internal.helpers.subscribe_loop import subscribe_tail
from rxpy2._internal.helpers.upstream_ref_count import UpstreamRefCount
from rxpy2._internal.queues import SpscLinkedArrayQueue
from rxpy2._internal.subscribers.drain_support import DrainSubscriptionMixin
from rxpy2._internal.subscriptions.empty import EmptySubscription
from rxpy2.exceptions import ProtocolViolationException
from rxpy2.flowable import Flowable
from rxpy2.grouped_flowable import GroupedFlowable
from rxpy2.operator_kit import Drain
from rxpy2.operator_kit import OperatorSubscriber
from rxpy2.operator_kit import add_request
from rxpy2.operator_kit import null_or_late_error
from rxpy2.operator_kit import null_or_late_item
from rxpy2.operator_kit import validate_request
from rxpy2.reactivestreams import LONG_MAX
from rxpy2.reactivestreams import Publisher
from rxpy2.reactivestreams import Subscriber
from rxpy2.reactivestreams import Subscription

__all__ = ["FlowableGroupBy"]

T = TypeVar("T")
K = TypeVar("K")
V = TypeVar("V")

#: ``map_factory(on_evict)`` -> the map of the live groups (see the module docstring)
MapFactory = Callable[[Callable[[Any], None]], MutableMapping[Any, Any]]


NULL_KEY: Any = Sentinel("NULL_KEY")  # the map key of the group whose key is ``None``


class _CancelWork(local):
    """Per thread: how many ``cancel()`` calls, or requests for a cancelled group's
    discarded items, run on this thread (``depth``).

    A synchronous upstream emits inside a request made then. An item of a new key dropped
    then is not replaced at once (that replacement would bring the next such item, and so
    on: the ``cancel()`` would run the upstream to its end, §3.5); it is owed, and paid with
    the next request made outside cancel work.
    """

    depth = 0

    def __enter__(self) -> None:
        self.depth += 1

    def __exit__(self, *exc: object) -> None:
        self.depth -= 1


_CANCEL_WORK = _CancelWork()

# GroupState.once
FRESH = 0
HAS_SUBSCRIBER = 1
ABANDONED = 2


class FlowableGroupBy(Flowable[GroupedFlowable[K, V]], HasUpstreamPublisher[T], Generic[T, K, V]):
    __slots__ = ("source", "key_selector", "value_selector", "prefetch", "delay_error",
                 "abandon_unsubscribed", "map_factory")

    def __init__(self, source: Publisher[T], key_selector: Callable[[T], K],
                 value_selector: Callable[[T], V] | None, buffer_size: int,
                 delay_error: bool, abandon_unsubscribed: bool = False,
                 map_factory: MapFactory | None = None) -> None:
        self.source = source
        self.key_selector = key_selector
        self.value_selector = value_selector
        self.prefetch = buffer_size
        self.delay_error = delay_error
        self.abandon_unsubscribed = abandon_unsubscribed
        self.map_factory = map_factory

    def subscribe_actual(self, subscriber: Subscriber[GroupedFlowable[K, V]]) -> None:
        parent: GroupBySubscriber[T, K, V] = GroupBySubscriber(
            subscriber, self.key_selector, self.value_selector, self.prefetch, self.delay_error,
            self.abandon_unsubscribed)
        factory = self.map_factory
        if factory is not None:
            evicted: deque[GroupedUnicast[K, V]] = deque()
            try:
                groups = factory(evicted.append)
                if groups is None:
                    raise TypeError("The map_factory returned None")
            except Exception as ex:
                EmptySubscription.error(ex, subscriber)
                return
            parent.groups = groups
            parent.evicted = evicted
        subscribe_tail(self.source, parent)


class GroupBySubscriber(DrainSubscriptionMixin, OperatorSubscriber[T, GroupedFlowable[K, V]], Generic[T, K, V]):
    """The upstream's subscriber and the outer stream's Subscription."""

    __slots__ = ("key_selector", "value_selector", "buffer_size", "delay_error",
                 "abandon_unsubscribed", "groups", "groups_lock", "queue", "refs", "requested",
                 "gate", "error", "finished", "evicted", "owed", "indebted")

    def __init__(self, downstream: Subscriber[GroupedFlowable[K, V]],
                 key_selector: Callable[[T], K], value_selector: Callable[[T], V] | None,
                 buffer_size: int, delay_error: bool, abandon_unsubscribed: bool = False) -> None:
        super().__init__(downstream)
        self.key_selector = key_selector
        self.value_selector = value_selector
        self.buffer_size = buffer_size
        self.delay_error = delay_error
        self.abandon_unsubscribed = abandon_unsubscribed
        # read lock-free by the upstream's thread; changed under groups_lock
        self.groups: MutableMapping[Any, GroupedUnicast[K, V]] = {}
        self.evicted: deque[GroupedUnicast[K, V]] | None = None  # with a map_factory
        self.groups_lock = Lock()
        self.queue: SpscLinkedArrayQueue[GroupedUnicast[K, V]] = SpscLinkedArrayQueue(buffer_size)
        self.refs = UpstreamRefCount()  # the outer + each live group
        self.requested = AtomicLong()
        self.gate = Drain()
        self.error: BaseException | None = None
        # self.done: the upstream's terminal signal arrived (upstream side)
        self.finished = False   # ... and the drain may deliver it
        # dropped items not replaced yet (see _CancelWork); ``indebted``: a cheap "owed > 0?"
        self.owed = AtomicLong()
        self.indebted = False

    # ---- upstream side

    def on_start(self) -> bool:
        self.downstream.on_subscribe(self)
        self.upstream.request(self.buffer_size)
        return False  # the downstream has had on_subscribe already

    def on_next(self, item: T) -> None:
        if item is None or self.done:
            null_or_late_item(item)  # §2.13
            return
        vs = self.value_selector
        v: Any
        try:
            key = self.key_selector(item)
            mk = NULL_KEY if key is None else key
            group = self.groups.get(mk)  # an unhashable key raises here
            v = item if vs is None else vs(item)
        except Exception as e:
            self.fail(e)
            return
        if v is None:
            self.fail(TypeError("The value selector returned None"))
            return
        if group is not None and not group.state.gone:
            group.state.on_next(v)
            if self.evicted:
                self.complete_evictions()
            return
        # a new group (or the key's group is leaving: it takes itself out of the map)
        refs = self.refs
        if refs.outer_cancelled.get() or not refs.acquire():
            self._replace_dropped()  # dropped: keep the live groups fed
            return
        group = GroupedUnicast(key, GroupState(self, key, self.buffer_size, self.delay_error))
        with self.groups_lock:
            self.groups[mk] = group
        group.state.on_next(v)
        if self.evicted:
            self.complete_evictions()
        self.queue.offer(group)
        self.drain()

    def _replace_dropped(self) -> None:
        if _CANCEL_WORK.depth:  # §3.5: not inside a cancel() (see _CancelWork)
            self.owed.increment_and_get()
            self.indebted = True
            return
        n = 1
        if self.indebted:
            n += self._take_debt()
        self.upstream.request(n)

    def _take_debt(self) -> int:
        self.indebted = False  # before the swap: a debt added meanwhile sets it again
        return self.owed.get_and_set(0)

    def pay_debt(self) -> None:
        """Request the owed replacements, unless this thread runs cancel work."""
        if self.indebted and not _CANCEL_WORK.depth:
            n = self._take_debt()
            if n:
                self.upstream.request(n)

    def complete_evictions(self) -> None:
        """Complete the groups the evicting map dropped (RxJava 2's completeEvictions)."""
        ev = self.evicted
        while ev:
            try:
                g = ev.popleft()
            except IndexError:
                return
            g.state.evict()

    def _take_groups(self) -> list[GroupedUnicast[K, V]]:
        with self.groups_lock:
            gs = list(self.groups.values())
            self.groups.clear()
        ev = self.evicted
        if ev:  # evicted meanwhile, not completed yet: they complete (RxJava 2 drops them)
            taken = {id(g) for g in gs}  # clear() may have "evicted" the ones it took
            while ev:
                try:
                    g = ev.popleft()
                except IndexError:
                    break
                if id(g) not in taken:
                    g.state.evict()
        return gs

    def on_error(self, error: BaseException) -> None:
        if error is None or self.done:
            null_or_late_error(error)  # §2.13, §1.7
            return
        self.done = True
        for g in self._take_groups():
            g.state.on_error(error)
        self.error = error
        self.finished = True
        self.drain()

    def on_complete(self) -> None:
        if self.done:
            return
        self.done = True
        for g in self._take_groups():
            g.state.on_complete()
        self.finished = True
        self.drain()

    # ---- the outer stream's Subscription

    def cancel(self) -> None:
        # no more groups; the live groups keep receiving their items
        if self.refs.cancel_outer():
            with _CANCEL_WORK:  # §3.5: what this call makes the upstream emit ends
                if self.evicted:
                    self.complete_evictions()
                self._group_gone()
                self.drain()  # the groups still queued are cancelled there

    # ---- the groups' side

    def cancel_group(self, key: Any, group: GroupedUnicast[K, V]) -> None:
        """``group`` was cancelled or abandoned (called once per group)."""
        mk = NULL_KEY if key is None else key
        with self.groups_lock:
            if self.groups.get(mk) is group:  # the key may have a newer group already
                del self.groups[mk]
        self._group_gone()

    def _group_gone(self) -> None:
        if self.refs.count.decrement_and_get() == 0:
            self.upstream.cancel()

    def request_group(self, n: int) -> None:
        """A group consumed ``n`` items: replenish the upstream (and pay what is owed)."""
        if self.indebted and not _CANCEL_WORK.depth:
            n += self._take_debt()
        self.upstream.request(n)

    def request_discarded(self, n: int) -> None:
        """A cancelled group gives back ``n`` items: request them again as cancel work."""
        with _CANCEL_WORK:
            self.upstream.request(n)

    # ---- drain: new groups go out under the outer's demand

    def drain(self) -> None:
        gate = self.gate
        if not gate.enter():
            return
        q = self.queue
        a = self.downstream
        requested = self.requested
        cancelled = self.refs.outer_cancelled
        delay_error = self.delay_error
        abandon = self.abandon_unsubscribed
        while True:
            r = requested.get()
            e = 0
            while not cancelled.get():
                d = self.finished
                if d and not delay_error and self.error is not None:
                    q.clear()  # those groups received the error already
                    a.on_error(self.error)
                    return  # terminal: the drain stays taken
                if e == r:
                    if d and q.is_empty():
                        self._terminate(a)
                        return
                    break
                g = q.poll()
                if g is None:
                    if d:
                        self._terminate(a)
                        return
                    break
                a.on_next(g)
                e += 1
                if abandon:
                    st = g.state
                    if st.try_abandon():  # nobody subscribed inside on_next
                        st.abandon()
            if cancelled.get():
                self._cancel_queued(q)
            if e != 0:
                if r != LONG_MAX:
                    requested.add_and_get(-e)
                self.upstream.request(e)
            if not gate.leave():
                return

    def _cancel_queued(self, q: SpscLinkedArrayQueue[GroupedUnicast[K, V]]) -> None:
        """Cancel the groups the outer will never emit: all leave the count before any of
        their items is requested again, so the last one cancels the upstream first and a
        synchronous upstream does not run on for them (§3.5)."""
        gone: list[GroupState[K, V]] = []
        while True:
            g = q.poll()
            if g is None:
                break
            st = g.state
            if st.detach():
                gone.append(st)
        for st in gone:
            st.drain()  # discards and requests the items again

    def _terminate(self, a: Subscriber[Any]) -> None:
        ex = self.error
        if ex is not None:
            a.on_error(ex)
        else:
            a.on_complete()


class GroupedUnicast(GroupedFlowable[K, V], Generic[K, V]):
    """The group handed to the outer's subscriber; its one subscriber talks to ``state``."""

    __slots__ = ("state",)

    def __init__(self, key: K, state: GroupState[K, V]) -> None:
        super().__init__(key)
        self.state = state
        state.group = self

    def subscribe_actual(self, subscriber: Subscriber[V]) -> None:
        subscribe_tail(self.state, subscriber)


class GroupState(Subscription, Generic[K, V]):
    """One group's buffer, demand and single subscriber (a queue-drain).

    Items are replenished to the upstream when the subscriber consumes them or
    when they are discarded (cancel, terminal). An abandoned group replenishes
    every item as it arrives: ``credited`` counts the items at the head of the
    queue that were replenished already (only the drain touches it).
    """

    __slots__ = ("parent", "key", "group", "queue", "delay_error", "requested", "gate",
                 "done", "error", "cancelled", "once", "left", "gone", "actual", "abandoned",
                 "finished", "credited")

    def __init__(self, parent: GroupBySubscriber[Any, K, V], key: K, buffer_size: int,
                 delay_error: bool) -> None:
        self.parent = parent
        self.key = key
        self.group: GroupedUnicast[K, V] | None = None
        self.queue: SpscLinkedArrayQueue[V] = SpscLinkedArrayQueue(buffer_size)
        self.delay_error = delay_error
        self.requested = AtomicLong()
        self.gate = Drain()
        self.done = False
        self.error: BaseException | None = None
        self.cancelled = False
        self.once = AtomicInteger(FRESH)
        self.left = AtomicBoolean()  # the parent was told this group is gone
        self.gone = False  # cancelled or abandoned: new items of the key need a new group
        self.actual: Subscriber[V] | None = None
        self.abandoned = False
        self.finished = False  # the terminal signal went to the subscriber
        self.credited = 0

    # ---- Publisher side

    def subscribe(self, subscriber: Subscriber[V]) -> None:
        once = self.once
        while True:
            s = once.get()
            if s & HAS_SUBSCRIBER:
                break
            if once.compare_and_set(s, s | HAS_SUBSCRIBER):
                subscriber.on_subscribe(self)
                self.actual = subscriber
                if self.cancelled:
                    self.actual = None  # §3.13: cancelled inside on_subscribe
                self.drain()
                return
        EmptySubscription.error(ProtocolViolationException(
            "A GroupedFlowable allows only a single Subscriber"), subscriber)

    # ---- from the parent

    def on_next(self, item: V) -> None:
        gate = self.gate
        if not gate.try_enter():  # a pass runs (or is due): it takes the item from the queue
            self.queue.offer(item)
            self.drain()
            return
        # the drain is ours; with nothing queued and demand, the item goes out at once: what
        # the pass below would do with it, without the queue round trip
        a = self.actual
        requested = self.requested
        if (a is not None and not self.queue.items and not self.cancelled
                and not self.abandoned and not self.finished and (r := requested.get()) != 0):
            a.on_next(item)
            if r != LONG_MAX:
                requested.add_and_get(-1)
            parent = self.parent
            if self.cancelled:  # cancelled in on_next: one request for it + the discarded
                parent.request_discarded(1 + self._drop_buffered())
            elif parent.indebted:
                parent.request_group(1)
            else:  # request_group(1) without the call
                parent.upstream.request(1)
        else:
            self.queue.offer(item)
            self._drain_pass()
        while gate.leave():
            self._drain_pass()

    def on_error(self, error: BaseException) -> None:
        self.error = error
        self.done = True
        self.drain()

    def on_complete(self) -> None:
        self.done = True
        self.drain()

    def try_abandon(self) -> bool:
        once = self.once
        return once.get() == FRESH and once.compare_and_set(FRESH, ABANDONED)

    def abandon(self) -> None:
        self.gone = True
        self.abandoned = True
        self._leave()
        self.on_complete()  # drains: the items are replenished there

    def evict(self) -> None:
        """The evicting map dropped this group: it completes after the items it holds."""
        self.gone = True
        self._leave()  # once: a later cancel by its subscriber does not count again
        self.on_complete()

    def _leave(self) -> None:
        if not self.left.get() and self.left.compare_and_set(False, True):
            self.parent.cancel_group(self.key, self.group)  # type: ignore[arg-type]  # the group is set before it can leave

    # ---- Subscription

    def request(self, n: int) -> None:
        if n := validate_request(n):  # §3.9
            add_request(self.requested, n)
            self.drain()
            parent = self.parent
            if parent.indebted:  # a consumer asks for items: the owed replacements go up now
                parent.pay_debt()

    def cancel(self) -> None:
        if self.detach():
            with _CANCEL_WORK:  # §3.5: what this call makes the upstream emit ends
                self.drain()  # discards (and replenishes) what is buffered

    def detach(self) -> bool:
        """The cancel without the drain: True the first time."""
        if self.cancelled:
            return False
        self.gone = True
        self.cancelled = True
        self._leave()  # once, even when two threads cancel at the same time
        self.actual = None  # §3.13
        return True

    # ---- drain

    def drain(self) -> None:
        gate = self.gate
        if not gate.enter():
            return
        while True:
            self._drain_pass()
            if not gate.leave():
                return

    def _drain_pass(self) -> None:
        q = self.queue
        if self.abandoned:
            n = len(q) - self.credited
            if n > 0:
                self.credited += n
                self.parent.request_group(n)
        if self.finished or self.cancelled:
            self._discard()
            return
        a = self.actual
        if a is None:
            return
        requested = self.requested
        r = requested.get()
        e = 0
        fresh = 0  # consumed items not replenished yet
        credited = self.credited
        delay_error = self.delay_error
        poll = q.poll
        on_next = a.on_next
        while not self.cancelled:
            d = self.done
            if d and not delay_error and self.error is not None:
                q.clear()  # the upstream failed: nothing to replenish (as RxJava 2)
                self.credited = 0
                self._finish(a)
                return
            if e == r:
                if d and q.is_empty():
                    self._finish(a)
                    return
                break
            v = poll()
            if v is None:
                if d:
                    self._finish(a)
                    return  # the last pass asks for nothing more (as RxJava 2)
                break
            if credited:
                credited -= 1
            else:
                fresh += 1
            on_next(v)
            e += 1
        self.credited = credited
        if e != 0 and r != LONG_MAX:
            requested.add_and_get(-e)
        if self.cancelled:  # cancelled in on_next: one request for consumed + discarded
            fresh += self._drop_buffered()
            if fresh:
                self.parent.request_discarded(fresh)
        elif fresh:
            self.parent.request_group(fresh)

    def _finish(self, a: Subscriber[V]) -> None:
        self.finished = True
        self.actual = None
        ex = self.error
        if ex is not None:
            a.on_error(ex)
        else:
            a.on_complete()

    def _discard(self) -> None:
        """Drop what is buffered; the items not replenished yet are replenished now."""
        n = self._drop_buffered()
        if n:
            self.parent.request_discarded(n)

    def _drop_buffered(self) -> int:
        """Empty the queue; the number of dropped items not replenished yet."""
        q = self.queue
        n = 0
        while q.poll() is not None:
            if self.credited:
                self.credited -= 1
            else:
                n += 1
        return n

    def __repr__(self) -> str:
        return f"GroupState(key={self.key!r})"
