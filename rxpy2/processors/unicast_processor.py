"""UnicastProcessor: buffers every item until its one subscriber takes it (RxJava 2's).

The only unbounded buffer of the processors, asked for by name: items wait in
an ``SpscLinkedArrayQueue`` until the single subscriber requests them. A second
subscriber gets ``on_subscribe`` then ``on_error(ProtocolViolationException)``.

* ``on_terminate`` (optional) runs once, when the subscriber cancels or the
  processor receives its terminal signal, whichever comes first.
* ``delay_error`` (default True, as in RxJava 2): an error waits until the items
  before it were consumed; with False it cuts ahead of them.
* Fusion: the Subscription is a ``QueueSubscription`` that grants ASYNC mode;
  the subscriber then polls the queue itself and ``on_next(None)`` means
  "items are ready".
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from typing import Generic

from rxpy2._internal.atomic import AtomicBoolean
from rxpy2._internal.atomic import AtomicLong
from rxpy2._internal.atomic import AtomicReference
from rxpy2._internal.fuseable import ASYNC
from rxpy2._internal.fuseable import NONE
from rxpy2._internal.fuseable import QueueSubscription
from rxpy2._internal.helpers.exception_helper import call_reporting
from rxpy2._internal.queues import SpscLinkedArrayQueue
from rxpy2._internal.subscriptions.empty import EmptySubscription
from rxpy2._internal.type_vars import ItemT
from rxpy2._internal.type_vars import T
from rxpy2.exceptions import ProtocolViolationException
from rxpy2.flowable import BUFFER_SIZE
from rxpy2.operator_kit import Drain
from rxpy2.operator_kit import add_request
from rxpy2.operator_kit import null_or_late_error
from rxpy2.operator_kit import null_or_late_item
from rxpy2.operator_kit import null_subscription
from rxpy2.operator_kit import validate_request
from rxpy2.processors.flowable_processor import FlowableProcessor
from rxpy2.reactivestreams import LONG_MAX
from rxpy2.reactivestreams import Subscriber
from rxpy2.reactivestreams import Subscription

__all__ = ["UnicastProcessor"]



class UnicastProcessor(FlowableProcessor[T], Generic[T]):
    """Queues items for a single subscriber and replays them under its demand."""

    __slots__ = ("_queue", "_on_terminate", "_delay_error", "_done", "_error", "_downstream",
                 "_cancelled", "_once", "_gate", "_requested", "_enable_operator_fusion", "_subscription")

    def __init__(self, capacity_hint: int = BUFFER_SIZE,
                 on_terminate: Callable[[], Any] | None = None, delay_error: bool = True) -> None:
        if not isinstance(capacity_hint, int) or isinstance(capacity_hint, bool):
            raise TypeError(f"capacity_hint must be an int, not {type(capacity_hint).__name__}")
        if capacity_hint <= 0:
            raise ValueError(f"capacity_hint > 0 required but it was {capacity_hint}")
        if on_terminate is not None and not callable(on_terminate):
            raise TypeError(f"on_terminate must be callable, not {type(on_terminate).__name__}")
        self._queue: SpscLinkedArrayQueue[T] = SpscLinkedArrayQueue(capacity_hint)
        self._on_terminate: AtomicReference[Callable[[], Any]] = AtomicReference(on_terminate)
        self._delay_error = delay_error
        self._done = False
        self._error: BaseException | None = None
        self._downstream: AtomicReference[Subscriber[T]] = AtomicReference()
        self._cancelled = False
        self._once = AtomicBoolean(False)
        self._gate = Drain()
        self._requested = AtomicLong(0)
        self._enable_operator_fusion = False
        self._subscription: UnicastQueueSubscription[T] = UnicastQueueSubscription(self)

    @staticmethod
    def create(  # type: ignore[override]  # a processor factory, not Flowable.create(source, mode)
            capacity_hint: int = BUFFER_SIZE, on_terminate: Callable[[], Any] | None = None,
            delay_error: bool = True) -> UnicastProcessor[ItemT]:
        """A new UnicastProcessor; ``capacity_hint`` sizes the queue's chunks (it is unbounded)."""
        return UnicastProcessor(capacity_hint, on_terminate, delay_error)

    def _do_terminate(self) -> None:
        # §3.15/§2.13: cancel and the signals return normally
        call_reporting(self._on_terminate.get_and_set(None))

    # ---- drain

    def _drain_regular(self, a: Subscriber[T]) -> None:
        q = self._queue
        poll = q.poll
        fail_fast = not self._delay_error
        requested = self._requested
        gate = self._gate
        while True:
            r = requested.get()
            e = 0
            while r != e:
                d = self._done
                t = poll()
                empty = t is None
                if self._check_terminated(fail_fast, d, empty, a, q):
                    return
                if empty:
                    break
                a.on_next(t)  # type: ignore[arg-type]  # not empty: the item is not None
                e += 1
            if r == e and self._check_terminated(fail_fast, self._done, q.is_empty(), a, q):
                return
            if e != 0 and r != LONG_MAX:
                requested.add_and_get(-e)
            if not gate.leave():
                return

    def _drain_fused(self, a: Subscriber[T]) -> None:
        q = self._queue
        fail_fast = not self._delay_error
        gate = self._gate
        while True:
            if self._cancelled:
                self._downstream.lazy_set(None)
                return
            d = self._done
            if fail_fast and d and self._error is not None:
                q.clear()
                self._downstream.lazy_set(None)
                a.on_error(self._error)
                return
            a.on_next(None)  # type: ignore[arg-type]  # ASYNC fusion: "poll now"
            if d:
                self._downstream.lazy_set(None)
                ex = self._error
                if ex is not None:
                    a.on_error(ex)
                else:
                    a.on_complete()
                return
            if not gate.leave():
                return

    def _drain(self) -> None:
        gate = self._gate
        if not gate.enter():
            return
        a = self._downstream.get()
        while True:
            if a is not None:
                if self._enable_operator_fusion:
                    self._drain_fused(a)
                else:
                    self._drain_regular(a)
                return
            if not gate.leave():
                return
            a = self._downstream.get()

    def _check_terminated(self, fail_fast: bool, d: bool, empty: bool, a: Subscriber[T],
                          q: SpscLinkedArrayQueue[T]) -> bool:
        if self._cancelled:
            q.clear()
            self._downstream.lazy_set(None)
            return True
        if d:
            if fail_fast and self._error is not None:
                q.clear()
                self._downstream.lazy_set(None)
                a.on_error(self._error)
                return True
            if empty:
                ex = self._error
                self._downstream.lazy_set(None)
                if ex is not None:
                    a.on_error(ex)
                else:
                    a.on_complete()
                return True
        return False

    # ---- Subscriber side

    def on_subscribe(self, s: Subscription) -> None:
        """Request ``LONG_MAX`` from ``s`` (every item is queued), or cancel ``s`` once
        terminated or cancelled by the subscriber; ``None`` raises ``TypeError`` (§2.13)."""
        if s is None:
            raise null_subscription()  # §2.13
        if self._done or self._cancelled:
            s.cancel()
        else:
            s.request(LONG_MAX)

    def on_next(self, item: T) -> None:
        """Queue ``item`` (the queue is unbounded) and emit queued items as far as the subscriber's
        demand allows; before anyone subscribes they wait.

        ``None`` raises ``TypeError`` (§2.13); after a terminal signal or the subscriber's
        cancellation the item is dropped.
        """
        if item is None or self._done or self._cancelled:
            null_or_late_item(item)  # §2.13
            return
        self._queue.offer(item)
        self._drain()

    def on_error(self, error: BaseException) -> None:
        """Run ``on_terminate`` and signal ``error`` to the subscriber: after the queued items with
        ``delay_error`` (the default), ahead of them without.

        ``None`` raises ``TypeError`` (§2.13); an error after a terminal signal or the cancellation
        goes to :func:`rxpy2.plugins.on_error` (§1.7).
        """
        if error is None or self._done or self._cancelled:
            null_or_late_error(error)  # §2.13, §1.7
            return
        self._error = error
        self._done = True
        self._do_terminate()
        self._drain()

    def on_complete(self) -> None:
        """Run ``on_terminate`` and complete the subscriber once it consumed the queued items;
        ignored after a terminal signal or the cancellation."""
        if self._done or self._cancelled:
            return
        self._done = True
        self._do_terminate()
        self._drain()

    # ---- Publisher side

    def subscribe_actual(self, subscriber: Subscriber[T]) -> None:
        if not self._once.get() and self._once.compare_and_set(False, True):
            subscriber.on_subscribe(self._subscription)
            self._downstream.set(subscriber)
            if self._cancelled:
                self._downstream.lazy_set(None)
            else:
                self._drain()
        else:
            EmptySubscription.error(ProtocolViolationException(
                "UnicastProcessor allows only a single Subscriber"), subscriber)

    # ---- state

    def has_subscribers(self) -> bool:
        return self._downstream.get() is not None

    def get_throwable(self) -> BaseException | None:
        return self._error if self._done else None

    def has_complete(self) -> bool:
        return self._done and self._error is None

    def has_throwable(self) -> bool:
        return self._done and self._error is not None


class UnicastQueueSubscription(QueueSubscription[T], Generic[T]):
    """The Subscription of a UnicastProcessor's subscriber; also its queue under ASYNC fusion."""

    __slots__ = ("parent",)

    def __init__(self, parent: UnicastProcessor[T]) -> None:
        self.parent: UnicastProcessor[T] = parent

    def poll(self) -> T | None:
        return self.parent._queue.poll()

    def is_empty(self) -> bool:
        return self.parent._queue.is_empty()

    def clear(self) -> None:
        self.parent._queue.clear()

    def request_fusion(self, mode: int) -> int:
        if mode & ASYNC:
            self.parent._enable_operator_fusion = True
            return ASYNC
        return NONE

    def request(self, n: int) -> None:
        if n := validate_request(n):  # §3.9
            p = self.parent
            add_request(p._requested, n)
            p._drain()

    def cancel(self) -> None:
        p = self.parent
        if p._cancelled:
            return
        p._cancelled = True
        p._do_terminate()
        p._downstream.lazy_set(None)  # §3.13
        if p._gate.enter():  # no drain runs: clearing is ours to do
            p._downstream.lazy_set(None)
            if not p._enable_operator_fusion:
                p._queue.clear()

    def __repr__(self) -> str:
        return "UnicastQueueSubscription"
