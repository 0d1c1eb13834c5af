"""SerializedProcessor: lets several threads feed a processor (``FlowableProcessor.to_serialized``).

An emitter loop: the thread that finds nobody emitting forwards its signal to
the wrapped processor, then forwards whatever other threads queued meanwhile; a
thread that finds someone emitting queues its signal and returns at once. The
lock guards only the flag and the queue, never a call into the processor. An
error cuts ahead of the items still queued; after a terminal signal everything
is dropped (a late error goes to :func:`rxpy2.plugins.on_error`).
"""

from __future__ import annotations

from collections import deque
from threading import Lock
from typing import Any
from typing import Generic
from typing import TypeVar

from rxpy2 import plugins
from rxpy2._internal.helpers.subscribe_loop import subscribe_tail
from rxpy2.operator_kit import null_error
from rxpy2.operator_kit import null_or_late_item
from rxpy2.operator_kit import null_subscription
from rxpy2.processors.flowable_processor import FlowableProcessor
from rxpy2.reactivestreams import Subscriber
from rxpy2.reactivestreams import Subscription

__all__ = ["SerializedProcessor"]

T = TypeVar("T")

_COMPLETE = object()


class _ErrorSignal:
    __slots__ = ("error",)

    def __init__(self, error: BaseException) -> None:
        self.error = error


class _SubscriptionSignal:
    __slots__ = ("subscription",)

    def __init__(self, subscription: Subscription) -> None:
        self.subscription = subscription


class SerializedProcessor(FlowableProcessor[T], Generic[T]):
    """Serializes the Subscriber-side calls into ``actual`` (see the module doc)."""

    __slots__ = ("_actual", "_lock", "_emitting", "_queue", "_done")

    def __init__(self, actual: FlowableProcessor[T]) -> None:
        self._actual = actual
        self._lock = Lock()
        self._emitting = False
        self._queue: deque[Any] | None = None
        self._done = False

    def subscribe_actual(self, subscriber: Subscriber[T]) -> None:
        subscribe_tail(self._actual, subscriber)

    def _enqueue(self, signal: Any) -> None:
        # with self._lock held, while another thread emits
        q = self._queue
        if q is None:
            q = self._queue = deque()
        q.append(signal)

    def on_subscribe(self, s: Subscription) -> None:
        """Pass ``s`` to the wrapped processor, serialized with the other signals (queued while
        another thread emits); after a terminal signal ``s`` is cancelled. ``None`` raises
        ``TypeError`` (§2.13)."""
        if s is None:
            raise null_subscription()  # §2.13
        with self._lock:
            cancel = self._done
            if not cancel:
                if self._emitting:
                    self._enqueue(_SubscriptionSignal(s))
                    return
                self._emitting = True
        if cancel:
            s.cancel()
            return
        self._actual.on_subscribe(s)
        self._emit_loop()

    def on_next(self, item: T) -> None:
        """Forward ``item`` to the wrapped processor, or queue it when another thread is emitting
        (that thread forwards it); so the wrapped processor is called by one thread at a time
        (§1.3).

        ``None`` raises ``TypeError`` (§2.13); after a terminal signal the item is dropped.
        """
        if item is None or self._done:
            null_or_late_item(item)  # §2.13
            return
        with self._lock:
            if self._done:
                return
            if self._emitting:
                self._enqueue(item)
                return
            self._emitting = True
        self._actual.on_next(item)
        self._emit_loop()

    def on_error(self, error: BaseException) -> None:
        """Forward ``error`` to the wrapped processor; if another thread is emitting, the error cuts
        ahead of the items it still has queued, which are dropped.

        ``None`` raises ``TypeError`` (§2.13); an error after a terminal signal goes to
        :func:`rxpy2.plugins.on_error` (§1.7).
        """
        if error is None:
            raise null_error()  # §2.13
        with self._lock:
            late = self._done
            if not late:
                self._done = True
                if self._emitting:
                    # the error cuts ahead of the queued items: the emitter stops at it
                    self._queue = deque((_ErrorSignal(error),))
                    return
                self._emitting = True
        if late:
            plugins.on_error(error)
            return
        self._actual.on_error(error)

    def on_complete(self) -> None:
        """Forward completion to the wrapped processor, after the items queued by a thread that
        is emitting; a second terminal signal is ignored."""
        with self._lock:
            if self._done:
                return
            self._done = True
            if self._emitting:
                self._enqueue(_COMPLETE)
                return
            self._emitting = True
        self._actual.on_complete()

    def _emit_loop(self) -> None:
        actual = self._actual
        while True:
            with self._lock:
                q = self._queue
                if not q:
                    self._emitting = False
                    return
                self._queue = None
            for signal in q:
                if signal is _COMPLETE:
                    actual.on_complete()
                    return
                cls = type(signal)
                if cls is _ErrorSignal:
                    actual.on_error(signal.error)
                    return
                if cls is _SubscriptionSignal:
                    actual.on_subscribe(signal.subscription)
                else:
                    actual.on_next(signal)

    def has_subscribers(self) -> bool:
        return self._actual.has_subscribers()

    def has_throwable(self) -> bool:
        return self._actual.has_throwable()

    def has_complete(self) -> bool:
        return self._actual.has_complete()

    def get_throwable(self) -> BaseException | None:
        return self._actual.get_throwable()

    def __repr__(self) -> str:
        return f"SerializedProcessor({self._actual!r})"
