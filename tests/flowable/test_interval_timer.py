"""interval, interval_range, timer (virtual time with TestScheduler)."""

from __future__ import annotations

import pytest

from rxpy2 import Flowable
from rxpy2.exceptions import MissingBackpressureException
from rxpy2.schedulers import Schedulers
from rxpy2.schedulers import TestScheduler

pytestmark = pytest.mark.usefixtures("shutdown_schedulers")


# ---------------------------------------------------------------- interval

def test_interval_ticks_every_period():
    s = TestScheduler()
    ts = Flowable.interval(1.0, scheduler=s).test()
    s.advance_time_by(0.999)
    ts.assert_no_values()
    s.advance_time_by(0.001)
    ts.assert_values(0)
    s.advance_time_to(5.0)
    ts.assert_values(0, 1, 2, 3, 4).assert_not_terminated()
    ts.cancel()
    s.advance_time_by(10)
    ts.assert_value_count(5)
    assert s.pending_count() == 0


def test_interval_initial_delay():
    s = TestScheduler()
    ts = Flowable.interval(2.0, initial_delay=0.5, scheduler=s).test()
    s.advance_time_to(0.5)
    ts.assert_values(0)
    s.advance_time_to(4.5)
    ts.assert_values(0, 1, 2)


def test_interval_without_demand_fails():
    s = TestScheduler()
    ts = Flowable.interval(1.0, scheduler=s).test(2)
    s.advance_time_by(2)
    ts.assert_values(0, 1).assert_not_terminated()
    s.advance_time_by(1)
    ts.assert_failure(MissingBackpressureException, 0, 1)
    assert str(ts.errors()[0]) == (
        "interval: could not emit value 2 due to lack of requests; the downstream is slower "
        "than the timer: add on_backpressure_buffer()/on_backpressure_drop()/"
        "on_backpressure_latest() after it, or request more")
    s.advance_time_by(10)
    ts.assert_value_count(2)
    assert s.pending_count() == 0


def test_interval_demand_replenished_in_time():
    s = TestScheduler()
    ts = Flowable.interval(1.0, scheduler=s).test(1)
    for _ in range(5):
        s.advance_time_by(1)
        ts.request(1)
    ts.assert_values(0, 1, 2, 3, 4).assert_no_errors()


def test_interval_default_scheduler_is_computation():
    ts = Flowable.interval(0.001).take(3).test()
    ts.await_done(5).assert_result(0, 1, 2)
    assert ts.last_thread.name.startswith("rxpy2-computation")


def test_interval_on_backpressure_drop_never_fails():
    s = TestScheduler()
    ts = Flowable.interval(1.0, scheduler=s).on_backpressure_drop().test(2)
    s.advance_time_by(10)
    ts.assert_values(0, 1).assert_no_errors()
    ts.request(1)
    s.advance_time_by(1)
    ts.assert_values(0, 1, 10)


def test_interval_bad_arguments():
    s = TestScheduler()
    with pytest.raises(TypeError):
        Flowable.interval("1", scheduler=s)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        Flowable.interval(float("nan"), scheduler=s)
    with pytest.raises(TypeError):
        Flowable.interval(1, scheduler=object())  # type: ignore[arg-type]


# ---------------------------------------------------------------- interval_range

def test_interval_range_values_and_completion():
    s = TestScheduler()
    ts = Flowable.interval_range(5, 3, 1.0, 2.0, scheduler=s).test()
    s.advance_time_to(1.0)
    ts.assert_values(5)
    s.advance_time_to(3.0)
    ts.assert_values(5, 6)
    s.advance_time_to(5.0)
    ts.assert_result(5, 6, 7)
    assert s.pending_count() == 0


def test_interval_range_empty_completes_after_initial_delay():
    s = TestScheduler()
    ts = Flowable.interval_range(0, 0, 2.0, 1.0, scheduler=s).test(0)
    s.advance_time_by(1.9)
    ts.assert_not_terminated()
    s.advance_time_by(0.1)
    ts.assert_result()


def test_interval_range_lack_of_requests():
    s = TestScheduler()
    ts = Flowable.interval_range(0, 10, 1.0, 1.0, scheduler=s).test(1)
    s.advance_time_by(5)
    ts.assert_failure(MissingBackpressureException, 0)
    assert s.pending_count() == 0


def test_interval_range_cancel():
    s = TestScheduler()
    ts = Flowable.interval_range(0, 10, 1.0, 1.0, scheduler=s).test()
    s.advance_time_by(2)
    ts.cancel()
    s.advance_time_by(20)
    ts.assert_values(0, 1).assert_not_terminated()


def test_interval_range_bad_arguments():
    s = TestScheduler()
    with pytest.raises(ValueError):
        Flowable.interval_range(0, -1, 1, 1, scheduler=s)
    with pytest.raises(TypeError):
        Flowable.interval_range(0.5, 1, 1, 1, scheduler=s)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        Flowable.interval_range(2**63 - 1, 2, 1, 1, scheduler=s)


# ---------------------------------------------------------------- timer

def test_timer_emits_zero_then_completes():
    s = TestScheduler()
    ts = Flowable.timer(3.0, scheduler=s).test()
    s.advance_time_by(2.999)
    ts.assert_no_values()
    s.advance_time_by(0.001)
    ts.assert_result(0)
    assert s.pending_count() == 0


def test_timer_without_demand_fails():
    s = TestScheduler()
    ts = Flowable.timer(1.0, scheduler=s).test(0)
    s.advance_time_by(1)
    ts.assert_failure(MissingBackpressureException)
    assert str(ts.errors()[0]).startswith(
        "timer: could not emit the value 0 due to lack of requests; the downstream is slower")


def test_timer_demand_after_subscribe_in_time():
    s = TestScheduler()
    ts = Flowable.timer(1.0, scheduler=s).test(0)
    ts.request(1)
    s.advance_time_by(1)
    ts.assert_result(0)


def test_timer_cancel():
    s = TestScheduler()
    ts = Flowable.timer(1.0, scheduler=s).test()
    ts.cancel()
    assert s.pending_count() == 0
    s.advance_time_by(2)
    ts.assert_no_values().assert_not_terminated()


def test_timer_cancel_in_on_next_no_completion():
    s = TestScheduler()
    from rxpy2.testing import TestSubscriber
    ts: TestSubscriber[int] = TestSubscriber()
    Flowable.timer(1.0, scheduler=s).do_on_next(lambda _: ts.cancel()).subscribe(ts)
    s.advance_time_by(1)
    ts.assert_values(0).assert_not_complete()


def test_timer_real_thread():
    ts = Flowable.timer(0.001).test()
    ts.await_done(5).assert_result(0)
    assert ts.last_thread.name.startswith("rxpy2-")


def test_timer_trampoline():
    ts = Flowable.timer(0.0, scheduler=Schedulers.trampoline()).test()
    ts.assert_result(0)


def test_timer_bad_arguments():
    with pytest.raises(TypeError):
        Flowable.timer(None)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        Flowable.timer(1, scheduler="x")  # type: ignore[arg-type]
