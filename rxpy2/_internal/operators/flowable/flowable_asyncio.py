"""The asyncio bridges: ``Flowable.to_async_iterable(prefetch)`` and
``Flowable.from_async_iterable(aiterable, loop)``.

``to_async_iterable``: each ``__aiter__`` is an async generator over a new
:class:`AsyncIteratorSubscriber` (at most ``prefetch`` items buffered, the producer wakes
the loop with ``call_soon_threadsafe``; fuses SYNC/ASYNC); leaving the ``async for`` in
any way cancels the subscription. ``from_async_iterable``: each unit of demand schedules
one ``__anext__()`` on the loop, at most one pending; cancelling closes the iterator
(``aclose()``).

How: docs/schedulers.md, "Inside the asyncio bridges".
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import threading
from collections.abc import AsyncIterable
from collections.abc import AsyncIterator
from typing import Any
from typing import Generic
from typing import TypeVar

from rxpy2 import plugins
from rxpy2._internal.atomic import AtomicLong
from rxpy2._internal.atomic import AtomicReference
from rxpy2._internal.fuseable import NONE
from rxpy2._internal.fuseable import SYNC
from rxpy2._internal.helpers.subscription_helper import SubscriptionHelper
from rxpy2._internal.queues import SpscArrayQueue
from rxpy2._internal.subscribers.drain_support import fuse_upstream
from rxpy2.exceptions import MissingBackpressureException
from rxpy2.flowable import Flowable
from rxpy2.observers import FlowableSubscriber
from rxpy2.operator_kit import add_request
from rxpy2.operator_kit import produced
from rxpy2.operator_kit import validate_request
from rxpy2.reactivestreams import Subscriber
from rxpy2.reactivestreams import Subscription

__all__ = ["AsyncIteratorSubscriber", "FlowableAsyncIterable", "FlowableFromAsyncIterable"]

T = TypeVar("T")


class FlowableAsyncIterable(AsyncIterable[T], Generic[T]):
    """An async iterable over ``source``; each ``__aiter__`` is a new subscription."""

    __slots__ = ("source", "prefetch")

    def __init__(self, source: Flowable[T], prefetch: int) -> None:
        self.source = source
        self.prefetch = prefetch

    def __aiter__(self) -> AsyncIterator[T]:
        return _iterate(self.source, self.prefetch)


async def _iterate(source: Flowable[T], prefetch: int) -> AsyncIterator[T]:
    sub: AsyncIteratorSubscriber[T] = AsyncIteratorSubscriber(prefetch, asyncio.get_running_loop())
    try:
        source.subscribe(sub)
        if sub.source_mode == SYNC:  # poll the source right here: no buffer, no request
            poll = sub.queue.poll
            while True:
                v = poll()  # raising: the finally clause cancels first
                if v is None:
                    sub.cancelled = True  # the end: nothing left to cancel
                    return
                yield v
        while True:
            v = await sub.next()
            if v is None:
                return
            yield v
    finally:  # break (generator finalized), aclose(), task cancelled, loop shutdown, poll error
        if not sub.cancelled:
            sub.cancel()


class AsyncIteratorSubscriber(FlowableSubscriber[T], Subscription, Generic[T]):
    """The producer side of ``to_async_iterable`` and its consumer's ``next()``.

    ``queue`` is the buffer, or the upstream QueueSubscription when fused
    (``source_mode`` SYNC or ASYNC). ``cancelled`` also marks a consumer that
    has seen the end of the stream.
    """

    __slots__ = ("queue", "prefetch", "limit", "produced", "loop", "upstream", "done",
                 "error", "cancelled", "waiter", "lock", "source_mode")

    def __init__(self, prefetch: int, loop: asyncio.AbstractEventLoop) -> None:
        self.queue: Any = SpscArrayQueue(prefetch)
        self.source_mode = NONE
        self.prefetch = prefetch
        self.limit = prefetch - (prefetch >> 2)
        self.produced = 0
        self.loop = loop
        self.upstream: AtomicReference[Subscription] = AtomicReference()
        self.done = False
        self.error: BaseException | None = None
        self.cancelled = False
        self.waiter: asyncio.Future[None] | None = None
        self.lock = threading.Lock()

    # ---- producer side (any thread)

    def on_subscribe(self, s: Subscription) -> None:
        if s is None:
            raise TypeError("on_subscribe called with None")  # §2.13
        if SubscriptionHelper.set_once(self.upstream, s):
            m, q = fuse_upstream(s, self.prefetch)
            if m != NONE:  # else our own queue (made at once: the consumer may look first)
                self.queue = q
                self.source_mode = m
            if m == SYNC:
                self.done = True  # poll() returning None is the end
                if self.waiter is not None:  # a late on_subscribe (another thread)
                    self._wake()
            else:
                s.request(self.prefetch)

    def on_next(self, item: T) -> None:
        if self.source_mode != NONE:  # ASYNC: the item is a "ready" signal
            if self.waiter is not None:
                self._wake()
            return
        if item is None:
            raise TypeError("on_next called with None")  # §2.13
        if self.done:
            return
        if not self.queue.offer(item):
            SubscriptionHelper.cancel(self.upstream)
            self.on_error(MissingBackpressureException.queue_full(
                "to_async_iterable", self.prefetch, "prefetch"))
            return
        if self.waiter is not None:
            self._wake()

    def on_error(self, error: BaseException) -> None:
        if error is None:
            raise TypeError("on_error called with None")  # §2.13
        if self.done:
            plugins.on_error(error)
            return
        self.error = error
        self.done = True
        self._wake()

    def on_complete(self) -> None:
        self.done = True
        self._wake()

    def _wake(self) -> None:
        with self.lock:
            w = self.waiter
            self.waiter = None
        if w is not None:
            try:
                self.loop.call_soon_threadsafe(_resolve, w)
            except RuntimeError:  # the loop is closed: nobody will consume
                self.cancel()

    # ---- consumer side (the loop's thread)

    async def next(self) -> T | None:
        """The next item; None after completion; raises the stream's error."""
        while True:
            if self.cancelled:
                return None
            d = self.done
            q = self.queue  # read each time: a late on_subscribe may swap in a fused one
            try:
                v: T | None = q.poll()
            except BaseException:  # a fused upstream failed (fatally too): cancel, then raise
                self.cancel()
                raise
            if v is not None:
                if self.source_mode != SYNC:
                    p = self.produced + 1
                    if p == self.limit:
                        self.produced = 0
                        self.request(p)
                    else:
                        self.produced = p
                return v
            if d:
                self.cancelled = True  # the end: nothing left to cancel
                e = self.error
                if e is not None:
                    self.error = None
                    raise e
                return None
            w = self.loop.create_future()
            with self.lock:
                self.waiter = w
            # re-check: a producer that missed the waiter has put its signal where we look
            if self.done or not self.queue.is_empty() or self.cancelled:
                with self.lock:
                    self.waiter = None
                continue
            await w

    def request(self, n: int) -> None:
        SubscriptionHelper.request(self.upstream, n)

    def cancel(self) -> None:
        self.cancelled = True
        SubscriptionHelper.cancel(self.upstream)
        self.queue.clear()


def _resolve(w: asyncio.Future[None]) -> None:
    if not w.done():
        w.set_result(None)


class FlowableFromAsyncIterable(Flowable[T], Generic[T]):
    """Pulls ``aiterable`` on ``loop`` (the running loop at subscription if None)."""

    __slots__ = ("aiterable", "loop")

    def __init__(self, aiterable: AsyncIterable[T], loop: asyncio.AbstractEventLoop | None) -> None:
        self.aiterable = aiterable
        self.loop = loop

    def subscribe_actual(self, subscriber: Subscriber[T]) -> None:
        from rxpy2._internal.subscriptions.empty import EmptySubscription
        loop = self.loop
        try:
            if loop is None:
                loop = asyncio.get_running_loop()
            it = self.aiterable.__aiter__()
        except Exception as e:
            EmptySubscription.error(e, subscriber)
            return
        subscriber.on_subscribe(AsyncPullSubscription(subscriber, it, loop))


class AsyncPullSubscription(Subscription, Generic[T]):
    """One pending ``__anext__`` at a time; the ``requested`` counter serializes the pulls
    (only the request that takes it from 0 starts a pull chain).

    ``cancel`` cancels a pending ``__anext__`` and closes the iterator (``aclose()``, when
    it has one: an async generator's ``finally`` blocks run) on the loop, once no
    ``__anext__`` runs: ``pulling`` is set from the start of a pull until its result is
    in, and a close that finds it set is left to the pull's result callback.
    """

    __slots__ = ("downstream", "it", "loop", "requested", "cancelled", "pending", "done",
                 "pulling", "closed")

    def __init__(self, downstream: Subscriber[T], it: AsyncIterator[T],
                 loop: asyncio.AbstractEventLoop) -> None:
        self.downstream = downstream
        self.it = it
        self.loop = loop
        self.requested = AtomicLong(0)
        self.cancelled = False
        self.done = False
        self.pending: Any = None
        self.pulling = False
        self.closed = False

    def request(self, n: int) -> None:
        if not (n := validate_request(n)):
            return
        if add_request(self.requested, n) == 0:
            self._pull()

    def _pull(self) -> None:
        self.pulling = True
        if self.cancelled:
            self.pulling = False
            self._schedule_close()  # a close that saw this pull starting left it to us
            return
        loop = self.loop
        try:
            on_loop = asyncio.get_running_loop() is loop
        except RuntimeError:
            on_loop = False
        try:
            coro = self.it.__anext__()
            if on_loop:
                p: Any = loop.create_task(coro)  # type: ignore[arg-type]  # a coroutine (typed as the Awaitable __anext__ returns)
            else:
                p = asyncio.run_coroutine_threadsafe(coro, loop)  # type: ignore[arg-type]  # a coroutine (typed as the Awaitable __anext__ returns)
        except Exception as e:  # __anext__ raised at once, or the loop is closed
            self.pulling = False
            self._terminate(e)
            return
        self.pending = p
        if self.cancelled:  # cancel() ran before pending was visible
            self._cancel_pending(p)
        p.add_done_callback(self._on_result)

    def _on_result(self, p: Any) -> None:
        self.pending = None
        self.pulling = False
        if self.cancelled:
            self._close()  # the loop's thread: this pull is over, the iterator idle
            return
        if self.done:
            return
        if p.cancelled():
            self._terminate(concurrent.futures.CancelledError("__anext__ was cancelled"))
            return
        e = p.exception()
        if isinstance(e, StopAsyncIteration):
            self.done = True
            self.closed = True  # the iterator ended: nothing to close
            self.downstream.on_complete()
            return
        if e is not None:
            self.closed = True  # it raised: ended too
            self._terminate(e)
            return
        v = p.result()
        if v is None:
            self._terminate(TypeError("the async iterable produced None"))
            self._close()
            return
        self.downstream.on_next(v)
        if produced(self.requested, 1) != 0:
            self._pull()  # runs later, from the new task's callback: no recursion

    def _terminate(self, e: BaseException) -> None:
        if not self.done and not self.cancelled:
            self.done = True
            self.downstream.on_error(e)

    def _cancel_pending(self, p: Any) -> None:
        if isinstance(p, concurrent.futures.Future):
            p.cancel()  # thread-safe: run_coroutine_threadsafe forwards it to the task
        else:
            try:
                self.loop.call_soon_threadsafe(p.cancel)
            except RuntimeError:  # the loop is closed
                pass

    def cancel(self) -> None:
        if self.cancelled:
            return
        self.cancelled = True
        p = self.pending
        if p is not None:
            self._cancel_pending(p)
        self._schedule_close()

    def _schedule_close(self) -> None:
        try:
            self.loop.call_soon_threadsafe(self._close)
        except RuntimeError:  # the loop is closed: the iterator cannot run any more
            pass

    def _close(self) -> None:
        """On the loop's thread: ``aclose()`` the iterator once, unless a pull runs (its
        result callback comes back here) or it is closed or ended."""
        if self.pulling or self.closed:
            return
        self.closed = True
        aclose = getattr(self.it, "aclose", None)
        if aclose is None:
            return
        try:
            self.loop.create_task(_aclose(aclose))
        except RuntimeError:  # the loop is closing
            pass


async def _aclose(aclose: Any) -> None:
    try:
        await aclose()
    except Exception as e:  # the iterator's clean-up failed: nobody downstream any more
        plugins.on_error(e)

