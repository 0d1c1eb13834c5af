"""SerializedSubscriber: makes signals that may come from several threads arrive one at a time.

A :class:`~rxpy2.operator_kit.Drain` serializes the emissions: the thread that takes
the free drain with nothing queued emits its item directly (``try_enter``), then makes drain passes
while others signalled meanwhile; a thread that finds the drain owned queues its
item (or records its terminal signal) and returns at once. No thread blocks for
the duration of another's ``on_next``, and no lock is held while signalling.

The first terminal signal wins (one compare-and-set); a later error goes to
:func:`rxpy2.plugins.on_error`, later items are dropped. Without ``delay_error``
an error cuts ahead of the queued items; with it (and for completion) the queued
items go first. After the terminal signal the drain is never left (§1.7).
"""

from __future__ import annotations

from collections import deque
from typing import Any
from typing import Generic
from typing import TypeVar

from rxpy2._internal.atomic import AtomicReference
from rxpy2._internal.drain import Drain
from rxpy2._internal.helpers.subscription_helper import UNSUBSCRIBED
from rxpy2._internal.subscribers.operator_subscriber import null_item
from rxpy2._internal.subscribers.operator_subscriber import null_or_late_error
from rxpy2._internal.subscribers.operator_subscriber import validate_upstream
from rxpy2.observers import FlowableSubscriber
from rxpy2.reactivestreams import Subscriber
from rxpy2.reactivestreams import Subscription

__all__ = ["SerializedSubscriber"]

T = TypeVar("T")


class _Complete:
    __slots__ = ()

    def __repr__(self) -> str:
        return "complete"


_COMPLETE = _Complete()


class _Error:
    __slots__ = ("error",)

    def __init__(self, error: BaseException) -> None:
        self.error = error

    def __repr__(self) -> str:
        return f"error({self.error!r})"


class SerializedSubscriber(FlowableSubscriber[T], Subscription, Generic[T]):
    __slots__ = ("downstream", "delay_error", "upstream", "_gate", "_queue", "_terminal",
                 "_terminated")

    def __init__(self, downstream: Subscriber[T], delay_error: bool = False) -> None:
        self.downstream = downstream
        self.delay_error = delay_error
        self.upstream: Subscription = UNSUBSCRIBED
        self._gate = Drain()
        self._queue: deque[Any] = deque()  # items whose thread found the drain owned
        # the first terminal signal (_COMPLETE or an _Error), set once by compare-and-set
        self._terminal: AtomicReference[Any] = AtomicReference()
        self._terminated = False  # the terminal signal went downstream (drain owner only)

    def on_subscribe(self, s: Subscription) -> None:
        if not validate_upstream(self.upstream, s):  # §2.13, §2.5
            return
        self.upstream = s
        self.downstream.on_subscribe(self)

    def on_next(self, item: T) -> None:
        if item is None:
            raise null_item()  # §2.13
        if self._terminal.get() is not None:
            return  # after a terminal signal: dropped
        gate = self._gate
        q = self._queue
        if gate.try_enter():
            if not q:  # nobody emits, nothing waits: emit directly
                self.downstream.on_next(item)
                if not gate.leave():
                    return
            else:  # items queued before this one (maybe by this thread) go first
                q.append(item)
        else:
            q.append(item)
            if not gate.enter():
                return  # counted: the owner makes another pass
        self._drain_loop()

    def on_error(self, error: BaseException) -> None:
        if error is None or not self._terminal.compare_and_set(None, _Error(error)):
            null_or_late_error(error)  # §2.13, §1.7
            return
        self._drain()

    def on_complete(self) -> None:
        if self._terminal.compare_and_set(None, _COMPLETE):
            self._drain()

    def _drain(self) -> None:
        if self._gate.enter():
            self._drain_loop()

    def _drain_loop(self) -> None:
        """The drain owner's passes: queued items, then the terminal signal (an error
        first without ``delay_error``); returns owning the drain after the terminal."""
        gate = self._gate
        q = self._queue
        a = self.downstream
        while True:
            while True:
                t = self._terminal.get()  # read before the queue is found empty
                if t is not None and t is not _COMPLETE and not self.delay_error:
                    q.clear()  # the error cuts ahead of the queued items
                    self._terminated = True
                    a.on_error(t.error)
                    return  # the drain stays owned: nothing after the terminal (§1.7)
                if not q:
                    break
                a.on_next(q.popleft())
            if t is not None:
                self._terminated = True
                if t is _COMPLETE:
                    a.on_complete()
                else:
                    a.on_error(t.error)
                return  # the drain stays owned
            if not gate.leave():
                return

    def request(self, n: int) -> None:
        self.upstream.request(n)

    def cancel(self) -> None:
        self.upstream.cancel()

    def __repr__(self) -> str:
        t = self._terminal.get()
        if t is None:
            state = "unsubscribed" if self.upstream is UNSUBSCRIBED else "active"
        else:
            state = f"done: {t!r}" if self._terminated else f"terminating: {t!r}"
        return f"SerializedSubscriber({state})"
