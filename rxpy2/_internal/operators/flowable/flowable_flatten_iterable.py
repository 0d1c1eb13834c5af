"""Flowable.flat_map_iterable / concat_map_iterable: each item to an iterable, its elements in turn.

The upstream's items are prefetched (or fused) and mapped one at a time by one drain loop
(a :class:`Drain`), which emits the elements of the current iterator. No element is
pulled ahead of the demand; ``operator.length_hint`` lets the stream complete with the
last element of a built-in container. Errors (of ``mapper``, ``iter``, ``next``, a
``None`` element, the upstream) end the stream at once. SYNC fusion is offered
downstream over a SYNC-fused upstream; over ``just(x)`` no subscriber is needed.

How: docs/flattening.md, "Inside flat_map_iterable".
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Iterable
from collections.abc import Iterator
from itertools import islice
from operator import length_hint
from typing import Any
from typing import ClassVar
from typing import Generic
from typing import TypeVar

from rxpy2._internal.atomic import AtomicLong
from rxpy2._internal.fuseable import ANY
from rxpy2._internal.fuseable import BOUNDARY
from rxpy2._internal.fuseable import NONE
from rxpy2._internal.fuseable import SYNC
from rxpy2._internal.fuseable import HasUpstreamPublisher
from rxpy2._internal.fuseable import QueueSubscription
from rxpy2._internal.fuseable import ScalarCallable
from rxpy2._internal.helpers.exception_helper import AtomicThrowable
from rxpy2._internal.helpers.function_names import returned_none
from rxpy2._internal.helpers.fused_stage import FusedFlatten
from rxpy2._internal.helpers.fused_stage import FusedStage
from rxpy2._internal.helpers.fused_stage import Lines
from rxpy2._internal.helpers.stage_compiler import inner_iterable_leaf
from rxpy2._internal.helpers.subscribe_loop import subscribe_tail
from rxpy2._internal.operators.flowable.flowable_from_iterable import FlowableFromIterable
from rxpy2._internal.subscribers.drain_support import DrainSubscriptionMixin
from rxpy2._internal.subscribers.drain_support import fuse_upstream
from rxpy2._internal.subscribers.drain_support import missing_backpressure
from rxpy2._internal.subscriptions.empty import EmptySubscription
from rxpy2.flowable import Flowable
from rxpy2.observers import FlowableSubscriber
from rxpy2.operator_kit import UNSUBSCRIBED
from rxpy2.operator_kit import Drain
from rxpy2.operator_kit import null_item
from rxpy2.operator_kit import null_or_late_error
from rxpy2.operator_kit import validate_upstream
from rxpy2.reactivestreams import LONG_MAX
from rxpy2.reactivestreams import Publisher
from rxpy2.reactivestreams import Subscriber
from rxpy2.reactivestreams import Subscription

__all__ = ["FlowableFlattenIterable", "FlattenIterableSubscriber"]

T = TypeVar("T")
R = TypeVar("R")

#: ``next(it, END)``: the iterator is used up.
END: Any = object()
#: (fused) no element was read ahead by ``is_empty``.
_NOTHING: Any = object()


class Failed:
    """(fused) ``is_empty`` read ahead and the iterator raised: ``poll`` raises it."""

    __slots__ = ("error",)

    def __init__(self, error: BaseException) -> None:
        self.error = error

#: Iterators whose ``length_hint`` is their exact remaining length (no element pulled to know).
_EXACT_LENGTH_SAMPLES: tuple[Iterable[Any], ...] = (
    [], (), range(0), range(2**64), "", b"", bytearray(), {}, {}.values(), {}.items(),
    set(), reversed([]), reversed(()))
_SIZED_ITERATORS: frozenset[type] = frozenset(type(iter(x)) for x in _EXACT_LENGTH_SAMPLES)


def _iterate(mapper: Callable[[Any], Iterable[Any]], item: Any) -> Iterator[Any]:
    iterable = mapper(item)
    if iterable is None:  # §2.13
        raise returned_none(_OPERATOR, mapper)
    return iter(iterable)


#: How the messages name this operator (both fluent methods build it).
_OPERATOR = "flat_map_iterable/concat_map_iterable"


def none_element() -> TypeError:
    return TypeError("The iterator returned a None element")


def _fused_leaf(i: int, source: str, emit: Lines, derive: bool) -> Lines:
    return inner_iterable_leaf(i, emit)


def _iterable_none(mapper: Any) -> TypeError:
    return returned_none(_OPERATOR, mapper)


def _hand_over(rest: Publisher[Any], mapper: Any, arg: tuple[Any, int],
               subscriber: Subscriber[Any], scalars: int | None) -> None:
    FlowableFlattenIterable(rest, mapper, arg[1])._subscribe(subscriber)


class FlowableFlattenIterable(Flowable[R], HasUpstreamPublisher[T], Generic[T, R]):
    __slots__ = ("source", "mapper", "prefetch")

    #: flat_map_iterable/concat_map_iterable as a chain's last stage (argument ``(mapper,
    #: prefetch)``); it polls a SYNC-fuseable upstream and offers SYNC fusion itself
    STAGE: ClassVar[FusedStage] = FusedStage(
        "flat_map_iterable", operator=lambda up, a: FlowableFlattenIterable(up, a[0], a[1]),
        arguments=lambda a: (a[0],),
        names={"iterable_none": _iterable_none, "none_element": none_element},
        flatten=FusedFlatten(leaf=_fused_leaf, hand_over=_hand_over, polls_sync=True))

    def __init__(self, source: Publisher[T], mapper: Callable[[T], Iterable[R]],
                 prefetch: int) -> None:
        self.source = source
        self.mapper = mapper
        self.prefetch = prefetch

    def subscribe_actual(self, subscriber: Subscriber[R]) -> None:
        source = self.source
        if isinstance(source, ScalarCallable):  # just(x) / empty(): no queue, no drain loop
            x = source.call()
            if x is None:
                EmptySubscription.complete(subscriber)
                return
            try:
                iterable = self.mapper(x)
                if iterable is None:  # §2.13
                    raise returned_none(_OPERATOR, self.mapper)
            except Exception as e:
                EmptySubscription.error(e, subscriber)
                return
            FlowableFromIterable(iterable).subscribe_actual(subscriber)
            return
        subscribe_tail(source, FlattenIterableSubscriber(subscriber, self.mapper, self.prefetch))


class FlattenIterableSubscriber(DrainSubscriptionMixin, FlowableSubscriber[T], QueueSubscription[R], Generic[T, R]):
    __slots__ = ("downstream", "mapper", "prefetch", "limit", "upstream", "queue",
                 "source_mode", "requested", "gate", "errors", "failed", "done", "cancelled", "current",
                 "sized", "consumed", "output_fused", "pending")

    def __init__(self, downstream: Subscriber[R], mapper: Callable[[T], Iterable[R]],
                 prefetch: int) -> None:
        self.downstream = downstream
        self.mapper = mapper
        self.prefetch = prefetch
        self.limit = prefetch - (prefetch >> 2)  # replenish after 75% were used
        self.upstream: Subscription = UNSUBSCRIBED
        self.queue: Any = None
        self.source_mode = NONE
        self.requested = AtomicLong()
        self.gate = Drain()
        self.errors = AtomicThrowable()
        self.failed = False  # the upstream signalled an error (set before ``done``)
        self.done = False
        self.cancelled = False
        # drain-loop state: the iterator being emitted, and whether length_hint is exact for it
        self.current: Iterator[R] | None = None
        self.sized = False
        self.consumed = 0  # upstream items used up since the last replenishing request
        self.output_fused = False
        self.pending: Any = _NOTHING

    # ---------------------------------------------------------------- upstream side
    def on_subscribe(self, s: Subscription) -> None:
        if not validate_upstream(self.upstream, s):  # §2.13, §2.5
            return
        self.upstream = s
        self.source_mode, self.queue = fuse_upstream(s, self.prefetch, ANY)  # mode first
        if self.source_mode == SYNC:  # every item is there: no request, ever
            self.done = True
            self.downstream.on_subscribe(self)
            return
        self.downstream.on_subscribe(self)
        s.request(self.prefetch)

    def on_next(self, item: T) -> None:
        if self.done:
            return
        if self.source_mode == NONE:  # ASYNC: the item is a "ready" signal
            if item is None:
                raise null_item()  # §2.13
            if not self.queue.offer(item):
                self.upstream.cancel()
                self.on_error(missing_backpressure("flatten_iterable", self.prefetch))
                return
        self.drain()

    def on_error(self, error: BaseException) -> None:
        if error is None or self.done or not self.errors.try_add_throwable(error):
            null_or_late_error(error)  # §2.13, §1.7
            return
        self.failed = True
        self.done = True
        self.drain()

    def on_complete(self) -> None:
        if not self.done:
            self.done = True
            self.drain()

    # ---------------------------------------------------------------- downstream side
    def cancel(self) -> None:
        if self.cancelled:
            return
        self.cancelled = True
        self.upstream.cancel()
        if not self.output_fused and self.gate.enter():
            self.current = None  # no drain runs: the queue is ours to clear (kept for good)
            self.queue.clear()

    # ---------------------------------------------------------------- the drain loop
    def _consumed_one(self) -> None:
        """An upstream item was used up: replenish after ``limit`` of them (not in SYNC mode)."""
        c = self.consumed + 1
        if c == self.limit:
            self.consumed = 0
            self.upstream.request(c)
        else:
            self.consumed = c

    def _fail(self, error: BaseException) -> None:
        """A user function (or the iterator) raised: cancel upstream, signal every error."""
        self.cancelled = True
        self.upstream.cancel()
        self.errors.try_add_throwable(error)
        self.current = None
        self.queue.clear()
        self.errors.try_terminate_consumer(self.downstream)

    def _check_terminated(self, d: bool, empty: bool) -> bool:
        if self.cancelled:
            self.current = None
            self.queue.clear()
            return True
        if d:
            if self.errors.get() is not None:  # not delayed: the rest is dropped
                self.current = None
                self.queue.clear()
                self.errors.try_terminate_consumer(self.downstream)
                return True
            if empty:
                self.downstream.on_complete()
                return True
        return False

    def drain(self) -> None:
        gate = self.gate
        if not gate.enter():
            return  # the owner makes another pass
        on_next = self.downstream.on_next
        q = self.queue
        poll = q.poll
        mapper = self.mapper
        requested = self.requested
        sized_types = _SIZED_ITERATORS
        replenish = self.source_mode != SYNC
        it = self.current
        sized = self.sized
        while True:
            if it is None:
                d = self.done
                try:
                    t = poll()
                except Exception as ex:
                    self._fail(ex)
                    return
                if (t is None or self.cancelled or self.failed) and self._check_terminated(d, t is None):
                    return
                if t is not None:
                    try:
                        it = _iterate(mapper, t)
                    except Exception as ex:
                        self._fail(ex)
                        return
                    sized = type(it) in sized_types
                    if sized and not length_hint(it):  # empty: next item
                        it = None
                        if replenish:
                            self._consumed_one()
                        continue
                    self.current = it
                    self.sized = sized

            if it is not None:
                r = requested.get()
                e = 0
                if sized:
                    # the remaining length is exact: one loop over as many as are demanded
                    k = length_hint(it)
                    emitting = False  # tells the iterator's exceptions from the downstream's
                    try:
                        for v in islice(it, k if k <= r else r):
                            if self.cancelled or self.failed:
                                self._check_terminated(True, False)
                                return
                            if v is None:
                                self._fail(none_element())
                                return
                            emitting = True
                            on_next(v)
                            emitting = False
                            e += 1
                    except Exception as ex:
                        if emitting:
                            raise
                        self._fail(ex)
                        return
                    if not length_hint(it):  # used up: known without pulling
                        it = self.current = None
                        if replenish:
                            self._consumed_one()
                while e != r and it is not None:
                    if self.cancelled or self.failed:
                        self._check_terminated(True, False)
                        return
                    try:
                        v = next(it, END)  # only with demand: never an element ahead of it
                    except Exception as ex:
                        self._fail(ex)
                        return
                    if v is END:
                        it = self.current = None
                        if replenish:
                            self._consumed_one()
                        break
                    if v is None:
                        self._fail(none_element())
                        return
                    on_next(v)
                    e += 1
                if e == r and self._check_terminated(self.done, it is None and q.is_empty()):
                    return
                if e != 0 and r != LONG_MAX:
                    requested.add_and_get(-e)
                if it is None:
                    continue  # on to the next item's iterable

            if not gate.leave():
                return

    # ---------------------------------------------------------------- fusion (downstream)
    def request_fusion(self, mode: int) -> int:
        # SYNC over a SYNC upstream; mapper is user code: not across a thread boundary
        if (mode & SYNC) and not (mode & BOUNDARY) and self.source_mode == SYNC:
            self.output_fused = True
            return SYNC
        return NONE

    def poll(self) -> R | None:
        while True:
            it = self.current
            if it is None:
                t = self.queue.poll()
                if t is None:
                    return None
                it = self.current = _iterate(self.mapper, t)
            v = self.pending
            if v is _NOTHING:
                v = next(it, END)
            else:
                self.pending = _NOTHING
                if v.__class__ is Failed:
                    self.current = None
                    raise v.error
            if v is END:
                self.current = None
                continue
            if v is None:
                raise none_element()
            return v  # type: ignore[no-any-return]  # an item: the markers were handled above

    def is_empty(self) -> bool:
        it = self.current
        if it is not None:
            v = self.pending
            if v is _NOTHING:
                try:
                    v = next(it, END)  # read ahead: the next poll returns it
                except Exception as e:  # is_empty must not raise: the next poll raises it
                    v = Failed(e)
                self.pending = v
            if v is not END:
                return False
            self.current = None
            self.pending = _NOTHING
        # an upstream item may still map to an empty iterable: poll then returns None
        return self.queue.is_empty()  # type: ignore[no-any-return]  # the queue is Any-typed

    def clear(self) -> None:
        self.current = None
        self.pending = _NOTHING
        self.queue.clear()
