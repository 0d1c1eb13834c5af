"""flat_map / concat_map / flat_map_iterable / concat_map_iterable as the last stage of a
macro-fused sync chain (flowable_sync_chain.py, "Flattening stages").

Each differential case runs a pipeline twice, fused as written and non-fused (``hide()``
after the source and after every stage, which stops assembly-time fusion), with the same
consumer script, and compares what the consumer saw: its items, their order, the terminal
signal (error type and message) and the point where it came. The mapper is called at
different times (the fused chain pulls its source lazily, the operator prefetches), so
its calls are not compared.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from collections.abc import Iterator
from typing import Any

import pytest

from rxpy2 import Flowable
from rxpy2._internal.helpers.error_mode import ErrorMode
from rxpy2._internal.operators.flowable.flowable_concat_map import FlowableConcatMap
from rxpy2._internal.operators.flowable.flowable_flat_map import FlowableFlatMap
from rxpy2._internal.operators.flowable.flowable_flatten_iterable import FlowableFlattenIterable
from rxpy2._internal.operators.flowable.flowable_sync_chain import FlowableSyncChain
from rxpy2.flowable import BUFFER_SIZE
from rxpy2.observers import FlowableSubscriber
from rxpy2.processors import UnicastProcessor
from rxpy2.reactivestreams import LONG_MAX
from rxpy2.reactivestreams import Subscription
from rxpy2.schedulers import Schedulers
from rxpy2.testing import RaceRunner

# ---------------------------------------------------------------------------- the consumer


class Rec(FlowableSubscriber[Any]):
    """Logs what it receives; ``on_item(rec, count)`` runs after each item."""

    def __init__(self, on_item: Callable[[Rec, int], None] | None = None,
                 at_subscribe: tuple[int, ...] = ()) -> None:
        self.log: list[Any] = []
        self.count = 0
        self.on_item = on_item
        self.at_subscribe = at_subscribe
        self.s: Subscription | None = None

    def on_subscribe(self, s: Subscription) -> None:
        self.s = s
        self.log.append("subscribed")
        for n in self.at_subscribe:
            self.request(n)
        self.log.append("on_subscribe returns")

    def on_next(self, item: Any) -> None:
        self.log.append(item)
        self.count += 1
        if self.on_item is not None:
            self.on_item(self, self.count)

    def on_error(self, error: BaseException) -> None:
        self.log.append(("error", type(error).__name__, str(error)))

    def on_complete(self) -> None:
        self.log.append("complete")

    def request(self, n: int) -> None:
        self.log.append(("request", n))
        assert self.s is not None
        self.s.request(n)

    def cancel(self) -> None:
        self.log.append("cancel")
        assert self.s is not None
        self.s.cancel()


def _one_more(rec: Rec, _count: int) -> None:
    rec.request(1)


def _cancel_at_3(rec: Rec, count: int) -> None:
    if count == 3:
        rec.cancel()


def _cancel_at_5(rec: Rec, count: int) -> None:
    if count == 5:
        rec.cancel()


#: name -> (requests in on_subscribe, requests/cancel after subscribe, on_item)
SCRIPTS: dict[str, tuple[tuple[int, ...], tuple[Any, ...], Any]] = {
    # the consumer's demand in on_subscribe: unbounded runs the compiled loop
    "unbounded": ((LONG_MAX,), (), None),
    "unbounded_in_two": ((3, LONG_MAX), (), None),
    "cancel_in_next": ((LONG_MAX,), (), _cancel_at_3),
    "cancel_in_next_5": ((LONG_MAX,), (), _cancel_at_5),
    "bounded": ((2,), (1, 3, LONG_MAX), None),
    # the demand after subscribe (the operator prefetched without demand meanwhile)
    "late_unbounded": ((), (LONG_MAX,), None),
    "steps": ((), (1, 2, 3, LONG_MAX), None),
    "one_by_one": ((1,), (), _one_more),
    "cancel_between": ((), (2, "cancel", 5), None),
}

# ---------------------------------------------------------------------------- the pipelines

Hide = Callable[[Flowable[Any]], Flowable[Any]]


class Boom(Exception):
    pass


def _raising_iter(x: int) -> Iterator[int]:
    yield x
    raise Boom(f"iterator {x}")


def _gen(x: int) -> Iterator[int]:
    yield from range(x, x + 2)


def _inners(h: Hide) -> dict[str, Callable[[int], Any]]:
    """Mapper functions by name (a fresh set per run: some hold one-shot processors)."""
    up: UnicastProcessor[int] = UnicastProcessor()
    for v in (100, 101):
        up.on_next(v)
    up.on_complete()

    def unicast(x: int) -> Any:
        return up if x == 3 else Flowable.range(x, 2)

    def mixed(x: int) -> Any:
        k = x % 6
        if k == 0:
            return Flowable.just(x)
        if k == 1:
            return Flowable.empty()
        if k == 2:
            return Flowable.range(x, 3)
        if k == 3:
            return Flowable.range(x * 10, 2).hide()
        if k == 4:
            return Flowable.from_array([x, x + 1])
        return Flowable.from_callable(lambda: -x)

    def mapper_raises(x: int) -> Any:
        if x == 3:
            raise Boom("mapper")
        return Flowable.range(x, 2)

    return {
        "just": lambda x: Flowable.just(x),
        "empty": lambda x: Flowable.empty() if x % 2 else Flowable.just(x),
        "range": lambda x: Flowable.range(x, 3),
        "array": lambda x: Flowable.from_array([x, x + 1]),
        "tuple": lambda x: Flowable.from_array((x,)),
        "iterable": lambda x: Flowable.from_iterable([x, -x]),
        "gen": lambda x: Flowable.from_iterable(_gen(x)),
        "chain": lambda x: Flowable.range(x, 2).map(lambda v: v * 10),
        "chain_filter": lambda x: Flowable.from_iterable([x, x + 1, x + 2]).filter(
            lambda v: v % 2 == 0),
        "chain_take": lambda x: Flowable.range(x, 5).take(2),
        "callable": lambda x: Flowable.from_callable(lambda: x * 7),
        "hidden": lambda x: Flowable.range(x, 2).hide(),
        "async_at_3": lambda x: Flowable.range(x * 10, 3).hide() if x == 3 else Flowable.range(x, 2),
        "unicast": unicast,
        "mixed": mixed,
        "nested_flat": lambda x: Flowable.range(x, 2).flat_map(lambda v: Flowable.just(v)),
        # errors
        "error_inner": lambda x: Flowable.error(Boom("inner")) if x == 3 else Flowable.just(x),
        "array_none": lambda x: Flowable.from_array([x, None]) if x == 3 else Flowable.just(x),
        "iter_none": lambda x: Flowable.from_iterable([x, None]) if x == 3 else Flowable.just(x),
        "iter_raises": lambda x: Flowable.from_iterable(_raising_iter(x)) if x == 3
        else Flowable.range(x, 2),
        "callable_raises": lambda x: Flowable.from_callable(lambda: 1 // 0) if x == 3
        else Flowable.just(x),
        "chain_raises": lambda x: Flowable.range(x, 3).map(lambda v: 1 // (v - 4)),
        "mapper_raises": mapper_raises,
        "mapper_none": lambda x: None if x == 3 else Flowable.just(x),
        "not_publisher": lambda x: 5 if x == 3 else Flowable.just(x),
    }


def _iterables() -> dict[str, Callable[[int], Any]]:
    def mapper_raises(x: int) -> Any:
        if x == 3:
            raise Boom("mapper")
        return [x]

    return {
        "list": lambda x: [x, x + 1],
        "empty": lambda x: [] if x % 2 else (x,),
        "range": lambda x: range(x, x + 3),
        "gen": _gen,
        "str": lambda x: str(x * 11),
        "none_element": lambda x: [x, None] if x == 3 else [x],
        "iter_raises": lambda x: _raising_iter(x) if x == 3 else [x],
        "mapper_raises": mapper_raises,
        "mapper_none": lambda x: None if x == 3 else [x],
        "not_iterable": lambda x: 5 if x == 3 else [x],
    }


SOURCES: dict[str, Callable[[Hide], Flowable[Any]]] = {
    "range": lambda h: h(Flowable.range(0, 8)),
    "array": lambda h: h(Flowable.from_array([5, 3, 1, 4, 2, 0, 6])),
    "iterable": lambda h: h(Flowable.from_iterable([2, 3, 4, 5, 1, 0])),
    "map_filter": lambda h: h(h(h(Flowable.range(0, 12)).map(lambda x: x + 1)).filter(
        lambda x: x % 3 != 0)),
    "take": lambda h: h(h(Flowable.range(0, 10)).take(5)),
    "take_4": lambda h: h(h(Flowable.range(0, 10)).take(4)),
    "skip_take_while": lambda h: h(h(h(Flowable.range(0, 10)).skip(1)).take_while(
        lambda x: x < 7)),
    "iterable_raises": lambda h: h(Flowable.from_iterable(_raising_iter(2))),
    "source_map_raises": lambda h: h(h(Flowable.range(0, 8)).map(lambda x: 10 // (x - 5))),
}

OPS: dict[str, Callable[[Flowable[Any], Any], Flowable[Any]]] = {
    "flat_map": lambda f, m: f.flat_map(m),
    "flat_map_mc2": lambda f, m: f.flat_map(m, max_concurrency=2),
    "flat_map_bs1": lambda f, m: f.flat_map(m, buffer_size=1),
    "concat_map": lambda f, m: f.concat_map(m),
    "flat_map_iterable": lambda f, m: f.flat_map_iterable(m),
    "concat_map_iterable": lambda f, m: f.concat_map_iterable(m),
}


#: the operators themselves (what the fluent methods built before the stages fused)
OPERATORS: dict[str, Callable[[Flowable[Any], Any], Flowable[Any]]] = {
    "flat_map": lambda f, m: FlowableFlatMap(f, m, False, BUFFER_SIZE, BUFFER_SIZE),
    "flat_map_mc2": lambda f, m: FlowableFlatMap(f, m, False, 2, BUFFER_SIZE),
    "flat_map_bs1": lambda f, m: FlowableFlatMap(f, m, False, BUFFER_SIZE, 1),
    "concat_map": lambda f, m: FlowableConcatMap(f, m, 2, ErrorMode.IMMEDIATE),
    "flat_map_iterable": lambda f, m: FlowableFlattenIterable(f, m, BUFFER_SIZE),
    "concat_map_iterable": lambda f, m: FlowableFlattenIterable(f, m, 2),
}


def build(op: str, src: str, inner: str, how: str) -> Flowable[Any]:
    """``how``: "fused" (as written), "operator" (the same, with the flattening operator
    itself) or "hidden" (``hide()`` after the source and every stage)."""
    def h(f: Flowable[Any]) -> Flowable[Any]:
        return f.hide() if how == "hidden" else f

    mapper = (_iterables() if op.endswith("_iterable") else _inners(h))[inner]
    f = (OPERATORS if how == "operator" else OPS)[op](SOURCES[src](h), mapper)
    return h(f)


def run(f: Flowable[Any], script: str) -> list[Any]:
    at_subscribe, steps, on_item = SCRIPTS[script]
    rec = Rec(on_item, at_subscribe)
    f.subscribe(rec)
    for step in steps:
        if step == "cancel":
            rec.cancel()
        else:
            rec.request(step)
    return rec.log


def _cases() -> list[Any]:
    out = []
    for op in OPS:
        inners = _iterables() if op.endswith("_iterable") else _inners(lambda f: f)
        for src in SOURCES:
            for inner in inners:
                for script in SCRIPTS:
                    if src not in ("range", "map_filter") and script not in (
                            "unbounded", "steps", "bounded"):
                        continue
                    if src == "map_filter" and script in ("unbounded_in_two", "cancel_in_next_5",
                                                          "late_unbounded"):
                        continue  # (shown over range)
                    if src not in ("range", "map_filter") and inner in (
                            "tuple", "chain_take", "callable", "hidden"):
                        continue  # (the source does not change how these inners run)
                    if op in ("flat_map_mc2", "flat_map_bs1") and inner not in (
                            "mixed", "async_at_3", "unicast", "range", "just"):
                        continue
                    out.append(pytest.param(op, src, inner, script,
                                            id=f"{op}-{src}-{inner}-{script}"))
    return out


@pytest.mark.parametrize(("op", "src", "inner", "script"), _cases())
def test_fused_equals_unfused(op: str, src: str, inner: str, script: str,
                              plugin_errors: list[BaseException]) -> None:
    fused = build(op, src, inner, "fused")
    assert type(fused) is FlowableSyncChain, "the stage did not join the chain"
    a = run(fused, script)
    errors_fused = [(type(e), str(e)) for e in plugin_errors]
    plugin_errors.clear()
    b = run(build(op, src, inner, "operator"), script)
    errors_plain = [(type(e), str(e)) for e in plugin_errors]
    plugin_errors.clear()
    assert a == b
    # (cancelled inside a synchronous inner, both stop that inner at once: nothing it
    # would meet later goes to plugins.on_error)
    assert errors_fused == errors_plain
    # and with nothing fused at all, as the relaxed "prefetch" comparison of
    # test_fused_vs_unfused: the operator fuses with its upstream (concat_map and
    # flat_map_iterable poll a sync chain lazily), so an error may come items earlier there
    c = run(build(op, src, inner, "hidden"), script)
    plugin_errors.clear()
    # (relaxed: the same items, or one run's a prefix of the other's when an error ends
    # the stream; the same terminal signal; not where they come relative to the requests)
    if src in ("iterable_raises", "source_map_raises") and _ends(a) != _ends(c):
        # the operator's prefetch meets the source's error before an inner's (or after)
        assert _ends(a)[0][0] == _ends(c)[0][0] == "error"
    else:
        assert _ends(a) == _ends(c)
    items_a = [e for e in a if isinstance(e, int)]
    items_c = [e for e in c if isinstance(e, int)]
    if _ends(a) and _ends(a)[0][0] == "error":
        n = min(len(items_a), len(items_c))
        items_a, items_c = items_a[:n], items_c[:n]
    assert items_a == items_c


def _ends(log: list[Any]) -> list[Any]:
    return [e for e in log if e == "complete" or (isinstance(e, tuple) and e[0] == "error")]


# ---------------------------------------------------------------------------- consumers that fuse


CONSUMERS: dict[str, Callable[[Flowable[Any]], Flowable[Any]]] = {
    "observe_on": lambda f: f.observe_on(Schedulers.trampoline(), buffer_size=4),
    "zip": lambda f: Flowable.zip(f, Flowable.range(1000, 1000), buffer_size=4),
    "flat_map_inner": lambda f: Flowable.just(0).hide().flat_map(lambda _: f, buffer_size=4),
    "concat_map_outer": lambda f: f.concat_map(lambda x: Flowable.from_array([x, x])),
    "lambda_map": lambda f: f.map(lambda x: x),
}


@pytest.mark.parametrize("cons", list(CONSUMERS))
@pytest.mark.parametrize("op", list(OPS))
@pytest.mark.parametrize("script", ["unbounded", "late_unbounded", "steps", "one_by_one"])
def test_fusing_consumers(cons: str, op: str, script: str) -> None:
    inner = "list" if op.endswith("_iterable") else "mixed"
    a = run(CONSUMERS[cons](build(op, "map_filter", inner, "fused")), script)
    b = run(CONSUMERS[cons](build(op, "map_filter", inner, "operator")), script)
    assert a == b


def test_flat_map_iterable_offers_sync_fusion_as_the_operator() -> None:
    from probes import FusionConsumer

    from rxpy2._internal.fuseable import BOUNDARY
    from rxpy2._internal.fuseable import SYNC

    for mode in (SYNC, SYNC | BOUNDARY):
        fused_log: list[Any] = []
        plain_log: list[Any] = []
        c1 = FusionConsumer(mode, fused_log)
        Flowable.range(0, 5).map(lambda x: x).flat_map_iterable(lambda x: [x, x]).subscribe(c1)
        c2 = FusionConsumer(mode, plain_log)
        Flowable.range(0, 5).map(lambda x: x).hide().flat_map_iterable(
            lambda x: [x, x]).subscribe(c2)
        # hide() stops the upstream's fusion: the operator itself answers NONE there, as the
        # fused chain does for BOUNDARY (user code) and SYNC for SYNC (the upstream fuses)
        assert c1.granted == (SYNC if mode == SYNC else 0)
        c1.request(LONG_MAX)
        c2.request(LONG_MAX)
        items = [e for e in fused_log if e[0] == "consumer" and e[1] == "next"]
        assert [e[2] for e in items] == [0, 0, 1, 1, 2, 2, 3, 3, 4, 4]


# ---------------------------------------------------------------------------- the hand-over


def _never_counting(subscribed: list[int], x: int) -> Flowable[Any]:
    def on_subscribe(_s: Any) -> None:
        subscribed.append(x)
    return Flowable.never().do_on_subscribe(on_subscribe)


@pytest.mark.parametrize("max_concurrency", [2, 4, 8, 128, LONG_MAX])
@pytest.mark.parametrize("scalars", [0, 1, 3, 7, 64, 65, 130])
def test_flat_map_hand_over_keeps_the_operators_concurrency(max_concurrency: int,
                                                           scalars: int) -> None:
    """After some scalar inners, an inner that never ends: the operator has as many of them
    running as it would have had without fusion (its upstream demand is carried over)."""
    runs = []
    for fused in (True, False):
        subscribed: list[int] = []
        items: list[Any] = []
        src = Flowable.range(0, 400)
        if not fused:
            src = src.hide()
        def mapper(x: int, subscribed: list[int] = subscribed) -> Any:
            return Flowable.just(x) if x < scalars else _never_counting(subscribed, x)

        src.flat_map(mapper, max_concurrency=max_concurrency).subscribe(items.append)
        runs.append((subscribed, items))
    assert runs[0] == runs[1]


def _mixed_inner(x: int) -> Any:
    """Every kind of inner the fused loop flattens: scalar ones (just, empty, a callable)
    and others (range, from_array, from_iterable), by ``x % 6``."""
    r = x % 6
    if r == 0:
        return Flowable.range(x, 2)
    if r == 1:
        return Flowable.empty()
    if r == 2:
        return Flowable.from_array([x, x])
    if r == 3:
        return Flowable.from_callable(lambda: x)
    if r == 4:
        return Flowable.from_iterable(iter([x]))
    return Flowable.just(x)


_HAND_OVER_SOURCES: dict[str, Callable[[], Flowable[int]]] = {
    "range": lambda: Flowable.range(0, 400),
    "from_array": lambda: Flowable.from_array(list(range(400))),
    "from_iterable": lambda: Flowable.from_iterable(iter(range(400))),
}
_HAND_OVER_PREFIXES: dict[str, Callable[[Flowable[int]], Flowable[int]]] = {
    "none": lambda f: f,
    "map": lambda f: f.map(lambda x: x),
    "map_do_on_next": lambda f: f.map(lambda x: x).do_on_next(lambda x: None),
    "filter": lambda f: f.filter(lambda x: x % 7 != 3),
    "skip": lambda f: f.skip(5),
}


@pytest.mark.parametrize("max_concurrency", [4, 8, 10, 128])
@pytest.mark.parametrize("others", [0, 9, 70, 140])
@pytest.mark.parametrize("source", sorted(_HAND_OVER_SOURCES))
@pytest.mark.parametrize("prefix", sorted(_HAND_OVER_PREFIXES))
def test_flat_map_hand_over_counts_the_scalars_among_other_inners(
        max_concurrency: int, others: int, source: str, prefix: str) -> None:
    """Scalar and other inners mixed before the first inner that never ends: the scalar
    count the operator starts with (counted per item, or, over a range/list/tuple after
    map/do_on_next only, derived from the source's position) is the operator's own."""
    runs = []
    for fused in (True, False):
        subscribed: list[int] = []
        items: list[Any] = []
        src = _HAND_OVER_SOURCES[source]()
        if not fused:
            src = src.hide()
        src = _HAND_OVER_PREFIXES[prefix](src)

        def mapper(x: int, subscribed: list[int] = subscribed) -> Any:
            return _mixed_inner(x) if x < others else _never_counting(subscribed, x)

        f = src.flat_map(mapper, max_concurrency=max_concurrency)
        # (skip over from_array/from_iterable stays an operator: the flat_map is one too)
        assert (type(f) is FlowableSyncChain) == (fused and (prefix != "skip"
                                                              or source == "range"))
        f.subscribe(items.append)
        runs.append((subscribed, items))
    assert runs[0] == runs[1]
    assert runs[0][0]  # the hand-over happened: never-ending inners are running


def test_hand_over_in_the_middle_keeps_the_order_and_the_rest() -> None:
    up: UnicastProcessor[int] = UnicastProcessor()
    seen: list[Any] = []
    f = Flowable.range(0, 6).map(lambda x: x * 2).concat_map(
        lambda x: up if x == 4 else Flowable.range(x, 2))
    assert type(f) is FlowableSyncChain
    f.subscribe(seen.append, lambda e: seen.append(e), lambda: seen.append("done"))
    assert seen == [0, 1, 2, 3]
    up.on_next(40)
    up.on_complete()
    assert seen == [0, 1, 2, 3, 40, 6, 7, 8, 9, 10, 11, "done"]


def test_hand_over_after_a_take_ended_the_source() -> None:
    seen: list[Any] = []
    Flowable.range(0, 10).take(3).flat_map(
        lambda x: Flowable.range(x * 10, 2).hide() if x == 2 else Flowable.just(x)).subscribe(
        seen.append, seen.append, lambda: seen.append("done"))
    assert seen == [0, 1, 20, 21, "done"]


# ---------------------------------------------------------------------------- stack, lambda, race


N = 100_000


@pytest.fixture
def default_recursion_limit():
    """Python's default limit for the test: a deep chain subscribed earlier in the same
    process raises it for good (the subscribe loop's headroom, 16 frames a stage), and
    100,000 inners must be far more than the limit for the test to mean anything."""
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(1000)
    yield
    sys.setrecursionlimit(old)


@pytest.mark.parametrize("op", ["flat_map", "concat_map"])
def test_many_inners_no_recursion(op: str, default_recursion_limit: None) -> None:
    assert N > 20 * sys.getrecursionlimit()
    out: list[int] = []
    f = getattr(Flowable.range(0, N), op)(
        lambda x: Flowable.just(x) if x % 3 else Flowable.range(x, 1 + x % 2))
    f.subscribe(out.append)
    assert len(out) == sum(1 if x % 3 else 1 + x % 2 for x in range(N))
    # handed over at the last item: the operator runs the rest
    out.clear()
    done: list[bool] = []
    f = getattr(Flowable.range(0, N), op)(
        lambda x: Flowable.just(x).hide() if x == N - 1 else Flowable.empty())
    f.subscribe(out.append, None, lambda: done.append(True))
    assert out == [N - 1] and done == [True]
    # bounded demand: the operator from the start
    seen = [0]

    class Batch(Rec):
        def on_next(self, item: Any) -> None:
            seen[0] += 1
            if seen[0] % 128 == 0:
                assert self.s is not None
                self.s.request(128)

    b = Batch()
    getattr(Flowable.range(0, N), op)(lambda x: Flowable.just(x)).subscribe(b)
    b.request(128)
    assert seen[0] == N and b.log[-1] == "complete"


def test_many_iterables_no_recursion() -> None:
    out: list[int] = []
    Flowable.range(0, N).flat_map_iterable(lambda x: () if x % 2 else (x,)).subscribe(
        out.append)
    assert len(out) == N // 2


def test_lambda_subscriber_on_next_raising() -> None:
    errors: list[BaseException] = []
    got: list[int] = []

    def on_next(x: int) -> None:
        got.append(x)
        if x == 3:
            raise Boom("consumer")

    Flowable.range(0, 10).flat_map(lambda x: Flowable.range(x, 2)).subscribe(
        on_next, errors.append)
    assert got == [0, 1, 1, 2, 2, 3]
    assert [str(e) for e in errors] == ["consumer"]


@pytest.mark.parametrize("op", ["flat_map", "concat_map", "flat_map_iterable"])
def test_cancel_inside_an_inner_stops_at_once(op: str) -> None:
    pulls: list[int] = []

    def inner_items(x: int) -> Iterator[int]:
        for v in range(x * 10, x * 10 + 5):
            pulls.append(v)
            yield v

    def cancel_at_12(rec: Rec, _count: int) -> None:
        if rec.log[-1] == 12:
            rec.cancel()

    if op == "flat_map_iterable":
        f = Flowable.range(0, 5).flat_map_iterable(inner_items)
    else:
        f = getattr(Flowable.range(0, 5), op)(lambda x: Flowable.from_iterable(inner_items(x)))
    assert type(f) is FlowableSyncChain
    rec = Rec(cancel_at_12, (LONG_MAX,))
    f.subscribe(rec)
    assert [v for v in rec.log if isinstance(v, int)] == [0, 1, 2, 3, 4, 10, 11, 12]
    # (flat_map_iterable over a range emits at the request, as the operator polling it:
    # inside on_subscribe here; the others after it, as the operators do)
    assert rec.log[-2 if op == "flat_map_iterable" else -1] == "cancel"
    assert pulls == [0, 1, 2, 3, 4, 10, 11, 12]


@pytest.mark.parametrize("when", ["in_on_subscribe", "late"])
@pytest.mark.parametrize("op", ["flat_map", "concat_map", "flat_map_iterable"])
def test_race_request_and_cancel(op: str, when: str, race_rounds: int) -> None:
    """Cancel on another thread while the chain runs (its compiled loop: the demand was
    unbounded in on_subscribe) or while a request starts it (the operator, or for
    flat_map_iterable its compiled loop): the items are a prefix of the run's without the
    cancel, and no error comes."""
    def mapper(x: int) -> Any:
        if op == "flat_map_iterable":
            return range(x, x + 3)
        return Flowable.range(x, 3) if x % 2 else Flowable.just(x)

    def pipeline() -> Flowable[Any]:
        return getattr(Flowable.range(0, 300), op)(mapper)  # type: ignore[no-any-return]

    with RaceRunner() as r:
        for i in range(race_rounds):
            n = LONG_MAX if i % 2 else 7
            full = Rec(None, (n,) if when == "in_on_subscribe" else ())
            pipeline().subscribe(full)
            if when == "late":
                full.request(n)
            expected = [v for v in full.log if isinstance(v, int)]
            assert "complete" in full.log or n == 7
            rec = Rec(None, (n,) if when == "in_on_subscribe" else ())
            if when == "late":
                pipeline().subscribe(rec)

                def a(rec: Rec = rec, n: int = n) -> None:
                    rec.request(n)
            else:
                def a(rec: Rec = rec, n: int = n) -> None:
                    pipeline().subscribe(rec)

            def b(rec: Rec = rec) -> None:
                while rec.s is None:
                    pass
                rec.s.cancel()

            r.race(a, b)
            items = [v for v in rec.log if isinstance(v, int)]
            assert items == expected[:len(items)]
            assert not [e for e in rec.log if isinstance(e, tuple) and e[0] == "error"]


def test_flat_map_hand_over_over_a_range_longer_than_an_index() -> None:
    # the derived scalar count reads the iterator's own length hint: operator.length_hint
    # would overflow on a range of 2**64 items
    runs = []
    for fused in (True, False):
        subscribed: list[int] = []
        items: list[Any] = []
        errors: list[BaseException] = []
        src = Flowable.range(2**64, 2**64)
        if not fused:
            src = src.hide()

        def mapper(x: int, subscribed: list[int] = subscribed) -> Any:
            i = x - 2**64
            return Flowable.just(i) if i < 70 else _never_counting(subscribed, i)

        src.flat_map(mapper, max_concurrency=8).subscribe(items.append, errors.append)
        runs.append((subscribed, items, errors))
    assert runs[0] == runs[1]
    assert runs[0][1] == list(range(70)) and not runs[0][2]


_CONSUMERS: dict[str, Callable[[Flowable[Any]], Flowable[Any]]] = {
    "concat_map": lambda f: f.concat_map(lambda x: Flowable.just(x), 2),
    "flat_map_iterable": lambda f: f.flat_map_iterable(lambda x: [x], 2),
}


@pytest.mark.parametrize("consumer", sorted(_CONSUMERS))
@pytest.mark.parametrize("prefix", ["take", "skip", "take_while"])
def test_flat_map_iterable_after_an_unfuseable_prefix_refuses_sync_fusion_without_signalling(
        prefix: str, consumer: str, plugin_errors: list[BaseException]) -> None:
    """A consumer that asks ``range(0, 3).take(2).flat_map_iterable(...)`` for SYNC fusion
    in its on_subscribe (flat_map_iterable does; concat_map did before it asked BOUNDARY
    too) is refused, as RxJava 2's FlowableFlattenIterable refuses over a non-fuseable
    upstream, and nothing is signalled before that on_subscribe returns: the chain used to
    hand over to the operator inside request_fusion, which then requested and completed
    into the half-set-up consumer (an undeliverable AttributeError and no completion; found
    by tools/soak, seed 860780)."""
    then = _CONSUMERS[consumer]
    src = getattr(Flowable.range(0, 3), prefix)(2 if prefix != "take_while" else (lambda x: True))
    chain = src.flat_map_iterable(lambda x: [], 2)
    assert isinstance(chain, FlowableSyncChain)
    ts = then(chain).test(0)
    ts.assert_no_values().assert_complete()
    ts = then(src.flat_map_iterable(lambda x: [x, x], 2)).test(0)
    ts.assert_no_values().assert_not_complete()
    ts.request(LONG_MAX)
    want = {"take": [0, 0, 1, 1], "skip": [2, 2], "take_while": [0, 0, 1, 1, 2, 2]}[prefix]
    ts.assert_values(*want).assert_complete()
    assert plugin_errors == []
