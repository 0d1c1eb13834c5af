"""default_if_empty and switch_if_empty."""

from __future__ import annotations

import pytest
from probes import ManualSource
from probes import Recorded

from rxpy2 import Flowable
from rxpy2.reactivestreams import LONG_MAX

# ----------------------------------------------------------------- default_if_empty


def test_default_if_empty_non_empty_passes_through():
    src = Recorded(1, 3)
    ts = src.flowable.default_if_empty(0).test(2)
    ts.assert_values(1, 2).assert_not_complete()
    ts.request(1)
    ts.assert_result(1, 2, 3)
    assert src.requests == [2, 1]


def test_default_if_empty_emits_default():
    Flowable.empty().default_if_empty(9).test().assert_result(9)


def test_default_if_empty_default_waits_for_demand():
    src = ManualSource()
    ts = src.default_if_empty(9).test(0)
    src.complete()
    ts.assert_empty()
    ts.request(1)
    ts.assert_result(9)


def test_default_if_empty_demand_before_completion():
    src = ManualSource()
    ts = src.default_if_empty(9).test(1)
    assert src.requests == [1]
    ts.assert_empty()
    src.complete()
    ts.assert_result(9)


def test_default_if_empty_error_passthrough():
    Flowable.error(ValueError("x")).default_if_empty(1).test().assert_failure(ValueError)


def test_default_if_empty_cancel_reaches_upstream():
    src = ManualSource()
    src.default_if_empty(1).test().cancel()
    assert src.cancelled


def test_default_if_empty_request_race_with_completion(race_runner, race_rounds):
    for _ in range(race_rounds):
        src = ManualSource()
        ts = src.default_if_empty(9).test(0)
        race_runner.race(src.complete, lambda ts=ts: ts.request(1))
        ts.assert_result(9).assert_protocol_ok()


def test_default_if_empty_bad_argument():
    with pytest.raises(TypeError):
        Flowable.empty().default_if_empty(None)


# ----------------------------------------------------------------- switch_if_empty


def test_switch_if_empty_non_empty_ignores_other():
    other = ManualSource()
    Flowable.range(1, 3).switch_if_empty(other).test().assert_result(1, 2, 3)
    assert other.subscriptions == 0


def test_switch_if_empty_switches():
    Flowable.empty().switch_if_empty(Flowable.range(1, 3)).test().assert_result(1, 2, 3)


def test_switch_if_empty_carries_demand_to_other():
    main = ManualSource()
    other = Recorded(1, 10)
    ts = main.switch_if_empty(other.flowable).test(3)
    assert main.requests == [3]
    main.complete()
    assert other.requests == [3]
    ts.assert_values(1, 2, 3).assert_not_complete()
    ts.request(2)
    assert other.requests == [3, 2]
    ts.assert_values(1, 2, 3, 4, 5)


def test_switch_if_empty_unbounded_demand_carried():
    other = Recorded(1, 2)
    Flowable.empty().switch_if_empty(other.flowable).test().assert_result(1, 2)
    assert other.requests == [LONG_MAX]


def test_switch_if_empty_demand_after_switch_only():
    other = Recorded(1, 3)
    ts = Flowable.empty().switch_if_empty(other.flowable).test(0)
    assert other.requests == []
    ts.request(2)
    ts.assert_values(1, 2)
    assert other.requests == [2]


def test_switch_if_empty_errors():
    Flowable.error(ValueError("x")).switch_if_empty(Flowable.just(1)).test() \
        .assert_failure(ValueError)
    Flowable.empty().switch_if_empty(Flowable.error(KeyError("k"))).test() \
        .assert_failure(KeyError)


def test_switch_if_empty_other_empty_completes():
    Flowable.empty().switch_if_empty(Flowable.empty()).test().assert_result()


def test_switch_if_empty_cancel_before_and_after_switch():
    main, other = ManualSource(), ManualSource()
    ts = main.switch_if_empty(other).test()
    ts.cancel()
    assert main.cancelled
    main.complete()  # a source that completes anyway: other is subscribed and cancelled
    assert other.cancels == other.subscriptions
    main2, other2 = ManualSource(), ManualSource()
    ts2 = main2.switch_if_empty(other2).test()
    main2.complete()
    assert other2.subscriptions == 1 and not other2.cancelled
    ts2.cancel()
    assert other2.cancelled


def test_switch_if_empty_bad_argument():
    with pytest.raises(TypeError):
        Flowable.empty().switch_if_empty(None)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        Flowable.empty().switch_if_empty([1])  # type: ignore[arg-type]
