"""Macro fusion: a synchronous source and the synchronous stages after it, as one loop.

``Flowable.range(0, n).map(f).filter(p)`` is assembled as one :class:`FlowableSyncChain`:
the source and the stages their operators declare (each operator's ``STAGE``, a
:class:`~rxpy2._internal.helpers.fused_stage.FusedStage`), compiled into one function
(:mod:`rxpy2._internal.helpers.stage_compiler`) that loops over the source's C iterator. The
chain is the operators it replaces, signal for signal: exact demand (§1.1, §3.3),
completion as eager as theirs, a raising stage or a ``None`` as ``on_error``, SYNC fusion
offered downstream only where RxJava 2 fuses every stage; an aggregation's subscriber gets
a compiled fold (its declared ``FusedFold``), a ``DirectSink`` its function called per
item. A chain that flattens or holds a seeded scan runs fused only under unbounded demand
(:class:`DeferredChainSubscription`, :class:`FlattenChainSubscription`). The whole
contract and the tests that hold it: ``docs/fusion.md``.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache
from itertools import chain as iter_chain
from operator import length_hint
from typing import Any
from typing import Generic
from typing import TypeVar

from rxpy2._internal.fuseable import BOUNDARY
from rxpy2._internal.fuseable import NONE
from rxpy2._internal.fuseable import SYNC
from rxpy2._internal.fuseable import HasUpstreamPublisher
from rxpy2._internal.fuseable import QueueSubscription
from rxpy2._internal.fuseable import direct_sink
from rxpy2._internal.fuseable import is_conditional
from rxpy2._internal.helpers.fused_stage import FusedFlatten
from rxpy2._internal.helpers.fused_stage import FusedFold
from rxpy2._internal.helpers.fused_stage import FusedStage
from rxpy2._internal.helpers.fused_stage import fold_of
from rxpy2._internal.helpers.stage_compiler import CACHE_SIZE
from rxpy2._internal.helpers.stage_compiler import END
from rxpy2._internal.helpers.stage_compiler import ERROR
from rxpy2._internal.helpers.stage_compiler import EXHAUSTED
from rxpy2._internal.helpers.stage_compiler import HANDOVER
from rxpy2._internal.helpers.stage_compiler import NOT_READ
from rxpy2._internal.helpers.stage_compiler import PAUSED
from rxpy2._internal.helpers.stage_compiler import arguments
from rxpy2._internal.helpers.stage_compiler import compile_chain
from rxpy2._internal.helpers.stage_compiler import compile_fold
from rxpy2._internal.helpers.stage_compiler import compile_registered
from rxpy2._internal.helpers.stage_compiler import flatten_text
from rxpy2._internal.helpers.stage_compiler import initial_state
from rxpy2._internal.helpers.stage_compiler import may_join
from rxpy2._internal.helpers.stage_compiler import namespace
from rxpy2._internal.operators.flowable._sync_source import SyncSourceSubscription
from rxpy2._internal.operators.flowable.flowable_from_array import FlowableFromArray
from rxpy2._internal.operators.flowable.flowable_from_iterable import FlowableFromIterable
from rxpy2._internal.operators.flowable.flowable_just import FlowableJust
from rxpy2._internal.operators.flowable.flowable_map_filter import collapse_map_filter
from rxpy2._internal.operators.flowable.flowable_range import FlowableRange
from rxpy2._internal.operators.flowable.flowable_scalar_x_map import INNER_KINDS
from rxpy2._internal.operators.flowable.flowable_scalar_x_map import INNER_SCALAR
from rxpy2._internal.operators.flowable.flowable_scalar_x_map import check_inner
from rxpy2._internal.operators.flowable.flowable_scalar_x_map import inner_kind
from rxpy2._internal.subscriptions.empty import EmptySubscription
from rxpy2.flowable import Flowable
from rxpy2.observers import FlowableSubscriber
from rxpy2.operator_kit import add_request
from rxpy2.operator_kit import validate_request
from rxpy2.reactivestreams import LONG_MAX
from rxpy2.reactivestreams import Publisher
from rxpy2.reactivestreams import Subscriber
from rxpy2.reactivestreams import Subscription

__all__ = ["MAX_STAGES", "FlowableSyncChain", "fuse_sync_stage"]

T = TypeVar("T")

#: A chain's stages: (declaration, argument) pairs.
Stages = tuple[tuple[FusedStage, Any], ...]

#: The most stages one chain compiles (the generated code nests one block per filter).
MAX_STAGES = 32

_UNSET: Any = object()


class _Failed:
    """(fused) ``is_empty`` read the iterator ahead and it raised: the next ``poll`` raises."""

    __slots__ = ("error",)

    def __init__(self, error: BaseException) -> None:
        self.error = error


def _known_length_iterator(src: Any) -> Iterator[Any] | None:
    """The iterator of a range, just or from_array chain source; None for from_iterable."""
    t = type(src)
    if t is FlowableRange:
        return iter(range(src.start, src.end))
    if t is FlowableJust:
        return iter((src.value,))
    if t is FlowableFromArray:
        return iter(src.array)  # type: ignore[no-any-return]  # the array is typed Any
    return None


def _stop_iteration(error: RuntimeError) -> StopIteration | None:
    """A user function's ``StopIteration`` inside the ``gen`` generator comes out of ``next``
    as ``RuntimeError('generator raised StopIteration')`` (PEP 479): the function's own
    exception, for the consumer to get it as from the unfused operator; else None."""
    cause = error.__cause__
    if isinstance(cause, StopIteration) and str(error) == "generator raised StopIteration":
        return cause
    return None


def _source_shape(source: Publisher[Any]) -> str | None:
    t = type(source)
    if t is FlowableRange or t is FlowableJust:
        return "plain"
    if t is FlowableFromArray:
        return "checked" if type(source.array) in (list, tuple) else None  # type: ignore[attr-defined]  # a FlowableFromArray (type checked above)
    if t is FlowableFromIterable:
        return "read_ahead"
    return None


def fuse_sync_stage(upstream: Publisher[Any], stage: FusedStage,
                    arg: Any) -> Flowable[Any] | None:
    """``upstream`` followed by the stage, as one chain; ``None`` when they do not fuse."""
    if type(upstream) is FlowableSyncChain:
        stages = upstream.stages
        if len(stages) >= MAX_STAGES or not _flatten_may_join(stages, stage) \
                or not may_join(stages, stage):
            return None
        return FlowableSyncChain(upstream.source, (*stages, (stage, arg)), upstream.shape)
    shape = _source_shape(upstream)
    if shape is None:
        return None
    return FlowableSyncChain(upstream, ((stage, arg),), shape)


def _flatten_may_join(stages: Stages, stage: FusedStage) -> bool:
    """Nothing joins a chain after its flattening stage; a flattening stage joins only
    after the stages its compiled loop knows (``before_flatten``)."""
    if stages and stages[-1][0].flatten is not None:
        return False
    return stage.flatten is None or all(spec.before_flatten for spec, _ in stages)


def _offers_sync(stages: Stages) -> bool:
    """Every stage's RxJava 2 operator is fuseable (map, filter, do_on_next,
    distinct_until_changed); a chain with any other stage refuses SYNC fusion downstream."""
    return all(spec.rxjava_fuseable for spec, _ in stages)


def _prologue_at(stages: Stages) -> int | None:
    """The index of the first stage emitting before the source is read (a seeded scan)."""
    return next((i for i, (spec, _) in enumerate(stages) if spec.prologue is not None), None)

class FlowableSyncChain(Flowable[T], HasUpstreamPublisher[Any], Generic[T]):
    """A synchronous ``source`` and its ``stages`` ((declaration, argument) pairs), run as
    one loop."""

    __slots__ = ("source", "stages", "shape", "_plan", "_fold_fns")

    def __init__(self, source: Publisher[Any], stages: Stages,
                 shape: str | None = None) -> None:
        if shape is None:
            shape = _source_shape(source)
            if shape is None:
                raise TypeError(f"{type(source).__name__} is not a synchronous chain source")
        self.source = source
        self.stages = stages
        self.shape = shape
        self._plan: tuple[Any, ...] | None = None
        self._fold_fns: dict[FusedFold, Any] | None = None

    def plan(self) -> tuple[Any, ...]:
        """``(compiled functions, initial state, runs user code, offers SYNC fusion)``,
        built at first use (assembly stays cheap: chains are built per item inside
        flat_map mappers)."""
        p = self._plan
        if p is None:  # two threads may both build it: the same value, either one is kept
            stages = self.stages
            if stages[-1][0].flatten is not None:  # a flattening chain (FlattenChainSubscription)
                p = self._plan = (compile_flatten(stages, self.shape), initial_state(stages),
                                  True, False)
                return p
            p = self._plan = (compile_chain(stages, self.shape), initial_state(stages),
                              any(spec.user_code for spec, _ in stages), _offers_sync(stages))
        return p

    def fold(self, into: FusedFold) -> Any:
        """The compiled ``fold(sub, acc, g)`` of this chain into an aggregation."""
        folds = self._fold_fns
        if folds is None:
            folds = self._fold_fns = {}
        f = folds.get(into)
        if f is None:
            f = folds[into] = compile_fold(self.stages, self.shape, into)
        return f

    def subscribe_actual(self, subscriber: Subscriber[T]) -> None:
        src: Any = self.source
        pending: Any = None
        it: Iterator[Any] | None = _known_length_iterator(src)
        if it is None:  # from_iterable: iter() and the first item now, as the plain source does
            try:
                it = iter(src.iterable)
                pending = next(it, END)
            except Exception as e:
                EmptySubscription.error(e, subscriber)
                return
            if pending is END and _prologue_at(self.stages) is None:
                EmptySubscription.complete(subscriber)  # (a seed still goes out: the loop runs)
                return
        deferred: DeferredChainSubscription[T] | None = None
        if self.stages[-1][0].flatten is not None:
            deferred = FlattenChainSubscription(subscriber, self, it, pending)
        elif _prologue_at(self.stages) is not None:
            deferred = SeededChainSubscription(subscriber, self, it, pending)
        if deferred is not None:
            subscriber.on_subscribe(deferred)
            deferred.start()  # after on_subscribe, as the operator asks its upstream after it
            return
        sub = SyncChainSubscription(subscriber, self, it, pending)
        if not self.stages[0][0].late_request:
            subscriber.on_subscribe(sub)
            return
        # RxJava 2's skip asks its upstream for its n items only after the downstream's
        # on_subscribe returned, so the first item passes it no sooner (late_request): the
        # demand made inside on_subscribe is held (a guard unit keeps it off zero, so no request
        # drains) and drained once on_subscribe returned
        requested = sub.requested
        requested.add_and_get(1)
        subscriber.on_subscribe(sub)
        if requested.get() == LONG_MAX:  # unbounded (the guard unit is lost in it)
            sub.fast_path()
            return
        r = requested.add_and_get(-1)
        if r != 0:
            sub.slow_path(r)


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
            self.it.__setstate__(LONG_MAX)  # type: ignore[attr-defined]  # a range/list/tuple iterator has it

    def none_error(self) -> TypeError:
        """The error for a ``None`` item of the source (raised by the compiled loop)."""
        src: Any = self.chain.source
        if type(src) is FlowableFromArray:
            i = len(src.array) - length_hint(self.it) - 1
            return TypeError(f"The element at index {i} is None")
        return TypeError("The iterator returned a None item")

    def _exhausted(self) -> bool:
        """True when the source has no item left (known without reading it; a user
        iterator's END read at subscription: an empty one under a scan_seed)."""
        if self.chain.shape == "read_ahead":
            return self.pending is END
        return length_hint(self.it) == 0

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
        fold = fold_of(a)
        if fold is not None:
            self._fold(a, fold)
            return
        offered = direct_sink(a)
        if offered is not None:
            # the on_next function called directly: a stage's error and its own end alike
            # in the subscriber's on_error (after cancelling, which only sets our flag)
            code = sink(self, offered[0])
            if code == ERROR:
                offered[1](self.error)  # type: ignore[arg-type]  # set whenever code is ERROR
            elif code != PAUSED:
                self._finish(code)
            return
        if is_conditional(a):
            _, code = drain_conditional(self, a.try_on_next, LONG_MAX)
        else:
            _, code = drain(self, a.on_next, LONG_MAX)
        if code != PAUSED:
            self._finish(code)

    def _fold(self, a: Any, into: FusedFold) -> None:
        """An aggregation's subscriber (reduce, count, collect, to_list, last, take_last)
        requested everything: the chain runs into its result in one call (its ``on_next``
        inlined, as the subscriber declares it); a stage's or the aggregation's error, or
        the end, is then signalled to it."""
        acc, g = a.fold_start()
        code, acc = self.chain.fold(into)(self, acc, g)
        a.fold_end(acc)
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
        try:
            v = next(self.gen, None)  # type: ignore[arg-type]  # set by request_fusion before any poll
        except RuntimeError as e:
            cause = _stop_iteration(e)
            if cause is None:
                raise
            raise cause from None
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


# ---------------------------------------------------------------- flattening chains
# (flat_map, concat_map, flat_map_iterable/concat_map_iterable as a chain's last stage;
# the module docstring, "Flattening stages")

#: classify_*'s answers: the inner's items come from an iterator / it is one value /
#: it is empty / it is not synchronous (the operator takes over)
_ITER: Any = object()
_SCALAR: Any = object()
_EMPTY: Any = object()
_OTHER: tuple[Any, Any] = (None, None)

#: the first item of "the rest of the chain" after a hand-over: the mapper wrapper returns
#: the inner already mapped for it
_MARKER: Any = object()


def _array_items(array: Any) -> Iterator[Any]:
    """A from_array inner's items, failing at a None one as its SYNC ``poll`` does."""
    for i, v in enumerate(array):
        if v is None:
            raise TypeError(f"The element at index {i} is None")
        yield v


def _iterable_items(it: Iterator[Any]) -> Iterator[Any]:
    """A from_iterable inner's items, failing at a None one as the source does."""
    for v in it:
        if v is None:
            raise TypeError("The iterator returned a None item")
        yield v


def _chain_items(chain: FlowableSyncChain[Any]) -> Iterator[Any]:
    """An inner sync chain's items: its compiled generator (``poll``'s), run here."""
    src: Any = chain.source
    pending: Any = None
    it = _known_length_iterator(src)
    if it is None:
        it = iter(src.iterable)
        pending = NOT_READ  # the generator reads the first item itself
    holder: SyncChainSubscription[Any] = SyncChainSubscription(None, chain, it, pending)  # type: ignore[arg-type]  # no downstream: only its generator runs
    return holder.compiled[3](holder)  # type: ignore[no-any-return]  # generated, untyped


def _classify(p: Any) -> tuple[Any, Any]:
    """A mapper's result that is not ``just``/``range`` (checked already): how the loop
    flattens it; raises what the operator would signal for it."""
    kind = INNER_KINDS.get(type(p))
    if kind is None:
        kind = inner_kind(p)  # TypeError for None or a non-Publisher
    if kind >= INNER_SCALAR:
        v = p.call()  # (an INNER_CALLABLE's call may raise: the inner failed)
        return (_EMPTY, None) if v is None else (_SCALAR, v)
    t = type(p)
    if t is FlowableFromArray:
        if type(p.array) in (list, tuple):
            return _ITER, _array_items(p.array)
    elif t is FlowableFromIterable:
        return _ITER, _iterable_items(iter(p.iterable))
    elif t is FlowableRange:
        return _ITER, iter(range(p.start, p.end))
    elif t is FlowableSyncChain and p.stages[-1][0].flatten is None:
        return _ITER, _chain_items(p)
    return _OTHER


def _classify_checked(p: Any, mapper: Any, operator: str) -> tuple[Any, Any]:
    """As :func:`_classify`, with ``operator``'s messages for a result that is no
    Publisher (concat_map's)."""
    if INNER_KINDS.get(type(p)) is None:
        check_inner(p, mapper, operator)
    return _classify(p)


#: what the flattening leaves (stage_compiler.inner_publisher_leaf) use in generated code
_FLATTEN_ENV: dict[str, Any] = {
    "Just": FlowableJust, "Range": FlowableRange, "ITER": _ITER, "SCALAR": _SCALAR,
    "EMPTY": _EMPTY, "classify": _classify, "classify_checked": _classify_checked,
}


@lru_cache(maxsize=CACHE_SIZE)
def _flatten_factory(specs: tuple[FusedStage, ...], source: str) -> Any:
    env = namespace(specs, _FLATTEN_ENV)
    label = "/".join(spec.name for spec in specs)
    exec(compile_registered(flatten_text(specs, source), f"flatten chain: {label} over {source}"),
         env)
    return env["factory"]


def compile_flatten(stages: Stages, source: str) -> tuple[Any, Any]:
    """``(drain_all, sink)`` of a chain whose last stage flattens (stage_compiler)."""
    return _flatten_factory(tuple([spec for spec, _ in stages]), source)(*arguments(stages))  # type: ignore[no-any-return]  # the generated factory is untyped


class _Signals(FlowableSubscriber[Any]):
    """(the Subscriber methods, for the type; :class:`_Forward`'s slots shadow them)"""

    __slots__ = ()

    def on_next(self, item: Any) -> None:  # pragma: no cover - shadowed
        raise NotImplementedError

    def on_error(self, error: BaseException) -> None:  # pragma: no cover - shadowed
        raise NotImplementedError

    def on_complete(self) -> None:  # pragma: no cover - shadowed
        raise NotImplementedError


class _Forward(_Signals):
    """After a hand-over: the operator's subscriber. Its ``on_next``/``on_error``/
    ``on_complete`` are the downstream's own bound methods (instance slots: no frame of
    ours per item); ``on_subscribe`` takes the operator's subscription."""

    __slots__ = ("parent", "on_next", "on_error", "on_complete")

    def __init__(self, parent: DeferredChainSubscription[Any]) -> None:
        self.parent = parent
        a = parent.downstream
        self.on_next = a.on_next  # type: ignore[method-assign]  # the downstream's own: no frame per item
        self.on_error = a.on_error  # type: ignore[method-assign]  # (as on_next)
        self.on_complete = a.on_complete  # type: ignore[method-assign]  # (as on_next)

    def on_subscribe(self, s: Subscription) -> None:
        # the demand so far goes on before the operator asks its upstream (as the
        # downstream's requests in on_subscribe would); later requests go straight on
        p = self.parent
        p.handed = s
        if p.cancelled:  # cancel() ran before it saw ``handed``: cancel here (twice is harmless)
            s.cancel()
            return
        r = p.requested.get_and_set(0)
        if r != 0:
            s.request(r)


class DeferredChainSubscription(SyncChainSubscription[T], Generic[T]):
    """Runs a chain that is fused only under unbounded demand: its ``request`` only adds
    to the demand; :meth:`start`, called once the downstream's ``on_subscribe`` returned
    (when the first operator would ask its upstream), runs the compiled loop if the demand
    is unbounded then, else hands the subscription over to the ordinary operators
    (:meth:`_hand_over`), which then get every request and the cancel.

    A chain whose last stage flattens, or that holds a seeded ``scan``, is run by a
    :class:`DeferredChainSubscription`: its ``request`` only adds to the demand, and
    :meth:`~DeferredChainSubscription.start`, called by ``subscribe_actual`` once the
    downstream's ``on_subscribe`` returned (when the first operator would ask its upstream),
    runs the compiled loop if the demand is unbounded then; otherwise it hands over to the
    ordinary operators from the start, which then get every request and the cancel. Under
    bounded demand these operators' signals depend on what they read ahead: RxJava 2's
    ``ScanSeed`` asks its upstream for ``prefetch - 1`` items in its ``onSubscribe``, so an
    error met there overtakes the results queued for lack of demand, and ``flat_map`` queues
    scalars ahead of a paused inner. A :class:`SeededChainSubscription` hands over to the
    stages before the first seeded scan, still one compiled chain, followed by the seeded
    scan and the later stages as operators (:func:`stage_operator`).
    """

    __slots__ = ("handed", "eager")

    def __init__(self, downstream: Subscriber[T], chain: FlowableSyncChain[T], it: Iterator[Any],
                 pending: Any) -> None:
        super().__init__(downstream, chain, it, pending)
        self.handed: Subscription | None = None  # the operators' subscription, once handed over
        self.eager = False  # decide at the request that moves the demand off zero instead

    def request(self, n: int) -> None:
        # nothing runs here: start() decides once on_subscribe returned; after a hand-over
        # the demand goes on to the operator (RxJava's deferred request)
        if not (n := validate_request(n)):
            return
        h = self.handed
        if h is not None:
            h.request(n)
            return
        r = add_request(self.requested, n)
        h = self.handed
        if h is not None:  # handed over meanwhile: pass on what is left (maybe nothing)
            r = self.requested.get_and_set(0)
            if r != 0:
                h.request(r)
        elif r == 0 and self.eager and not self.cancelled:
            if n == LONG_MAX:
                self.fast_path()
            else:
                self._hand_over(False)

    def start(self) -> None:
        """After the downstream's ``on_subscribe``: the compiled loop when its demand is
        unbounded already, else the operators from the start (module docstring)."""
        if self.handed is not None or self.cancelled or self.eager:
            return
        if self.requested.get() == LONG_MAX:
            self.fast_path()
        else:
            self._hand_over(False)

    def cancel(self) -> None:
        self.cancelled = True
        h = self.handed
        if h is not None:
            h.cancel()
        elif self.chain.shape != "read_ahead":
            self.it.__setstate__(LONG_MAX)  # type: ignore[attr-defined]  # a range/list/tuple iterator has it

    def slow_path(self, r: int) -> None:  # pragma: no cover - request() never calls it
        raise AssertionError("a deferred chain runs from start()")

    def _hand_over(self, resume: bool) -> None:  # pragma: no cover - every subclass has one
        raise NotImplementedError

    def _fresh(self, stages: Stages) -> Publisher[Any]:
        """The source followed by ``stages`` as a new subscription would see them, before
        this one took anything from the source: a user iterator resumes at the item read
        at subscription (so it is neither read again nor read early)."""
        chain = self.chain
        src: Publisher[Any] = chain.source
        if chain.shape == "read_ahead":
            pending = self.pending
            src = FlowableFromIterable(iter(()) if pending is END
                                       else iter_chain((pending,), self.it))
        return FlowableSyncChain(src, stages, chain.shape) if stages else src


class SeededChainSubscription(DeferredChainSubscription[T], Generic[T]):
    """A chain with a seeded scan: the compiled loop under unbounded demand (the operators'
    signals, reads and calls); otherwise the stages before the first seeded scan stay one
    compiled chain and the seeded scan and the stages after it run as their operators, so
    the scan reads ``prefetch`` ahead as RxJava 2's ``FlowableScanSeed`` does."""

    __slots__ = ()

    def _hand_over(self, resume: bool) -> None:
        stages = self.chain.stages
        first = _prologue_at(stages)
        up = self._fresh(stages[:first])
        for spec, arg in stages[first:]:
            up = stage_operator(up, spec, arg)
        up._subscribe(_Forward(self))  # type: ignore[attr-defined]  # every operator is a Flowable


def stage_operator(upstream: Publisher[Any], stage: FusedStage, arg: Any) -> Flowable[Any]:
    """The ordinary operator of one chain stage over ``upstream`` (map/filter, the stages
    with a ``step``, collapsing into one as the fluent methods do; no assembly hook: the
    chain passed it)."""
    if stage.step is not None:
        collapsed = collapse_map_filter(upstream, stage, arg)
        if collapsed is not None:
            return collapsed
    return stage.operator(upstream, arg)  # type: ignore[no-any-return]  # declared as Any


def _flattening(chain: FlowableSyncChain[Any]) -> FusedFlatten:
    """The declaration of a flattening chain's last stage."""
    return chain.stages[-1][0].flatten  # type: ignore[return-value]  # a flattening chain's


class FlattenChainSubscription(DeferredChainSubscription[T], Generic[T]):
    """Runs a chain whose last stage flattens: one compiled loop while the demand is
    unbounded; any other use hands over to the ordinary operator.

    ``flat_map`` (not ``delay_errors``), ``concat_map`` and ``flat_map_iterable``/
    ``concat_map_iterable`` join a chain as its last stage (their declaration's
    ``flatten``), after stages declared ``before_flatten`` only (:func:`_flatten_may_join`);
    the stage's argument is ``(mapper, *settings)``. A :class:`FlattenChainSubscription`
    runs it:

    * its ``request`` only adds to the demand; :meth:`~FlattenChainSubscription.start`,
      called by ``subscribe_actual`` once the downstream's ``on_subscribe`` returned
      (when the operator would ask its upstream), runs the compiled loop
      (:func:`~rxpy2._internal.helpers.stage_compiler.flatten_text`) when the demand is
      unbounded then, else hands over to the operator from the start. (Unbounded
      demand present before the upstream emits is what makes the operators'
      order sequential: with demand missing, ``flat_map`` queues scalars ahead of a
      paused inner.) ``flat_map_iterable`` over a SYNC-fuseable prefix (``eager``)
      emits at the request that moves the demand off zero, as the operator polling
      it would, and hands over when that request is bounded or SYNC fusion is asked;
    * the loop flattens ``just``/``empty``/Callable inners inline and iterates
      ``range``, ``from_array`` (list/tuple), ``from_iterable`` and sync-chain
      inners (:func:`_classify`) with the operators' errors; after each inner item it
      checks ``cancelled`` and, cancelled, ends the outer loop as well;
    * any other inner ends the loop with ``HANDOVER``: the operator is subscribed to
      ``from_iterable`` over a marker item followed by the chain's compiled generator
      resumed from the saved iterator and stage state (empty when a ``take`` ended
      with that item), its mapper returning the pre-mapped inner for the marker;
      the stage's ``hand_over`` subscribes its operator; flat_map's starts with the scalar
      inners counted as the operator would have (``scalars % scalar_limit``; the loop
      counts them, or derives them from the source's position: ``_derives_scalars`` in
      stage_compiler), so its upstream demand and its number of running inners are the
      operator's;
    * after a hand-over this subscription is a shell: a :class:`_Forward` passes the
      operator's signals downstream and, in its ``on_subscribe``, the demand so far
      (before the operator asks its upstream); ``request``, ``cancel`` and the
      queue methods go straight on (RxJava's deferred request: no demand is lost or
      passed twice when a request races the hand-over).
    """

    __slots__ = ("inner", "scalars")

    def __init__(self, downstream: Subscriber[T], chain: FlowableSyncChain[T], it: Iterator[Any],
                 pending: Any) -> None:
        super().__init__(downstream, chain, it, pending)
        self.inner: Any = None  # HANDOVER: the inner already mapped
        self.scalars = 0  # HANDOVER (flat_map): the scalar and empty inners met before
        # flat_map_iterable over an upstream that fuses SYNC emits at the request that
        # moves the demand off zero (it polls that upstream), as a source does
        stages = chain.stages
        self.eager = _flattening(chain).polls_sync and _offers_sync(stages[:-1])

    def fast_path(self) -> None:
        a = self.downstream
        drain_all, sink = self.compiled
        offered = direct_sink(a)
        if offered is not None:
            code = sink(self, offered[0])
            if code == ERROR:
                offered[1](self.error)  # type: ignore[arg-type]  # set whenever code is ERROR
                return
        else:
            code = drain_all(self, a.on_next)
        if code == HANDOVER:
            self._hand_over(True)
        elif code == ERROR:
            a.on_error(self.error)
        elif code != PAUSED and not self.cancelled:
            a.on_complete()

    def _rest(self) -> Iterator[Any]:
        """The items of the stages before the flattening one, from where the loop left."""
        stages = self.chain.stages[:-1]
        at = 0
        for spec, _ in stages:  # the state is the stateful stages' variables, in order
            n = len(spec.state)
            if spec.done is not None and spec.done(self.state[at:at + n]):
                return iter(())  # a take ended with the item handed over
            at += n
        return compile_chain(stages, self.chain.shape)[3](self)  # type: ignore[no-any-return]  # generated, untyped

    def _hand_over(self, resume: bool) -> None:
        """Subscribe the ordinary operator to the rest of the chain and pass the demand on.
        ``resume``: the loop stopped at ``self.inner`` (the operator's first inner);
        otherwise nothing was taken from the source yet."""
        chain = self.chain
        settings = chain.stages[-1][1]
        mapper = settings[0]
        rest: Any
        if resume:
            first = self.inner
            self.inner = None
            real = mapper

            def mapper(v: Any) -> Any:
                return first if v is _MARKER else real(v)

            rest = FlowableFromIterable(iter_chain((_MARKER,), self._rest()))
        else:
            rest = self._fresh(chain.stages[:-1])
        _flattening(chain).hand_over(rest, mapper, settings, _Forward(self),
                                     self.scalars if resume else None)

    # ---- fusion: what the ordinary operator answers (flat_map_iterable alone fuses)
    def request_fusion(self, mode: int) -> int:
        if not _flattening(self.chain).polls_sync or not mode & SYNC or mode & BOUNDARY:
            return NONE  # what flat_map, concat_map and (user code) flat_map_iterable answer
        if not _offers_sync(self.chain.stages[:-1]):
            # its upstream would not fuse: neither would the operator, and handing over
            # here would let it request and signal inside the consumer's on_subscribe
            return NONE
        self._hand_over(False)
        h = self.handed
        if h is None or not isinstance(h, QueueSubscription):
            return NONE
        return h.request_fusion(mode)

    def poll(self) -> T | None:
        return self.handed.poll()  # type: ignore[union-attr,no-any-return]  # set by request_fusion (SYNC/ASYNC granted)

    def is_empty(self) -> bool:
        return self.handed.is_empty()  # type: ignore[union-attr,no-any-return]  # (as poll)

    def clear(self) -> None:
        h = self.handed
        if h is not None:
            h.clear()  # type: ignore[attr-defined]  # a QueueSubscription once fused
