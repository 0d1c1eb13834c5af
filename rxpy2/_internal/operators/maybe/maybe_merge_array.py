"""Maybe.merge_array / merge_with (RxJava 2's MaybeMergeArray): all sources at once.

Every source is subscribed (in order) to one observer; a success goes into a
multi-producer queue, a completion (or an error) puts a ``_DONE`` marker there,
so the queue sees exactly one entry per source and ``consumed`` (entries taken
out) reaching the number of sources means every source ended. One
:class:`~rxpy2.operator_kit.Drain` loop emits the items under the downstream
demand. The first error disposes the other sources and goes downstream as soon
as the loop sees it, before any item still queued (RxJava 2's order); a later
error goes to :func:`rxpy2.plugins.on_error`.

RxJava 2's MaybeMergeArray also offers ASYNC output fusion; rxpy2's does not
(the items and their order are the same).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any
from typing import Generic
from typing import TypeVar

from rxpy2._internal.subscribers.drain_support import DrainSubscriptionMixin
from rxpy2.disposables import CompositeDisposable
from rxpy2.disposables import Disposable
from rxpy2.flowable import Flowable
from rxpy2.maybe import Maybe
from rxpy2.observers import MaybeObserver
from rxpy2.operator_kit import AtomicLong
from rxpy2.operator_kit import AtomicThrowable
from rxpy2.operator_kit import Drain
from rxpy2.operator_kit import MpscLinkedQueue
from rxpy2.reactivestreams import Subscriber
from rxpy2.reactivestreams import Subscription

__all__ = ["MaybeMergeArray"]

T = TypeVar("T")

_DONE: Any = object()  # a source ended without an item (or with an error)


class MaybeMergeArray(Flowable[T], Generic[T]):
    __slots__ = ("sources",)

    def __init__(self, sources: Sequence[Maybe[T]]) -> None:
        self.sources = sources

    def subscribe_actual(self, subscriber: Subscriber[T]) -> None:
        sources = self.sources
        parent: MergeMaybeObserver[T] = MergeMaybeObserver(subscriber, len(sources))
        subscriber.on_subscribe(parent)
        error = parent.error
        for m in sources:
            if parent.cancelled or error.get() is not None:
                return
            m._subscribe(parent)


class MergeMaybeObserver(DrainSubscriptionMixin, MaybeObserver[T], Subscription, Generic[T]):
    """The observer of every source, and the downstream's Subscription (``request``/``cancel``:
    :class:`DrainSubscriptionMixin`'s)."""

    __slots__ = ("downstream", "source_count", "set", "requested", "queue", "error",
                 "cancelled", "consumed", "emitted", "gate")

    def __init__(self, downstream: Subscriber[T], source_count: int) -> None:
        self.downstream = downstream
        self.source_count = source_count
        self.set = CompositeDisposable()
        self.requested = AtomicLong(0)
        self.queue: MpscLinkedQueue[Any] = MpscLinkedQueue()
        self.error = AtomicThrowable()
        self.cancelled = False
        self.consumed = 0  # queue entries taken out, markers included (the drain owner's)
        self.emitted = 0   # items emitted (the drain owner's)
        self.gate = Drain()

    # ---- Subscription

    def cancel_upstream(self) -> None:
        self.set.dispose()

    def cleanup(self) -> None:
        self.queue.clear()

    # ---- MaybeObserver

    def on_subscribe(self, d: Disposable) -> None:
        self.set.add(d)

    def on_success(self, item: T) -> None:
        self.queue.offer(item)
        self.drain()

    def on_error(self, error: BaseException) -> None:
        if self.error.try_add_throwable_or_report(error):
            self.set.dispose()
            self.queue.offer(_DONE)
            self.drain()

    def on_complete(self) -> None:
        self.queue.offer(_DONE)
        self.drain()

    # ---- the loop

    def _stopped(self) -> bool:
        """Cancelled, or failed (the error goes downstream): True ends the loop for good."""
        if self.cancelled:
            self.queue.clear()
            return True
        error = self.error
        if error.get() is not None:
            self.queue.clear()
            self.downstream.on_error(error.terminate())  # type: ignore[arg-type]  # an error was added, so terminate() returns it
            return True
        return False

    def drain(self) -> None:
        gate = self.gate
        if not gate.enter():
            return
        a = self.downstream
        q = self.queue
        n = self.source_count
        e = self.emitted
        while True:
            r = self.requested.get()
            while e != r:
                if self._stopped():
                    return
                if self.consumed == n:
                    a.on_complete()
                    return
                v = q.poll()
                if v is None:
                    break
                self.consumed += 1
                if v is not _DONE:
                    a.on_next(v)
                    e += 1
            if e == r:
                if self._stopped():
                    return
                while q.peek() is _DONE:  # ended sources need no demand
                    q.poll()
                    self.consumed += 1
                if self.consumed == n:
                    a.on_complete()
                    return
            self.emitted = e
            if not gate.leave():
                return
