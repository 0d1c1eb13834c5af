"""The queues operators use between a producer and a drain loop.

RxJava's queues implement a reduced API (``SimpleQueue``): ``offer`` (False when
full), ``offer2`` (two items atomically, for pairs such as (time, item)),
``poll`` (``None`` when empty; ``None`` is never an item), ``is_empty`` and
``clear``.

All three implementations here store items in CPython's ``collections.deque``.
That is deliberate: a deque *is* a linked list of fixed-size blocks (64 slots
each), the very structure of RxJava's ``SpscLinkedArrayQueue``, and its
``append``/``popleft``/``extend`` run in C without releasing the interpreter's
lock, so they are atomic with respect to other Python threads. A ring buffer
written in Python would pay several bytecodes per slot for the same guarantee.

Each class keeps its contract:

* ``SpscArrayQueue(capacity)``: bounded, capacity rounded up to a power of two
  (as RxJava does); one producer thread, one consumer thread.
* ``SpscLinkedArrayQueue(chunk_size)``: unbounded; one producer, one consumer;
  ``offer2`` puts both items in one step, so the consumer never sees half a pair.
* ``MpscLinkedQueue()``: unbounded; any number of producers, one consumer.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from typing import Generic
from typing import Protocol
from typing import TypeVar

__all__ = ["MpscLinkedQueue", "SimpleQueue", "SpscArrayQueue", "SpscLinkedArrayQueue",
           "round_to_power_of_2"]

T = TypeVar("T")


class SimpleQueue(Protocol[T]):
    """The queue protocol of rxpy2's operators."""

    def offer(self, item: T) -> bool: ...

    def offer2(self, first: T, second: T) -> bool: ...

    def poll(self) -> T | None: ...

    def is_empty(self) -> bool: ...

    def clear(self) -> None: ...


def round_to_power_of_2(n: int) -> int:
    """The smallest power of two ≥ ``n`` (``n`` ≥ 1)."""
    if n < 1:
        raise ValueError(f"capacity must be positive, not {n}")
    return 1 << (n - 1).bit_length()


class SpscArrayQueue(Generic[T]):
    """A bounded single-producer single-consumer queue; capacity is a power of two.

    ``items`` is the deque itself, for the hot loops of an operator that owns the
    queue: its producer checks ``len(items)`` against its bound and appends, its
    drain tests ``items`` and calls ``popleft``, with no method call in between.
    """

    __slots__ = ("_q", "items", "capacity", "append", "popleft")

    def __init__(self, capacity: int) -> None:
        self.capacity: int = round_to_power_of_2(capacity)
        q: deque[T] = deque()
        self._q = q
        self.items: deque[T] = q
        self.append: Callable[[T], None] = q.append
        self.popleft: Callable[[], T] = q.popleft

    def offer(self, item: T) -> bool:
        """Append ``item`` and return True, or return False when the queue is at capacity; ``None``
        raises ``TypeError``.

        Producer side only (one thread).
        """
        if item is None:
            raise TypeError("queue items can't be None")
        q = self._q
        if len(q) >= self.capacity:  # only this producer grows the queue: the check holds
            return False
        q.append(item)
        return True

    def offer2(self, first: T, second: T) -> bool:
        """Append ``first`` then ``second`` in one step and return True, or False (nothing added)
        when both do not fit."""
        if first is None or second is None:
            raise TypeError("queue items can't be None")
        q = self._q
        if len(q) + 2 > self.capacity:
            return False
        q.extend((first, second))
        return True

    def poll(self) -> T | None:
        """Remove and return the oldest item, or ``None`` when empty. Consumer side only."""
        q = self._q
        if q:  # only this consumer shrinks the queue: a non-empty check holds
            return q.popleft()
        return None

    def peek(self) -> T | None:
        """Return the oldest item without removing it, or ``None`` when empty."""
        q = self._q
        return q[0] if q else None

    def is_empty(self) -> bool:
        """Return True when no item is queued."""
        return not self._q

    def clear(self) -> None:
        # called by the consumer side only (the drain loop), as in RxJava
        """Remove every queued item. Consumer side only (the drain loop), as in RxJava."""
        q = self._q
        while q:
            q.popleft()

    def __len__(self) -> int:
        return len(self._q)


class SpscLinkedArrayQueue(Generic[T]):
    """An unbounded single-producer single-consumer queue of linked fixed-size chunks.

    ``items`` is the deque itself, as in :class:`SpscArrayQueue`: an operator's hot path
    tests it for emptiness with no method call.
    """

    __slots__ = ("_q", "items", "chunk_size", "append", "popleft")

    def __init__(self, chunk_size: int = 128) -> None:
        self.chunk_size: int = round_to_power_of_2(max(8, chunk_size))
        q: deque[T] = deque()
        self._q = q
        self.items: deque[T] = q
        self.append: Callable[[T], None] = q.append
        self.popleft: Callable[[], T] = q.popleft

    def offer(self, item: T) -> bool:
        """Append ``item`` and return True (the queue is unbounded); ``None`` raises
        ``TypeError``."""
        if item is None:
            raise TypeError("queue items can't be None")
        self._q.append(item)
        return True

    def offer2(self, first: T, second: T) -> bool:
        """Append ``first`` and ``second`` in one C call, so a consumer never sees half the pair;
        return True."""
        if first is None or second is None:
            raise TypeError("queue items can't be None")
        self._q.extend((first, second))  # one C call: the pair appears at once
        return True

    def poll(self) -> T | None:
        """Remove and return the oldest item, or ``None`` when empty. Consumer side only."""
        q = self._q
        if q:
            return q.popleft()
        return None

    def peek(self) -> T | None:
        """Return the oldest item without removing it, or ``None`` when empty."""
        q = self._q
        return q[0] if q else None

    def is_empty(self) -> bool:
        """Return True when no item is queued."""
        return not self._q

    def clear(self) -> None:
        """Remove every queued item. Consumer side only."""
        q = self._q
        while q:
            q.popleft()

    def __len__(self) -> int:
        return len(self._q)


class MpscLinkedQueue(SpscLinkedArrayQueue[T]):
    """An unbounded multi-producer single-consumer queue.

    ``deque.append`` is one atomic C call, so producers on any thread may offer
    concurrently; ``poll`` and ``clear`` belong to the single consumer.
    """

    __slots__ = ()

    def __init__(self) -> None:
        super().__init__(64)
