"""Flowable.flat_map (and merge, merge_array, merge_with ...): inner Publishers merged as they come.

One :class:`MergeSubscriber` faces both the upstream and the downstream: it asks the
upstream for ``max_concurrency`` items and for more as inners finish (as RxJava 2.2.21's
FlowableFlatMap), maps each item to a Publisher, takes the value of a ``Callable`` inner
without subscribing, and gives any other an :class:`InnerSubscriber` that prefetches
``buffer_size`` (or fuses). All emission is serialized by one
:class:`~rxpy2.operator_kit.Drain`, ``gate``; a terminal signal or a cancel keeps it for
good (§3.6, §3.7). Errors collect in an :class:`AtomicThrowable` (``delay_errors``:
together at the end).

How the requests, the direct paths and the drain work: docs/flattening.md, "Inside flat_map".
"""

from __future__ import annotations

from collections.abc import Callable as Fn
from threading import Lock
from typing import Any
from typing import ClassVar
from typing import Generic
from typing import TypeVar

from rxpy2 import plugins
from rxpy2._internal.atomic import AtomicLong
from rxpy2._internal.fuseable import ANY
from rxpy2._internal.fuseable import ASYNC
from rxpy2._internal.fuseable import BOUNDARY
from rxpy2._internal.fuseable import NONE
from rxpy2._internal.fuseable import SYNC
from rxpy2._internal.fuseable import HasUpstreamPublisher
from rxpy2._internal.fuseable import QueueSubscription
from rxpy2._internal.fuseable import direct_sink
from rxpy2._internal.helpers.exception_helper import TERMINATED
from rxpy2._internal.helpers.exception_helper import AtomicThrowable
from rxpy2._internal.helpers.fused_stage import FusedFlatten
from rxpy2._internal.helpers.fused_stage import FusedStage
from rxpy2._internal.helpers.fused_stage import Lines
from rxpy2._internal.helpers.stage_compiler import inner_publisher_leaf
from rxpy2._internal.helpers.subscribe_loop import subscribe_tail
from rxpy2._internal.operators.flowable.flowable_just import FlowableJust
from rxpy2._internal.operators.flowable.flowable_scalar_x_map import INNER_FLOWABLE
from rxpy2._internal.operators.flowable.flowable_scalar_x_map import INNER_KINDS
from rxpy2._internal.operators.flowable.flowable_scalar_x_map import INNER_SCALAR
from rxpy2._internal.operators.flowable.flowable_scalar_x_map import inner_kind
from rxpy2._internal.operators.flowable.flowable_scalar_x_map import try_scalar_x_map_subscribe
from rxpy2._internal.queues import SpscArrayQueue
from rxpy2._internal.queues import SpscLinkedArrayQueue
from rxpy2.exceptions import MissingBackpressureException
from rxpy2.flowable import Flowable
from rxpy2.observers import FlowableSubscriber
from rxpy2.operator_kit import UNSUBSCRIBED
from rxpy2.operator_kit import Drain
from rxpy2.operator_kit import add_request
from rxpy2.operator_kit import null_error
from rxpy2.operator_kit import null_item
from rxpy2.operator_kit import null_or_late_error
from rxpy2.operator_kit import null_or_late_item
from rxpy2.operator_kit import produced
from rxpy2.operator_kit import validate_request
from rxpy2.operator_kit import validate_upstream
from rxpy2.reactivestreams import LONG_MAX
from rxpy2.reactivestreams import Publisher
from rxpy2.reactivestreams import Subscriber
from rxpy2.reactivestreams import Subscription

__all__ = ["FlowableFlatMap", "InnerSubscriber", "MergeSubscriber"]

T = TypeVar("T")
R = TypeVar("R")

_INNER_FUSION = ANY | BOUNDARY  # an inner's items may be polled on another thread

_kind_of = INNER_KINDS.get  # type -> inner kind, None when not seen yet

# type -> "is a QueueSubscription" of the inners' subscriptions (``isinstance`` against
# the ABC costs several times a dict lookup); a class property, as for INNER_KINDS
_QS_TYPES: dict[type, bool] = {}
_is_qs_type = _QS_TYPES.get


def _reraise(error: Exception) -> None:
    raise error


def _is_queue_subscription(s: Subscription) -> bool:
    q = isinstance(s, QueueSubscription)
    if len(_QS_TYPES) < 1024:
        _QS_TYPES[type(s)] = q
    return q


def _fused_leaf(i: int, source: str, emit: Lines, derive: bool) -> Lines:
    return inner_publisher_leaf(i, source, emit, derive, True, "classify(p)")


def _hand_over(rest: Publisher[Any], mapper: Any, arg: tuple[Any, int, int],
               subscriber: Subscriber[Any], scalars: int | None) -> None:
    """The operator over the rest of a fused chain; ``scalars``: the scalar inners the
    chain met before handing over in the middle, counted as the operator would have, so
    it asks for what it is still owed (None: from the start)."""
    _, max_concurrency, buffer_size = arg
    if scalars is None:
        FlowableFlatMap(rest, mapper, False, max_concurrency, buffer_size)._subscribe(subscriber)
        return
    m: MergeSubscriber[Any, Any] = MergeSubscriber(subscriber, mapper, False, max_concurrency,
                                                   buffer_size)
    if m.bounded:
        m.scalar_finished = scalars % m.scalar_limit
    rest._subscribe(m)  # type: ignore[attr-defined]  # every operator is a Flowable


class FlowableFlatMap(Flowable[R], HasUpstreamPublisher[T], Generic[T, R]):
    __slots__ = ("source", "mapper", "delay_errors", "max_concurrency", "prefetch")

    #: flat_map (not delay_errors) as a chain's last stage (argument ``(mapper,
    #: max_concurrency, buffer_size)``): synchronous inners flattened in the loop
    STAGE: ClassVar[FusedStage] = FusedStage(
        "flat_map", operator=lambda up, a: FlowableFlatMap(up, a[0], False, a[1], a[2]),
        arguments=lambda a: (a[0],),
        flatten=FusedFlatten(leaf=_fused_leaf, hand_over=_hand_over, counts_scalars=True))

    def __init__(self, source: Publisher[T], mapper: Fn[[T], Publisher[R]], delay_errors: bool,
                 max_concurrency: int, buffer_size: int) -> None:
        self.source = source
        self.mapper = mapper
        self.delay_errors = delay_errors
        self.max_concurrency = max_concurrency
        self.prefetch = buffer_size

    def subscribe_actual(self, subscriber: Subscriber[R]) -> None:
        if try_scalar_x_map_subscribe(self.source, subscriber, self.mapper):
            return
        subscribe_tail(self.source, MergeSubscriber(subscriber, self.mapper, self.delay_errors,
                                              self.max_concurrency, self.prefetch))


class MergeSubscriber(FlowableSubscriber[T], Subscription, Generic[T, R]):
    """The upstream's subscriber and the downstream's Subscription (module docstring)."""

    __slots__ = ("downstream", "mapper", "delay_errors", "max_concurrency", "buffer_size",
                 "inner_limit", "bounded", "scalar_limit", "scalar_finished", "upstream",
                 "queue", "done", "cancelled", "stopping", "errors", "inners",
                 "inners_terminated", "inners_lock", "requested", "unbounded", "gate",
                 "emit", "emit_failed", "unique_id", "last_id", "last_index")

    def __init__(self, downstream: Subscriber[R], mapper: Fn[[T], Publisher[R]],
                 delay_errors: bool, max_concurrency: int, buffer_size: int) -> None:
        self.downstream = downstream
        self.mapper = mapper
        self.delay_errors = delay_errors
        self.max_concurrency = max_concurrency
        self.buffer_size = buffer_size
        self.inner_limit = buffer_size >> 2  # an inner asks again after a quarter, as RxJava 2
        self.bounded = max_concurrency != LONG_MAX
        # bounded: Callable inners finished within on_next are asked for in batches of this many
        self.scalar_limit = max(1, max_concurrency >> 1)
        self.scalar_finished = 0  # ... counted here (the upstream's on_next only)
        self.upstream: Subscription = UNSUBSCRIBED
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
        self.unbounded = False  # requested reached LONG_MAX (it then stays there)
        self.gate = Drain()  # serializes every emission (module docstring)
        # what an item goes to: a DirectSink's function itself (module docstring), else the
        # on_next method (a raising on_next broke §2.13: let it propagate)
        sink = direct_sink(downstream) or (downstream.on_next, _reraise)
        self.emit: Fn[[Any], object] = sink[0]
        self.emit_failed: Fn[[Exception], None] = sink[1]
        self.unique_id = 0  # the id of the next inner (the upstream's on_next only)
        self.last_id = 0  # where the last drain pass stopped (drain only)
        self.last_index = 0

    # ---------------------------------------------------------------- upstream side
    def on_subscribe(self, s: Subscription) -> None:
        if not validate_upstream(self.upstream, s):  # §2.13, §2.5
            return
        self.upstream = s
        self.downstream.on_subscribe(self)
        if not self.cancelled:
            # LONG_MAX when unbounded; less the scalar inners a fused chain met before it
            # handed over (flowable_sync_chain)
            s.request(self.max_concurrency - self.scalar_finished)

    def on_next(self, item: T) -> None:
        if item is None or self.done or self.stopping:
            null_or_late_item(item)  # §2.13
            return
        try:
            p: Any = self.mapper(item)
        except Exception as e:
            self.upstream.cancel()
            self.on_error(e)
            return
        if type(p) is FlowableJust:  # the commonest result: no kind lookup, no call()
            v = p.value  # what its call() returns: a constant, never None
        else:
            kind = _kind_of(type(p))
            if kind is None:
                try:
                    kind = inner_kind(p)  # TypeError for None or a non-Publisher
                except Exception as e:
                    self.upstream.cancel()
                    self.on_error(e)
                    return
            if kind < INNER_SCALAR:
                self.subscribe_inner(p, kind)
                return
            if kind == INNER_SCALAR:
                v = p.call()  # a constant: never raises
            else:
                try:
                    v = p.call()
                except Exception as e:
                    self.callable_error(e)
                    return
            if v is None:  # an empty inner: finished
                if self.bounded:
                    self.finished_in_on_next()
                return
        # the scalar fast path (try_emit for a scalar, written out here: it is the hot path)
        gate = self.gate
        if gate.try_enter():
            q = self.queue
            r = LONG_MAX if self.unbounded else self.requested.get()
            if r != 0 and not self.stopping and (q is None or not q.items):
                try:
                    self.emit(v)
                except Exception as ex:
                    self.emit_failed(ex)
                if r != LONG_MAX:
                    produced(self.requested, 1)
                if self.bounded and not self.stopping:  # finished_in_on_next, inlined
                    n = self.scalar_finished + 1
                    if n == self.scalar_limit:
                        self.scalar_finished = 0
                        self.upstream.request(n)
                    else:
                        self.scalar_finished = n
            else:
                if q is None:
                    q = self.scalar_queue()
                if not q.offer(v):
                    self.scalar_overflow()
            if gate.leave():
                self.drain_loop()
            return
        # another thread emits: queue the value, then signal (module docstring)
        if not self.scalar_queue().offer(v):
            self.scalar_overflow()
            return
        self.drain()

    def on_error(self, error: BaseException) -> None:
        if error is None or self.done:
            null_or_late_error(error)  # §2.13, §1.7
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

    def finished_in_on_next(self) -> None:
        """Bounded only, by the upstream's on_next: a Callable inner finished there (a
        scalar, an empty or failed one); every ``scalar_limit`` of them are asked for in
        one request, as RxJava 2's scalarEmitted/scalarLimit."""
        if not self.stopping:
            n = self.scalar_finished + 1
            if n == self.scalar_limit:
                self.scalar_finished = 0
                self.upstream.request(n)
            else:
                self.scalar_finished = n

    # ---------------------------------------------------------------- errors
    def fail_fast(self, error: BaseException) -> bool:
        """Without delay_errors: take ``error`` as the stream's error, cancel the upstream
        and every inner, and drain (which delivers it). False (and ``error`` reported to
        the plugins) when an error was taken before or the stream was cancelled."""
        if self.errors.compare_and_set(None, error):
            self.stopping = True
            self.upstream.cancel()
            self.dispose_all()
            self.drain()
            return True
        plugins.on_error(error)
        return False

    def inner_error(self, inner: InnerSubscriber[T, R], error: BaseException) -> None:
        if self.delay_errors:
            if self.errors.try_add_throwable(error):
                inner.done = True
                if not inner.pending:
                    self.drain()
            else:
                plugins.on_error(error)
        else:
            inner.done = True
            self.fail_fast(error)

    def callable_error(self, error: BaseException) -> None:
        """A Callable inner raised (in on_next): an inner that ended with an error."""
        if self.delay_errors:
            if self.errors.try_add_throwable(error):
                if self.bounded:
                    self.finished_in_on_next()  # it finished, too
                self.drain()
            else:
                plugins.on_error(error)
        else:
            self.fail_fast(error)

    # ---------------------------------------------------------------- the inners
    def subscribe_inner(self, p: Any, kind: int) -> None:
        """By on_next: subscribe an InnerSubscriber to ``p``; it joins ``inners`` only if it
        is still running when ``subscribe`` returns, or (ASYNC-fused) in its ``on_subscribe``.
        Should that come on another thread while this returns, both may add it: adding is
        idempotent."""
        inner: InnerSubscriber[T, R] = InnerSubscriber(self, self.unique_id)
        self.unique_id += 1
        if kind == INNER_FLOWABLE:
            p._subscribe(inner)  # Flowable.subscribe(subscriber) without the overload dispatch
        else:
            p.subscribe(inner)
        if not inner.pending:
            return  # an ASYNC inner joined in its on_subscribe; its own signals drain
        # From here on the inner's own signals drain (it reads ``pending`` after writing
        # ``done``/``queue``; this writes ``pending`` before reading them: one of the two
        # sees the other's write, so nothing it signals is left undrained).
        inner.pending = False
        if inner.fusion_mode == SYNC:
            if self.drain_in_on_next(inner):
                return
        elif inner.done and not self.inners:
            q = inner.queue
            if (q is None or q.is_empty()) and self.replenish_alone():
                return  # completed (or failed, delayed) within subscribe
        if self.add_inner(inner):
            q = inner.queue
            if inner.done or (q is not None and not q.is_empty()):
                self.drain()  # it signalled before it was among the inners

    def enter_alone(self) -> bool:
        """By on_next, no inner being live: take the drain when nobody emits and no scalar
        waits (the caller then leaves it); False otherwise (the drain left again)."""
        gate = self.gate
        if not gate.try_enter():
            return False  # another thread emits
        svq = self.queue
        if svq is not None and not svq.is_empty():
            if gate.leave():
                self.drain_loop()  # signalled meanwhile
            return False
        return True

    def replenish_alone(self) -> bool:
        """By on_next, no inner being live: one that finished within its ``subscribe`` is
        asked for again at once, as RxJava 2's drain pass (the only inner, removed and
        replenished) would; False when :meth:`enter_alone` fails (the caller adds it and
        the drain removes it)."""
        if not self.enter_alone():
            return False
        if not self.stopping:
            self.upstream.request(1)
        if self.gate.leave():
            self.drain_loop()
        return True

    def drain_in_on_next(self, inner: InnerSubscriber[T, R]) -> bool:
        """By on_next: ``inner`` (not among ``inners``) is SYNC-fused; when nobody emits, no
        other inner is live and no scalar waits, poll it here as the drain would. True when
        that was the end of it (finished, failed, or the stream is stopping)."""
        if self.inners or not self.enter_alone():
            return False  # the caller adds the inner and drains
        gate = self.gate
        s = inner.queue
        poll = s.poll
        emit = self.emit
        requested = self.requested
        r = LONG_MAX if self.unbounded else requested.get()
        e = 0
        ended = False
        failed: BaseException | None = None
        while e != r:
            if self.stopping:
                break
            try:
                v = poll()
            except Exception as ex:
                failed = ex
                break
            if v is None:
                ended = True
                break
            try:
                emit(v)
            except Exception as ex:
                self.emit_failed(ex)
            e += 1
        if e != 0 and r != LONG_MAX:
            produced(requested, e)
        if failed is not None:
            inner.dispose()
            if self.delay_errors:
                self.errors.try_add_throwable_or_report(failed)
                ended = True
            else:
                self.fail_fast(failed)  # sets stopping and drains (after we let go)
        elif self.stopping:
            inner.dispose()  # not among the inners: dispose_all did not reach it
        elif not ended:
            if not s.is_empty():
                # no more demand: the caller adds the inner and drains
                if gate.leave():
                    self.drain_loop()
                return False
            ended = True
        if ended and not self.stopping:
            self.upstream.request(1)  # as RxJava 2's drain pass: removed, asked for again
        if gate.leave():
            self.drain_loop()
        return True

    def add_inner(self, inner: InnerSubscriber[T, R]) -> bool:
        with self.inners_lock:
            if not self.inners_terminated:
                a = self.inners
                if inner not in a:  # an ASYNC inner may have joined in its on_subscribe
                    self.inners = a + (inner,)
                return True
        inner.dispose()  # cancelled already: the inner's source gets a cancel at once
        return False

    def remove_inner(self, inner: InnerSubscriber[T, R]) -> None:
        with self.inners_lock:
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

    def dispose_all(self) -> None:
        """Mark the inners terminated (the tuple stays, for clearing) and cancel each one."""
        with self.inners_lock:
            if self.inners_terminated:
                return
            self.inners_terminated = True
            a = self.inners
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

    def scalar_overflow(self) -> None:
        # more items in flight than the max_concurrency asked for: the upstream broke §1.1
        self.upstream.cancel()
        self.on_error(MissingBackpressureException.queue_full(
            "flat_map", self.max_concurrency, "max_concurrency"))

    def try_emit(self, value: R, inner: InnerSubscriber[T, R]) -> None:
        """An item of a non-fused inner: downstream at once when possible, else queued."""
        gate = self.gate
        if gate.try_enter():
            q = inner.queue
            r = LONG_MAX if self.unbounded else self.requested.get()
            if r != 0 and not self.stopping and (q is None or not q.items):
                try:
                    self.emit(value)
                except Exception as ex:
                    self.emit_failed(ex)
                if r != LONG_MAX:
                    produced(self.requested, 1)
                inner.request_more(1)
            else:
                if q is None:
                    q = inner.queue = SpscArrayQueue(self.buffer_size)
                if not q.offer(value):
                    inner.overflow()
            if gate.leave():
                self.drain_loop()
            return
        # another thread emits: queue the value, then signal (module docstring)
        q = inner.queue
        if q is None:
            q = inner.queue = SpscArrayQueue(self.buffer_size)
        if not q.offer(value):
            inner.overflow()
            return
        self.drain()

    # ---------------------------------------------------------------- downstream side
    def request(self, n: int) -> None:
        if n := validate_request(n):  # §3.9
            if add_request(self.requested, n) + n >= LONG_MAX:
                self.unbounded = True
            self.drain()

    def cancel(self) -> None:
        if self.cancelled:
            return
        self.cancelled = True
        self.cancel_upstream()
        if self.gate.enter():
            self.cleanup()  # no drain running: the cleanup is ours (and the drain, for good)
        # else the owner makes another pass and it sees ``cancelled``

    def cancel_upstream(self) -> None:
        """Stop the upstream and every inner."""
        self.stopping = True
        self.upstream.cancel()
        self.dispose_all()
        self.errors.try_terminate_and_report()  # collected errors nobody will receive

    # ---------------------------------------------------------------- drain
    def drain(self) -> None:
        """After a state change: run a drain pass, or make the owner of ``gate`` run one."""
        if self.gate.enter():
            self.drain_loop()

    def cleanup(self) -> None:
        """Drop every queued item (by the owner of the drain: after ``cancel`` too)."""
        q = self.queue
        if q is not None:
            q.clear()
        for inner in self.inners:
            q = inner.queue
            if q is not None:
                q.clear()

    def check_terminate(self) -> bool:
        """By the owner of the drain: True when the stream ended (cancelled, or an error
        that is not delayed: delivered here); the drain then stops for good, never
        leaving ``gate``."""
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
        """The drain passes; the caller owns ``gate`` (module docstring)."""
        a = self.downstream
        emit = self.emit
        emit_failed = self.emit_failed
        requested = self.requested
        leave = self.gate.leave
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
                        try:
                            emit(v)
                        except Exception as ex:
                            emit_failed(ex)
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
                err = self.errors.terminate()
                if err is None:
                    a.on_complete()
                elif err is not TERMINATED:
                    a.on_error(err)
                return  # never leaving the drain: the stream is over

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
                                try:
                                    emit(v)
                                except Exception as ex:
                                    emit_failed(ex)
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
                    if r == 0:
                        # out of demand: the next pass starts with this same inner, as
                        # RxJava 2's drainLoop (it breaks before moving on)
                        stopped_early = True
                        break
                    j += 1
                    if j == n:
                        j = 0
                self.last_index = j
                self.last_id = inners[j].id

            if replenish != 0 and not self.stopping:
                # bounded or not, as RxJava 2 (after LONG_MAX it changes nothing, §3.17)
                self.upstream.request(replenish)
            if inner_completed and (stopped_early or self.done):
                # look again: the pass stopped (no demand) before other inners that may have
                # finished too; or that was the last one and the top of the loop completes
                continue
            if not leave():
                return  # nothing signalled since the pass started


class InnerSubscriber(FlowableSubscriber[R], Generic[T, R]):
    """Subscribes to one inner Publisher and feeds its items to the MergeSubscriber.

    ``pending`` is True while the MergeSubscriber's ``on_next`` is still inside
    ``subscribe(inner)``: the inner is not among the live inners yet, and its
    ``on_subscribe`` (SYNC) and ``on_complete`` only record their state; ``on_next``
    looks at it right after ``subscribe`` returns (see ``subscribe_inner``).
    """

    __slots__ = ("parent", "id", "upstream", "cancelled", "queue", "done", "fusion_mode",
                 "produced", "pending")

    def __init__(self, parent: MergeSubscriber[T, R], id_: int) -> None:
        self.parent = parent
        self.id = id_
        # set once; ``cancelled`` may come first from another thread (see dispose)
        self.upstream: Subscription = UNSUBSCRIBED
        self.cancelled = False
        self.queue: Any = None
        self.done = False
        self.fusion_mode = NONE
        self.produced = 0  # consumed since the last request (drain only)
        self.pending = True

    def on_subscribe(self, s: Subscription) -> None:
        if not validate_upstream(self.upstream, s):  # §2.13, §2.5
            return
        self.upstream = s
        if self.cancelled:  # dispose ran before it saw the subscription: cancel it here
            s.cancel()
            return
        qs = _is_qs_type(type(s))
        if qs is None:
            qs = _is_queue_subscription(s)
        if qs:
            m = s.request_fusion(_INNER_FUSION)  # type: ignore[attr-defined]  # checked to be a QueueSubscription
            if m == SYNC:
                self.fusion_mode = SYNC
                self.queue = s
                self.done = True
                if not self.pending:
                    self.parent.drain()
                return
            if m == ASYNC:
                self.fusion_mode = ASYNC
                self.queue = s
                # joins the inners now, as RxJava 2's inner does before it subscribes: an
                # ASYNC source may fill its queue inside this subscribe, and only a drain
                # that knows the inner polls it (else a bounded one overflows)
                if self.pending:
                    if not self.parent.add_inner(self):
                        return  # cancelled meanwhile: add_inner disposed it
                    self.pending = False
        s.request(self.parent.buffer_size)

    def on_next(self, item: R) -> None:
        if self.fusion_mode == ASYNC:  # the item only says "poll me"
            self.parent.drain()
        else:
            if item is None:
                raise null_item()  # §2.13
            parent = self.parent
            parent.try_emit(item, self)
            if self.pending and parent.stopping:
                # cancelled while the inner's subscribe has not returned (it is not among
                # the inners yet, so cancelling them did not reach it): stop it now (§3.12),
                # as RxJava 2, whose inner joins before it is subscribed
                self.dispose()

    def on_error(self, error: BaseException) -> None:
        if error is None:
            raise null_error()  # §2.13
        self.parent.inner_error(self, error)

    def on_complete(self) -> None:
        self.done = True
        if not self.pending:
            self.parent.drain()

    def request_more(self, n: int) -> None:
        """``n`` items of this inner went downstream (by the owner of the drain)."""
        if self.fusion_mode != SYNC:
            p = self.produced + n
            if p >= self.parent.inner_limit:
                self.produced = 0
                self.upstream.request(p)
            else:
                self.produced = p

    def overflow(self) -> None:
        """The inner source emitted more than it was asked for (§1.1)."""
        self.dispose()
        self.parent.inner_error(self, MissingBackpressureException.queue_full(
            "flat_map", self.parent.buffer_size, inner=True))

    def dispose(self) -> None:
        # No lock: on_subscribe writes ``upstream`` then reads ``cancelled``, this writes
        # ``cancelled`` then reads ``upstream``; whichever runs second sees the other's
        # write and cancels, so the source is cancelled at least once (twice is harmless,
        # §3.7).
        if not self.cancelled:
            self.cancelled = True
            self.upstream.cancel()  # UNSUBSCRIBED ignores it

    def is_disposed(self) -> bool:
        return self.cancelled
