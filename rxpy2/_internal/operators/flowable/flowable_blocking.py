"""Flowable.blocking_iterable / __iter__ / blocking_subscribe: the bridges to blocking code.

``BlockingIterable(source, buffer_size)``: each ``iter()`` subscribes a
:class:`BlockingIteratorSubscriber` (or, over a SYNC-fused source, returns a
:class:`SyncFusedIterator` that polls). At most ``buffer_size`` items are outstanding; the
iterating thread waits on a :class:`~rxpy2._internal.helpers.parker.Parker` (Ctrl-C safe,
no lock per item). The stream's error is raised from ``next()`` after the buffered items;
leaving the iteration early, or anything raised inside ``next()``, cancels the upstream.
``blocking_subscribe`` iterates on the calling thread and runs the callbacks there;
``blocking_subscribe(subscriber)`` queues every signal (``on_subscribe`` too) and hands
them to the subscriber on the calling thread (:class:`BlockingRelaySubscriber`).

How: docs/schedulers.md, "Inside blocking_iterable".
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable
from collections.abc import Iterable
from collections.abc import Iterator
from typing import Any
from typing import Generic
from typing import NoReturn
from typing import TypeVar

from rxpy2._internal.atomic import AtomicReference
from rxpy2._internal.fuseable import ANY
from rxpy2._internal.fuseable import BOUNDARY
from rxpy2._internal.fuseable import NONE
from rxpy2._internal.fuseable import SYNC
from rxpy2._internal.fuseable import QueueSubscription
from rxpy2._internal.helpers.parker import Parker
from rxpy2._internal.helpers.subscription_helper import CANCELLED
from rxpy2._internal.helpers.subscription_helper import SubscriptionHelper
from rxpy2._internal.queues import SpscArrayQueue
from rxpy2._internal.subscribers.drain_support import fuse_upstream
from rxpy2.exceptions import MissingBackpressureException
from rxpy2.flowable import ABSENT
from rxpy2.flowable import BUFFER_SIZE
from rxpy2.flowable import Flowable
from rxpy2.observers import FlowableSubscriber
from rxpy2.operator_kit import UNSUBSCRIBED
from rxpy2.operator_kit import null_error
from rxpy2.operator_kit import null_item
from rxpy2.operator_kit import null_or_late_error
from rxpy2.operator_kit import null_or_late_item
from rxpy2.operator_kit import null_subscription
from rxpy2.reactivestreams import LONG_MAX
from rxpy2.reactivestreams import Subscription

__all__ = [
    "BlockingFlowableIterator",
    "BlockingIterable",
    "BlockingIteratorSubscriber",
    "BlockingValueSubscriber",
    "LatestIterator",
    "MostRecentIterator",
    "NextIterator",
    "SyncFusedIterator",
    "blocking_latest",
    "blocking_most_recent",
    "blocking_next",
    "blocking_subscribe",
    "blocking_subscribe_subscriber",
    "blocking_value",
]

T = TypeVar("T")

#: What the subscriber asks an upstream QueueSubscription for: the iterating thread polls.
FUSION_MODE = ANY | BOUNDARY


class BlockingIterable(Iterable[T], Generic[T]):
    """An iterable over ``source``; each ``iter()`` is a new subscription."""

    __slots__ = ("source", "buffer_size")

    def __init__(self, source: Flowable[T], buffer_size: int) -> None:
        self.source = source
        self.buffer_size = buffer_size

    def __iter__(self) -> BlockingFlowableIterator[T] | SyncFusedIterator[T]:
        sub: BlockingIteratorSubscriber[T] = BlockingIteratorSubscriber(self.buffer_size)
        it = BlockingFlowableIterator(sub)  # dropped unused: cancels (via __del__)
        try:
            self.source.subscribe(sub)
        except BaseException:  # e.g. KeyboardInterrupt in a synchronous emission: cancel now
            it.close()
            raise
        if sub.source_mode == SYNC:
            it._sub = None  # the subscriber's work is done: the fused iterator polls directly
            return SyncFusedIterator(sub.queue)
        return it


class BlockingIteratorSubscriber(FlowableSubscriber[T], Generic[T]):
    """The producer side: fills the buffer, records the terminal event, wakes the consumer.

    ``queue`` is the buffer, or the upstream QueueSubscription when fused
    (``source_mode`` SYNC or ASYNC).
    """

    __slots__ = ("queue", "batch_size", "upstream", "done", "error", "cancelled",
                 "waiting", "parker", "source_mode")

    def __init__(self, batch_size: int) -> None:
        self.queue: Any = SpscArrayQueue(batch_size)
        self.batch_size = batch_size
        self.upstream: AtomicReference[Subscription] = AtomicReference()
        self.done = False
        self.error: BaseException | None = None
        self.cancelled = False
        self.waiting = False
        self.parker = Parker()
        self.source_mode = NONE

    def on_subscribe(self, s: Subscription) -> None:
        if SubscriptionHelper.set_once(self.upstream, s):
            m, q = fuse_upstream(s, self.batch_size, FUSION_MODE)
            if m != NONE:  # else our own queue (made at once: the consumer may look first)
                self.queue = q
                self.source_mode = m
            if m == SYNC:
                self.done = True  # poll() returning None is the end
                if self.waiting:
                    self.parker.unpark()
            else:
                s.request(self.batch_size)

    def on_next(self, item: T) -> None:
        if self.source_mode != NONE:  # ASYNC: the item is a "ready" signal
            if self.waiting:
                self.parker.unpark()
            return
        if item is None:
            raise null_item()  # §2.13
        if self.done:  # after the overflow error: the source keeps going; drop the rest
            return
        if not self.queue.offer(item):
            SubscriptionHelper.cancel(self.upstream)
            self.on_error(MissingBackpressureException.queue_full(
                "blocking_iterable", self.batch_size, "buffer_size"))
            return
        if self.waiting:
            self.parker.unpark()

    def on_error(self, error: BaseException) -> None:
        if error is None or self.done:
            null_or_late_error(error)  # §2.13, §1.7
            return
        self.error = error
        self.done = True
        self.parker.unpark()

    def on_complete(self) -> None:
        self.done = True
        self.parker.unpark()

    def await_ready(self) -> None:
        """Wait (consumer thread) until an item, a terminal event or cancellation is there."""
        # set the flag first, then re-check: a producer that missed the flag has already
        # put its item (or terminal event) where the check sees it; one that saw it gives
        # the permit, which park() takes even if it was given before the call
        self.waiting = True
        try:
            # ``queue`` is read each time: a late on_subscribe may swap in a fused one
            while not self.done and not self.cancelled and self.queue.is_empty():
                self.parker.park()
        finally:
            self.waiting = False

    def request(self, n: int) -> None:
        SubscriptionHelper.request(self.upstream, n)

    def cancel(self) -> None:
        self.cancelled = True
        SubscriptionHelper.cancel(self.upstream)
        self.parker.unpark()

    def is_cancelled(self) -> bool:
        return self.upstream.get() is CANCELLED


class _ClosingIterator(Iterator[T], Generic[T]):
    """An iterator whose ``close()`` cancels its upstream: also on leaving a ``with``
    block and when it is garbage-collected unfinished."""

    __slots__ = ()

    def __iter__(self) -> Iterator[T]:
        return self

    def close(self) -> None:
        raise NotImplementedError

    def __enter__(self) -> Iterator[T]:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:  # pragma: no cover - interpreter shutdown
            pass


class BlockingFlowableIterator(_ClosingIterator[T], Generic[T]):
    """The consumer side. ``close()`` (also ``with``, ``__del__``) cancels the upstream."""

    __slots__ = ("_sub", "_limit", "_produced", "__weakref__")

    def __init__(self, sub: BlockingIteratorSubscriber[T]) -> None:
        self._sub: BlockingIteratorSubscriber[T] | None = sub
        n = sub.batch_size
        self._limit = n - (n >> 2)
        self._produced = 0

    def __next__(self) -> T:
        sub = self._sub
        if sub is None:
            raise StopIteration
        try:
            while True:
                if sub.cancelled:
                    self._sub = None
                    raise StopIteration
                d = sub.done
                q = sub.queue
                try:
                    v: T | None = q.poll()
                except BaseException as ex:  # a fused upstream failed: cancel, then raise
                    self.close()
                    _raise(ex)
                if v is not None:
                    if sub.source_mode != SYNC:
                        p = self._produced + 1
                        if p == self._limit:
                            self._produced = 0
                            sub.request(p)  # may emit synchronously into the buffer: it has room
                        else:
                            self._produced = p
                    return v
                if d:
                    self._sub = None
                    e = sub.error
                    if e is not None:
                        _raise(e)
                    raise StopIteration
                sub.await_ready()
        except BaseException:
            # KeyboardInterrupt while waiting (or raised by a synchronous emission inside
            # request): cancel now, not in __del__, which the traceback would delay;
            # after the end or the stream's error ``_sub`` is None and this does nothing
            self.close()
            raise

    def close(self) -> None:
        """Stop iterating and cancel the upstream (idempotent)."""
        sub = self._sub
        if sub is not None:
            self._sub = None
            sub.cancel()
            sub.queue.clear()


def _raise(error: BaseException) -> NoReturn:
    """Raise the stream's error from ``next()``; a StopIteration would end the iteration
    silently, so it is raised as the cause of a RuntimeError (as PEP 479 does)."""
    if isinstance(error, StopIteration):
        raise RuntimeError("the stream failed with StopIteration") from error
    raise error


def _ended() -> None:
    return None


class SyncFusedIterator(_ClosingIterator[T], Generic[T]):
    """Iterates a SYNC-fused upstream by polling it: ``next()`` is one ``poll()``.

    ``poll()`` returning None is the end; ``poll()`` raising cancels the upstream,
    then the error is raised. ``close()`` (also ``with``, ``__del__``) cancels it.
    """

    __slots__ = ("_qs", "_poll", "__weakref__")

    def __init__(self, qs: QueueSubscription[T]) -> None:
        self._qs: QueueSubscription[T] | None = qs
        self._poll: Callable[[], T | None] = qs.poll

    def __next__(self) -> T:
        try:
            v = self._poll()
        except BaseException as ex:
            self.close()
            _raise(ex)
        if v is None:  # the end (or closed before)
            self._qs = None
            self._poll = _ended
            raise StopIteration
        return v

    def close(self) -> None:
        """Stop iterating and cancel the upstream (idempotent)."""
        qs = self._qs
        if qs is not None:
            self._qs = None
            self._poll = _ended
            qs.cancel()
            qs.clear()


def blocking_subscribe(source: Flowable[T], on_next: Callable[[T], Any] | None,
                       on_error: Callable[[BaseException], Any] | None,
                       on_complete: Callable[[], Any] | None,
                       buffer_size: int = BUFFER_SIZE) -> None:
    """Consume ``source`` on the calling thread, running the callbacks there.

    Blocks until the stream terminates. Without ``on_error`` the stream's error
    (or what ``on_next`` raised, after cancelling the upstream) is raised here.
    A fatal exception (``KeyboardInterrupt`` while waiting, or raised by a callback)
    is never handed to ``on_error``: it cancels the upstream and propagates.
    """
    for f, name in ((on_next, "on_next"), (on_error, "on_error"), (on_complete, "on_complete")):
        if f is not None and not callable(f):
            raise TypeError(f"{name} must be callable, not {type(f).__name__}")
    it: BlockingFlowableIterator[T] | SyncFusedIterator[T] | None = None
    try:
        # made inside ``try``: an interrupt just after reaches the ``finally``; one as the
        # call returns drops the iterator unnamed, and its ``__del__`` cancels
        it = BlockingIterable(source, buffer_size).__iter__()
        while True:
            try:
                v = next(it)
            except StopIteration:
                break
            except Exception as e:  # the stream's error
                if on_error is None:
                    raise
                on_error(e)
                return
            if on_next is not None:
                try:
                    on_next(v)
                except Exception as e:
                    it.close()
                    if on_error is None:
                        raise
                    on_error(e)
                    return
    finally:
        if it is not None:
            it.close()
    if on_complete is not None:
        on_complete()


_TERMINATED = object()  # the relay was cancelled: the calling thread stops


class BlockingRelaySubscriber(FlowableSubscriber[T], Subscription, Generic[T]):
    """As RxJava 2's ``BlockingSubscriber``: every signal from the upstream goes into an
    unbounded queue (``("s", self)`` for ``on_subscribe``, ``("n", item)``, ``("e", error)``,
    ``("c", None)``) that :func:`blocking_subscribe_subscriber` empties on its thread.
    The subscriber's ``request``/``cancel`` go to the upstream; a cancel also wakes the
    calling thread, which then stops."""

    __slots__ = ("upstream", "queue", "parker")

    def __init__(self) -> None:
        self.upstream: AtomicReference[Subscription] = AtomicReference()
        self.queue: deque[Any] = deque()
        self.parker = Parker()

    def _offer(self, signal: Any) -> None:
        self.queue.append(signal)
        self.parker.unpark()

    def on_subscribe(self, s: Subscription) -> None:
        if s is None:
            raise null_subscription()  # §2.13
        if SubscriptionHelper.set_once(self.upstream, s):
            self._offer(("s", self))

    def on_next(self, item: T) -> None:
        if item is None:
            raise null_item()  # §2.13
        self._offer(("n", item))

    def on_error(self, error: BaseException) -> None:
        if error is None:
            raise null_error()  # §2.13
        self._offer(("e", error))

    def on_complete(self) -> None:
        self._offer(("c", None))

    def request(self, n: int) -> None:
        SubscriptionHelper.request(self.upstream, n)

    def cancel(self) -> None:
        if SubscriptionHelper.cancel(self.upstream):
            self._offer(_TERMINATED)

    def is_cancelled(self) -> bool:
        return self.upstream.get() is CANCELLED


def blocking_subscribe_subscriber(source: Flowable[T], subscriber: Any) -> None:
    """Subscribe ``source`` and hand its signals to ``subscriber`` on the calling thread,
    blocking until the terminal signal was delivered or the subscriber cancelled.
    The subscriber gets a Subscription in ``on_subscribe`` and requests what it wants
    (nothing is requested for it). A fatal exception while waiting (Ctrl-C) cancels the
    upstream and propagates."""
    relay: BlockingRelaySubscriber[T] = BlockingRelaySubscriber()
    source.subscribe(relay)
    q = relay.queue
    try:
        while True:
            if relay.is_cancelled():
                return
            if not q:
                relay.parker.park()
                continue
            signal = q.popleft()
            if relay.is_cancelled() or signal is _TERMINATED:
                return
            kind, value = signal
            if kind == "n":
                subscriber.on_next(value)
            elif kind == "s":
                subscriber.on_subscribe(value)
            elif kind == "e":
                subscriber.on_error(value)
                return
            else:
                subscriber.on_complete()
                return
    except BaseException:
        relay.cancel()
        raise


# ---- blocking_first / last / single / for_each ----------------------------------------------

_FIRST, _LAST, _SINGLE = 0, 1, 2


class BlockingValueSubscriber(FlowableSubscriber[T], Generic[T]):
    """Waits (a :class:`Parker`) for the first item, the last item, or the only item.

    Requests unbounded demand; ``first`` cancels the upstream after the first item,
    ``single`` after a second one (and fails with ``ValueError``).
    """

    __slots__ = ("mode", "upstream", "value", "error", "done", "parker")

    def __init__(self, mode: int) -> None:
        self.mode = mode
        self.upstream: AtomicReference[Subscription] = AtomicReference()
        self.value: T | None = None
        self.error: BaseException | None = None
        self.done = False  # set before the permit is given: the waiter's condition
        self.parker = Parker()

    def on_subscribe(self, s: Subscription) -> None:
        SubscriptionHelper.set_once_request(self.upstream, s, LONG_MAX)  # §2.13 None raises

    def on_next(self, item: T) -> None:
        if item is None or self.done:
            null_or_late_item(item)  # §2.13
            return
        mode = self.mode
        if mode == _LAST or self.value is None:
            self.value = item
            if mode == _FIRST:
                self.done = True
                SubscriptionHelper.cancel(self.upstream)  # §3.5: nothing more is needed
                self.parker.unpark()
            return
        self.done = True  # _SINGLE with a second item
        self.value = None
        SubscriptionHelper.cancel(self.upstream)
        self.error = ValueError("Sequence contains more than one element")
        self.parker.unpark()

    def on_error(self, error: BaseException) -> None:
        if error is None or self.done:
            null_or_late_error(error)  # §2.13, §1.7
            return
        self.done = True
        self.value = None
        self.error = error
        self.parker.unpark()

    def on_complete(self) -> None:
        if not self.done:
            self.done = True
            self.parker.unpark()

    def get(self, source: Flowable[T], default: Any) -> T:
        try:
            source.subscribe(self)
            while not self.done:
                self.parker.park()
        except BaseException:  # KeyboardInterrupt while waiting: stop the stream, re-raise
            SubscriptionHelper.cancel(self.upstream)
            raise
        e = self.error
        if e is not None:
            raise e
        v = self.value
        if v is not None:
            return v
        if default is ABSENT:
            raise IndexError("The source is empty")
        return default  # type: ignore[no-any-return]  # default (Any) stands in for an item


def blocking_value(source: Flowable[T], mode: int, default: Any) -> T:
    """``blocking_first`` (mode 0), ``blocking_last`` (1), ``blocking_single`` (2)."""
    return BlockingValueSubscriber[T](mode).get(source, default)


# ---- blocking_latest / blocking_next / blocking_most_recent --------------------------------


class _WaitingIteratorBase(FlowableSubscriber[T], Iterator[T], Generic[T]):
    """Common part of the latest/next iterators: unbounded demand, a lock over the state
    and a :class:`Parker` to wait on (given after the lock is released), ``close()``
    (also ``with``, ``__del__`` of the iterator) cancels the upstream.

    An exception raised while ``next()`` waits (``KeyboardInterrupt``) cancels the
    upstream before it propagates: ``__del__`` would wait for the traceback, which
    holds the iterator's frame, to be dropped.
    """

    def __init__(self) -> None:
        self.upstream: AtomicReference[Subscription] = AtomicReference()
        self.lock = threading.Lock()
        self.parker = Parker()
        self.done = False
        self.error: BaseException | None = None

    def on_subscribe(self, s: Subscription) -> None:
        SubscriptionHelper.set_once_request(self.upstream, s, LONG_MAX)  # §2.13 None raises

    def on_error(self, error: BaseException) -> None:
        if error is None:
            raise null_error()  # §2.13
        with self.lock:
            if self.done:
                late = True
            else:
                late = False
                self.error = error
                self.done = True
        self.parker.unpark()
        if late:
            from rxpy2 import plugins
            plugins.on_error(error)

    def on_complete(self) -> None:
        with self.lock:
            self.done = True
        self.parker.unpark()

    def __iter__(self) -> Iterator[T]:
        return self

    def close(self) -> None:
        """Stop iterating and cancel the upstream (idempotent)."""
        SubscriptionHelper.cancel(self.upstream)
        with self.lock:
            self.done = True
        self.parker.unpark()

    def __enter__(self) -> Iterator[T]:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _finish(self) -> T:
        e = self.error
        if e is not None:
            self.error = None
            raise e
        raise StopIteration


class _IterableOf(Iterable[T], Generic[T]):
    """Each ``iter()`` makes a new subscriber/iterator and subscribes it."""

    __slots__ = ("source", "factory")

    def __init__(self, source: Flowable[T], factory: Callable[[], Any]) -> None:
        self.source = source
        self.factory = factory

    def __iter__(self) -> Iterator[T]:
        it = self.factory()
        try:
            self.source.subscribe(_Detached(it))
        except BaseException:  # e.g. KeyboardInterrupt in a synchronous emission: cancel now
            it.close()
            raise
        return it  # type: ignore[no-any-return]  # the iterator is Any


class _Detached(FlowableSubscriber[T], Generic[T]):
    """Holds the iterator weakly, so dropping the iterator (``break``) cancels the upstream."""

    __slots__ = ("ref", "upstream")

    def __init__(self, it: Any) -> None:
        import weakref
        self.ref = weakref.ref(it)
        self.upstream: Subscription = UNSUBSCRIBED

    def _it(self) -> Any:
        it = self.ref()
        if it is None:
            self.upstream.cancel()  # UNSUBSCRIBED before on_subscribe: a no-op
        return it

    def on_subscribe(self, s: Subscription) -> None:
        if s is None:
            raise null_subscription()  # §2.13
        self.upstream = s
        it = self._it()
        if it is not None:
            it.on_subscribe(s)
        else:
            s.cancel()

    def on_next(self, item: T) -> None:
        if item is None:
            raise null_item()  # §2.13
        it = self._it()
        if it is not None:
            it.on_next(item)

    def on_error(self, error: BaseException) -> None:
        if error is None:
            raise null_error()  # §2.13
        it = self._it()
        if it is not None:
            it.on_error(error)

    def on_complete(self) -> None:
        it = self._it()
        if it is not None:
            it.on_complete()


class LatestIterator(_WaitingIteratorBase[T], Generic[T]):
    """``blocking_latest``: each ``next()`` returns the latest item not yet returned, waiting
    for one if there is none; items overwritten in between are skipped."""

    def __init__(self) -> None:
        super().__init__()
        self.latest: T | None = None

    def on_next(self, item: T) -> None:
        if item is None:
            raise null_item()  # §2.13
        with self.lock:
            self.latest = item
        self.parker.unpark()

    def __next__(self) -> T:
        lock = self.lock
        try:
            while True:
                with lock:
                    v = self.latest
                    if v is not None:
                        self.latest = None
                        return v
                    if self.done:
                        break
                self.parker.park()
        except BaseException:  # KeyboardInterrupt while waiting: see _WaitingIteratorBase
            self.close()
            raise
        return self._finish()

    def __del__(self) -> None:
        try:
            SubscriptionHelper.cancel(self.upstream)
        except Exception:  # pragma: no cover - interpreter shutdown
            pass


class NextIterator(_WaitingIteratorBase[T], Generic[T]):
    """``blocking_next``: each ``next()`` waits for the next item the source emits after
    the call started; items emitted while nobody waits are skipped."""

    def __init__(self) -> None:
        super().__init__()
        self.waiting = False
        self.slot: T | None = None

    def on_next(self, item: T) -> None:
        if item is None:
            raise null_item()  # §2.13
        with self.lock:
            if not self.waiting or self.slot is not None:
                return
            self.slot = item
        self.parker.unpark()

    def __next__(self) -> T:
        lock = self.lock
        try:
            with lock:
                self.waiting = True  # items from now on are this call's
            while True:
                with lock:
                    v = self.slot
                    if v is not None or self.done:
                        self.waiting = False
                        self.slot = None
                        break
                self.parker.park()
        except BaseException:  # KeyboardInterrupt while waiting: see _WaitingIteratorBase
            self.close()
            raise
        if v is not None:
            return v
        return self._finish()

    def __del__(self) -> None:
        try:
            SubscriptionHelper.cancel(self.upstream)
        except Exception:  # pragma: no cover - interpreter shutdown
            pass


class MostRecentIterator(_WaitingIteratorBase[T], Generic[T]):
    """``blocking_most_recent(initial)``: never waits; each ``next()`` returns the most
    recent item (``initial`` before the first) until the stream terminates."""

    def __init__(self, initial: T) -> None:
        super().__init__()
        self.value = initial

    def on_next(self, item: T) -> None:
        if item is None:
            raise null_item()  # §2.13
        self.value = item

    def __next__(self) -> T:
        if self.done:
            return self._finish()
        return self.value

    def __del__(self) -> None:
        try:
            SubscriptionHelper.cancel(self.upstream)
        except Exception:  # pragma: no cover - interpreter shutdown
            pass


def blocking_latest(source: Flowable[T]) -> Iterable[T]:
    return _IterableOf(source, LatestIterator)


def blocking_next(source: Flowable[T]) -> Iterable[T]:
    return _IterableOf(source, NextIterator)


def blocking_most_recent(source: Flowable[T], initial: T) -> Iterable[T]:
    return _IterableOf(source, lambda: MostRecentIterator(initial))
