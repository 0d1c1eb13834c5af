"""SerializedSubscriber: makes signals that may come from several threads arrive one at a time.

An emitter-loop: the thread that finds nobody emitting emits, and then drains the
signals that others queued meanwhile; a thread that finds someone emitting queues
its signal and returns at once. No thread blocks for the duration of another's
``on_next``; the lock guards the flag and the queue only.
"""

from __future__ import annotations

from collections import deque
from threading import Lock
from typing import Any, Generic, TypeVar

from rxpy2 import plugins
from rxpy2.internal.helpers.subscription_helper import SubscriptionHelper
from rxpy2.observers import FlowableSubscriber
from rxpy2.reactivestreams import Subscriber, Subscription

__all__ = ["SerializedSubscriber"]

T = TypeVar("T")

_COMPLETE = object()
_DROPPED, _QUEUED, _ENTER = 0, 1, 2


class _Error:
    __slots__ = ("error",)

    def __init__(self, error: BaseException) -> None:
        self.error = error


class SerializedSubscriber(FlowableSubscriber[T], Subscription, Generic[T]):
    __slots__ = ("downstream", "delay_error", "upstream", "_lock", "_emitting", "_queue", "_done")

    def __init__(self, downstream: Subscriber[T], delay_error: bool = False) -> None:
        self.downstream = downstream
        self.delay_error = delay_error
        self.upstream: Subscription | None = None
        self._lock = Lock()
        self._emitting = False
        self._queue: deque[Any] | None = None
        self._done = False

    def on_subscribe(self, s: Subscription) -> None:
        if s is None:
            raise TypeError("on_subscribe called with None")  # §2.13
        if SubscriptionHelper.validate(self.upstream, s):
            self.upstream = s
            self.downstream.on_subscribe(self)

    def _enqueue_or_enter(self, signal: Any) -> int:
        """_DROPPED after a terminal signal, _QUEUED if another thread emits, else _ENTER."""
        with self._lock:
            if self._done:
                return _DROPPED
            if signal is _COMPLETE or isinstance(signal, _Error):
                self._done = True
            if self._emitting:
                q = self._queue
                if q is None:
                    q = self._queue = deque()
                if isinstance(signal, _Error) and not self.delay_error:
                    q.clear()  # an error cuts ahead of queued items
                q.append(signal)
                return _QUEUED
            self._emitting = True
            return _ENTER

    def on_next(self, item: T) -> None:
        if item is None:
            raise TypeError("on_next called with None")  # §2.13
        if self._enqueue_or_enter(item) == _ENTER:
            self.downstream.on_next(item)
            self._emit_loop()

    def on_error(self, error: BaseException) -> None:
        if error is None:
            raise TypeError("on_error called with None")  # §2.13
        r = self._enqueue_or_enter(_Error(error))
        if r == _ENTER:
            self.downstream.on_error(error)
        elif r == _DROPPED:
            plugins.on_error(error)

    def on_complete(self) -> None:
        if self._enqueue_or_enter(_COMPLETE) == _ENTER:
            self.downstream.on_complete()

    def _emit_loop(self) -> None:
        a = self.downstream
        while True:
            with self._lock:
                q = self._queue
                if not q:
                    self._emitting = False
                    return
                self._queue = None
            for signal in q:
                if signal is _COMPLETE:
                    a.on_complete()
                    return
                if isinstance(signal, _Error):
                    a.on_error(signal.error)
                    return
                a.on_next(signal)

    def request(self, n: int) -> None:
        self.upstream.request(n)  # type: ignore[union-attr]

    def cancel(self) -> None:
        self.upstream.cancel()  # type: ignore[union-attr]
