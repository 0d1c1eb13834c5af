"""scan with a seed, skip_last, buffer(count) and distinct_until_changed(key, comparer)
as synchronous-chain stages equal the ordinary operators.

Random chains over ``range``, ``from_array`` and ``from_iterable`` (a recording iterator)
mix the new stages with map/filter/take/take_while/skip_while/do_on_next/scan/
distinct_until_changed. Each chain runs *fused* (as written: asserted to be one
``FlowableSyncChain``) and *unfused* (``hide()`` before every stage), under each demand
script, with a user function raising at its third call at each position, and with a
cancel inside ``on_next``. One event log per run records, in order: the consumer's
requests, every read of the source iterator, every call of a user function, every
signal. Every run must give the same log fused and unfused. (A chain with a seeded scan
runs its compiled loop only under unbounded demand; otherwise the seeded scan and the
stages after it run as operators, reading ``prefetch`` ahead as RxJava 2's does.)
"""

from __future__ import annotations

import operator
import random
import sys
from collections.abc import Callable
from collections.abc import Iterator
from typing import Any

import pytest
from probes import Script

from rxpy2 import Flowable
from rxpy2._internal.operators.flowable.flowable_sync_chain import FlowableSyncChain
from rxpy2.reactivestreams import LONG_MAX
from rxpy2.testing import TestSubscriber

K = 3  # a failing user function raises at its K-th call


class Boom(Exception):
    pass


class Run:
    """One run's log and its failing function (by label)."""

    def __init__(self, fail: str | None) -> None:
        self.log: list[Any] = []
        self.fail = fail

    def fn(self, label: str, base: Callable[..., Any]) -> Callable[..., Any]:
        calls = [0]
        log = self.log
        fails = label == self.fail

        def f(*args: Any) -> Any:
            calls[0] += 1
            log.append(("fn", label, *(tuple(a) if isinstance(a, list) else a for a in args)))
            if fails and calls[0] == K:
                raise Boom(f"{label} at call {K}")
            return base(*args)
        f.__name__ = label
        return f


class Recording:
    def __init__(self, items: list[Any], log: list[Any], fail_at: int | None) -> None:
        self.items = items
        self.log = log
        self.fail_at = fail_at

    def __iter__(self) -> Iterator[Any]:
        self.log.append(("iter",))
        for i, x in enumerate(self.items):
            if i == self.fail_at:
                self.log.append(("pull-fails", i))
                raise Boom("iterator failed")
            self.log.append(("pull", x))
            yield x


def _is_odd(x: Any) -> bool:
    return x % 2 == 1


#: stage name -> (method, how its arguments are made from a Run and the stage's label)
STAGES: dict[str, Callable[[Run, str], tuple[str, tuple[Any, ...]]]] = {
    "map": lambda r, lb: ("map", (r.fn(lb, lambda x: x + 1),)),
    "filter": lambda r, lb: ("filter", (r.fn(lb, lambda x: x % 3 != 0),)),
    "odd": lambda r, lb: ("filter", (r.fn(lb, _is_odd),)),
    "take": lambda r, lb: ("take", (5,)),
    "take_while": lambda r, lb: ("take_while", (r.fn(lb, lambda x: x < 300),)),
    "skip_while": lambda r, lb: ("skip_while", (r.fn(lb, lambda x: x < 2),)),
    "do_on_next": lambda r, lb: ("do_on_next", (r.fn(lb, lambda x: None),)),
    "scan": lambda r, lb: ("scan", (r.fn(lb, operator.add),)),
    "distinct": lambda r, lb: ("distinct_until_changed", (r.fn(lb, lambda x: x // 2),)),
    # the new stages
    "scan_seed": lambda r, lb: ("scan", (r.fn(lb, operator.add), 100)),
    "skip_last1": lambda r, lb: ("skip_last", (1,)),
    "skip_last3": lambda r, lb: ("skip_last", (3,)),
    "buffer2": lambda r, lb: ("buffer", (2,)),
    "buffer3": lambda r, lb: ("buffer", (3,)),
    "sum": lambda r, lb: ("map", (r.fn(lb, sum),)),  # (after a buffer: lists back to ints)
    "distinct_both": lambda r, lb: ("distinct_until_changed",
                                    (r.fn(lb + "k", lambda x: x % 3),
                                     r.fn(lb + "c", lambda a, b: a == b))),
}
NEW = ["scan_seed", "skip_last1", "skip_last3", "buffer2", "buffer3", "distinct_both"]
OLD = ["map", "filter", "odd", "take", "take_while", "skip_while", "do_on_next", "scan",
       "distinct"]
STOPPING = {"take", "take_while"}

SCRIPTS: dict[str, list[int]] = {
    "unbounded": [LONG_MAX], "ones": [1] * 40, "two_three": [2, 3, 1000], "seven_max": [7, LONG_MAX],
    "one_then_100": [1, 100],
}


def random_chains(count: int, seed: int) -> list[tuple[str, ...]]:
    rnd = random.Random(seed)
    out: list[tuple[str, ...]] = []
    while len(out) < count:
        chain: list[str] = []
        buffered = False
        for _ in range(rnd.randint(1, 5)):
            pool = [s for s in NEW + OLD if not (buffered and (s in STOPPING or s.startswith("buffer")))]
            s = rnd.choice(pool)
            chain.append(s)
            if s.startswith("buffer"):
                buffered = True
                chain.append("sum")
        if any(s in NEW for s in chain):
            out.append(tuple(chain))
    return out


def build(run: Run, src: str, chain: tuple[str, ...], hide: bool) -> Flowable[Any]:
    f: Flowable[Any]
    data = [1, 2, 2, 3, 4, 4, 4, 5, 7, 8, 8, 9, 10, 11, 13]
    if src == "range":
        f = Flowable.range(1, 14)
    elif src == "array":
        f = Flowable.from_array(data)
    elif src == "array_none":
        f = Flowable.from_array([*data[:9], None, 1])
    elif src == "iterable":
        f = Flowable.from_iterable(Recording(data, run.log, None))
    elif src == "iterable_fails":
        f = Flowable.from_iterable(Recording(data, run.log, 8))
    elif src == "iterable_empty":
        f = Flowable.from_iterable(Recording([], run.log, None))
    else:
        f = Flowable.just(4)
    for i, name in enumerate(chain):
        method, args = STAGES[name](run, f"{name}{i}")
        if hide:
            f = f.hide()
        f = getattr(f, method)(*args)
    return f


def execute(src: str, chain: tuple[str, ...], script: str, hide: bool, fail: str | None,
            cancel_at: int | None) -> list[Any]:
    run = Run(fail)
    f = build(run, src, chain, hide)
    if not hide:
        assert isinstance(f, FlowableSyncChain), (chain, f)
    f.subscribe(Script(SCRIPTS[script], run.log, cancel_at))
    return run.log


def _cases() -> list[Any]:
    cases = []
    sources = ["range", "array", "array_none", "iterable", "iterable_fails", "iterable_empty",
               "just"]
    for n, chain in enumerate(random_chains(50, 20261125)):
        src = sources[n % len(sources)]
        labels = [f"{name}{i}" for i, name in enumerate(chain)
                  if name not in ("take", "skip_last1", "skip_last3", "buffer2", "buffer3")]
        labels = [lb for label in labels
                  for lb in ((label + "k", label + "c") if label.startswith("distinct_both")
                             else (label,))]
        fails: list[str | None] = [None, *labels]
        for script in SCRIPTS:
            for fail in fails:
                cases.append(pytest.param(src, chain, script, fail, None,
                                          id=f"{src}-{'.'.join(chain)}-{script}-{fail}"))
            cases.append(pytest.param(src, chain, script, None, 3,
                                      id=f"{src}-{'.'.join(chain)}-{script}-cancel@3"))
    return cases


def _items(log: list[Any]) -> list[Any]:
    return [e for e in log if e[0] == "item"]


def _end(log: list[Any]) -> Any:
    ends = [e for e in log if e[0] in ("error", "complete")]
    assert len(ends) <= 1, log
    return ends[0] if ends else None


@pytest.mark.parametrize(("src", "chain", "script", "fail", "cancel_at"), _cases())
def test_fused_equals_unfused(src: str, chain: tuple[str, ...], script: str, fail: str | None,
                              cancel_at: int | None) -> None:
    fused = execute(src, chain, script, False, fail, cancel_at)
    plain = execute(src, chain, script, True, fail, cancel_at)
    assert fused == plain


def test_random_chains_use_every_new_stage() -> None:
    used = {s for chain in random_chains(50, 20261125) for s in chain}
    assert set(NEW) <= used


# ---------------------------------------------------------------- the stages themselves


def test_the_new_stages_join_a_chain() -> None:
    f = Flowable.range(0, 10).map(lambda x: x).scan(operator.add, 0).skip_last(2).buffer(3) \
        .distinct_until_changed(sum, operator.eq)
    assert isinstance(f, FlowableSyncChain)
    assert [k.name for k, _ in f.stages] == ["map", "scan_seed", "skip_last", "buffer", "distinct_both"]
    assert f.test().values() == [[0, 0, 1], [3, 6, 10], [15, 21, 28]]
    # after a buffer nothing that stops the chain (or another buffer) joins it
    b = Flowable.range(0, 10).buffer(2)
    for g in (b.take(1), b.take_while(lambda x: True), b.buffer(2)):
        assert not isinstance(g, FlowableSyncChain)
    assert b.take(2).test().values() == [[0, 1], [2, 3]]
    # buffer with skip or a factory, and scan_with, stay operators
    assert not isinstance(Flowable.range(0, 10).buffer(2, 3), FlowableSyncChain)
    assert not isinstance(Flowable.range(0, 10).buffer(2, buffer_factory=list), FlowableSyncChain)
    assert not isinstance(Flowable.range(0, 10).scan_with(lambda: 0, operator.add),
                          FlowableSyncChain)


def test_seeded_scan_over_an_empty_iterable_emits_the_seed() -> None:
    f = Flowable.from_iterable(iter(())).map(lambda x: x).scan(operator.add, 7)
    assert isinstance(f, FlowableSyncChain)
    ts: TestSubscriber[Any] = TestSubscriber(0)
    f.subscribe(ts)
    ts.assert_no_values().assert_not_complete()
    ts.request(1)
    ts.assert_result(7)


def test_two_seeds_go_out_last_first() -> None:
    def chain(hide: bool) -> Flowable[Any]:
        f: Flowable[Any] = Flowable.range(1, 3)
        f = f.hide() if hide else f
        f = f.scan(operator.add, 10)
        f = f.hide() if hide else f
        return f.scan(lambda a, b: a * 1000 + b, 5)
    assert isinstance(chain(False), FlowableSyncChain)
    for script in ([1, 1, 1, 1, 1, 1], [2, 5], [LONG_MAX]):
        expected = chain(True).test(0)
        actual = chain(False).test(0)
        for n in script:
            expected.request(n)
            actual.request(n)
            assert actual.values() == expected.values()
            assert actual.completions() == expected.completions()
    assert chain(False).test().values()[:2] == [5, 5010]


def test_buffer_flush_then_complete_even_if_cancelled_in_it() -> None:
    for hide in (False, True):
        src = Flowable.range(0, 5)
        f = (src.hide() if hide else src).buffer(2)
        ts: TestSubscriber[Any] = TestSubscriber()

        class CancelAtPartial(TestSubscriber[Any]):
            def on_next(self, item: Any) -> None:
                super().on_next(item)
                if len(item) == 1:
                    self.cancel()
        ts = CancelAtPartial()
        f.subscribe(ts)
        ts.assert_result([0, 1], [2, 3], [4])


def test_folds_and_sinks_over_the_new_stages() -> None:
    def chain(hide: bool) -> Flowable[Any]:
        f: Flowable[Any] = Flowable.from_iterable(range(11))
        for name, args in (("scan", (operator.add, 1)), ("skip_last", (2,)), ("buffer", (3,)),
                           ("map", (sum,)), ("distinct_until_changed", (lambda x: x % 4,
                                                                        operator.eq))):
            f = getattr(f.hide() if hide else f, name)(*args)
        return f
    assert isinstance(chain(False), FlowableSyncChain)
    expected = chain(True).to_list().blocking_get()
    assert chain(False).to_list().blocking_get() == expected
    assert chain(False).count().blocking_get() == len(expected)
    got: list[Any] = []
    chain(False).subscribe(got.append)
    assert got == expected
    # as a synchronous inner of flat_map (its generator)
    inner = Flowable.range(0, 3).flat_map(lambda _: chain(False)).to_list().blocking_get()
    assert inner == expected * 3


def _called_by_compiled_loop() -> bool:
    """Whether the caller's caller is a chain's generated code (its pseudo-file): a user
    function called by the loop itself, not by an operator the loop feeds."""
    return sys._getframe(2).f_code.co_filename.startswith("<rxpy2 fused chain")


def test_seeded_scan_runs_the_compiled_loop_only_under_unbounded_demand() -> None:
    """Bounded demand: the seeded scan is RxJava 2's operator (it asks its upstream for
    127 items in its ``on_subscribe``, so the accumulator's error at its third call comes
    before any demand, the seed and the results queued for lack of demand dropped);
    unbounded: the compiled loop, with the same signals."""
    where: list[bool] = []

    def acc(a: int, b: int) -> int:
        where.append(_called_by_compiled_loop())
        if len(where) == 3:
            raise Boom("accumulator failed")
        return a + b

    def chain() -> Flowable[Any]:
        return Flowable.range(1, 9).map(lambda x: x * 2).scan(acc, 10).map(lambda x: x + 1)
    assert isinstance(chain(), FlowableSyncChain)
    ts: TestSubscriber[Any] = TestSubscriber(0)
    chain().subscribe(ts)
    ts.assert_failure(Boom)  # no item: the error was met reading ahead, before any demand
    assert where == [False, False, False]
    where.clear()
    chain().test(2).assert_failure(Boom, 11, 13)  # demand made in on_subscribe: seed, one result
    assert where == [False, False, False]
    where.clear()
    chain().test().assert_failure(Boom, 11, 13, 17)
    assert where == [True, True, True]


def test_seeded_scan_under_bounded_demand() -> None:
    """The iterator's error reaches the consumer at once, the queued results dropped, as
    from FlowableScanSeed reading ahead; under unbounded demand after all the items."""
    def items() -> Iterator[int]:
        yield from (1, 2, 3)
        raise Boom("source failed")

    def run(f: Flowable[Any]) -> TestSubscriber[Any]:
        ts: TestSubscriber[Any] = TestSubscriber(0)
        f.subscribe(ts)
        ts.request(2)
        return ts
    fused = run(Flowable.from_iterable(items()).scan(operator.add, 10))
    plain = run(Flowable.from_iterable(items()).hide().scan(operator.add, 10))
    for ts in (fused, plain):
        assert ts.values() == [] and [type(e) for e in ts.errors()] == [Boom]
    run_all = [f.test() for f in (Flowable.from_iterable(items()).scan(operator.add, 10),
                                  Flowable.from_iterable(items()).hide().scan(operator.add, 10))]
    for ts in run_all:
        ts.assert_failure(Boom, 10, 11, 13, 16)
