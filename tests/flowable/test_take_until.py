"""take_until (other Publisher and stop predicate) and skip_until, with race tests."""

from __future__ import annotations

import pytest
from probes import ManualSource
from probes import Recorded
from probes import boom

from rxpy2 import Flowable
from rxpy2.exceptions import CompositeException
from rxpy2.reactivestreams import LONG_MAX

# ----------------------------------------------------------------- take_until(other)


def test_take_until_other_item_completes_and_cancels_both():
    main, other = ManualSource(), ManualSource()
    ts = main.take_until(other).test()
    main.emit(1, 2)
    other.emit("stop")
    main.emit(3)
    ts.assert_result(1, 2).assert_protocol_ok()
    assert main.cancelled and other.cancelled


def test_take_until_other_completion_completes():
    main, other = ManualSource(), ManualSource()
    ts = main.take_until(other).test()
    main.emit(1)
    other.complete()
    ts.assert_result(1)
    assert main.cancelled


def test_take_until_other_error():
    main, other = ManualSource(), ManualSource()
    ts = main.take_until(other).test()
    main.emit(1)
    other.error(ValueError("x"))
    ts.assert_failure(ValueError, 1)
    assert main.cancelled


def test_take_until_main_completes_cancels_other():
    main, other = ManualSource(), ManualSource()
    ts = main.take_until(other).test()
    main.emit(1, 2)
    main.complete()
    ts.assert_result(1, 2)
    assert other.cancelled and not main.cancelled


def test_take_until_main_error_cancels_other():
    main, other = ManualSource(), ManualSource()
    ts = main.take_until(other).test()
    main.error(ValueError("x"))
    ts.assert_failure(ValueError)
    assert other.cancelled


def test_take_until_requests_and_subscription_order():
    order = []
    main = Recorded(1, 10)
    other = ManualSource()
    ts = main.flowable.do_on_subscribe(lambda s: order.append("main")) \
        .take_until(other.do_on_subscribe(lambda s: order.append("other"))).test(2)
    assert order == ["other", "main"]
    assert other.requests == [LONG_MAX]
    assert main.requests == [2]
    ts.assert_values(1, 2)
    ts.request(3)
    assert main.requests == [2, 3]
    other.emit(0)
    ts.assert_result(1, 2, 3, 4, 5)


def test_take_until_other_fires_during_subscription():
    main = Recorded(1, 10)
    main.flowable.take_until(Flowable.just(1)).test().assert_result()
    assert main.requests == []
    assert main.cancels == [1]


def test_take_until_other_empty_completes_at_once():
    Flowable.range(1, 5).take_until(Flowable.empty()).test().assert_result()


def test_take_until_never_passes_everything():
    Flowable.range(1, 3).take_until(Flowable.never()).test().assert_result(1, 2, 3)


def test_take_until_downstream_cancel_cancels_both():
    main, other = ManualSource(), ManualSource()
    main.take_until(other).test().cancel()
    assert main.cancelled and other.cancelled


def test_take_until_bad_argument():
    with pytest.raises(TypeError):
        Flowable.range(1, 3).take_until(None)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        Flowable.range(1, 3).take_until(5)  # type: ignore[arg-type]


def test_take_until_race_main_item_vs_other_item(race_runner, race_rounds):
    for _ in range(race_rounds):
        main, other = ManualSource(), ManualSource()
        ts = main.take_until(other).test()
        main.emit(0)
        race_runner.race(lambda m=main: m.emit(1), lambda o=other: o.emit("stop"))
        main.emit(2)
        ts.assert_complete().assert_no_errors().assert_protocol_ok()
        assert ts.values() in ([0], [0, 1])
        assert main.cancelled


def test_take_until_race_main_complete_vs_other_item(race_runner, race_rounds):
    for _ in range(race_rounds):
        main, other = ManualSource(), ManualSource()
        ts = main.take_until(other).test()
        main.emit(1)
        race_runner.race(main.complete, lambda o=other: o.emit("stop"))
        ts.assert_result(1).assert_protocol_ok()


def test_take_until_race_main_error_vs_other_error(race_runner, race_rounds, plugin_errors):
    for _ in range(race_rounds):
        main, other = ManualSource(), ManualSource()
        ts = main.take_until(other).test()
        e1, e2 = ValueError("main"), KeyError("other")
        before = len(plugin_errors)
        race_runner.race(lambda m=main, e=e1: m.error(e),
                         lambda o=other, e=e2: o.error(e))
        ts.assert_terminated().assert_not_complete().assert_protocol_ok()
        (err,) = ts.errors()
        if isinstance(err, CompositeException):  # both arrived before delivery
            assert set(map(id, err.exceptions)) == {id(e1), id(e2)}
            assert len(plugin_errors) == before
        else:  # the loser went to the plugins
            assert err in (e1, e2)
            assert plugin_errors.causes()[before:] == [e2 if err is e1 else e1]


# ----------------------------------------------------------------- take_until(predicate)


def test_take_until_predicate_emits_the_stopping_item():
    src = Recorded(1, 10)
    src.flowable.take_until(lambda x: x == 3).test().assert_result(1, 2, 3)
    assert src.cancels == [1]


def test_take_until_predicate_never_true():
    Flowable.range(1, 3).take_until(lambda x: False).test().assert_result(1, 2, 3)


def test_take_until_predicate_requests_pass_through():
    src = Recorded(1, 10)
    ts = src.flowable.take_until(lambda x: x == 4).test(1)
    ts.assert_values(1)
    ts.request(5)
    ts.assert_result(1, 2, 3, 4)
    assert src.requests == [1, 5]


def test_take_until_predicate_raises_after_emitting():
    src = Recorded(1, 10)
    src.flowable.take_until(boom).test().assert_failure(ZeroDivisionError, 1)
    assert src.cancels == [1]


def test_take_until_predicate_error_passthrough_and_late(plugin_errors):
    src = ManualSource()
    ts = src.take_until(lambda x: x == 2).test()
    src.emit(1)
    src.error(ValueError("x"))
    ts.assert_failure(ValueError, 1)
    src2 = ManualSource()
    ts2 = src2.take_until(lambda x: x == 2).test()
    src2.emit(1, 2)
    src2.error(KeyError("late"))
    ts2.assert_result(1, 2)
    assert [type(e) for e in plugin_errors.causes()] == [KeyError]


# ----------------------------------------------------------------- skip_until


def test_skip_until_normal():
    main, other = ManualSource(), ManualSource()
    ts = main.skip_until(other).test()
    main.emit(0, 1)
    other.emit(100)
    main.emit(2, 3)
    main.complete()
    ts.assert_result(2, 3)
    assert other.cancelled


def test_skip_until_other_never_fires():
    main = ManualSource()
    ts = main.skip_until(Flowable.never()).test()
    main.emit(1, 2)
    main.complete()
    ts.assert_result()


def test_skip_until_other_completion_opens_the_gate():
    # RxJava 2's FlowableSkipUntil opens the gate on the other's completion too
    main, other = ManualSource(), ManualSource()
    ts = main.skip_until(other).test()
    main.emit(1)
    other.complete()
    main.emit(2)
    main.complete()
    ts.assert_result(2)


def test_skip_until_other_error_cancels_main():
    main, other = ManualSource(), ManualSource()
    ts = main.skip_until(other).test()
    main.emit(1)
    other.error(ValueError("x"))
    ts.assert_failure(ValueError)
    assert main.cancelled


def test_skip_until_main_error_and_completion_cancel_other():
    main, other = ManualSource(), ManualSource()
    ts = main.skip_until(other).test()
    main.error(ValueError("x"))
    ts.assert_failure(ValueError)
    assert other.cancelled
    main2, other2 = ManualSource(), ManualSource()
    main2.skip_until(other2).test()
    main2.complete()
    assert other2.cancelled


def test_skip_until_requests_one_per_dropped_item():
    main, other = ManualSource(), ManualSource()
    ts = main.skip_until(other).test(2)
    assert main.requests == [2]
    assert other.requests == [LONG_MAX]
    main.emit(1, 2)
    assert main.requests == [2, 1, 1]
    other.emit(0)
    main.emit(3, 4)
    assert main.requests == [2, 1, 1]
    ts.assert_values(3, 4)


def test_skip_until_conditional_upstream():
    # other fires at subscription time: range drives try_on_next and everything passes
    Flowable.range(1, 5).skip_until(Flowable.just(0)).test(3) \
        .assert_values(1, 2, 3).assert_not_complete()


def test_skip_until_subscription_order():
    order = []
    Flowable.range(1, 3).do_on_subscribe(lambda s: order.append("main")) \
        .skip_until(Flowable.just(0).do_on_subscribe(lambda s: order.append("other"))) \
        .test().assert_result(1, 2, 3)
    assert order == ["other", "main"]


def test_skip_until_downstream_cancel_cancels_both():
    main, other = ManualSource(), ManualSource()
    main.skip_until(other).test().cancel()
    assert main.cancelled and other.cancelled


def test_skip_until_bad_argument():
    with pytest.raises(TypeError):
        Flowable.range(1, 3).skip_until(None)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        Flowable.range(1, 3).skip_until(lambda: 1)  # type: ignore[arg-type]


def test_skip_until_race_other_item_vs_main_item(race_runner, race_rounds):
    for _ in range(race_rounds):
        main, other = ManualSource(), ManualSource()
        ts = main.skip_until(other).test()
        main.emit(0)
        race_runner.race(lambda m=main: m.emit(1), lambda o=other: o.emit("open"))
        main.emit(2)
        main.complete()
        ts.assert_complete().assert_no_errors().assert_protocol_ok()
        assert ts.values() in ([2], [1, 2])


def test_skip_until_race_main_complete_vs_other_error(race_runner, race_rounds, plugin_errors):
    for _ in range(race_rounds):
        main, other = ManualSource(), ManualSource()
        ts = main.skip_until(other).test()
        e = ValueError("x")
        before = len(plugin_errors)
        race_runner.race(main.complete, lambda o=other, e=e: o.error(e))
        ts.assert_terminated().assert_no_values().assert_protocol_ok()
        if ts.errors():
            ts.assert_error(e)
            assert len(plugin_errors) == before
        else:  # completion won: the error is undeliverable
            assert plugin_errors.causes()[before:] == [e]
