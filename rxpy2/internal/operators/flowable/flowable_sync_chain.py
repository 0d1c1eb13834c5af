"""Macro fusion: a synchronous source and the synchronous stages after it, as one loop.

``Flowable.range(0, n).map(f).filter(p)`` is assembled as ONE
:class:`FlowableSyncChain` (source ``range``, stages ``map``, ``filter``)
instead of three operators, when the source is ``range``, ``just``,
``from_array`` over a list or tuple, or ``from_iterable``, and the stages are
``map``, ``filter``, ``do_on_next``, ``take``, ``skip``, ``take_while`` and
``skip_while`` (:func:`fuse_sync_stage`, called by those fluent methods). The stages are
compiled into one function (:mod:`rxpy2.internal.helpers.stage_compiler`), so
a subscription runs a single loop over the source's C iterator.

The contract is the one of the operators it replaces, signal for signal:

* demand: the first ``request`` that moves demand off zero drains (§3.3);
  ``LONG_MAX`` runs the loop without counting; any other amount runs it for at
  most that many items and then re-reads ``requested`` — never an item more
  than requested (§1.1). A dropped item costs no request round trip.
* completion comes as eagerly as the operators' would: with the last item for
  ``range``/``just``/``from_array`` (their end is known without reading on) and
  for ``from_iterable`` (read one item ahead, exactly as the plain source does);
  at once when ``take`` reaches its count or ``take_while`` fails.
* a stage that raises, a ``None`` mapper result (``TypeError``) or a ``None``
  item of the source ends the stream with ``on_error``; cancellation stops the
  loop after the current source item (``cancel()`` exhausts a C iterator; a user
  iterator's loop checks the flag per item).
* downstream, SYNC fusion is offered (``poll`` runs the chain as a generator)
  only when every stage is one RxJava 2 fuses too (``map``, ``filter``,
  ``do_on_next``; its ``take``, ``skip``, ``take_while`` and ``skip_while`` are
  plain Subscribers, so a chain with one behaves as a plain source downstream);
  with BOUNDARY it is refused when a stage runs user code, as the single
  operators would refuse it; a ConditionalSubscriber gets ``try_on_next``.
* subscribed by ``subscribe(on_next)`` (a LambdaSubscriber), the loop calls the
  ``on_next`` function itself (:meth:`LambdaSubscriber.direct_sink`).

A chain holds at most :data:`MAX_STAGES` stages; a longer one continues with
plain operators on top.
"""

from __future__ import annotations

from collections.abc import Iterator
from operator import length_hint
from typing import Any, Generic, TypeVar

from rxpy2.flowable import Flowable
from rxpy2.internal.fuseable import (
    BOUNDARY,
    NONE,
    SYNC,
    HasUpstreamPublisher,
    is_conditional,
)
from rxpy2.internal.helpers.stage_compiler import (
    END,
    ERROR,
    EXHAUSTED,
    NOT_READ,
    PAUSED,
    USER_CODE,
    compile_chain,
    compile_fold,
    initial_state,
)
from rxpy2.internal.operators.flowable._sync_source import SyncSourceSubscription
from rxpy2.internal.operators.flowable.flowable_from_array import FlowableFromArray
from rxpy2.internal.operators.flowable.flowable_from_iterable import FlowableFromIterable
from rxpy2.internal.operators.flowable.flowable_just import FlowableJust
from rxpy2.internal.operators.flowable.flowable_range import FlowableRange
from rxpy2.internal.subscribers.lambda_subscriber import LambdaSubscriber
from rxpy2.internal.subscriptions.empty import EmptySubscription
from rxpy2.reactivestreams import LONG_MAX, Publisher, Subscriber

__all__ = ["MAX_STAGES", "FlowableSyncChain", "fuse_sync_stage"]

T = TypeVar("T")

#: The most stages one chain compiles (the generated code nests one block per filter).
MAX_STAGES = 32

_UNSET: Any = object()


class _Failed:
    """(fused) ``is_empty`` read the iterator ahead and it raised: the next ``poll`` raises."""

    __slots__ = ("error",)

    def __init__(self, error: BaseException) -> None:
        self.error = error


def _source_shape(source: Publisher[Any]) -> str | None:
    t = type(source)
    if t is FlowableRange or t is FlowableJust:
        return "plain"
    if t is FlowableFromArray:
        return "checked" if type(source.array) in (list, tuple) else None  # type: ignore[attr-defined]
    if t is FlowableFromIterable:
        return "read_ahead"
    return None


def fuse_sync_stage(upstream: Publisher[Any], kind: str, arg: Any) -> Flowable[Any] | None:
    """``upstream`` followed by the stage, as one chain; ``None`` when they do not fuse."""
    if type(upstream) is FlowableSyncChain:
        if len(upstream.stages) >= MAX_STAGES:
            return None
        return FlowableSyncChain(upstream.source, (*upstream.stages, (kind, arg)), upstream.shape)
    shape = _source_shape(upstream)
    if shape is None:
        return None
    return FlowableSyncChain(upstream, ((kind, arg),), shape)


#: the stages whose RxJava 2 operator is fuseable (FlowableMap, FlowableFilter,
#: FlowableDoOnEach, FlowableDistinctUntilChanged); a chain with any other stage (take,
#: skip, take_while, skip_while, scan) refuses SYNC fusion downstream
_FUSEABLE_IN_RXJAVA = frozenset({"map", "filter", "do_on_next", "distinct", "distinct_key",
                                 "distinct_cmp"})

#: the aggregations run by a fold (``compile_fold``): their subscriber's type -> (fold
#: kind, the attribute holding its function); built at first use (import order)
_folds: dict[type, tuple[str, str | None]] = {}


def _fold_of(subscriber: Any) -> tuple[str, str | None] | None:
    if not _folds:
        from rxpy2.internal.operators.flowable.flowable_collect import CollectSubscriber
        from rxpy2.internal.operators.flowable.flowable_count import CountSubscriber
        from rxpy2.internal.operators.flowable.flowable_last import LastSubscriber
        from rxpy2.internal.operators.flowable.flowable_reduce import (
            ReduceSeedSubscriber,
            ReduceSubscriber,
        )
        _folds.update({ReduceSubscriber: ("reduce", "reducer"),
                       ReduceSeedSubscriber: ("reduce_seed", "reducer"),
                       CollectSubscriber: ("collect", "collector"),
                       CountSubscriber: ("count", None), LastSubscriber: ("last", None)})
    return _folds.get(type(subscriber))


class FlowableSyncChain(Flowable[T], HasUpstreamPublisher[Any], Generic[T]):
    """A synchronous ``source`` and its ``stages`` ((kind, argument) pairs), run as one loop."""

    __slots__ = ("source", "stages", "shape", "_plan", "_fold_fns")

    def __init__(self, source: Publisher[Any], stages: tuple[tuple[str, Any], ...],
                 shape: str | None = None) -> None:
        if shape is None:
            shape = _source_shape(source)
            if shape is None:
                raise TypeError(f"{type(source).__name__} is not a synchronous chain source")
        self.source = source
        self.stages = stages
        self.shape = shape
        self._plan: tuple[Any, ...] | None = None
        self._fold_fns: dict[str, Any] | None = None

    def plan(self) -> tuple[Any, ...]:
        """``(compiled functions, initial state, runs user code, offers SYNC fusion)``,
        built at first use (assembly stays cheap: chains are built per item inside
        flat_map mappers)."""
        p = self._plan
        if p is None:  # two threads may both build it: the same value, either one is kept
            stages = self.stages
            p = self._plan = (compile_chain(stages, self.shape), initial_state(stages),
                              any(k in USER_CODE for k, _ in stages),
                              all(k in _FUSEABLE_IN_RXJAVA for k, _ in stages))
        return p

    def fold(self, terminal: str) -> Any:
        """The compiled ``fold(sub, acc, g)`` of this chain into a ``terminal`` aggregation."""
        folds = self._fold_fns
        if folds is None:
            folds = self._fold_fns = {}
        f = folds.get(terminal)
        if f is None:
            f = folds[terminal] = compile_fold(self.stages, self.shape, terminal)
        return f

    def subscribe_actual(self, subscriber: Subscriber[T]) -> None:
        src: Any = self.source
        pending: Any = None
        t = type(src)
        if t is FlowableRange:
            it: Iterator[Any] = iter(range(src.start, src.end))
        elif t is FlowableJust:
            it = iter((src.value,))
        elif t is FlowableFromArray:
            it = iter(src.array)
        else:  # from_iterable: iter() and the first item now, as the plain source does
            try:
                it = iter(src.iterable)
                pending = next(it, END)
            except Exception as e:
                EmptySubscription.error(e, subscriber)
                return
            if pending is END:
                EmptySubscription.complete(subscriber)
                return
        subscriber.on_subscribe(SyncChainSubscription(subscriber, self, it, pending))


class SyncChainSubscription(SyncSourceSubscription[T], Generic[T]):
    """Runs a compiled chain for one subscriber; SYNC-fuseable."""

    __slots__ = ("chain", "compiled", "user_code", "fuseable", "it", "pending", "state", "error",
                 "gen", "peek")

    def __init__(self, downstream: Subscriber[T], chain: FlowableSyncChain[T], it: Iterator[Any],
                 pending: Any) -> None:
        super().__init__(downstream)
        self.chain = chain
        self.compiled, self.state, self.user_code, self.fuseable = chain.plan()
        self.it = it
        self.pending = pending
        self.error: BaseException | None = None
        self.gen: Iterator[T] | None = None
        self.peek: Any = _UNSET

    def cancel(self) -> None:
        self.cancelled = True
        if self.chain.shape != "read_ahead":
            # the loops over a range/list/tuple iterator do not check the flag per item:
            # moving the iterator to its end (its pickle __setstate__, one C call, so atomic
            # under the GIL) ends them after the current item
            self.it.__setstate__(LONG_MAX)  # type: ignore[attr-defined]

    def none_error(self) -> TypeError:
        """The error for a ``None`` item of the source (raised by the compiled loop)."""
        src: Any = self.chain.source
        if type(src) is FlowableFromArray:
            i = len(src.array) - length_hint(self.it) - 1
            return TypeError(f"The element at index {i} is None")
        return TypeError("The iterator returned a None item")

    def _exhausted(self) -> bool:
        """True when the source has no item left (known without reading it)."""
        return self.chain.shape != "read_ahead" and length_hint(self.it) == 0

    def _finish(self, code: int) -> None:
        if code == ERROR:
            self.downstream.on_error(self.error)
        elif code == EXHAUSTED:
            if not self.cancelled:
                self.downstream.on_complete()
        else:  # STOPPED: take/take_while complete like the operators do
            self.downstream.on_complete()

    def fast_path(self) -> None:
        if self.cancelled:  # §3.6: a request after cancel does nothing
            return
        a = self.downstream
        drain, drain_conditional, sink, _ = self.compiled
        fold = _fold_of(a)
        if fold is not None:
            self._fold(a, *fold)
            return
        if type(a) is LambdaSubscriber:
            # the on_next function called directly: a stage's error and its own end alike
            # in LambdaSubscriber's on_error (after cancelling, which only sets our flag)
            code = sink(self, a.direct_sink())
            if code == ERROR:
                a.sink_failed(self.error)  # type: ignore[arg-type]
            elif code != PAUSED:
                self._finish(code)
            return
        if is_conditional(a):
            _, code = drain_conditional(self, a.try_on_next, LONG_MAX)
        else:
            _, code = drain(self, a.on_next, LONG_MAX)
        if code != PAUSED:
            self._finish(code)

    def _fold(self, a: Any, terminal: str, attr: str | None) -> None:
        """An aggregation's subscriber (reduce, count, collect, to_list, last) requested
        everything: the chain runs into its result in one call (its ``on_next`` inlined);
        a stage's or the aggregation's error, or the end, is then signalled to it."""
        code, acc = self.chain.fold(terminal)(self, a.value, None if attr is None
                                             else getattr(a, attr))
        a.value = acc
        if code != PAUSED:
            self._finish(code)

    def slow_path(self, r: int) -> None:
        if self.cancelled:  # §3.6
            return
        a = self.downstream
        drain, drain_conditional, _, _ = self.compiled
        if is_conditional(a):
            run, emit = drain_conditional, a.try_on_next
        else:
            run, emit = drain, a.on_next
        requested = self.requested
        e = 0
        while True:
            n, code = run(self, emit, r - e)
            e += n
            if code != PAUSED:
                self._finish(code)
                return
            if self.cancelled:
                return
            if self._exhausted():  # completion comes with the last item
                a.on_complete()
                return
            r = requested.get()
            if e == r:
                r = requested.add_and_get(-e)
                if r == 0:
                    return
                e = 0

    # ---- SYNC fusion: the consumer pulls the chain's items
    def request_fusion(self, mode: int) -> int:
        if mode & SYNC and self.fuseable and not (mode & BOUNDARY and self.user_code):
            self.gen = self.compiled[3](self)  # (reads pending: the item read at subscription)
            return SYNC
        return NONE

    def poll(self) -> T | None:
        v = self.peek  # END after clear(), or the iterator's error met by is_empty
        if v is not _UNSET:
            if v is END:
                return None
            self.peek = END
            raise v.error
        v = next(self.gen, None)  # type: ignore[arg-type]
        if v is None:
            self.peek = END  # the chain ended (source, take or take_while): is_empty says so
        return v

    def is_empty(self) -> bool:
        """Whether the SOURCE has ended, found without running a stage (a stage runs only
        for an item the consumer polls); ``False`` may still be followed by ``poll() is
        None`` (the remaining items were filtered out, or a take ended the chain)."""
        if self.peek is not _UNSET:
            return self.peek is END
        if self.chain.shape != "read_ahead":
            return length_hint(self.it) == 0
        if self.pending is NOT_READ:  # read the iterator ahead, as from_iterable does
            try:
                self.pending = next(self.it, END)
            except Exception as e:  # is_empty does not raise: the next poll raises it
                self.peek = _Failed(e)
                return False
        return self.pending is END

    def clear(self) -> None:
        self.peek = END
        self.gen = iter(())
