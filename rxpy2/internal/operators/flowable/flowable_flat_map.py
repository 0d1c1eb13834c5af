"""Flowable.flat_map (and merge, merge_array, merge_with ...): inner Publishers merged as they come.

One :class:`MergeSubscriber` faces both the upstream and the downstream:

* upstream: asked for ``max_concurrency`` items (``LONG_MAX`` when unbounded), then,
  when bounded, for one more per inner Publisher that finished; the finished ones
  counted in a pass of the drain loop are asked for in one request;
* each item is mapped to a Publisher (:func:`check_inner`: ``None`` or a
  non-Publisher is a ``TypeError``). A ``Callable`` result (``just(x)``,
  ``empty()``, ``from_callable``) is not subscribed to: its value goes downstream
  at once when nobody else emits and there is demand, else into a scalar queue
  (bounded by ``max_concurrency``); an empty one only asks the upstream for one
  more item. Any other result gets an :class:`InnerSubscriber`;
* an inner asks for ``buffer_size`` items, then for more once 75% of that were
  consumed. It fuses with a ``QueueSubscription`` source (SYNC: the drain polls
  it, no request at all; ASYNC: the drain polls the source's queue); otherwise its
  items wait in its own bounded queue, made on first need. An item that arrives
  while nothing waits, nobody emits and the downstream has demand goes downstream
  directly.

All emission happens under one ``wip`` counter (the missed pattern): the direct
paths take it with a 0→1 compare-and-set, everything else queues and drains. The
drain emits the scalar queue first, then the inners round-robin from where the
last pass stopped, and removes the inners that are done and empty.

The live inners are a tuple replaced copy-on-write under a small lock; cancelling
(or an immediate error) marks it terminated, and an inner added after that is
cancelled at once. Errors collect in an :class:`AtomicThrowable`: without
``delay_errors`` the first one cancels the upstream and every inner and goes
downstream (any later one to ``plugins.on_error``); with it, they all go
downstream together (a :class:`CompositeException` for several) once the
upstream and every inner ended.
"""

from __future__ import annotations

from collections.abc import Callable as Fn
from threading import Lock
from typing import Any, Generic, TypeVar

from rxpy2 import plugins
from rxpy2.exceptions import MissingBackpressureException
from rxpy2.flowable import Flowable
from rxpy2.internal.atomic import AtomicInteger, AtomicLong
from rxpy2.internal.fuseable import (
    ANY,
    ASYNC,
    BOUNDARY,
    NONE,
    SYNC,
    Callable,
    HasUpstreamPublisher,
    QueueSubscription,
    ScalarCallable,
)
from rxpy2.internal.helpers.backpressure_helper import BackpressureHelper
from rxpy2.internal.helpers.exception_helper import TERMINATED, AtomicThrowable
from rxpy2.internal.helpers.subscription_helper import SubscriptionHelper
from rxpy2.internal.operators.flowable.flowable_scalar_x_map import (
    check_inner,
    try_scalar_x_map_subscribe,
)
from rxpy2.internal.queues import SpscArrayQueue, SpscLinkedArrayQueue
from rxpy2.internal.subscribers.drain_support import DrainSubscriptionMixin
from rxpy2.observers import FlowableSubscriber
from rxpy2.reactivestreams import LONG_MAX, Publisher, Subscriber, Subscription

__all__ = ["FlowableFlatMap", "InnerSubscriber", "MergeSubscriber"]

T = TypeVar("T")
R = TypeVar("R")


class FlowableFlatMap(Flowable[R], HasUpstreamPublisher[T], Generic[T, R]):
    __slots__ = ("source", "mapper", "delay_errors", "max_concurrency", "buffer_size")

    def __init__(self, source: Publisher[T], mapper: Fn[[T], Publisher[R]], delay_errors: bool,
                 max_concurrency: int, buffer_size: int) -> None:
        self.source = source
        self.mapper = mapper
        self.delay_errors = delay_errors
        self.max_concurrency = max_concurrency
        self.buffer_size = buffer_size

    def subscribe_actual(self, subscriber: Subscriber[R]) -> None:
        if try_scalar_x_map_subscribe(self.source, subscriber, self.mapper):
            return
        self.source.subscribe(MergeSubscriber(subscriber, self.mapper, self.delay_errors,
                                              self.max_concurrency, self.buffer_size))


class MergeSubscriber(DrainSubscriptionMixin, FlowableSubscriber[T], Subscription, Generic[T, R]):
    """``request``/``cancel``/``drain``: :class:`DrainSubscriptionMixin`
    (internal/subscribers/drain_support.py), with :meth:`cancel_upstream` and
    :meth:`cleanup` below."""

    __slots__ = ("downstream", "mapper", "delay_errors", "max_concurrency", "buffer_size",
                 "bounded", "upstream", "queue", "done", "cancelled", "stopping", "errors",
                 "inners", "inners_terminated", "inners_lock", "requested", "wip",
                 "unique_id", "last_id", "last_index")

    def __init__(self, downstream: Subscriber[R], mapper: Fn[[T], Publisher[R]],
                 delay_errors: bool, max_concurrency: int, buffer_size: int) -> None:
        self.downstream = downstream
        self.mapper = mapper
        self.delay_errors = delay_errors
        self.max_concurrency = max_concurrency
        self.buffer_size = buffer_size
        self.bounded = max_concurrency != LONG_MAX
        self.upstream: Subscription | None = None
        # the values of Callable inners that could not go downstream at once (made on need)
        self.queue: Any = None
        self.done = False
        self.cancelled = False
        # set on cancel and, without delay_errors, on the first error: the emission loops
        # look at this one flag per item and let check_terminate sort it out
        self.stopping = False
        self.errors = AtomicThrowable()
        self.inners: tuple[InnerSubscriber[T, R], ...] = ()
        self.inners_terminated = False
        self.inners_lock = Lock()
        self.requested = AtomicLong()
        self.wip = AtomicInteger()
        self.unique_id = 0  # the id of the next inner (the upstream's on_next only)
        self.last_id = 0  # where the last drain pass stopped (drain only)
        self.last_index = 0

    # ---------------------------------------------------------------- upstream side
    def on_subscribe(self, s: Subscription) -> None:
        if not SubscriptionHelper.validate(self.upstream, s):
            return
        self.upstream = s
        self.downstream.on_subscribe(self)
        if not self.cancelled:
            s.request(self.max_concurrency)  # LONG_MAX when unbounded

    def on_next(self, item: T) -> None:
        if self.done or self.stopping:
            return
        try:
            p = check_inner(self.mapper(item))
        except Exception as e:
            self.upstream.cancel()  # type: ignore[union-attr]
            self.on_error(e)
            return
        if isinstance(p, Callable):
            if isinstance(p, ScalarCallable):
                v = p.call()  # a constant: never raises
            else:
                try:
                    v = p.call()
                except Exception as e:
                    self.callable_error(e)
                    return
            if v is not None:
                self.try_emit_scalar(v)
            elif self.bounded and not self.stopping:
                self.upstream.request(1)  # type: ignore[union-attr]  # an empty inner finished
            return
        inner: InnerSubscriber[T, R] = InnerSubscriber(self, self.unique_id)
        self.unique_id += 1
        if self.add_inner(inner):
            p.subscribe(inner)

    def on_error(self, error: BaseException) -> None:
        if self.done:
            plugins.on_error(error)
            return
        self.done = True
        if self.delay_errors:
            if self.errors.try_add_throwable(error):
                self.drain()
            else:
                plugins.on_error(error)
        elif self.errors.compare_and_set(None, error):
            self.stopping = True
            self.dispose_all()
            self.drain()
        else:  # another error came first (or the stream was cancelled)
            plugins.on_error(error)

    def on_complete(self) -> None:
        if self.done:
            return
        self.done = True
        self.drain()

    # ---------------------------------------------------------------- errors
    def fail_fast(self, error: BaseException) -> bool:
        """Without delay_errors: take ``error`` as the stream's error, cancel the upstream
        and every inner, and drain (which delivers it). False (and ``error`` reported to
        the plugins) when an error was taken before or the stream was cancelled."""
        if self.errors.compare_and_set(None, error):
            self.stopping = True
            self.upstream.cancel()  # type: ignore[union-attr]
            self.dispose_all()
            self.drain()
            return True
        plugins.on_error(error)
        return False

    def inner_error(self, inner: InnerSubscriber[T, R], error: BaseException) -> None:
        if self.delay_errors:
            if self.errors.try_add_throwable(error):
                inner.done = True
                self.drain()
            else:
                plugins.on_error(error)
        else:
            inner.done = True
            self.fail_fast(error)

    def callable_error(self, error: BaseException) -> None:
        """A Callable inner raised: an inner that ended with an error."""
        if self.delay_errors:
            if self.errors.try_add_throwable(error):
                if self.bounded and not self.stopping:
                    self.upstream.request(1)  # type: ignore[union-attr]  # it finished, too
                self.drain()
            else:
                plugins.on_error(error)
        else:
            self.fail_fast(error)

    # ---------------------------------------------------------------- the inners
    # (acquire/release rather than ``with``: about half the cost per call here)
    def add_inner(self, inner: InnerSubscriber[T, R]) -> bool:
        lock = self.inners_lock
        lock.acquire()
        try:
            if not self.inners_terminated:
                self.inners = self.inners + (inner,)
                return True
        finally:
            lock.release()
        inner.dispose()  # cancelled already: the inner's source gets a cancel at once
        return False

    def remove_inner(self, inner: InnerSubscriber[T, R]) -> None:
        lock = self.inners_lock
        lock.acquire()
        try:
            if self.inners_terminated:
                return
            a = self.inners
            if len(a) == 1:
                if a[0] is inner:
                    self.inners = ()
                return
            for j, x in enumerate(a):
                if x is inner:
                    self.inners = a[:j] + a[j + 1:]
                    return
        finally:
            lock.release()

    def dispose_all(self) -> None:
        """Mark the inners terminated (the tuple stays, for clearing) and cancel each one."""
        lock = self.inners_lock
        lock.acquire()
        try:
            if self.inners_terminated:
                return
            self.inners_terminated = True
            a = self.inners
        finally:
            lock.release()
        for inner in a:
            inner.dispose()

    def scalar_queue(self) -> Any:
        """The scalar queue, made on first need (by the upstream's on_next only)."""
        q = self.queue
        if q is None:
            if self.bounded:
                q = SpscArrayQueue(self.max_concurrency)
            else:
                q = SpscLinkedArrayQueue(self.buffer_size)
            self.queue = q
        return q

    def try_emit_scalar(self, value: R) -> None:
        wip = self.wip
        if wip.get() == 0 and wip.compare_and_set(0, 1):
            r = self.requested.get()
            q = self.queue
            if r != 0 and not self.stopping and (q is None or q.is_empty()):
                self.downstream.on_next(value)
                if r != LONG_MAX:
                    BackpressureHelper.produced(self.requested, 1)
                if self.bounded and not self.stopping:
                    self.upstream.request(1)  # type: ignore[union-attr]  # it finished
            else:
                if q is None:
                    q = self.scalar_queue()
                if not q.offer(value):
                    self.scalar_overflow()
            if wip.decrement_and_get() == 0:
                return
        else:
            if not self.scalar_queue().offer(value):
                self.scalar_overflow()
                return
            if wip.get_and_increment() != 0:
                return
        self.drain_loop()

    def scalar_overflow(self) -> None:
        # more items in flight than the max_concurrency asked for: the upstream broke §1.1
        self.upstream.cancel()  # type: ignore[union-attr]
        self.on_error(MissingBackpressureException(
            "Scalar queue full?! The upstream emitted more than it was asked for"))

    def try_emit(self, value: R, inner: InnerSubscriber[T, R]) -> None:
        wip = self.wip
        if wip.get() == 0 and wip.compare_and_set(0, 1):
            r = self.requested.get()
            q = inner.queue
            if r != 0 and not self.stopping and (q is None or q.is_empty()):
                self.downstream.on_next(value)
                if r != LONG_MAX:
                    BackpressureHelper.produced(self.requested, 1)
                inner.request_more(1)
            else:
                if q is None:
                    q = inner.queue = SpscArrayQueue(self.buffer_size)
                if not q.offer(value):
                    inner.overflow()
            if wip.decrement_and_get() == 0:
                return
        else:
            q = inner.queue
            if q is None:
                q = inner.queue = SpscArrayQueue(self.buffer_size)
            if not q.offer(value):
                inner.overflow()
                return
            if wip.get_and_increment() != 0:
                return
        self.drain_loop()

    # ---------------------------------------------------------------- downstream side
    def cancel_upstream(self) -> None:
        """``cancel``: stop the upstream and every inner (after it, ``wip`` stays above zero:
        no drain runs any more, §3.7, §3.6)."""
        self.stopping = True
        self.upstream.cancel()  # type: ignore[union-attr]
        self.dispose_all()
        self.errors.try_terminate_and_report()  # collected errors nobody will receive

    # ---------------------------------------------------------------- drain
    def cleanup(self) -> None:
        """Drop every queued item (by the holder of the drain: after ``cancel`` too)."""
        q = self.queue
        if q is not None:
            q.clear()
        for inner in self.inners:
            q = inner.queue
            if q is not None:
                q.clear()

    def check_terminate(self) -> bool:
        """By the holder of the drain: True when the stream ended (cancelled, or an error
        that is not delayed: delivered here); the drain then stops for good."""
        if self.cancelled:
            self.cleanup()
            return True
        if not self.delay_errors and self.errors.get() is not None:
            self.cleanup()
            ex = self.errors.terminate()
            if ex is not None and ex is not TERMINATED:
                self.downstream.on_error(ex)
            return True
        return False

    def drain_loop(self) -> None:
        a = self.downstream
        on_next = a.on_next
        wip = self.wip
        requested = self.requested
        bounded = self.bounded
        produced = BackpressureHelper.produced
        missed = 1
        while True:
            if self.stopping and self.check_terminate():
                return
            r = requested.get()
            replenish = 0

            # the values of Callable inners first
            svq = self.queue
            if svq is not None and r != 0:
                poll = svq.poll
                while True:
                    e = 0
                    v = None
                    while e != r:
                        v = poll()
                        if v is None:
                            break
                        on_next(v)
                        e += 1
                        if self.stopping and self.check_terminate():
                            return
                    if e == 0:
                        break
                    replenish += e
                    r = produced(requested, e) if r != LONG_MAX else LONG_MAX
                    if r == 0 or v is None:
                        break

            d = self.done
            svq = self.queue
            inners = self.inners
            n = len(inners)
            if d and n == 0 and (svq is None or svq.is_empty()):
                ex = self.errors.terminate()
                if ex is None:
                    a.on_complete()
                elif ex is not TERMINATED:
                    a.on_error(ex)
                return  # wip stays above zero: the stream is over

            inner_completed = False
            stopped_early = False
            if n != 0:
                # resume with the inner where the last pass stopped, if it is still there
                j = self.last_index
                start_id = self.last_id
                if j >= n or inners[j].id != start_id:
                    if j >= n:
                        j = 0
                    for _ in range(n):  # not found: j comes back to where it started
                        if inners[j].id == start_id:
                            break
                        j += 1
                        if j == n:
                            j = 0
                for _ in range(n):
                    if self.stopping and self.check_terminate():
                        return
                    inner = inners[j]
                    q = inner.queue
                    failed: BaseException | None = None
                    if q is not None and r != 0:
                        poll = q.poll
                        while True:
                            e = 0
                            v = None
                            while e != r:
                                try:
                                    v = poll()
                                except Exception as ex:
                                    failed = ex
                                    v = None
                                    break
                                if v is None:
                                    break
                                on_next(v)
                                e += 1
                                if self.stopping and self.check_terminate():
                                    return
                            if e != 0:
                                r = produced(requested, e) if r != LONG_MAX else LONG_MAX
                                inner.request_more(e)
                            if failed is not None or r == 0 or v is None or e == 0:
                                break
                    if failed is not None:
                        inner.dispose()
                        if self.delay_errors:
                            self.errors.try_add_throwable_or_report(failed)
                        else:
                            self.fail_fast(failed)  # sets stopping (or an error came first)
                        if self.stopping and self.check_terminate():
                            return
                        self.remove_inner(inner)
                        replenish += 1
                        inner_completed = True
                    elif inner.done:
                        q = inner.queue
                        if q is None or q.is_empty():
                            self.remove_inner(inner)
                            if self.stopping and self.check_terminate():
                                return
                            replenish += 1
                            inner_completed = True
                    j += 1
                    if j == n:
                        j = 0
                    if r == 0:
                        stopped_early = True
                        break  # the next pass starts with the next inner: round-robin
                self.last_index = j
                self.last_id = inners[j].id

            if replenish != 0 and bounded and not self.stopping:
                self.upstream.request(replenish)  # type: ignore[union-attr]
            if inner_completed and (stopped_early or self.done):
                # look again: the pass stopped (no demand) before other inners that may have
                # finished too; or that was the last one and the top of the loop completes
                continue
            missed = wip.add_and_get(-missed)
            if missed == 0:
                return


class InnerSubscriber(FlowableSubscriber[R], Generic[T, R]):
    """Subscribes to one inner Publisher and feeds its items to the MergeSubscriber."""

    __slots__ = ("parent", "id", "upstream", "cancelled", "buffer_size", "limit", "queue",
                 "done", "fusion_mode", "produced")

    def __init__(self, parent: MergeSubscriber[T, R], id_: int) -> None:
        self.parent = parent
        self.id = id_
        # set once; ``cancelled`` may come first from another thread (see dispose)
        self.upstream: Subscription | None = None
        self.cancelled = False
        bs = parent.buffer_size
        self.buffer_size = bs
        self.limit = bs - (bs >> 2)  # ask for more once 75% of a batch was consumed
        self.queue: Any = None
        self.done = False
        self.fusion_mode = NONE
        self.produced = 0  # consumed since the last request (drain only)

    def on_subscribe(self, s: Subscription) -> None:
        if self.upstream is not None:  # §2.5
            s.cancel()
            SubscriptionHelper.report_subscription_set()
            return
        self.upstream = s
        if self.cancelled:  # dispose ran before it saw the subscription: cancel it here
            s.cancel()
            return
        if isinstance(s, QueueSubscription):
            # the drain may poll on another thread than the one the source emits on
            m = s.request_fusion(ANY | BOUNDARY)
            if m == SYNC:
                self.fusion_mode = SYNC
                self.queue = s
                self.done = True
                self.parent.drain()
                return
            if m == ASYNC:
                self.fusion_mode = ASYNC
                self.queue = s
        s.request(self.buffer_size)

    def on_next(self, item: R) -> None:
        if self.fusion_mode == ASYNC:  # the item only says "poll me"
            self.parent.drain()
        else:
            self.parent.try_emit(item, self)

    def on_error(self, error: BaseException) -> None:
        self.parent.inner_error(self, error)

    def on_complete(self) -> None:
        self.done = True
        self.parent.drain()

    def request_more(self, n: int) -> None:
        """``n`` items of this inner went downstream (by the holder of the drain)."""
        if self.fusion_mode != SYNC:
            p = self.produced + n
            if p >= self.limit:
                self.produced = 0
                self.upstream.request(p)  # type: ignore[union-attr]
            else:
                self.produced = p

    def overflow(self) -> None:
        """The inner source emitted more than it was asked for (§1.1)."""
        self.dispose()
        self.parent.inner_error(self, MissingBackpressureException(
            "Inner queue full?! The inner Publisher emitted more than it was asked for"))

    def dispose(self) -> None:
        # No lock: on_subscribe writes ``upstream`` then reads ``cancelled``, this writes
        # ``cancelled`` then reads ``upstream``; whichever runs second sees the other's
        # write and cancels, so the source is cancelled at least once (twice is harmless,
        # §3.7).
        if not self.cancelled:
            self.cancelled = True
            s = self.upstream
            if s is not None:
                s.cancel()

    def is_disposed(self) -> bool:
        return self.cancelled
