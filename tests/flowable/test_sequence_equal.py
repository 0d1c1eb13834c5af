"""sequence_equal: results, early False, prefetch request pattern, fusion, errors,
disposal, races."""

from __future__ import annotations

import pytest
from _async_probes import SyncFusedProbe
from probes import ManualSource
from probes import Spy
from probes import boom
from probes import failing

from rxpy2 import Flowable
from rxpy2 import Single
from rxpy2._internal.fuseable import ANY
from rxpy2.exceptions import MissingBackpressureException
from rxpy2.schedulers import Schedulers

pytestmark = pytest.mark.usefixtures("shutdown_schedulers")


def test_is_a_single():
    assert isinstance(Flowable.sequence_equal(Flowable.just(1), Flowable.just(1)), Single)


def test_equal_sequences():
    Flowable.sequence_equal(Flowable.range(0, 5), Flowable.range(0, 5)).test().assert_result(True)
    Flowable.sequence_equal(Flowable.range(0, 5).hide(), Flowable.from_array([0, 1, 2, 3, 4])) \
        .test().assert_result(True)


def test_both_empty():
    Flowable.sequence_equal(Flowable.empty(), Flowable.empty()).test().assert_result(True)


def test_different_item_gives_false_and_cancels_both():
    a, b = Spy(Flowable.range(0, 100)), Spy(Flowable.just(0, 1, 7, 3))
    Flowable.sequence_equal(a, b).test().assert_result(False)
    assert a.cancels == 1 and b.cancels == 1


@pytest.mark.parametrize("first,second", [(3, 4), (4, 3), (0, 1), (1, 0)])
def test_different_lengths(first, second):
    Flowable.sequence_equal(Flowable.range(0, first), Flowable.range(0, second)).test() \
        .assert_result(False)
    Flowable.sequence_equal(Flowable.range(0, first).hide(), Flowable.range(0, second).hide()) \
        .test().assert_result(False)


def test_shorter_source_ended_gives_false_without_waiting_for_the_other():
    a, b = ManualSource(), ManualSource()
    to = Flowable.sequence_equal(a, b).test()
    a.emit(1)
    b.emit(1, 2)  # b goes on and never ends
    to.assert_empty()
    a.complete()
    to.assert_result(False)
    assert b.cancelled


def test_equal_waits_for_both_to_end():
    a, b = ManualSource(), ManualSource()
    to = Flowable.sequence_equal(a, b).test()
    a.emit(1, 2)
    b.emit(1, 2)
    a.complete()
    to.assert_empty()
    b.complete()
    to.assert_result(True)


def test_is_equal_function():
    Flowable.sequence_equal(Flowable.just("a", "B"), Flowable.just("A", "b"),
                            is_equal=lambda x, y: x.lower() == y.lower()).test().assert_result(True)
    Flowable.sequence_equal(Flowable.just(1, 2), Flowable.just(1, 2),
                            is_equal=lambda x, y: False).test().assert_result(False)


def test_is_equal_raising_cancels_both():
    a, b = Spy(Flowable.range(0, 5)), Spy(Flowable.range(0, 5))
    Flowable.sequence_equal(a, b, is_equal=boom).test().assert_failure(ZeroDivisionError)
    assert a.cancels == 1 and b.cancels == 1


# ---------------------------------------------------------------- requests and fusion


def test_prefetch_then_75_percent_replenish():
    a, b = ManualSource(), ManualSource()
    to = Flowable.sequence_equal(a, b, buffer_size=4).test()
    assert a.requests == [4] and b.requests == [4]
    a.emit(1, 2)
    b.emit(1, 2)
    assert a.requests == [4] and b.requests == [4]
    a.emit(3)
    b.emit(3)
    assert a.requests == [4, 3] and b.requests == [4, 3]
    to.assert_empty()


def test_default_request_pattern():
    a, b = Spy(Flowable.range(0, 1000)), Spy(Flowable.range(0, 1000))
    Flowable.sequence_equal(a, b).test().assert_result(True)
    assert a.requests == [128] + [96] * 10
    assert b.requests == [128] + [96] * 10


def test_sync_fused_sources_get_no_requests():
    a, b = SyncFusedProbe(300), SyncFusedProbe(300)
    Flowable.sequence_equal(a, b).test().assert_result(True)
    assert a.modes == [ANY] and b.modes == [ANY]
    assert a.requests == [] and b.requests == []


def test_sync_fused_poll_error():
    a = Spy(Flowable.range(0, 5))
    Flowable.sequence_equal(SyncFusedProbe(5, fail_at=2), a).test().assert_failure(ValueError)
    assert a.cancels == 1


def test_async_fused_source():
    from rxpy2.schedulers import TestScheduler
    s = TestScheduler()
    to = Flowable.sequence_equal(Flowable.range(0, 300).hide().observe_on(s, buffer_size=8),
                                 Flowable.range(0, 300)).test()
    s.trigger_actions()
    to.assert_result(True)


def test_missing_backpressure():
    a, b = ManualSource(), ManualSource()
    to = Flowable.sequence_equal(a, b, buffer_size=2).test()
    a.emit(1, 2)  # asked for 2: the first waits to be compared, the second in the queue
    to.assert_empty()
    a.emit(3, 4)
    to.assert_failure(MissingBackpressureException)
    assert a.cancelled and b.cancelled


# ---------------------------------------------------------------- errors


@pytest.mark.parametrize("which", [0, 1])
def test_error_of_either_source_cancels_the_other(which):
    a, b = ManualSource(), ManualSource()
    to = Flowable.sequence_equal(a, b).test()
    a.emit(1)
    (a, b)[which].error(ValueError("x"))
    to.assert_failure(ValueError)
    assert (a, b)[1 - which].cancelled


def test_error_of_first_before_second_subscribes():
    later = ManualSource()
    Flowable.sequence_equal(Flowable.error(ValueError("x")), later).test() \
        .assert_failure(ValueError)


def test_error_after_equal_items():
    Flowable.sequence_equal(failing(1, 2), Flowable.just(1, 2, 3)).test().assert_failure(ValueError)


def test_late_error_goes_to_plugins(plugin_errors):
    a, b = ManualSource(), ManualSource()
    to = Flowable.sequence_equal(a, b).test()
    a.emit(1)
    b.emit(2)
    to.assert_result(False)
    err = ValueError("late")
    a.error(err)
    assert plugin_errors.causes() == [err]


# ---------------------------------------------------------------- disposal


def test_dispose_cancels_both_and_clears():
    a, b = ManualSource(), ManualSource()
    to = Flowable.sequence_equal(a, b).test()
    a.emit(1, 2)
    to.dispose()
    assert a.cancels == 1 and b.cancels == 1
    b.emit(1, 2)
    b.complete()
    a.complete()
    to.assert_empty()


def test_dispose_before_subscription():
    a, b = ManualSource(), ManualSource()
    to = Flowable.sequence_equal(a, b)
    from rxpy2.testing import TestObserver
    o: TestObserver[bool] = TestObserver()
    o.dispose()
    to.subscribe(o)
    o.assert_empty()
    assert a.cancels == 1 and b.subscriptions == 0


# ---------------------------------------------------------------- deep, arguments


def test_deep_synchronous():
    Flowable.sequence_equal(Flowable.range(0, 100_000), Flowable.range(0, 100_000).hide()).test() \
        .assert_result(True)
    Flowable.sequence_equal(Flowable.range(0, 100_000).hide(), Flowable.range(0, 100_001).hide()) \
        .test().assert_result(False)


def test_bad_arguments():
    with pytest.raises(TypeError):
        Flowable.sequence_equal(None, Flowable.just(1))
    with pytest.raises(TypeError):
        Flowable.sequence_equal(Flowable.just(1), [1])
    with pytest.raises(TypeError):
        Flowable.sequence_equal(Flowable.just(1), Flowable.just(1), is_equal=3)
    with pytest.raises(ValueError):
        Flowable.sequence_equal(Flowable.just(1), Flowable.just(1), buffer_size=0)


# ---------------------------------------------------------------- races


@pytest.mark.parametrize("equal", [True, False])
def test_race_two_sources_on_two_threads(equal, race_runner, race_rounds):
    n = 10
    for _ in range(race_rounds // 2):
        a, b = ManualSource(), ManualSource()
        to = Flowable.sequence_equal(a, b).test()
        second = list(range(n)) if equal else [*range(n - 1), -1]

        def produce(src, items):
            src.emit(*items)
            src.complete()

        race_runner.race(lambda a=a: produce(a, range(n)), lambda b=b, s=second: produce(b, s))
        to.assert_result(equal).assert_protocol_ok()


def test_race_dispose_vs_items(race_runner, race_rounds):
    for _ in range(race_rounds // 2):
        a, b = ManualSource(), ManualSource()
        to = Flowable.sequence_equal(a, b).test()
        b.emit(*range(5))

        def produce(a=a):
            a.emit(*range(5))

        race_runner.race(produce, to.dispose)
        assert a.cancels == 1 and b.cancels == 1
        to.assert_empty()


def test_end_to_end_on_computation():
    a = Flowable.range(0, 2000).observe_on(Schedulers.computation(), buffer_size=8)
    b = Flowable.range(0, 2000).hide().observe_on(Schedulers.computation())
    Flowable.sequence_equal(a, b, buffer_size=16).test().await_done(10).assert_result(True)
