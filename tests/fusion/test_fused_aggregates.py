"""Aggregations over a fused synchronous chain equal the ordinary operators.

``reduce``, ``reduce(seed)``, ``reduce_with``, ``count``, ``to_list``,
``to_sorted_list``, ``collect``, ``collect_into`` and the ``last`` family over a
:class:`FlowableSyncChain` (a sync source and map/filter/take/scan/
distinct_until_changed... stages, fused at assembly) run the chain into the
aggregation in one compiled call (``fold``, ``stage_compiler.compile_fold``) with no
per-item subscriber. Each test runs one pipeline twice, *fused* as written and
*non-fused* with a ``.hide()`` after the source and after every stage (which stops
assembly-time fusion), and compares one event log per run, in the order things
happen: every ``next()`` on a from_iterable source's iterator (``pull v``), every
call of a user function with its arguments (``fn label args``), and the signals the
Single/Maybe observer got (``success v``, ``complete``, ``error type message``), plus
the errors that reached ``plugins.on_error``. The fused run also asserts that the fold
ran (so a comparison cannot pass because nothing was fused).

Cases: the functions all work; a stage's function raises (or, for a mapper/scan
accumulator, returns ``None``) at its K-th call; the aggregation's own function
(reducer, collector) raises or returns ``None``; a stage's function disposes the
observer's Disposable at its K-th call (the loop stops after that item, no signal);
a source that ends with an error (a ``None`` array item, a failing iterator); empty
sources (``reduce`` without seed: an empty Maybe).
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any

import pytest
from probes import RecordingIterable

from rxpy2 import Flowable
from rxpy2._internal.operators.flowable.flowable_sync_chain import FlowableSyncChain
from rxpy2.disposables import Disposable
from rxpy2.observers import MaybeObserver
from rxpy2.observers import SingleObserver

DATA = [3, 3, 1, 4, 4, 4, 2, 5, 1, 6]
K = 4  # a user function fails (raises / returns None / disposes) at its K-th call


class Ctx:
    """What one run shares: the log, the case, the observer's Disposable."""

    def __init__(self, case: str) -> None:
        self.case = case
        self.log: list[Any] = []
        self.disposable: Disposable | None = None
        self.failing_done = False  # only the first function of the kind in play fails

    def fn(self, label: str, base: Callable[..., Any], role: str) -> Callable[..., Any]:
        """A user function that logs its calls; ``role`` is "stage" or "term" (the
        aggregation's own function): the case decides which one misbehaves at call K."""
        calls = [0]
        log = self.log
        fails = self.case.startswith(role) and not self.failing_done
        if fails:
            self.failing_done = True

        def f(*args: Any) -> Any:
            calls[0] += 1
            log.append(("fn", label, *(_show(a) for a in args)))
            if fails and calls[0] == K:
                what = self.case.split("_", 1)[1]
                if what == "raise":
                    raise ValueError(f"{label} failed at call {K}")
                if what == "none":
                    return None
                if what == "dispose":
                    assert self.disposable is not None
                    self.disposable.dispose()
            return base(*args)
        return f


def _show(a: Any) -> Any:
    return list(a) if isinstance(a, (list, set)) else a


class Observer(MaybeObserver[Any], SingleObserver[Any]):
    """A Single/Maybe observer that logs its signals."""

    def __init__(self, ctx: Ctx) -> None:
        self.ctx = ctx

    def on_subscribe(self, d: Disposable) -> None:
        self.ctx.disposable = d

    def on_success(self, item: Any) -> None:
        self.ctx.log.append(("success", _show(item)))

    def on_error(self, error: BaseException) -> None:
        self.ctx.log.append(("error", type(error).__name__, str(error)))

    def on_complete(self) -> None:
        self.ctx.log.append(("complete",))


# ---------------------------------------------------------------------------- the pipelines


def build_source(name: str, ctx: Ctx) -> Flowable[Any]:
    if name == "range":
        return Flowable.range(1, 10)
    if name == "array":
        return Flowable.from_array(DATA)
    if name == "array_none":
        return Flowable.from_array([*DATA[:5], None, *DATA[5:]])
    if name == "just":
        return Flowable.just(4)
    if name == "iterable":
        return Flowable.from_iterable(RecordingIterable(DATA, ctx.log))
    if name == "iterable_fail":
        return Flowable.from_iterable(RecordingIterable(DATA, ctx.log, fail_at=7))
    if name == "iterable_empty":
        return Flowable.from_iterable(RecordingIterable([], ctx.log))
    raise AssertionError(name)


Stage = Callable[[Flowable[Any]], Flowable[Any]]

STAGES: dict[str, Callable[[Ctx], list[Stage]]] = {
    "map": lambda c: [lambda f: f.map(c.fn("map", lambda x: x * 2, "stage"))],
    "filter_map": lambda c: [
        lambda f: f.filter(c.fn("filter", lambda x: x % 2 == 1, "stage")),
        lambda f: f.map(c.fn("map", lambda x: x + 1, "stage"))],
    "map_take": lambda c: [lambda f: f.map(c.fn("map", lambda x: x * 3, "stage")),
                           lambda f: f.take(5)],
    "take_while": lambda c: [
        lambda f: f.take_while(c.fn("take_while", lambda x: x < 5, "stage"))],
    "scan": lambda c: [lambda f: f.scan(c.fn("scan", operator.add, "stage"))],
    "distinct": lambda c: [lambda f: f.distinct_until_changed(),
                           lambda f: f.map(c.fn("map", lambda x: x - 1, "stage"))],
    "distinct_key_scan": lambda c: [
        lambda f: f.distinct_until_changed(c.fn("key", lambda x: x // 2, "stage")),
        lambda f: f.scan(c.fn("scan", operator.mul, "stage"))],
    "skip_while_distinct_cmp": lambda c: [
        lambda f: f.skip_while(c.fn("skip_while", lambda x: x > 2, "stage")),
        lambda f: f.distinct_until_changed(
            comparer=c.fn("comparer", lambda a, b: a == b, "stage"))],
}

#: terminal -> (builds it; whether it has a function of its own that can fail; whether
#: it can return None from it)
TERMINALS: dict[str, tuple[Callable[[Flowable[Any], Ctx], Any], bool, bool]] = {
    "reduce": (lambda f, c: f.reduce(c.fn("reducer", operator.add, "term")), True, True),
    "reduce_seed": (lambda f, c: f.reduce(c.fn("reducer", operator.add, "term"), 100),
                    True, True),
    "reduce_with": (lambda f, c: f.reduce_with(lambda: [], c.fn(
        "reducer", lambda a, x: [*a, x], "term")), True, True),
    "count": (lambda f, c: f.count(), False, False),
    "to_list": (lambda f, c: f.to_list(), False, False),
    "to_sorted_list": (lambda f, c: f.to_sorted_list(reverse=True), False, False),
    "collect": (lambda f, c: f.collect(list, c.fn("collector", list.append, "term")),
                True, False),
    "collect_into": (lambda f, c: f.collect_into(set(), c.fn("collector", set.add, "term")),
                     True, False),
    "last": (lambda f, c: f.last(-1), False, False),
    "last_element": (lambda f, c: f.last_element(), False, False),
    "last_or_error": (lambda f, c: f.last_or_error(), False, False),
}

SOURCES = ("range", "array", "array_none", "just", "iterable", "iterable_fail",
           "iterable_empty")
CASES = ("ok", "stage_raise", "stage_none", "stage_dispose", "term_raise", "term_none")


def run(source: str, stages: str, terminal: str, case: str, fused: bool,
        plugin_errors: list[BaseException]) -> tuple[list[Any], list[Any]]:
    ctx = Ctx(case)
    before = len(plugin_errors)

    def h(f: Flowable[Any]) -> Flowable[Any]:
        return f if fused else f.hide()

    f = h(build_source(source, ctx))
    for stage in STAGES[stages](ctx):
        f = h(stage(f))
    if fused:
        assert type(f) is FlowableSyncChain, type(f)
    TERMINALS[terminal][0](f, ctx).subscribe(Observer(ctx))
    errors = [(type(e).__name__, str(e)) for e in plugin_errors[before:]]
    del plugin_errors[before:]
    return ctx.log, errors


def _wanted(stages: str, terminal: str, case: str) -> bool:
    _, has_fn, can_none = TERMINALS[terminal]
    if case.startswith("term"):
        return has_fn and (case != "term_none" or can_none)
    if case == "stage_none":  # a map or scan whose None result is an error
        return "map" in stages or "scan" in stages
    return True


def _params() -> list[Any]:
    out = []
    for stages in STAGES:
        for terminal in TERMINALS:
            for source in SOURCES:
                for case in CASES:
                    if not _wanted(stages, terminal, case):
                        continue
                    if case != "ok" and source not in ("range", "iterable"):
                        continue  # the error cases over one C-iterator and one user source
                    out.append(pytest.param(source, stages, terminal, case,
                                            id=f"{terminal}-{stages}-{source}-{case}"))
    return out


@pytest.fixture
def folds(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The aggregations that ran as a compiled fold."""
    ran: list[str] = []
    fold = FlowableSyncChain.fold

    def spy(self: FlowableSyncChain[Any], into: Any) -> Any:
        ran.append(into.name)  # the fold the aggregation's subscriber declared
        return fold(self, into)
    monkeypatch.setattr(FlowableSyncChain, "fold", spy)
    return ran


@pytest.mark.parametrize(("source", "stages", "terminal", "case"), _params())
def test_fused_aggregate_equals_unfused(source: str, stages: str, terminal: str, case: str,
                                        plugin_errors: list[BaseException],
                                        folds: list[str]) -> None:
    fused = run(source, stages, terminal, case, True, plugin_errors)
    # (an empty from_iterable completes at subscription: there is nothing to fold)
    ran = 0 if source == "iterable_empty" else 1
    assert len(folds) == ran, "the aggregation did not run as a fold"
    plain = run(source, stages, terminal, case, False, plugin_errors)
    assert len(folds) == ran
    assert fused == plain


def test_reduce_without_seed_over_an_empty_chain_completes_the_maybe(folds: list[str]) -> None:
    got: list[Any] = []
    Flowable.range(1, 5).filter(lambda x: x > 10).reduce(operator.add).subscribe(
        got.append, got.append, lambda: got.append("complete"))
    assert got == ["complete"]
    assert folds == ["reduce"]


def test_a_fused_chain_folds_afresh_per_subscription(folds: list[str]) -> None:
    chain = Flowable.from_array(DATA).scan(operator.add).distinct_until_changed(lambda x: x // 5)
    total = chain.reduce(operator.add)
    assert total.blocking_get() == total.blocking_get()
    assert chain.count().blocking_get() == chain.hide().count().blocking_get()
    assert folds == ["reduce", "reduce", "count"]


def test_fold_is_stack_safe_and_counts_100_000_items(folds: list[str]) -> None:
    n = 100_000
    f = Flowable.range(0, n).scan(operator.add).distinct_until_changed()
    assert f.count().blocking_get() == n  # the running sums never repeat
    assert f.reduce(max).blocking_get() == n * (n - 1) // 2
    assert Flowable.from_iterable(iter(range(n))).map(lambda x: x + 1).to_list() \
        .blocking_get() == list(range(1, n + 1))
    assert folds == ["count", "reduce", "collect"]


def test_dispose_in_a_stage_stops_the_fold_of_a_c_iterator(folds: list[str]) -> None:
    ctx = Ctx("stage_dispose")
    mapper = ctx.fn("map", lambda x: x, "stage")  # disposes at its K-th call
    Flowable.range(0, 1_000_000).map(mapper).count().subscribe(Observer(ctx))
    assert ctx.log == [("fn", "map", x) for x in range(K)]  # no item more, no signal
    assert ctx.disposable is not None and ctx.disposable.is_disposed()
    assert folds == ["count"]


def test_aggregates_over_chains_fold_and_bare_sources_do_not(folds: list[str]) -> None:
    assert Flowable.range(0, 10).count().blocking_get() == 10
    assert folds == []  # a bare source is no chain: its own loop feeds the subscriber
    assert Flowable.range(0, 10).map(lambda x: x).count().blocking_get() == 10
    assert folds == ["count"]



def test_take_last_over_a_chain_folds_into_its_buffer(folds: list[str]) -> None:
    # (test_fused_vs_unfused.py compares take_last over a chain with the operator's under
    # bounded demand: map_take_last, scan_take_last_one)
    f = Flowable.from_array(DATA).map(lambda x: x * 2)
    assert f.take_last(3).to_list().blocking_get() == [10, 2, 12]
    assert f.take_last(1).to_list().blocking_get() == [12]
    assert f.filter(lambda x: x > 100).take_last(1).to_list().blocking_get() == []
    assert folds == ["collect", "last", "last"]


# ---------------------------------------------------------------------------- random chains

RANDOM_STAGES: list[Callable[[Ctx], Stage]] = [
    lambda c: lambda f: f.map(c.fn("map", lambda x: x * 3 % 7, "stage")),
    lambda c: lambda f: f.filter(c.fn("filter", lambda x: x % 3 != 0, "stage")),
    lambda c: lambda f: f.take(6),
    lambda c: lambda f: f.take_while(c.fn("take_while", lambda x: x < 40, "stage")),
    lambda c: lambda f: f.skip_while(c.fn("skip_while", lambda x: x < 2, "stage")),
    lambda c: lambda f: f.scan(c.fn("scan", operator.add, "stage")),
    lambda c: lambda f: f.distinct_until_changed(),
    lambda c: lambda f: f.distinct_until_changed(c.fn("key", lambda x: x // 3, "stage")),
    lambda c: lambda f: f.distinct_until_changed(
        comparer=c.fn("comparer", lambda a, b: a % 2 == b % 2, "stage")),
]


def _random_run(seed: int, fused: bool, plugin_errors: list[BaseException]) -> list[Any]:
    """A random chain over a random source, consumed by a TestSubscriber under a random
    demand script (with a cancel), or by a random aggregation."""
    import random
    rnd = random.Random(seed)
    before = len(plugin_errors)
    ctx = Ctx(rnd.choice(["ok", "ok", "stage_raise", "stage_none"]))
    items = [rnd.randint(0, 9) for _ in range(rnd.randint(0, 25))]
    source = rnd.choice(["array", "iterable"])
    f: Flowable[Any] = (Flowable.from_array(items) if source == "array"
                        else Flowable.from_iterable(RecordingIterable(items, ctx.log)))
    for _ in range(rnd.randint(1, 5)):
        if not fused:
            f = f.hide()
        f = rnd.choice(RANDOM_STAGES)(ctx)(f)
    if rnd.random() < 0.4:
        terminal = rnd.choice(list(TERMINALS))
        TERMINALS[terminal][0](f, ctx).subscribe(Observer(ctx))
    else:
        ts = f.test(0)
        for step in rnd.choice([[2**63 - 1], [1] * 12, [2, 3, 1000], [3, "cancel"], [1, 5]]):
            if step == "cancel":
                ts.cancel()
            else:
                ts.request(step)
            ctx.log.append(("consumer", step, ts.values(), [repr(e) for e in ts.errors()],
                            ts.completions()))
    errors = [(type(e).__name__, str(e)) for e in plugin_errors[before:]]
    del plugin_errors[before:]
    if fused and (items or source == "iterable"):  # (from_array([]) is empty())
        assert isinstance(f, FlowableSyncChain), f
    return [*ctx.log, errors]


@pytest.mark.parametrize("seed", range(400))
def test_random_chains_with_scan_and_distinct_agree_with_the_operators(
        seed: int, plugin_errors: list[BaseException]) -> None:
    assert _random_run(seed, True, plugin_errors) == _random_run(seed, False, plugin_errors)
