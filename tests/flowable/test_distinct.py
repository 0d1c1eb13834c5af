"""distinct and distinct_until_changed."""

from __future__ import annotations

import pytest
from _fusion_probes import OddRejecter
from probes import ManualSource
from probes import Recorded
from probes import SyncFusedProbe
from probes import boom

from rxpy2 import Flowable
from rxpy2._internal.fuseable import ANY
from rxpy2._internal.fuseable import ASYNC
from rxpy2._internal.fuseable import BOUNDARY
from rxpy2._internal.fuseable import NONE
from rxpy2._internal.fuseable import SYNC
from rxpy2._internal.operators.flowable.flowable_distinct import FlowableDistinct
from rxpy2._internal.operators.flowable.flowable_distinct_until_changed import (
    FlowableDistinctUntilChanged,
)
from rxpy2._internal.operators.flowable.flowable_range import FlowableRange
from rxpy2._internal.operators.flowable.flowable_skip_while import FlowableSkipWhile
from rxpy2.processors import UnicastProcessor
from rxpy2.reactivestreams import LONG_MAX
from rxpy2.testing import TestSubscriber

# ----------------------------------------------------------------- distinct


def test_distinct_values():
    Flowable.just(1, 2, 1, 3, 2, 4).distinct().test().assert_result(1, 2, 3, 4)


def test_distinct_with_key():
    Flowable.just("a", "bb", "c", "dd", "eee").distinct(len).test() \
        .assert_result("a", "bb", "eee")


def test_distinct_requests_one_per_dropped_item():
    src = Recorded(0, 10)
    ts = src.flowable.map(lambda x: x // 3).distinct().test(2)
    ts.assert_values(0, 1)
    assert src.requests == [2, 1, 1]


def test_distinct_conditional_source_needs_no_extra_request():
    ts = Flowable.from_array([1, 1, 1, 2, 2, 3]).distinct().test(2)
    ts.assert_values(1, 2).assert_not_complete()
    ts.request(1)
    ts.assert_result(1, 2, 3)


def test_distinct_sync_fusion():
    ts = TestSubscriber().with_fusion(SYNC)
    Flowable.range(0, 10).map(lambda x: x % 3).distinct().subscribe(ts)
    ts.assert_fusion_mode(SYNC).assert_result(0, 1, 2)


def test_distinct_key_raises_cancels_upstream():
    src = Recorded(1, 10)
    src.flowable.distinct(boom).test().assert_failure(ZeroDivisionError)
    assert src.cancels == [1]


def test_distinct_key_returning_none_is_type_error():
    src = Recorded(1, 10)
    src.flowable.distinct(lambda x: None).test().assert_failure(TypeError)
    assert src.cancels == [1]


def test_distinct_unhashable_key_is_type_error():
    Flowable.just([1], [2]).distinct().test().assert_failure(TypeError)


def test_distinct_error_passthrough_and_cancel():
    src = ManualSource()
    ts = src.distinct().test()
    src.emit(1, 1, 2)
    src.error(ValueError("x"))
    ts.assert_failure(ValueError, 1, 2)
    src2 = ManualSource()
    src2.distinct().test().cancel()
    assert src2.cancelled


def test_distinct_fresh_state_per_subscriber():
    f = Flowable.just(1, 2, 1).distinct()
    f.test().assert_result(1, 2)
    f.test().assert_result(1, 2)


def test_distinct_bad_argument():
    with pytest.raises(TypeError):
        Flowable.range(1, 3).distinct(5)  # type: ignore[arg-type]


# ----------------------------------------------------------------- distinct_until_changed


def test_distinct_until_changed_values():
    Flowable.just(1, 1, 2, 2, 2, 1, 3, 3).distinct_until_changed().test() \
        .assert_result(1, 2, 1, 3)


def test_distinct_until_changed_key_and_comparer():
    Flowable.just("a", "b", "cc", "dd", "e").distinct_until_changed(len).test() \
        .assert_result("a", "cc", "e")
    # the comparer decides: "close enough" counts as unchanged (compared to the previous item)
    Flowable.just(1, 2, 5, 6, 10).distinct_until_changed(
        comparer=lambda a, b: abs(a - b) <= 1).test().assert_result(1, 5, 10)


def test_distinct_until_changed_requests_one_per_dropped_item():
    src = Recorded(0, 10)
    ts = src.flowable.map(lambda x: x // 3).distinct_until_changed().test(2)
    ts.assert_values(0, 1)
    assert src.requests == [2, 1, 1]


def test_distinct_until_changed_conditional_downstream():
    # filter below makes the stage's downstream conditional
    Flowable.just(1, 1, 2, 3, 3, 4, 4).distinct_until_changed() \
        .filter(lambda x: x % 2 == 0).test().assert_result(2, 4)
    ts = Flowable.from_array([1, 1, 2, 2, 3, 4]).distinct_until_changed() \
        .filter(lambda x: x != 2).test(2)
    ts.assert_values(1, 3).assert_not_complete()


def test_distinct_until_changed_sync_fusion():
    ts = TestSubscriber().with_fusion(SYNC)
    Flowable.range(0, 9).map(lambda x: x // 3).distinct_until_changed().subscribe(ts)
    ts.assert_fusion_mode(SYNC).assert_result(0, 1, 2)
    ts2 = TestSubscriber().with_fusion(SYNC)
    Flowable.range(0, 9).map(lambda x: x // 3).distinct_until_changed() \
        .filter(lambda x: x > 0).subscribe(ts2)
    ts2.assert_fusion_mode(SYNC).assert_result(1, 2)


@pytest.mark.parametrize("op", [lambda f: f.distinct(), lambda f: f.distinct_until_changed(),
                                lambda f: f.distinct_until_changed().filter(lambda x: True)])
def test_async_fusion_through_take_last_one(op):
    # take_last(1)'s DeferredScalarSubscription fuses in ASYNC mode
    ts = TestSubscriber().with_fusion(ASYNC)
    op(Flowable.range(1, 3).take_last(1)).subscribe(ts)
    ts.assert_fusion_mode(ASYNC).assert_result(3)


@pytest.mark.parametrize("kwargs", [{"key": boom}, {"comparer": boom}])
def test_distinct_until_changed_user_function_raises(kwargs):
    src = Recorded(1, 10)
    ts = src.flowable.distinct_until_changed(**kwargs).test()
    ts.assert_error(ZeroDivisionError).assert_not_complete()
    assert src.cancels == [1]


def test_distinct_until_changed_key_none_is_type_error():
    Flowable.range(1, 3).distinct_until_changed(lambda x: None).test() \
        .assert_failure(TypeError)


def test_distinct_until_changed_error_passthrough_and_cancel():
    src = ManualSource()
    ts = src.distinct_until_changed().test()
    src.emit(1, 1, 2)
    src.error(ValueError("x"))
    ts.assert_failure(ValueError, 1, 2)
    src2 = ManualSource()
    src2.distinct_until_changed().test().cancel()
    assert src2.cancelled


def test_distinct_until_changed_bad_arguments():
    with pytest.raises(TypeError):
        Flowable.range(1, 3).distinct_until_changed(1)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        Flowable.range(1, 3).distinct_until_changed(comparer=2)  # type: ignore[arg-type]


# ---------------------------------------------------------------- fusion and try_on_next (issue 6)
# distinct, distinct_until_changed and skip_while (whose other tests are in
# test_take_skip.py), built directly over FlowableRange so that no assembly-time fusion
# replaces them; UnicastProcessor is the ASYNC-fusable upstream.

STAGES = {
    "distinct": (lambda src: FlowableDistinct(src, None), [0, 1, 2, 3], [0, 1, 2, 3]),
    "distinct_until_changed": (lambda src: FlowableDistinctUntilChanged(src, None, None),
                               [0, 0, 1, 1, 2], [0, 1, 2]),
    "skip_while": (lambda src: FlowableSkipWhile(src, lambda x: x < 2), [0, 1, 2, 3, 1],
                   [2, 3, 1]),
}


@pytest.mark.parametrize("stage", list(STAGES))
def test_stage_async_fused_forwards_the_ready_signal(stage):
    make, items, expected = STAGES[stage]
    up = UnicastProcessor()
    ts = TestSubscriber().with_fusion(ANY)
    make(up).subscribe(ts)
    ts.assert_fusion_mode(ASYNC)
    for x in items:
        up.on_next(x)
    # polled on the "ready" signals (a fused TestSubscriber also polls at on_complete)
    ts.assert_values(*expected).assert_not_complete()
    up.on_complete()
    ts.assert_result(*expected)


@pytest.mark.parametrize("stage", list(STAGES))
def test_stage_refuses_fusion_across_a_boundary(stage):
    make, items, expected = STAGES[stage]
    probe = SyncFusedProbe(3)
    ts = TestSubscriber().with_fusion(ANY | BOUNDARY)
    make(probe).subscribe(ts)
    ts.assert_fusion_mode(NONE)
    assert probe.modes == []  # refused without asking the source
    up = UnicastProcessor()
    ts = TestSubscriber().with_fusion(ANY | BOUNDARY)
    make(up).subscribe(ts)
    ts.assert_fusion_mode(NONE)
    for x in items:
        up.on_next(x)
    up.on_complete()
    ts.assert_result(*expected)


@pytest.mark.parametrize("stage", list(STAGES))
def test_stage_conditional_variant_uses_try_on_next(stage):
    make = STAGES[stage][0]
    c = OddRejecter()
    make(FlowableRange(0, 10)).subscribe(c)
    c.s.request(2)
    first = 2 if stage == "skip_while" else 0  # skip_while drops 0 and 1 itself
    # the odd items the downstream drops use no demand
    assert c.accepted == [first, first + 2] and c.offered == [first, first + 1, first + 2]
    c.s.request(LONG_MAX)
    assert c.completed and c.error is None
    assert c.offered == list(range(first, 10))


def test_distinct_conditional_variant_key_raising():
    c = OddRejecter()
    FlowableDistinct(FlowableRange(0, 10), lambda x: boom() if x == 3 else x).subscribe(c)
    c.s.request(LONG_MAX)
    assert c.offered == [0, 1, 2] and isinstance(c.error, ZeroDivisionError)
