"""ReplayProcessor: keeps items in a buffer and replays them to every subscriber, under its demand.

Four buffers, chosen by the factory:

* :meth:`ReplayProcessor.create`: unbounded, every item is kept;
* :meth:`ReplayProcessor.create_with_size`: the last ``max_size`` items;
* :meth:`ReplayProcessor.create_with_time`: the items younger than ``max_age`` seconds;
* :meth:`ReplayProcessor.create_with_time_and_size`: both limits.

Each subscriber has its own position in the buffer (an index, or a node of the
linked buffers), its own request counter and its own drain loop, so a slow
subscriber never holds back another and never loses an item while it is
subscribed (a bounded buffer forgets only for subscribers that arrive later).
The terminal signal is replayed after the buffered items.

Time comes from ``scheduler.now()`` (seconds, a float): any object with a
``now()`` method works, e.g. a TestScheduler for virtual time.
"""

from __future__ import annotations

import time
from typing import Any
from typing import Generic
from typing import Protocol

from rxpy2._internal.atomic import AtomicLong
from rxpy2._internal.atomic import AtomicReference
from rxpy2._internal.type_vars import ItemT
from rxpy2._internal.type_vars import T
from rxpy2.operator_kit import Drain
from rxpy2.operator_kit import add_request
from rxpy2.operator_kit import null_or_late_error
from rxpy2.operator_kit import null_or_late_item
from rxpy2.operator_kit import validate_request
from rxpy2.processors._subscribers import EMPTY
from rxpy2.processors._subscribers import array_add
from rxpy2.processors._subscribers import array_remove
from rxpy2.processors._subscribers import array_terminate
from rxpy2.processors.flowable_processor import FlowableProcessor
from rxpy2.processors.flowable_processor import take_upstream
from rxpy2.reactivestreams import LONG_MAX
from rxpy2.reactivestreams import Subscriber
from rxpy2.reactivestreams import Subscription

__all__ = ["ReplayProcessor"]



class Clock(Protocol):
    """What the time-bound buffers need of a scheduler."""

    def now(self) -> float: ...


class _MonotonicClock:
    """``time.monotonic()``: the clock when no scheduler is given and rxpy2.schedulers is absent."""

    __slots__ = ()

    def now(self) -> float:
        return time.monotonic()


def _default_clock() -> Clock:
    try:
        from rxpy2.schedulers import Schedulers
        clock: Clock = Schedulers.computation()
        return clock
    except (ImportError, AttributeError):
        return _MonotonicClock()


def _check_positive_int(n: Any, name: str) -> None:
    if not isinstance(n, int) or isinstance(n, bool):
        raise TypeError(f"{name} must be an int, not {type(n).__name__}")
    if n <= 0:
        raise ValueError(f"{name} > 0 required but it was {n}")


def _check_max_age(max_age: Any) -> None:
    if not isinstance(max_age, (int, float)) or isinstance(max_age, bool):
        raise TypeError(f"max_age must be a number of seconds, not {type(max_age).__name__}")
    if not max_age > 0:
        raise ValueError(f"max_age > 0 required but it was {max_age}")


def _check_clock(scheduler: Any) -> Clock:
    if scheduler is None:
        return _default_clock()
    if not callable(getattr(scheduler, "now", None)):
        raise TypeError(f"scheduler must have a now() method, not {type(scheduler).__name__}")
    return scheduler  # type: ignore[no-any-return]  # checked to have now()


class ReplayProcessor(FlowableProcessor[T], Generic[T]):
    """Replays its buffered items, then relays new ones, to each subscriber under its demand."""

    __slots__ = ("_buffer", "_done", "_subscribers")

    def __init__(self, buffer: _ReplayBuffer[T]) -> None:
        self._buffer = buffer
        self._done = False
        self._subscribers: AtomicReference[tuple[ReplaySubscription[T], ...]] = AtomicReference(EMPTY)

    @staticmethod
    def create(capacity_hint: int = 16) -> ReplayProcessor[ItemT]:  # type: ignore[override]  # a processor factory, not Flowable.create(source, mode)
        """Replays every item (an unbounded buffer; ``capacity_hint`` is accepted for RxJava's
        signature and must be positive)."""
        _check_positive_int(capacity_hint, "capacity_hint")
        return ReplayProcessor(_UnboundedReplayBuffer())

    @staticmethod
    def create_with_size(max_size: int) -> ReplayProcessor[ItemT]:
        """Replays the last ``max_size`` items."""
        _check_positive_int(max_size, "max_size")
        return ReplayProcessor(_SizeBoundReplayBuffer(max_size))

    @staticmethod
    def create_with_time(max_age: float, scheduler: Clock | None = None) -> ReplayProcessor[ItemT]:
        """Replays the items younger than ``max_age`` seconds by ``scheduler.now()`` (default:
        the computation scheduler's clock, or ``time.monotonic``)."""
        _check_max_age(max_age)
        return ReplayProcessor(_SizeAndTimeBoundReplayBuffer(LONG_MAX, max_age, _check_clock(scheduler)))

    @staticmethod
    def create_with_time_and_size(max_age: float, scheduler: Clock | None,
                                  max_size: int) -> ReplayProcessor[ItemT]:
        """Replays at most the last ``max_size`` items, and only those younger than ``max_age``."""
        _check_max_age(max_age)
        _check_positive_int(max_size, "max_size")
        return ReplayProcessor(_SizeAndTimeBoundReplayBuffer(max_size, max_age, _check_clock(scheduler)))

    # ---- Publisher side

    def subscribe_actual(self, subscriber: Subscriber[T]) -> None:
        rs: ReplaySubscription[T] = ReplaySubscription(subscriber, self)
        subscriber.on_subscribe(rs)
        if array_add(self._subscribers, rs) and rs.cancelled:
            array_remove(self._subscribers, rs)
            return
        self._buffer.replay(rs)

    # ---- Subscriber side

    def on_subscribe(self, s: Subscription) -> None:
        """Request ``LONG_MAX`` from ``s`` (the buffer takes everything), or cancel ``s`` once
        terminated; ``None`` raises ``TypeError`` (§2.13)."""
        take_upstream(s, self._done)

    def on_next(self, item: T) -> None:
        """Add ``item`` to the buffer and replay it to every current subscriber as its demand
        allows; nobody is failed for being slow.

        A bounded buffer then lets its oldest item go for later subscribers. ``None`` raises
        ``TypeError`` (§2.13); after a terminal signal the item is dropped.
        """
        if item is None or self._done:
            null_or_late_item(item)  # §2.13
            return
        b = self._buffer
        b.next(item)
        replay = b.replay
        for rs in self._subscribers.get():  # type: ignore[union-attr]  # never None (AtomicReference.get() is V | None)
            replay(rs)

    def on_error(self, error: BaseException) -> None:
        """Record ``error`` after the buffered items: each subscriber, current or later, gets it
        once replayed up to it.

        ``None`` raises ``TypeError`` (§2.13); a second terminal signal's error goes to
        :func:`rxpy2.plugins.on_error` (§1.7).
        """
        if error is None or self._done:
            null_or_late_error(error)  # §2.13, §1.7
            return
        self._done = True
        b = self._buffer
        b.fail(error)
        for rs in array_terminate(self._subscribers):
            b.replay(rs)

    def on_complete(self) -> None:
        """Record completion after the buffered items: each subscriber, current or later,
        completes once replayed up to it; a second terminal signal is ignored."""
        if self._done:
            return
        self._done = True
        b = self._buffer
        b.complete()
        for rs in array_terminate(self._subscribers):
            b.replay(rs)

    # ---- state

    def has_subscribers(self) -> bool:
        return len(self._subscribers.get()) != 0  # type: ignore[arg-type]  # never None (AtomicReference.get() is V | None)

    def subscriber_count(self) -> int:
        """Return how many subscribers are subscribed now (0 once terminated)."""
        return len(self._subscribers.get())  # type: ignore[arg-type]  # never None (AtomicReference.get() is V | None)

    def get_throwable(self) -> BaseException | None:
        b = self._buffer
        return b.error if b.done else None

    def has_complete(self) -> bool:
        b = self._buffer
        return b.done and b.error is None

    def has_throwable(self) -> bool:
        b = self._buffer
        return b.done and b.error is not None

    def cleanup_buffer(self) -> None:
        """Let go of the item a bounded buffer keeps just before its window (an unbounded buffer
        keeps everything anyway)."""
        self._buffer.trim_head()

    def get_value(self) -> T | None:
        """The latest buffered item, or None."""
        return self._buffer.get_value()

    def get_values(self) -> list[T]:
        """The items a new subscriber would be replayed now, oldest first."""
        return self._buffer.get_values()

    def has_value(self) -> bool:
        """Return True when the buffer holds an item a new subscriber would be replayed (also
        after termination)."""
        return self._buffer.size() != 0

    def size(self) -> int:
        """How many items a new subscriber would be replayed now."""
        return self._buffer.size()

    def _remove(self, rs: ReplaySubscription[T]) -> None:
        array_remove(self._subscribers, rs)


class ReplaySubscription(Subscription, Generic[T]):
    """One subscriber of a ReplayProcessor: its position in the buffer, demand and drain guard."""

    __slots__ = ("downstream", "state", "index", "requested", "gate", "cancelled", "emitted")

    def __init__(self, downstream: Subscriber[T], state: ReplayProcessor[T]) -> None:
        self.downstream: Subscriber[T] = downstream
        self.state: ReplayProcessor[T] = state
        self.index: Any = None  # an int (unbounded buffer) or a node (linked buffers)
        self.requested: AtomicLong = AtomicLong(0)
        self.gate: Drain = Drain()
        self.cancelled: bool = False
        self.emitted: int = 0

    def request(self, n: int) -> None:
        if n := validate_request(n):  # §3.9
            add_request(self.requested, n)
            self.state._buffer.replay(self)

    def cancel(self) -> None:
        if not self.cancelled:
            self.cancelled = True
            self.state._remove(self)  # §3.13


# ---- the buffers ---------------------------------------------------------------------------------


class _ReplayBuffer(Generic[T]):
    __slots__ = ("done", "error")

    def __init__(self) -> None:
        self.done: bool = False
        self.error: BaseException | None = None

    def next(self, value: T) -> None:
        raise NotImplementedError

    def fail(self, error: BaseException) -> None:
        raise NotImplementedError

    def complete(self) -> None:
        raise NotImplementedError

    def replay(self, rs: ReplaySubscription[T]) -> None:
        raise NotImplementedError

    def size(self) -> int:
        raise NotImplementedError

    def get_value(self) -> T | None:
        raise NotImplementedError

    def get_values(self) -> list[T]:
        raise NotImplementedError

    def trim_head(self) -> None:
        pass

    def _terminate(self, rs: ReplaySubscription[T]) -> None:
        """Signal the terminal event to ``rs`` (its buffered items were all emitted)."""
        rs.index = None
        rs.cancelled = True  # finished: later requests find nothing to do
        ex = self.error
        if ex is None:
            rs.downstream.on_complete()
        else:
            rs.downstream.on_error(ex)


class _UnboundedReplayBuffer(_ReplayBuffer[T]):
    __slots__ = ("_buffer",)

    def __init__(self) -> None:
        super().__init__()
        self._buffer: list[T] = []

    def next(self, value: T) -> None:
        self._buffer.append(value)  # one C call: a drain loop sees the item once len() counts it

    def fail(self, error: BaseException) -> None:
        self.error = error
        self.done = True

    def complete(self) -> None:
        self.done = True

    def size(self) -> int:
        return len(self._buffer)

    def get_value(self) -> T | None:
        b = self._buffer
        return b[-1] if b else None

    def get_values(self) -> list[T]:
        return list(self._buffer)

    def replay(self, rs: ReplaySubscription[T]) -> None:
        if not rs.gate.enter():
            return
        b = self._buffer
        a = rs.downstream
        requested = rs.requested
        index: int = rs.index if rs.index is not None else 0
        e = rs.emitted
        while True:
            r = requested.get()
            while e != r:
                if rs.cancelled:
                    rs.index = None
                    return
                d = self.done
                s = len(b)
                if index == s:
                    if d:
                        self._terminate(rs)
                        return
                    break
                a.on_next(b[index])
                index += 1
                e += 1
            if e == r:
                if rs.cancelled:
                    rs.index = None
                    return
                if self.done and index == len(b):
                    self._terminate(rs)
                    return
            rs.index = index
            rs.emitted = e
            if not rs.gate.leave():
                return


class _Node(Generic[T]):
    __slots__ = ("value", "next", "time")

    def __init__(self, value: T | None, t: float = 0.0) -> None:
        self.value = value
        self.next: _Node[T] | None = None
        self.time = t


class _LinkedReplayBuffer(_ReplayBuffer[T]):
    """A singly linked list from ``head`` (the node *before* the first item) to ``tail``."""

    __slots__ = ("head", "tail", "count", "max_size")

    def __init__(self, max_size: int) -> None:
        super().__init__()
        h: _Node[T] = _Node(None)
        self.head = h
        self.tail = h
        self.count = 0
        self.max_size = max_size

    def _append(self, n: _Node[T]) -> None:
        t = self.tail
        self.tail = n
        self.count += 1
        t.next = n  # the node is complete before a drain loop can reach it

    def trim_head(self) -> None:
        h = self.head
        if h.value is not None:  # the head keeps an item alive: replace it by an empty node
            n: _Node[T] = _Node(None)
            n.next = h.next
            self.head = n

    def _first(self) -> _Node[T]:
        """The node a new subscriber starts after."""
        return self.head

    def size(self) -> int:
        s = 0
        h = self._first().next
        while h is not None:
            s += 1
            h = h.next
        return s

    def get_value(self) -> T | None:
        h = self.head
        while True:
            n = h.next
            if n is None:
                return h.value
            h = n

    def get_values(self) -> list[T]:
        out: list[T] = []
        h = self._first().next
        while h is not None:
            out.append(h.value)  # type: ignore[arg-type]  # only the head node holds None
            h = h.next
        return out

    def replay(self, rs: ReplaySubscription[T]) -> None:
        if not rs.gate.enter():
            return
        a = rs.downstream
        requested = rs.requested
        index: _Node[T] = rs.index if rs.index is not None else self._first()
        e = rs.emitted
        while True:
            r = requested.get()
            while e != r:
                if rs.cancelled:
                    rs.index = None
                    return
                d = self.done
                nxt = index.next
                if nxt is None:
                    if d:
                        self._terminate(rs)
                        return
                    break
                a.on_next(nxt.value)  # type: ignore[arg-type]  # only the head node holds None
                e += 1
                index = nxt
            if e == r:
                if rs.cancelled:
                    rs.index = None
                    return
                if self.done and index.next is None:
                    self._terminate(rs)
                    return
            rs.index = index
            rs.emitted = e
            if not rs.gate.leave():
                return


class _SizeBoundReplayBuffer(_LinkedReplayBuffer[T]):
    __slots__ = ()

    def next(self, value: T) -> None:
        self._append(_Node(value))
        if self.count > self.max_size:
            self.count -= 1
            self.head = self.head.next  # type: ignore[assignment]  # count > max_size: there is a next node

    def fail(self, error: BaseException) -> None:
        self.error = error
        self.trim_head()
        self.done = True

    def complete(self) -> None:
        self.trim_head()
        self.done = True


class _SizeAndTimeBoundReplayBuffer(_LinkedReplayBuffer[T]):
    __slots__ = ("max_age", "scheduler")

    def __init__(self, max_size: int, max_age: float, scheduler: Clock) -> None:
        super().__init__(max_size)
        self.max_age = max_age
        self.scheduler = scheduler

    def _trim(self) -> None:
        if self.count > self.max_size:
            self.count -= 1
            self.head = self.head.next  # type: ignore[assignment]  # there is a next node here
        limit = self.scheduler.now() - self.max_age
        h = self.head
        while self.count > 1:  # the newest item stays while the processor runs (as RxJava)
            n = h.next
            if n is None or n.time > limit:
                break
            h = n
            self.count -= 1
        self.head = h

    def _trim_final(self) -> None:
        """At termination: drop every expired item, the newest too, and release the head's item."""
        limit = self.scheduler.now() - self.max_age
        h = self.head
        while True:
            n = h.next
            if n is None or n.time > limit:
                break
            h = n
            self.count -= 1
        if h.value is not None:
            e: _Node[T] = _Node(None)
            e.next = h.next
            h = e
        self.head = h

    def next(self, value: T) -> None:
        self._append(_Node(value, self.scheduler.now()))
        self._trim()

    def fail(self, error: BaseException) -> None:
        self._trim_final()
        self.error = error
        self.done = True

    def complete(self) -> None:
        self._trim_final()
        self.done = True

    def _first(self) -> _Node[T]:
        # skip the items that expired since the last trim
        limit = self.scheduler.now() - self.max_age
        index = self.head
        n = index.next
        while n is not None and n.time <= limit:
            index = n
            n = index.next
        return index

    def get_value(self) -> T | None:
        h = self.head
        while True:
            n = h.next
            if n is None:
                break
            h = n
        if h.time < self.scheduler.now() - self.max_age:
            return None
        return h.value
