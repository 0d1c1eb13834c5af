"""on_backpressure_buffer / _drop / _latest / _error: what to do with items nobody requested.

Each asks its upstream for everything (``LONG_MAX``) and serves the downstream's
demand from there:

* buffer (unbounded, or bounded with ``ERROR``): keep the items in a queue and
  drain them under demand. A bounded buffer that is full cancels the upstream,
  calls ``on_overflow`` and ends with ``MissingBackpressureException`` ("the buffer of
  ``capacity`` items is full").
* buffer with ``DROP_OLDEST`` / ``DROP_LATEST``: a full buffer drops its oldest
  item or its newest buffered item to make room, and calls ``on_overflow``.
* drop: an item that finds no demand is dropped (and given to ``on_drop``).
* latest: only the latest item that found no demand is kept.
* error: an item that finds no demand ends the stream with ``MissingBackpressureException``.
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable
from typing import Any
from typing import Generic
from typing import TypeVar

from rxpy2._internal.atomic import AtomicLong
from rxpy2._internal.atomic import AtomicReference
from rxpy2._internal.fuseable import ASYNC
from rxpy2._internal.fuseable import NONE
from rxpy2._internal.fuseable import HasUpstreamPublisher
from rxpy2._internal.fuseable import QueueSubscription
from rxpy2._internal.helpers.subscribe_loop import subscribe_tail
from rxpy2._internal.queues import SpscArrayQueue
from rxpy2._internal.queues import SpscLinkedArrayQueue
from rxpy2._internal.subscribers.drain_support import DrainSubscriptionMixin
from rxpy2._internal.subscribers.drain_support import DrainTerminalsMixin
from rxpy2._internal.subscribers.operator_subscriber import UnboundedStart
from rxpy2.backpressure import BackpressureOverflowStrategy
from rxpy2.exceptions import MissingBackpressureException
from rxpy2.flowable import Flowable
from rxpy2.operator_kit import Drain
from rxpy2.operator_kit import OperatorSubscriber
from rxpy2.operator_kit import add_request
from rxpy2.operator_kit import null_item
from rxpy2.operator_kit import null_or_late_item
from rxpy2.operator_kit import produced
from rxpy2.operator_kit import validate_request
from rxpy2.reactivestreams import LONG_MAX
from rxpy2.reactivestreams import Publisher
from rxpy2.reactivestreams import Subscriber

__all__ = [
    "FlowableOnBackpressureBuffer",
    "FlowableOnBackpressureBufferStrategy",
    "FlowableOnBackpressureDrop",
    "FlowableOnBackpressureError",
    "FlowableOnBackpressureLatest",
]

T = TypeVar("T")


class BaseUnboundedSubscriber(UnboundedStart, OperatorSubscriber[T, T], Generic[T]):
    """Requests ``LONG_MAX`` upstream; keeps the downstream's demand in ``requested``."""

    __slots__ = ("requested",)

    def __init__(self, downstream: Subscriber[T]) -> None:
        super().__init__(downstream)
        self.requested = AtomicLong()

    def request(self, n: int) -> None:
        if n := validate_request(n):
            add_request(self.requested, n)  # the subclass reads it when it emits

    def cancel(self) -> None:
        self.upstream.cancel()


# ------------------------------------------------------------------------ drop / error

class FlowableOnBackpressureDrop(Flowable[T], HasUpstreamPublisher[T], Generic[T]):
    __slots__ = ("source", "on_drop")

    def __init__(self, source: Publisher[T], on_drop: Callable[[T], Any] | None) -> None:
        self.source = source
        self.on_drop = on_drop

    def subscribe_actual(self, subscriber: Subscriber[T]) -> None:
        subscribe_tail(self.source, DropSubscriber(subscriber, self.on_drop))


class DropSubscriber(BaseUnboundedSubscriber[T], Generic[T]):
    __slots__ = ("on_drop",)

    def __init__(self, downstream: Subscriber[T], on_drop: Callable[[T], Any] | None) -> None:
        super().__init__(downstream)
        self.on_drop = on_drop

    def on_next(self, item: T) -> None:
        if item is None or self.done:
            null_or_late_item(item)  # §2.13
            return
        if self.requested.get() != 0:
            self.downstream.on_next(item)
            produced(self.requested, 1)
            return
        f = self.on_drop
        if f is not None:
            try:
                f(item)
            except Exception as e:
                self.fail(e)


class FlowableOnBackpressureError(Flowable[T], HasUpstreamPublisher[T], Generic[T]):
    __slots__ = ("source",)

    def __init__(self, source: Publisher[T]) -> None:
        self.source = source

    def subscribe_actual(self, subscriber: Subscriber[T]) -> None:
        subscribe_tail(self.source, ErrorSubscriber(subscriber))


class ErrorSubscriber(DropSubscriber[T], Generic[T]):
    __slots__ = ()

    def __init__(self, downstream: Subscriber[T]) -> None:
        super().__init__(downstream, None)

    def on_next(self, item: T) -> None:
        if item is None or self.done:
            null_or_late_item(item)  # §2.13
            return
        if self.requested.get() != 0:
            self.downstream.on_next(item)
            produced(self.requested, 1)
        else:
            self.fail(MissingBackpressureException.for_operator(
                "on_backpressure_error", "could not emit a value due to lack of requests",
                "the downstream is slower than the upstream: use on_backpressure_buffer()/"
                "on_backpressure_drop()/on_backpressure_latest() instead, or request more"))


# ------------------------------------------------------------------------ buffered: latest, buffer

class _BaseBufferSubscriber(DrainTerminalsMixin, DrainSubscriptionMixin, BaseUnboundedSubscriber[T],
                            Generic[T]):
    """Keeps the items nobody requested yet in a buffer (the subclass's) and delivers them
    in its drain loop, under the downstream's demand. ``on_error``/``on_complete``
    (:class:`DrainTerminalsMixin`) and ``request``/``cancel`` (:class:`DrainSubscriptionMixin`)
    record the signal and drain."""

    __slots__ = ("gate", "error", "cancelled", "delay_error")

    def __init__(self, downstream: Subscriber[T], delay_error: bool) -> None:
        super().__init__(downstream)
        self.gate = Drain()
        self.error: BaseException | None = None
        self.cancelled = False
        self.delay_error = delay_error

    def cancel_upstream(self) -> None:
        self.upstream.cancel()

    def cleanup(self) -> None:
        self.clear_buffer()

    # the buffer, as the subclass keeps it
    def clear_buffer(self) -> None:
        raise NotImplementedError

    def poll_buffer(self) -> T | None:
        raise NotImplementedError

    def buffer_empty(self) -> bool:
        raise NotImplementedError

    def check_terminated(self, d: bool, empty: bool, a: Subscriber[T]) -> bool:
        if self.cancelled:
            self.clear_buffer()
            return True
        if d:
            e = self.error
            if self.delay_error:
                if empty:
                    if e is not None:
                        a.on_error(e)
                    else:
                        a.on_complete()
                    return True
            elif e is not None:
                self.clear_buffer()
                a.on_error(e)
                return True
            elif empty:
                a.on_complete()
                return True
        return False

    def drain_loop(self) -> None:
        a = self.downstream
        poll = self.poll_buffer
        requested = self.requested
        gate = self.gate
        while True:
            if self.check_terminated(self.done, self.buffer_empty(), a):
                return
            r = requested.get()
            e = 0
            while e != r:
                d = self.done
                v = poll()
                empty = v is None
                if self.check_terminated(d, empty, a):
                    return
                if empty:
                    break
                a.on_next(v)  # type: ignore[arg-type]  # not empty: v is an item
                e += 1
            if e == r and self.check_terminated(self.done, self.buffer_empty(), a):
                return
            if e != 0 and r != LONG_MAX:
                requested.add_and_get(-e)
            if not gate.leave():
                return


# ------------------------------------------------------------------------ latest

class FlowableOnBackpressureLatest(Flowable[T], HasUpstreamPublisher[T], Generic[T]):
    __slots__ = ("source",)

    def __init__(self, source: Publisher[T]) -> None:
        self.source = source

    def subscribe_actual(self, subscriber: Subscriber[T]) -> None:
        subscribe_tail(self.source, LatestSubscriber(subscriber))


class LatestSubscriber(_BaseBufferSubscriber[T], Generic[T]):
    """Its buffer is one slot (``current``); errors are not delayed."""

    __slots__ = ("current",)

    def __init__(self, downstream: Subscriber[T]) -> None:
        super().__init__(downstream, False)
        self.current: AtomicReference[T] = AtomicReference()

    def on_next(self, item: T) -> None:
        if item is None:
            raise null_item()  # §2.13
        self.current.set(item)
        self.drain()

    def clear_buffer(self) -> None:
        self.current.set(None)

    def poll_buffer(self) -> T | None:
        return self.current.get_and_set(None)

    def buffer_empty(self) -> bool:
        return self.current.get() is None

    def drain_loop(self) -> None:
        """The base loop with the slot read in place (no method call per item)."""
        a = self.downstream
        current = self.current
        requested = self.requested
        gate = self.gate
        while True:
            r = requested.get()
            e = 0
            while e != r:
                d = self.done
                v = current.get_and_set(None)
                empty = v is None
                if self.check_terminated(d, empty, a):
                    return
                if empty:
                    break
                a.on_next(v)  # type: ignore[arg-type]  # not empty: v is an item
                e += 1
            if e == r and self.check_terminated(self.done, current.get() is None, a):
                return
            if e != 0:
                produced(requested, e)
            if not gate.leave():
                return


# ------------------------------------------------------------------------ buffer

class FlowableOnBackpressureBuffer(Flowable[T], HasUpstreamPublisher[T], Generic[T]):
    """Unbounded (``capacity`` is None) or bounded with the ERROR overflow strategy."""

    __slots__ = ("source", "capacity", "delay_error", "on_overflow")

    def __init__(self, source: Publisher[T], capacity: int | None, delay_error: bool,
                 on_overflow: Callable[[], Any] | None) -> None:
        self.source = source
        self.capacity = capacity
        self.delay_error = delay_error
        self.on_overflow = on_overflow

    def subscribe_actual(self, subscriber: Subscriber[T]) -> None:
        subscribe_tail(self.source, BufferSubscriber(subscriber, self.capacity, self.delay_error,
                                               self.on_overflow))


class BufferSubscriber(_BaseBufferSubscriber[T], QueueSubscription[T], Generic[T]):
    """Offers ASYNC fusion, as RxJava 2.2.21's ``FlowableOnBackpressureBuffer`` does: a
    fused downstream polls this queue itself, so a bounded one holds at most ``capacity``
    items whatever the downstream's own prefetch (behind ``zip``, ``observe_on`` or
    ``sequence_equal`` a fast source then overflows it, as in RxJava)."""

    __slots__ = ("queue", "on_overflow", "output_fused")

    def __init__(self, downstream: Subscriber[T], capacity: int | None, delay_error: bool,
                 on_overflow: Callable[[], Any] | None) -> None:
        super().__init__(downstream, delay_error)
        self.queue: Any = (SpscLinkedArrayQueue(128) if capacity is None
                           else SpscArrayQueue(capacity))
        if capacity is not None:
            self.queue.capacity = capacity  # type: ignore[union-attr]  # exactly ``capacity`` items, not a power of two
        self.on_overflow = on_overflow
        self.output_fused = False

    def on_next(self, item: T) -> None:
        if item is None or self.done:
            null_or_late_item(item)  # §2.13
            return
        if not self.queue.offer(item):
            self.upstream.cancel()
            ex: BaseException = MissingBackpressureException.buffer_full(
                "on_backpressure_buffer", self.queue.capacity)
            f = self.on_overflow
            if f is not None:
                try:
                    f()
                except Exception as e:
                    ex.__cause__ = e
            self.on_error(ex)
            return
        if self.output_fused:
            self.downstream.on_next(None)  # type: ignore[arg-type]  # ASYNC fusion: None only says "poll me"
        else:
            self.drain()

    def drain(self) -> None:
        if not self.output_fused:
            super().drain()
            return
        # fused: the downstream polls; only the terminal signal is ours to deliver
        if self.done and not self.cancelled:
            self.cancelled = True  # once
            e = self.error
            if e is not None:
                self.downstream.on_error(e)
            else:
                self.downstream.on_complete()

    def cleanup(self) -> None:
        if not self.output_fused:  # a fused downstream clears the queue itself
            self.clear_buffer()

    def clear_buffer(self) -> None:
        self.queue.clear()

    def poll_buffer(self) -> T | None:
        return self.queue.poll()  # type: ignore[no-any-return]  # the queue holds Any

    def buffer_empty(self) -> bool:
        return self.queue.is_empty()  # type: ignore[no-any-return]  # the queue is Any

    # ---- ASYNC fusion (downstream)

    def request_fusion(self, mode: int) -> int:
        if mode & ASYNC:
            self.output_fused = True
            return ASYNC
        return NONE

    # the fused downstream polls the buffer itself
    poll = poll_buffer
    is_empty = buffer_empty
    clear = clear_buffer


class FlowableOnBackpressureBufferStrategy(Flowable[T], HasUpstreamPublisher[T], Generic[T]):
    """A bounded buffer that drops its oldest or newest item when full."""

    __slots__ = ("source", "capacity", "on_overflow", "strategy", "delay_error")

    def __init__(self, source: Publisher[T], capacity: int,
                 on_overflow: Callable[[], Any] | None,
                 strategy: BackpressureOverflowStrategy, delay_error: bool) -> None:
        self.source = source
        self.capacity = capacity
        self.on_overflow = on_overflow
        self.strategy = strategy
        self.delay_error = delay_error

    def subscribe_actual(self, subscriber: Subscriber[T]) -> None:
        subscribe_tail(self.source, BufferStrategySubscriber(
            subscriber, self.capacity, self.on_overflow, self.strategy, self.delay_error))


class BufferStrategySubscriber(_BaseBufferSubscriber[T], Generic[T]):
    __slots__ = ("deque", "lock", "capacity", "on_overflow", "strategy")

    def __init__(self, downstream: Subscriber[T], capacity: int,
                 on_overflow: Callable[[], Any] | None,
                 strategy: BackpressureOverflowStrategy, delay_error: bool) -> None:
        super().__init__(downstream, delay_error)
        self.deque: deque[T] = deque()
        self.lock = threading.Lock()  # the producer's check-and-drop vs the drain's poll
        self.capacity = capacity
        self.on_overflow = on_overflow
        self.strategy = strategy

    def on_next(self, item: T) -> None:
        if item is None or self.done:
            null_or_late_item(item)  # §2.13
            return
        dq = self.deque
        overflow = False
        error = False
        with self.lock:
            if len(dq) == self.capacity:
                if self.strategy is BackpressureOverflowStrategy.DROP_LATEST:
                    dq.pop()
                    dq.append(item)
                    overflow = True
                elif self.strategy is BackpressureOverflowStrategy.DROP_OLDEST:
                    dq.popleft()
                    dq.append(item)
                    overflow = True
                else:
                    error = True
            else:
                dq.append(item)
        if overflow:
            f = self.on_overflow
            if f is not None:
                try:
                    f()
                except Exception as e:
                    self.fail(e)
                    return
        elif error:
            self.fail(MissingBackpressureException.buffer_full(
                "on_backpressure_buffer", self.capacity))
            return
        self.drain()

    def clear_buffer(self) -> None:
        with self.lock:
            self.deque.clear()

    def poll_buffer(self) -> T | None:
        with self.lock:
            dq = self.deque
            return dq.popleft() if dq else None

    def buffer_empty(self) -> bool:
        return not self.deque
