"""Flowable.zip, zip_iterable and zip_with: the n-th items of several sources, combined.

:class:`FlowableZip`: a :class:`ZipCoordinator` is the downstream's Subscription, with one
:class:`ZipSubscriber` (a :class:`PrefetchingInnerSubscriber`) per source and one drain
loop (a :class:`Drain`) that emits ``zipper(*current)`` under demand. The first source
that runs dry ends the zip (the others are cancelled); ``delay_error`` holds errors until
it cannot go on. :class:`FlowableZipIterable`: ``zip_with`` of an iterable.

How: docs/flattening.md, "Inside zip".
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Iterable
from collections.abc import Iterator
from typing import Any
from typing import Generic
from typing import TypeVar

from rxpy2 import plugins
from rxpy2._internal.atomic import AtomicLong
from rxpy2._internal.fuseable import ANY
from rxpy2._internal.fuseable import BOUNDARY
from rxpy2._internal.fuseable import SYNC
from rxpy2._internal.fuseable import HasUpstreamPublisher
from rxpy2._internal.fuseable import direct_sink
from rxpy2._internal.helpers.exception_helper import AtomicThrowable
from rxpy2._internal.helpers.function_names import returned_none
from rxpy2._internal.helpers.subscribe_loop import subscribe_tail
from rxpy2._internal.operators.flowable.sources import sources_or_terminate
from rxpy2._internal.subscribers.drain_support import DrainSubscriptionMixin
from rxpy2._internal.subscribers.drain_support import missing_backpressure
from rxpy2._internal.subscribers.prefetching_inner import PrefetchingInnerSubscriber
from rxpy2._internal.subscriptions.empty import EmptySubscription
from rxpy2.flowable import Flowable
from rxpy2.operator_kit import Drain
from rxpy2.operator_kit import OperatorSubscriber
from rxpy2.operator_kit import null_or_late_error
from rxpy2.operator_kit import null_or_late_item
from rxpy2.reactivestreams import LONG_MAX
from rxpy2.reactivestreams import Publisher
from rxpy2.reactivestreams import Subscriber
from rxpy2.reactivestreams import Subscription

__all__ = ["FlowableZip", "FlowableZipIterable"]

T = TypeVar("T")
U = TypeVar("U")
R = TypeVar("R")


class FlowableZip(Flowable[R], Generic[R]):
    __slots__ = ("sources", "zipper", "delay_error", "prefetch")

    def __init__(self, sources: Iterable[Publisher[Any]], zipper: Callable[..., R] | None,
                 delay_error: bool, buffer_size: int) -> None:
        self.sources = sources
        self.zipper = zipper
        self.delay_error = delay_error
        self.prefetch = buffer_size

    def subscribe_actual(self, subscriber: Subscriber[R]) -> None:
        sources = sources_or_terminate(self.sources, subscriber)
        if sources is None:
            return
        parent = ZipCoordinator(subscriber, self.zipper, len(sources), self.prefetch,
                                self.delay_error)
        subscriber.on_subscribe(parent)
        subscribe_tail(parent, sources)


class ZipCoordinator(DrainSubscriptionMixin, Subscription, Generic[R]):
    """The downstream's Subscription and the one drain loop over the sources' queues;
    ``request``/``cancel``: :class:`DrainSubscriptionMixin`'s."""

    __slots__ = ("downstream", "zipper", "subscribers", "current", "nones", "requested", "gate",
                 "errors", "delay_error", "cancelled")

    def __init__(self, downstream: Subscriber[R], zipper: Callable[..., R] | None, n: int,
                 prefetch: int, delay_error: bool) -> None:
        self.downstream = downstream
        self.zipper = zipper
        self.subscribers: list[ZipSubscriber[Any]] = [ZipSubscriber(self, prefetch)
                                                     for _ in range(n)]
        self.current: list[Any] = [None] * n  # the head of each source, None = not taken yet
        self.nones: list[Any] = [None] * n  # to empty ``current`` in one step
        self.requested = AtomicLong()
        self.gate = Drain()
        self.errors = AtomicThrowable()
        self.delay_error = delay_error
        self.cancelled = False

    def subscribe(self, sources: tuple[Publisher[Any], ...]) -> None:
        subs = self.subscribers
        errors = self.errors
        delay = self.delay_error
        for i, p in enumerate(sources):
            if self.cancelled or (not delay and errors.get() is not None):
                return  # an earlier source failed (or the downstream cancelled): stop here
            p.subscribe(subs[i])

    def cancel_all(self) -> None:
        for inner in self.subscribers:
            inner.cancel()

    cancel_upstream = cancel_all  # what a cancel does first

    def clear(self) -> None:
        """Drop what is held (by the holder of the drain, which then never leaves it)."""
        self.current[:] = self.nones
        for inner in self.subscribers:
            inner.clear()

    cleanup = clear  # after a cancel, by whoever holds the drain

    def error(self, inner: ZipSubscriber[Any], error: BaseException) -> None:
        if self.errors.try_add_throwable(error):
            inner.done = True
            self.drain()
        else:
            plugins.on_error(error)

    def terminate(self) -> None:
        """End the zip (from the drain): cancel every source, signal the error(s) or completion."""
        self.cancelled = True  # no source is subscribed after this
        self.cancel_all()
        self.clear()
        self.errors.try_terminate_consumer(self.downstream)

    def drain(self) -> None:
        gate = self.gate
        if not gate.enter():
            return  # the owner makes another pass
        a: Subscriber[Any] = self.downstream
        subs = self.subscribers
        values = self.current
        nones = self.nones
        requested = self.requested
        errors = self.errors
        delay = self.delay_error
        zipper = self.zipper
        while True:
            r = requested.get()
            e = 0
            if r != 0 and all(i.fusion_mode == SYNC for i in subs):
                e = self.drain_sync(r)
                if e < 0:
                    return  # terminated or cancelled: the drain stays shut
            while True:
                if self.cancelled:
                    self.clear()
                    return
                if not delay and errors.get() is not None:
                    self.terminate()
                    return
                # take the head of every queue whose slot is empty
                empty = False
                for j, inner in enumerate(subs):
                    if values[j] is None:
                        d = inner.done
                        q = inner.queue
                        v = None
                        if q is not None:
                            try:
                                v = q.poll()
                            except Exception as ex:  # a fused upstream's function raised
                                errors.try_add_throwable(ex)
                                inner.queue = None
                                d = True
                        if v is None:
                            if d:  # this source is over: so is the zip
                                self.terminate()
                                return
                            empty = True
                        else:
                            values[j] = v
                if empty or e == r:
                    break
                try:
                    out = zipper(*values) if zipper is not None else tuple(values)
                except Exception as ex:
                    errors.try_add_throwable(ex)
                    self.terminate()
                    return
                if out is None:
                    errors.try_add_throwable(returned_none("zip", zipper, "zipper function"))
                    self.terminate()
                    return
                values[:] = nones
                a.on_next(out)
                e += 1
            if e != 0:
                for inner in subs:  # replenish what was taken
                    inner.request(e)
                if r != LONG_MAX:
                    requested.add_and_get(-e)
            if not gate.leave():
                return


    def drain_sync(self, r: int) -> int:
        """Every source SYNC-fused and no head held: poll a row from each source and emit
        it, up to ``r`` rows; the number emitted, or -1 when the zip is over (cancelled,
        or the downstream's function raised).

        The same rows, errors and end as :meth:`drain`'s loop, without its per-row
        bookkeeping (no queue is ever empty before its end, nothing to replenish). A
        source at its end or raising leaves the heads taken so far in ``current`` and
        the loop in :meth:`drain` to end the zip, as it would have."""
        subs = self.subscribers
        polls = [inner.queue.poll for inner in subs]
        zipper = self.zipper
        values = self.current
        a: Any = self.downstream  # its items are R, or tuples without a zipper
        emit, failed = direct_sink(a) or (a.on_next, None)
        e = 0
        j = 0
        row: list[Any] = []
        try:
            if any(v is not None for v in values):  # heads taken by an earlier pass first
                row = values[:]
                for j, poll in enumerate(polls):  # noqa: B007  # j: the failing source
                    if row[j] is None:
                        v = poll()
                        if v is None:
                            values[:] = row
                            raise _RowEnded
                        row[j] = v
                j = len(polls)
                out = zipper(*row) if zipper is not None else tuple(row)
                if out is None:
                    raise returned_none("zip", zipper, "zipper function")
                values[:] = self.nones
                row = []
                j += 1
                emit(out)
                e = 1
            if len(polls) == 2:
                p0, p1 = polls
                while e != r:
                    if self.cancelled:
                        break
                    j = 0
                    v0 = p0()
                    if v0 is None:
                        break
                    j = 1
                    v1 = p1()
                    if v1 is None:
                        values[0] = v0
                        break
                    j = 2
                    out = (v0, v1) if zipper is None else zipper(v0, v1)
                    if out is None:
                        raise returned_none("zip", zipper, "zipper function")
                    j = 3
                    emit(out)
                    e += 1
            else:
                while e != r:
                    if self.cancelled:
                        break
                    row = []
                    for j, poll in enumerate(polls):  # noqa: B007  # j: the failing source
                        v = poll()
                        if v is None:
                            values[:len(row)] = row
                            raise _RowEnded
                        row.append(v)
                    j = len(polls)
                    out = zipper(*row) if zipper is not None else tuple(row)
                    if out is None:
                        raise returned_none("zip", zipper, "zipper function")
                    j += 1
                    emit(out)
                    e += 1
        except _RowEnded:
            pass
        except Exception as ex:
            n = len(polls)
            if j < n:  # a fused source's function raised: the loop in drain() ends the zip
                self.errors.try_add_throwable(ex)
                subs[j].queue = None
                if row:  # the prelude's (heads and polled) or the n-ary loop's row so far
                    values[:len(row)] = row
                elif n == 2 and j == 1:
                    values[0] = v0
            elif j == n:  # the zipper raised or returned None
                self.errors.try_add_throwable(ex)
                self.terminate()
                return -1
            elif failed is not None:  # the downstream's function raised: it cancels us
                failed(ex)
                self.cancel()
                self.clear()
                return -1
            else:
                raise  # a raising on_next broke §2.13: let it propagate
        if self.cancelled:
            self.clear()
            return -1
        return e


class _RowEnded(Exception):
    """A source of :meth:`ZipCoordinator.drain_sync`'s row is at its end."""


class ZipSubscriber(PrefetchingInnerSubscriber[T], Generic[T]):
    """One source of the zip: a bounded queue (or the fused source) the coordinator drains.

    Prefetching, fusion, ``on_next``/``on_complete`` (queue, drain the coordinator),
    replenishing (its ``request``, which the drain inlines) and ``cancel``:
    :class:`PrefetchingInnerSubscriber` (internal/subscribers/prefetching_inner.py).
    """

    __slots__ = ()

    #: RxJava 2.2.21's ZipSubscriber asks ``ANY | BOUNDARY``: a stage running user code
    #: (``map``, ``filter``) is not fused into the coordinator's drain
    FUSION_MODE = ANY | BOUNDARY

    parent: ZipCoordinator[Any]

    def overflow(self) -> None:
        self.cancel()
        self.parent.error(self, missing_backpressure("zip", self.prefetch))

    def on_error(self, error: BaseException) -> None:
        if error is None or self.done:
            null_or_late_error(error)  # §2.13, §1.7
            return
        self.parent.error(self, error)


class FlowableZipIterable(Flowable[R], HasUpstreamPublisher[T], Generic[T, U, R]):
    __slots__ = ("source", "other", "zipper")

    def __init__(self, source: Publisher[T], other: Iterable[U],
                 zipper: Callable[[T, U], R] | None) -> None:
        self.source = source
        self.other = other
        self.zipper = zipper

    def subscribe_actual(self, subscriber: Subscriber[R]) -> None:
        try:
            it = iter(self.other)
            try:
                first = next(it)
            except StopIteration:  # nothing to pair with: the source is not even subscribed
                EmptySubscription.complete(subscriber)
                return
        except Exception as e:
            EmptySubscription.error(e, subscriber)
            return
        subscribe_tail(self.source, ZipIterableSubscriber(subscriber, it, first, self.zipper))


class ZipIterableSubscriber(OperatorSubscriber[T, R], Generic[T, U, R]):
    """Pairs each item with ``pending`` (the iterable's next element), then takes the next one."""

    __slots__ = ("iterator", "pending", "zipper")

    def __init__(self, downstream: Subscriber[R], iterator: Iterator[U], first: U,
                 zipper: Callable[[T, U], R] | None) -> None:
        super().__init__(downstream)
        self.iterator = iterator
        self.pending: U | None = first
        self.zipper = zipper

    def on_next(self, item: T) -> None:
        if item is None or self.done:
            null_or_late_item(item)  # §2.13
            return
        u = self.pending
        if u is None:
            self.fail(TypeError("The iterable returned a None item"))
            return
        zipper = self.zipper
        try:
            v = zipper(item, u) if zipper is not None else (item, u)
        except Exception as e:
            self.fail(e)
            return
        if v is None:
            self.fail(returned_none("zip_with", zipper, "zipper function"))
            return
        self.downstream.on_next(v)  # type: ignore[arg-type]  # R is the tuple when there is no zipper
        try:
            self.pending = next(self.iterator)
        except StopIteration:
            self.pending = None
            self.complete_early()
        except Exception as e:
            self.pending = None
            self.fail(e)
