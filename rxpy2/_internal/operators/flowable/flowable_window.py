"""Flowable.window(count, skip): windows of ``count`` items, a new one every ``skip`` items.

Each window is a :class:`UnicastProcessor` (unbounded: a window nobody consumes
yet keeps its items). Three subscribers, by the relation of ``skip`` to
``count``, turn the demand for windows into the exact number of items:

* exact (``skip == count``): ``request(n)`` asks the upstream for ``n * count``.
* skip (``skip > count``, the items between windows are dropped): the first
  ``request(n)`` asks for ``n * count + (n - 1) * (skip - count)``, every later
  one for ``n * skip``.
* overlapping (``skip < count``): the first ``request(n)`` asks for
  ``count + (n - 1) * skip``, every later one for ``n * skip``; several windows
  are open at once, and those the downstream did not ask for yet wait in a queue.

Cancelling the outer stream stops new windows but keeps the open ones running;
the upstream is cancelled once the outer and every open window are done with
(``refs``, an :class:`~rxpy2._internal.helpers.upstream_ref_count.UpstreamRefCount`,
counts the outer plus each window until it completes or its subscriber cancels).
Errors and completion go to the open windows and to the outer (unless it was
cancelled).
"""

from __future__ import annotations

from collections import deque
from typing import Generic
from typing import TypeVar

from rxpy2._internal.atomic import AtomicBoolean
from rxpy2._internal.atomic import AtomicLong
from rxpy2._internal.fuseable import HasUpstreamPublisher
from rxpy2._internal.helpers.subscribe_loop import subscribe_tail
from rxpy2._internal.helpers.upstream_ref_count import UpstreamRefCount
from rxpy2._internal.queues import SpscLinkedArrayQueue
from rxpy2.flowable import Flowable
from rxpy2.operator_kit import Drain
from rxpy2.operator_kit import OperatorSubscriber
from rxpy2.operator_kit import add_cap
from rxpy2.operator_kit import add_request
from rxpy2.operator_kit import multiply_cap
from rxpy2.operator_kit import null_or_late_error
from rxpy2.operator_kit import null_or_late_item
from rxpy2.operator_kit import validate_request
from rxpy2.processors.unicast_processor import UnicastProcessor
from rxpy2.reactivestreams import LONG_MAX
from rxpy2.reactivestreams import Publisher
from rxpy2.reactivestreams import Subscriber

__all__ = ["FlowableWindow"]

T = TypeVar("T")



class FlowableWindow(Flowable[Flowable[T]], HasUpstreamPublisher[T], Generic[T]):
    # not ``count``/``skip``: those would shadow Flowable.count()/skip() on the instance
    __slots__ = ("source", "window_count", "window_skip", "capacity_hint")

    def __init__(self, source: Publisher[T], count: int, skip: int, buffer_size: int) -> None:
        self.source = source
        self.window_count = count
        self.window_skip = skip
        self.capacity_hint = buffer_size

    def subscribe_actual(self, subscriber: Subscriber[Flowable[T]]) -> None:
        count, skip = self.window_count, self.window_skip
        if count == skip:
            subscribe_tail(self.source, WindowExactSubscriber(subscriber, count, self.capacity_hint))
        elif skip > count:
            subscribe_tail(self.source, WindowSkipSubscriber(subscriber, count, skip, self.capacity_hint))
        else:
            subscribe_tail(self.source, WindowOverlapSubscriber(subscriber, count, skip,
                                                          self.capacity_hint))


class _OneWindowSubscriber(OperatorSubscriber[T, Flowable[T]], Generic[T]):
    """Exact and skip: at most one window is open; it is emitted as it opens (its items
    were requested with it, so the demand for it is there)."""

    __slots__ = ("size", "buffer_size", "refs", "index", "window")

    def __init__(self, downstream: Subscriber[Flowable[T]], size: int, buffer_size: int) -> None:
        super().__init__(downstream)
        self.size = size
        self.buffer_size = buffer_size
        self.refs = UpstreamRefCount()  # the outer + the open window
        self.index = 0
        self.window: UnicastProcessor[T] | None = None

    def _open(self) -> UnicastProcessor[T] | None:
        refs = self.refs
        if refs.outer_cancelled.get() or not refs.acquire():
            return None  # the outer is gone: no new windows
        w: UnicastProcessor[T] = UnicastProcessor(self.buffer_size, self._window_done)
        self.window = w
        self.downstream.on_next(w)
        return w

    def on_error(self, error: BaseException) -> None:
        if error is None or self.done:
            null_or_late_error(error)  # §2.13, §1.7
            return
        self.done = True
        w = self.window
        if w is not None:
            self.window = None
            w.on_error(error)
        if not self.refs.outer_cancelled.get():  # a cancelled outer hears no more
            self.downstream.on_error(error)

    def on_complete(self) -> None:
        if self.done:
            return
        self.done = True
        w = self.window
        if w is not None:
            self.window = None
            w.on_complete()
        if not self.refs.outer_cancelled.get():
            self.downstream.on_complete()

    def cancel(self) -> None:
        if self.refs.cancel_outer():
            self._window_done()

    def _window_done(self) -> None:
        """The outer was cancelled, or a window completed or was cancelled."""
        if self.refs.count.decrement_and_get() == 0:
            self.upstream.cancel()


class WindowExactSubscriber(_OneWindowSubscriber[T], Generic[T]):
    __slots__ = ()

    def on_next(self, item: T) -> None:
        if item is None or self.done:
            null_or_late_item(item)  # §2.13
            return
        i = self.index
        w = self._open() if i == 0 else self.window
        i += 1
        if w is not None:
            w.on_next(item)
        if i == self.size:
            self.index = 0
            self.window = None
            if w is not None:
                w.on_complete()
        else:
            self.index = i

    def request(self, n: int) -> None:
        if n := validate_request(n):  # §3.9
            self.upstream.request(multiply_cap(self.size, n))


class WindowSkipSubscriber(_OneWindowSubscriber[T], Generic[T]):
    __slots__ = ("skip", "first_request")

    def __init__(self, downstream: Subscriber[Flowable[T]], size: int, skip: int,
                 buffer_size: int) -> None:
        super().__init__(downstream, size, buffer_size)
        self.skip = skip
        self.first_request = AtomicBoolean()

    def on_next(self, item: T) -> None:
        if item is None or self.done:
            null_or_late_item(item)  # §2.13
            return
        i = self.index
        w = self._open() if i == 0 else self.window
        i += 1
        if w is not None:
            w.on_next(item)
            if i == self.size:
                self.window = None
                w.on_complete()
        self.index = 0 if i == self.skip else i

    def request(self, n: int) -> None:
        if not (n := validate_request(n)):  # §3.9
            return
        fr = self.first_request
        if not fr.get() and fr.compare_and_set(False, True):
            # n windows and the n - 1 gaps between them
            u = add_cap(multiply_cap(self.size, n), multiply_cap(self.skip - self.size, n - 1))
        else:
            u = multiply_cap(self.skip, n)  # each further window: its gap and its items
        self.upstream.request(u)


class WindowOverlapSubscriber(OperatorSubscriber[T, Flowable[T]], Generic[T]):
    """Several windows open at once (``open``, oldest first); the windows the downstream
    did not request yet wait in ``queue`` and go out from a drain loop."""

    __slots__ = ("size", "skip", "buffer_size", "queue", "open", "refs",
                 "first_request", "requested", "gate", "index", "produced",
                 "error", "cancelled")

    def __init__(self, downstream: Subscriber[Flowable[T]], size: int, skip: int,
                 buffer_size: int) -> None:
        super().__init__(downstream)
        self.size = size
        self.skip = skip
        self.buffer_size = buffer_size
        self.queue: SpscLinkedArrayQueue[UnicastProcessor[T]] = SpscLinkedArrayQueue(buffer_size)
        self.open: deque[UnicastProcessor[T]] = deque()
        self.refs = UpstreamRefCount()  # the outer + each open window
        self.first_request = AtomicBoolean()
        self.requested = AtomicLong()
        self.gate = Drain()
        self.index = 0
        self.produced = 0  # items into the oldest open window
        self.error: BaseException | None = None
        self.cancelled = False

    def on_next(self, item: T) -> None:
        if item is None or self.done:
            null_or_late_item(item)  # §2.13
            return
        i = self.index
        if i == 0 and not self.cancelled and self.refs.acquire():
            w: UnicastProcessor[T] = UnicastProcessor(self.buffer_size, self._window_done)
            self.open.append(w)
            self.queue.offer(w)
            self.drain()
        i += 1
        for w in self.open:
            w.on_next(item)
        p = self.produced + 1
        if p == self.size:
            self.produced = p - self.skip
            if self.open:
                self.open.popleft().on_complete()
        else:
            self.produced = p
        self.index = 0 if i == self.skip else i

    def on_error(self, error: BaseException) -> None:
        if error is None or self.done:
            null_or_late_error(error)  # §2.13, §1.7
            return
        for w in self.open:
            w.on_error(error)
        self.open.clear()
        self.error = error
        self.done = True
        self.drain()

    def on_complete(self) -> None:
        if self.done:
            return
        for w in self.open:
            w.on_complete()
        self.open.clear()
        self.done = True
        self.drain()

    def drain(self) -> None:
        gate = self.gate
        if not gate.enter():
            return
        a = self.downstream
        q = self.queue
        requested = self.requested
        while True:
            r = requested.get()
            e = 0
            while e != r:
                d = self.done
                w = q.poll()
                empty = w is None
                if self._check_terminated(d, empty, a, q):
                    return
                if empty:
                    break
                a.on_next(w)  # type: ignore[arg-type]  # not empty: w is a window
                e += 1
            if e == r and self._check_terminated(self.done, q.is_empty(), a, q):
                return
            if e != 0 and r != LONG_MAX:
                requested.add_and_get(-e)
            if not gate.leave():
                return

    def _check_terminated(self, d: bool, empty: bool, a: Subscriber[Flowable[T]],
                          q: SpscLinkedArrayQueue[UnicastProcessor[T]]) -> bool:
        if self.cancelled:
            q.clear()  # windows never emitted: they still complete, which counts them out
            return True
        if d:
            e = self.error
            if e is not None:
                q.clear()
                a.on_error(e)
                return True
            if empty:
                a.on_complete()
                return True
        return False

    def request(self, n: int) -> None:
        if not (n := validate_request(n)):  # §3.9
            return
        add_request(self.requested, n)
        fr = self.first_request
        if not fr.get() and fr.compare_and_set(False, True):
            u = add_cap(self.size, multiply_cap(self.skip, n - 1))  # one full window, n-1 steps
        else:
            u = multiply_cap(self.skip, n)  # each further window needs skip more items
        self.upstream.request(u)
        self.drain()

    def cancel(self) -> None:
        self.cancelled = True
        if self.refs.cancel_outer():
            self._window_done()

    def _window_done(self) -> None:
        if self.refs.count.decrement_and_get() == 0:
            self.upstream.cancel()
