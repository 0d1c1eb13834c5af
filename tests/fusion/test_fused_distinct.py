"""distinct(key) (the keys seen kept in the default set) as a synchronous-chain stage
equals the operator.

Random chains mixing it with the other fusable stages run *fused* (asserted to be one
``FlowableSyncChain``) and *unfused* (``hide()`` before every stage) over six sources,
under five demand scripts, with each user function raising in turn (an unhashable key
too) and with a cancel inside ``on_next``; one log per run records the requests, the
source reads, the user functions' calls and the signals, in order, and must be the same.
"""

from __future__ import annotations

import operator
import random
from collections.abc import Callable
from collections.abc import Iterator
from typing import Any

import pytest
from probes import Script

from rxpy2 import Flowable
from rxpy2._internal.fuseable import ANY
from rxpy2._internal.fuseable import BOUNDARY
from rxpy2._internal.fuseable import NONE
from rxpy2._internal.fuseable import SYNC
from rxpy2._internal.operators.flowable.flowable_sync_chain import FlowableSyncChain
from rxpy2.reactivestreams import LONG_MAX
from rxpy2.testing import TestSubscriber

K = 3  # a failing user function raises at its K-th call


class Boom(Exception):
    pass


class Run:
    """One run's log and the label of the function that fails."""

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
        return f


class Recording:
    """An iterable logging each read (and failing at ``fail_at``)."""

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


#: stage name -> (method, its arguments from a Run and the stage's label)
STAGES: dict[str, Callable[[Run, str], tuple[str, tuple[Any, ...]]]] = {
    "distinct_items": lambda r, lb: ("distinct", ()),
    "distinct_half": lambda r, lb: ("distinct", (r.fn(lb, lambda x: x // 2),)),
    "distinct_mod": lambda r, lb: ("distinct", (r.fn(lb, lambda x: x % 4),)),
    "distinct_list": lambda r, lb: ("distinct", (r.fn(lb, lambda x: [x] if x > 9 else x),)),
    "map": lambda r, lb: ("map", (r.fn(lb, lambda x: x + 1),)),
    "filter": lambda r, lb: ("filter", (r.fn(lb, lambda x: x % 3 != 0),)),
    "take": lambda r, lb: ("take", (5,)),
    "take_while": lambda r, lb: ("take_while", (r.fn(lb, lambda x: x < 300),)),
    "skip_while": lambda r, lb: ("skip_while", (r.fn(lb, lambda x: x < 2),)),
    "do_on_next": lambda r, lb: ("do_on_next", (r.fn(lb, lambda x: None),)),
    "scan": lambda r, lb: ("scan", (r.fn(lb, operator.add),)),
    "scan_seed": lambda r, lb: ("scan", (r.fn(lb, operator.add), 1)),
    "changed": lambda r, lb: ("distinct_until_changed", (r.fn(lb, lambda x: x // 2),)),
    "skip_last": lambda r, lb: ("skip_last", (2,)),
}
NEW = ["distinct_items", "distinct_half", "distinct_mod", "distinct_list"]
OTHERS = ["map", "filter", "take", "take_while", "skip_while", "do_on_next", "scan",
          "scan_seed", "changed", "skip_last"]
NO_FUNCTION = {"take", "skip_last", "distinct_items"}

SCRIPTS: dict[str, list[int]] = {
    "unbounded": [LONG_MAX], "ones": [1] * 40, "two_three": [2, 3, 1000],
    "seven_max": [7, LONG_MAX], "one_then_100": [1, 100],
}
SOURCES = ["range", "array", "array_none", "iterable", "iterable_fails", "just"]


def random_chains(count: int, seed: int) -> list[tuple[str, ...]]:
    rnd = random.Random(seed)
    out: list[tuple[str, ...]] = []
    while len(out) < count:
        chain = tuple(rnd.choice(NEW + OTHERS) for _ in range(rnd.randint(1, 4)))
        if any(s in NEW for s in chain):
            out.append(chain)
    return out


def build(run: Run, src: str, chain: tuple[str, ...], hide: bool) -> Flowable[Any]:
    data = [1, 2, 2, 3, 4, 4, 4, 5, 7, 8, 8, 9, 10, 11, 13]
    f: Flowable[Any]
    if src == "range":
        f = Flowable.range(1, 14)
    elif src == "array":
        f = Flowable.from_array(data)
    elif src == "array_none":
        f = Flowable.from_array([*data[:5], None, 1])
    elif src == "iterable":
        f = Flowable.from_iterable(Recording(data, run.log, None))
    elif src == "iterable_fails":
        f = Flowable.from_iterable(Recording(data, run.log, 6))
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
    for n, chain in enumerate(random_chains(40, 20261202)):
        src = SOURCES[n % len(SOURCES)]
        fails: list[str | None] = [None, *(f"{name}{i}" for i, name in enumerate(chain)
                                           if name not in NO_FUNCTION)]
        name = ".".join(chain)
        for script in SCRIPTS:
            for fail in fails:
                cases.append(pytest.param(src, chain, script, fail, None,
                                          id=f"{src}-{name}-{script}-{fail}"))
            # (a cancel at the first item, the seed of a seeded scan, is left out: there
            # the operator emits it inside the consumer's on_subscribe, the chain after it)
            for cancel_at in (3,) if "scan_seed" in chain else (1, 3):
                cases.append(pytest.param(src, chain, script, None, cancel_at,
                                          id=f"{src}-{name}-{script}-cancel@{cancel_at}"))
    return cases


@pytest.mark.parametrize(("src", "chain", "script", "fail", "cancel_at"), _cases())
def test_fused_equals_unfused(src: str, chain: tuple[str, ...], script: str, fail: str | None,
                              cancel_at: int | None) -> None:
    assert execute(src, chain, script, False, fail, cancel_at) == \
        execute(src, chain, script, True, fail, cancel_at)


def test_the_random_chains_use_every_variant() -> None:
    used = {s for chain in random_chains(40, 20261202) for s in chain}
    assert set(NEW) <= used


# ---------------------------------------------------------------- the stage itself


def test_distinct_joins_a_chain_with_the_default_set_only() -> None:
    f = Flowable.from_array([3, 1, 3, 2, 1]).map(lambda x: x * 2).distinct()
    assert isinstance(f, FlowableSyncChain)
    assert [k.name for k, _ in f.stages] == ["map", "distinct_set"]
    f.test().assert_result(6, 2, 4)
    g = Flowable.range(0, 10).distinct(lambda x: x % 3)
    assert isinstance(g, FlowableSyncChain)
    g.test().assert_result(0, 1, 2)
    # each subscription has its own set
    g.test().assert_result(0, 1, 2)
    # a collection factory, or another upstream: the operator
    assert not isinstance(Flowable.range(0, 10).distinct(None, list), FlowableSyncChain)
    assert not isinstance(Flowable.range(0, 10).hide().distinct(), FlowableSyncChain)


def test_a_chain_holding_it_fuses_sync_but_not_across_a_boundary() -> None:
    ts: TestSubscriber[Any] = TestSubscriber().with_fusion(ANY)
    Flowable.range(0, 6).map(lambda x: x % 3).distinct().subscribe(ts)
    ts.assert_fusion_mode(SYNC).assert_result(0, 1, 2)
    for f in (Flowable.range(0, 6).distinct(), Flowable.range(0, 6).hide().distinct()):
        ts = TestSubscriber().with_fusion(ANY | BOUNDARY)
        f.subscribe(ts)
        ts.assert_fusion_mode(NONE).assert_result(0, 1, 2, 3, 4, 5)


def test_folds_sinks_and_errors_equal_the_operator() -> None:
    def chain(hide: bool, key: Any = None) -> Flowable[Any]:
        f: Flowable[Any] = Flowable.from_iterable([5, 1, 5, 2, 1, 7, 2])
        f = (f.hide() if hide else f).map(lambda x: x * 3)
        return (f.hide() if hide else f).distinct(key)
    assert isinstance(chain(False), FlowableSyncChain)
    expected = chain(True).to_list().blocking_get()
    assert expected == [15, 3, 6, 21]
    assert chain(False).to_list().blocking_get() == expected
    assert chain(False).count().blocking_get() == len(expected)
    got: list[Any] = []
    chain(False).subscribe(got.append)
    assert got == expected
    for key in (lambda x: None, lambda x: [x]):  # a None key, an unhashable one
        plain, fused = chain(True, key).test(), chain(False, key).test()
        assert fused.values() == plain.values() == []
        assert [repr(e) for e in fused.errors()] == [repr(e) for e in plain.errors()]
