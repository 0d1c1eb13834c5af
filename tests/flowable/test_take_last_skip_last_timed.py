"""take_last_time / skip_last_time: RxJava 2's FlowableTakeLastTimed and
FlowableSkipLastTimed on virtual time (timestamps from the scheduler's ``now()``)."""

from __future__ import annotations

import pytest
from probes import ManualSource

from rxpy2 import Flowable
from rxpy2.reactivestreams import LONG_MAX
from rxpy2.testing.race import RaceRunner

# ------------------------------------------------------------------------- take_last_time


def test_take_last_time_keeps_the_items_of_the_last_window(sched):
    src = ManualSource()
    ts = src.take_last_time(1.0, sched).test()
    src.emit(1)
    sched.advance_time_by(0.5)
    src.emit(2)
    sched.advance_time_by(0.5)
    src.emit(3)  # 1 is exactly 1.0 old here: kept (only older ones are dropped)
    sched.advance_time_by(0.25)
    ts.assert_no_values()  # nothing before the completion
    src.complete()  # 1 is now 1.25 old: dropped at the completion's trim
    ts.assert_result(2, 3)
    assert src.requests == [LONG_MAX]


def test_take_last_time_an_item_exactly_duration_old_is_kept(sched):
    src = ManualSource()
    ts = src.take_last_time(1.0, sched).test()
    src.emit(1)
    sched.advance_time_by(1.0)
    src.complete()
    ts.assert_result(1)


def test_take_last_time_emits_under_demand_and_completes_with_the_last_item(sched):
    src = ManualSource()
    ts = src.take_last_time(10.0, sched).test(0)
    src.emit(1, 2, 3)
    src.complete()
    ts.assert_no_values().assert_not_complete()
    ts.request(2)
    ts.assert_values(1, 2).assert_not_complete()
    ts.request(1)
    ts.assert_result(1, 2, 3)  # no extra request for the completion
    assert src.requests == [LONG_MAX]


def test_take_last_time_empty_window_completes_without_demand(sched):
    src = ManualSource()
    ts = src.take_last_time(1.0, sched).test(0)
    src.emit(1)
    sched.advance_time_by(2.0)
    src.complete()
    ts.assert_result()


def test_take_last_time_with_count_keeps_the_latest(sched):
    src = ManualSource()
    ts = src.take_last_time(5.0, sched, count=2).test()
    src.emit(1, 2, 3, 4)
    src.complete()
    ts.assert_result(3, 4)


def test_take_last_time_count_zero_is_empty(sched):
    Flowable.just(1, 2).take_last_time(5.0, sched, count=0).test().assert_result()


def test_take_last_time_count_and_time_both_apply(sched):
    src = ManualSource()
    ts = src.take_last_time(1.0, sched, count=3).test()
    src.emit(1, 2)
    sched.advance_time_by(2.0)
    src.emit(3)
    src.complete()
    ts.assert_result(3)


def test_take_last_time_error_goes_at_once_and_drops_the_items(sched):
    src = ManualSource()
    ts = src.take_last_time(10.0, sched).test(0)
    src.emit(1, 2)
    src.error(ValueError("boom"))
    ts.assert_failure(ValueError)  # no demand needed, no items


def test_take_last_time_delay_error_emits_the_window_then_the_error(sched):
    src = ManualSource()
    ts = src.take_last_time(1.0, sched, True).test(0)
    src.emit(1)
    sched.advance_time_by(1.5)
    src.emit(2)
    src.error(ValueError("boom"))
    ts.assert_no_values().assert_no_errors()
    ts.request(1)
    ts.assert_failure(ValueError, 2)


def test_take_last_time_cancel_stops_everything(sched):
    src = ManualSource()
    ts = src.take_last_time(10.0, sched).test(0)
    src.emit(1, 2)
    ts.cancel()
    assert src.cancels == 1
    src.complete()
    ts.request(5)
    ts.assert_no_values().assert_not_complete()


def test_take_last_time_cancel_inside_on_next_stops_the_drain(sched):
    got = []
    src = ManualSource()
    d = None

    def on_next(x):
        got.append(x)
        if x == 2:
            d.dispose()

    d = src.take_last_time(10.0, sched).subscribe(on_next)
    src.emit(1, 2, 3)
    src.complete()
    assert got == [1, 2]


def test_take_last_time_on_the_computation_scheduler_by_default():
    (Flowable.range(1, 5).take_last_time(60.0).test()
        .await_done(5).assert_result(1, 2, 3, 4, 5))


def test_take_last_time_arguments_checked_at_assembly():
    f = Flowable.just(1)
    with pytest.raises(ValueError):
        f.take_last_time(-1.0)
    with pytest.raises(TypeError):
        f.take_last_time("1")
    with pytest.raises(ValueError):
        f.take_last_time(1.0, buffer_size=0)
    with pytest.raises(ValueError):
        f.take_last_time(1.0, count=-1)
    with pytest.raises(TypeError):
        f.take_last_time(1.0, scheduler="computation")
    with pytest.raises(TypeError, match="take_last_time"):
        f.take_last(0.5)


# ------------------------------------------------------------------------- skip_last_time


def test_skip_last_time_releases_items_once_old_enough(sched):
    src = ManualSource()
    ts = src.skip_last_time(1.0, sched).test()
    src.emit(1)
    sched.advance_time_by(0.5)
    src.emit(2)
    ts.assert_no_values()
    sched.advance_time_by(0.5)
    src.emit(3)  # 1 is 1.0 old now: released by this item's drain
    ts.assert_values(1)
    sched.advance_time_by(0.25)
    src.complete()  # 2 and 3 are younger than 1.0: dropped
    ts.assert_result(1)
    assert src.requests == [LONG_MAX]


def test_skip_last_time_ageing_alone_emits_nothing(sched):
    src = ManualSource()
    ts = src.skip_last_time(1.0, sched).test()
    src.emit(1)
    sched.advance_time_by(5.0)
    ts.assert_no_values()  # looked at only on an item, a request or the end
    src.complete()
    ts.assert_result(1)


def test_skip_last_time_items_wait_for_demand(sched):
    src = ManualSource()
    ts = src.skip_last_time(1.0, sched).test(0)
    src.emit(1, 2)
    sched.advance_time_by(1.0)
    src.emit(3)
    ts.assert_no_values()
    ts.request(1)
    ts.assert_values(1)
    ts.request(1)
    ts.assert_values(1, 2)
    assert src.requests == [LONG_MAX]


def test_skip_last_time_ends_without_demand_when_no_item_is_ready(sched):
    src = ManualSource()
    ts = src.skip_last_time(1.0, sched).test(0)
    src.emit(1)
    src.complete()  # 1 is too young: dropped, and nothing is left to wait for
    ts.assert_result()  # RxJava 2 waits for a request to complete


def test_skip_last_time_old_items_wait_for_demand_then_the_end_follows(sched):
    src = ManualSource()
    ts = src.skip_last_time(1.0, sched).test(0)
    src.emit(1)
    sched.advance_time_by(1.0)
    src.emit(2)
    src.complete()
    ts.assert_no_values().assert_not_complete()  # 1 is old enough: it waits for demand
    ts.request(1)
    ts.assert_result(1)  # the completion right after it (2 is dropped)


def test_skip_last_time_error_without_demand_goes_at_once(sched):
    src = ManualSource()
    ts = src.skip_last_time(1.0, sched).test(0)
    src.emit(1)
    sched.advance_time_by(2.0)
    src.error(ValueError("boom"))
    ts.assert_failure(ValueError)  # no demand needed, the queue dropped (RxJava 2 waits)


def test_skip_last_time_delay_error_without_demand_waits_for_the_old_items(sched):
    src = ManualSource()
    ts = src.skip_last_time(1.0, sched, delay_error=True).test(0)
    src.emit(1)
    sched.advance_time_by(2.0)
    src.error(ValueError("boom"))
    ts.assert_no_values().assert_no_errors()
    ts.request(1)
    ts.assert_failure(ValueError, 1)


def test_skip_last_time_delay_error_emits_the_old_items_first(sched):
    src = ManualSource()
    ts = src.skip_last_time(1.0, sched, delay_error=True).test()
    src.emit(1)
    sched.advance_time_by(0.5)
    src.emit(2)
    sched.advance_time_by(0.5)
    ts.request(1)
    src.error(ValueError("boom"))
    ts.assert_failure(ValueError, 1)


def test_skip_last_time_cancel(sched):
    src = ManualSource()
    ts = src.skip_last_time(1.0, sched).test()
    src.emit(1)
    ts.cancel()
    assert src.cancels == 1
    sched.advance_time_by(2.0)
    src.emit(2)
    src.complete()
    ts.assert_no_values().assert_not_complete()


def test_skip_last_time_zero_duration_passes_items(sched):
    Flowable.just(1, 2, 3).skip_last_time(0.0, sched).test().assert_result(1, 2, 3)


def test_skip_last_time_on_the_computation_scheduler_by_default():
    (Flowable.range(1, 5).skip_last_time(0.0).test()
        .await_done(5).assert_result(1, 2, 3, 4, 5))


def test_skip_last_time_arguments_checked_at_assembly():
    f = Flowable.just(1)
    with pytest.raises(ValueError):
        f.skip_last_time(-0.5)
    with pytest.raises(TypeError):
        f.skip_last_time(None)
    with pytest.raises(ValueError):
        f.skip_last_time(1.0, buffer_size=-1)
    with pytest.raises(TypeError):
        f.skip_last_time(1.0, scheduler=object())
    with pytest.raises(TypeError, match="skip_last_time"):
        f.skip_last(1.5)


# ------------------------------------------------------------------------- races


def test_race_take_last_time_request_vs_completion(sched):
    with RaceRunner() as r:
        for _ in range(200):
            src = ManualSource()
            ts = src.take_last_time(10.0, sched).test(0)
            src.emit(1, 2, 3)
            r.race(lambda ts=ts: ts.request(3), src.complete)
            ts.assert_result(1, 2, 3)  # nothing lost, duplicated or after the end


def test_race_skip_last_time_request_vs_items(sched):
    with RaceRunner() as r:
        for _ in range(200):
            src = ManualSource()
            ts = src.skip_last_time(0.0, sched).test(0)
            src.emit(1)
            r.race(lambda ts=ts: ts.request(2), lambda src=src: src.emit(2))
            ts.assert_values(1, 2).assert_not_complete()
            src.complete()
            ts.assert_result(1, 2)
