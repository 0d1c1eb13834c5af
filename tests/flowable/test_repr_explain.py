"""Readable at runtime (issue 14 item 6): repr() shows the chain, explain() shows it stage
by stage, and a traceback through a fused chain shows the generated line."""

from __future__ import annotations

import gc
import linecache
import traceback
from functools import partial
from typing import Any

from rxpy2 import Flowable
from rxpy2._internal import describe
from rxpy2._internal.helpers import stage_compiler
from rxpy2.completable import Completable
from rxpy2.maybe import Maybe
from rxpy2.schedulers import Schedulers
from rxpy2.single import Single


def parse(x: Any) -> int:
    return int(x)


def boom_at_3(x: int) -> int:
    if x == 3:
        raise ValueError("boom")
    return x


# ---------------------------------------------------------------------------- repr


def test_repr_of_a_fused_chain_shows_source_and_stages() -> None:
    f = Flowable.range(1, 10).map(parse).filter(lambda x: x > 2)
    assert repr(f) == "range(1, 10) → map(parse) → filter(<lambda>)"


def test_repr_of_plain_operators() -> None:
    f = (Flowable.from_iterable([1, 2, 3]).hide().map(parse).take(3)
         .observe_on(Schedulers.trampoline()).flat_map(lambda x: Flowable.just(x)))
    assert repr(f) == ("from_iterable([1, 2, 3]) → hide() → map(parse) → take(3) → "
                       "observe_on(TrampolineScheduler) → flat_map(<lambda>)")


def test_repr_of_a_map_filter_run_over_an_operator_shows_its_stages() -> None:
    f = Flowable.range(1, 5).hide().map(parse).filter(bool).map(str)
    assert describe.chain_repr(f).endswith("hide() → map(parse) → filter(bool) → map(str)")
    assert repr(f.take(1)).endswith("hide() → map(parse) → filter(bool) → map(str) → take(1)")


def test_repr_names_sources_with_truncated_arguments() -> None:
    assert repr(Flowable.just(1)) == "just(1)"
    assert repr(Flowable.from_array(list(range(100)))).startswith("from_array([0, 1, 2, 3, ...")
    assert repr(Flowable.from_iterable("x" * 100).hide()).startswith("from_iterable('xxxxx")
    assert len(repr(Flowable.from_iterable("x" * 100))) < 60
    assert repr(Flowable.range(1, 5).map(partial(parse))) == "range(1, 5) → map(partial(parse))"


def test_repr_of_a_long_chain_is_elided_in_the_middle() -> None:
    f = Flowable.range(0, 10)
    for _ in range(30):
        f = f.hide()
    text = repr(f)
    assert text.startswith("range(0, 10) → hide()")
    assert "… 20 more …" in text
    assert text.count("→") == describe.MAX_SHOWN - 1


def test_repr_of_the_other_types() -> None:
    assert repr(Single.just(1).map(parse)) == "just(1) → map(parse)"
    assert repr(Maybe.just(1).filter(bool)) == "just(1) → filter(bool)"
    assert repr(Completable.complete().and_then(Single.just(1))) == "complete() → and_then(just(1))"
    assert repr(Flowable.range(1, 5).count()) == "range(1, 5) → count()"
    assert (repr(Flowable.range(1, 5).parallel(2).map(parse).sequential())
            == "range(1, 5) → parallel(2) → map(parse) → sequential()")
    assert repr(Flowable.range(1, 3).publish().ref_count()).startswith("range(1, 3) → publish(")


def test_repr_never_raises_on_a_user_subclass() -> None:
    class Mine(Flowable[int]):
        __slots__ = ("weird",)

        def __init__(self) -> None:
            self.weird = self

        def subscribe_actual(self, subscriber: Any) -> None:
            raise NotImplementedError

    assert repr(Mine().map(parse)).startswith("mine(")


# ---------------------------------------------------------------------------- explain


def test_explain_one_line_per_stage_with_fusion() -> None:
    f = Flowable.range(1, 10).map(parse).filter(lambda x: x > 2).observe_on(
        Schedulers.trampoline())
    lines = f.explain().splitlines()
    assert len(lines) == 4
    assert "source" in lines[0] and "range(1, 10)" in lines[0] and "sync chain" in lines[0]
    assert "map(parse)" in lines[1] and "macro-fused stage 1/2" in lines[1]
    assert "filter(<lambda at test_repr_explain.py:" in lines[2]
    assert "macro-fused stage 2/2" in lines[2]
    assert "observe_on" in lines[3] and "ASYNC" in lines[3]


def test_explain_of_operators_and_micro_fusion() -> None:
    f = Flowable.from_iterable([1]).hide().map(parse)
    lines = f.explain().splitlines()
    assert [line.split()[1] for line in lines] == ["source", "operator", "operator"]
    assert "offers SYNC fusion" in lines[0]
    assert "passes SYNC/ASYNC fusion through" in lines[2]


def test_explain_on_single() -> None:
    assert "map(parse)" in Single.just(1).map(parse).explain()


# ---------------------------------------------------------------------------- tracebacks


def _formatted(f: Flowable[Any]) -> str:
    err = f.test().errors()[0]
    return "".join(traceback.format_exception(err))


def test_traceback_through_a_fused_chain_shows_the_generated_line() -> None:
    text = _formatted(Flowable.range(1, 5).map(boom_at_3).filter(bool))
    assert "<rxpy2 fused chain: map/filter over plain" in text
    assert "x = f0(x)" in text
    assert "boom_at_3" in text


def test_traceback_through_a_fused_step_shows_the_generated_line() -> None:
    text = _formatted(Flowable.range(1, 5).hide().filter(bool).map(boom_at_3))
    assert "<rxpy2 fused step: filter/map" in text
    assert "x = f1(x)" in text


def test_linecache_entry_lives_while_the_code_does() -> None:
    code = stage_compiler.compile_registered("def f():\n    return 1\n", "test")
    name = code.co_filename
    assert linecache.getline(name, 2).strip() == "return 1"
    linecache.checkcache()  # no file behind it: kept
    assert linecache.getline(name, 2).strip() == "return 1"
    del code
    gc.collect()
    assert name not in linecache.cache
