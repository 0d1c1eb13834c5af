"""Time operators that drop or group items (TestScheduler): sample/throttle_last,
throttle_first, throttle_latest, debounce, buffer_time; backpressure and races."""

from __future__ import annotations

import pytest
from probes import Boom
from probes import record as probe

from rxpy2 import LONG_MAX
from rxpy2 import Flowable
from rxpy2 import MissingBackpressureException
from rxpy2 import PublishProcessor
from rxpy2.schedulers import Schedulers
from rxpy2.schedulers import TestScheduler

SLOWER = ("the downstream is slower than the timer: add on_backpressure_buffer()/"
          "on_backpressure_drop()/on_backpressure_latest() after it, or request more")


def mbe_message(operator: str, what: str = "a value", slower: str = SLOWER) -> str:
    """The MissingBackpressureException message of a time-driven operator."""
    return f"{operator}: could not emit {what} due to lack of requests; {slower}"


pytestmark = pytest.mark.usefixtures("shutdown_schedulers")


# ---------------------------------------------------------------- sample / throttle_last

def test_sample(sched):
    pp = PublishProcessor()
    ts = pp.sample(1, sched).test()
    pp.on_next(1)
    pp.on_next(2)
    sched.advance_time_by(1)
    ts.assert_values(2)
    sched.advance_time_by(1)  # nothing new: nothing emitted
    ts.assert_values(2)
    pp.on_next(3)
    pp.on_next(4)
    pp.on_complete()  # without emit_last the waiting item is dropped
    ts.assert_result(2)
    assert sched.pending_count() == 0


def test_sample_emit_last(sched):
    pp = PublishProcessor()
    ts = pp.throttle_last(1, sched, emit_last=True).test()
    pp.on_next(1)
    sched.advance_time_by(1)
    pp.on_next(2)
    pp.on_complete()
    ts.assert_result(1, 2)
    assert sched.pending_count() == 0


def test_sample_emit_last_nothing_waiting(sched):
    pp = PublishProcessor()
    ts = pp.sample(1, sched, emit_last=True).test()
    pp.on_next(1)
    sched.advance_time_by(1)
    pp.on_complete()
    ts.assert_result(1)


def test_sample_error(sched):
    pp = PublishProcessor()
    ts = pp.sample(1, sched).test()
    pp.on_next(1)
    pp.on_error(Boom())
    ts.assert_failure(Boom)
    assert sched.pending_count() == 0


def test_sample_requests_unbounded_and_cancel(sched):
    pp = PublishProcessor()
    f, requests, cancels = probe(pp)
    ts = f.sample(1, sched).test(0)
    assert requests == [LONG_MAX]
    ts.cancel()
    assert cancels == [True]
    assert sched.pending_count() == 0


def test_sample_missing_backpressure(sched):
    pp = PublishProcessor()
    f, _, cancels = probe(pp)
    ts = f.sample(1, sched).test(1)
    pp.on_next(1)
    sched.advance_time_by(1)
    ts.assert_values(1)
    pp.on_next(2)
    sched.advance_time_by(1)
    ts.assert_failure(MissingBackpressureException, 1)
    ts.assert_error_message(mbe_message("sample"))
    assert cancels == [True]
    assert sched.pending_count() == 0


def test_sample_bad_args():
    with pytest.raises(ValueError):
        Flowable.just(1).sample(-1)
    with pytest.raises(ValueError):
        Flowable.just(1).throttle_last(-1)


def test_sample_race_tick_vs_complete(race_runner, race_rounds):
    for _ in range(race_rounds // 2):
        sched = TestScheduler()
        pp = PublishProcessor()
        ts = pp.sample(1, sched, emit_last=True).test()
        pp.on_next(1)
        race_runner.race(lambda sched=sched: sched.advance_time_by(1), pp.on_complete)
        ts.assert_result(1)


# ---------------------------------------------------------------- throttle_first

def test_throttle_first(sched):
    pp = PublishProcessor()
    ts = pp.throttle_first(1, sched).test()
    pp.on_next(1)
    pp.on_next(2)
    sched.advance_time_by(0.5)
    pp.on_next(3)
    sched.advance_time_by(0.5)
    pp.on_next(4)
    pp.on_next(5)
    sched.advance_time_by(1)
    pp.on_next(6)
    pp.on_complete()
    ts.assert_result(1, 4, 6)
    assert sched.pending_count() == 0


def test_throttle_first_error_cancel_requests(sched):
    pp = PublishProcessor()
    ts = pp.throttle_first(1, sched).test()
    pp.on_next(1)
    pp.on_error(Boom())
    ts.assert_failure(Boom, 1)
    assert sched.pending_count() == 0
    f, requests, cancels = probe(PublishProcessor())
    ts = f.throttle_first(1, sched).test(0)
    assert requests == [LONG_MAX]
    ts.cancel()
    assert cancels == [True]


def test_throttle_first_cancel_disposes_timer(sched):
    pp = PublishProcessor()
    ts = pp.throttle_first(1, sched).test()
    pp.on_next(1)
    assert sched.pending_count() == 1
    ts.cancel()
    assert sched.pending_count() == 0


def test_throttle_first_missing_backpressure(sched):
    pp = PublishProcessor()
    f, _, cancels = probe(pp)
    ts = f.throttle_first(1, sched).test(0)
    pp.on_next(1)
    ts.assert_failure(MissingBackpressureException)
    ts.assert_error_message(mbe_message(
        "throttle_first", slower=SLOWER.replace("the timer", "the upstream")))
    assert cancels == [True]


def test_throttle_first_real_thread():
    ts = Flowable.range(1, 100).throttle_first(10, Schedulers.computation()).test()
    ts.await_done(5).assert_result(1)


# ---------------------------------------------------------------- throttle_latest

def test_throttle_latest(sched):
    pp = PublishProcessor()
    ts = pp.throttle_latest(1, sched).test()
    pp.on_next(1)           # emitted at once, timer starts
    ts.assert_values(1)
    pp.on_next(2)
    pp.on_next(3)
    sched.advance_time_by(1)  # the latest (3) at the timer; timer starts again
    ts.assert_values(1, 3)
    sched.advance_time_by(1)  # nothing waited: timer stops
    pp.on_next(4)           # at once
    ts.assert_values(1, 3, 4)
    pp.on_next(5)
    pp.on_complete()        # without emit_last: 5 is dropped
    ts.assert_result(1, 3, 4)
    assert sched.pending_count() == 0


def test_throttle_latest_emit_last(sched):
    pp = PublishProcessor()
    ts = pp.throttle_latest(1, sched, emit_last=True).test()
    pp.on_next(1)
    pp.on_next(2)
    pp.on_complete()
    ts.assert_result(1, 2)
    assert sched.pending_count() == 0


def test_throttle_latest_error_and_cancel(sched):
    pp = PublishProcessor()
    ts = pp.throttle_latest(1, sched).test()
    pp.on_next(1)
    pp.on_next(2)
    pp.on_error(Boom())
    ts.assert_failure(Boom, 1)
    assert sched.pending_count() == 0
    pp2 = PublishProcessor()
    f, requests, cancels = probe(pp2)
    ts = f.throttle_latest(1, sched).test()
    pp2.on_next(1)
    assert requests == [LONG_MAX]
    ts.cancel()
    assert cancels == [True]
    assert sched.pending_count() == 0


def test_throttle_latest_missing_backpressure(sched):
    pp = PublishProcessor()
    f, _, cancels = probe(pp)
    ts = f.throttle_latest(1, sched).test(1)
    pp.on_next(1)
    pp.on_next(2)
    sched.advance_time_by(1)
    ts.assert_failure(MissingBackpressureException, 1)
    ts.assert_error_message(mbe_message("throttle_latest"))
    assert cancels == [True]
    assert sched.pending_count() == 0


def test_throttle_latest_real_thread():
    ts = Flowable.range(1, 100).throttle_latest(10, Schedulers.computation(), True).test()
    ts.await_done(5).assert_result(1, 100)


# ---------------------------------------------------------------- debounce

def test_debounce(sched):
    pp = PublishProcessor()
    ts = pp.debounce(1, sched).test()
    pp.on_next(1)
    sched.advance_time_by(0.5)
    pp.on_next(2)
    sched.advance_time_by(0.9)
    ts.assert_no_values()
    sched.advance_time_by(0.1)
    ts.assert_values(2)
    pp.on_next(3)
    pp.on_complete()  # the waiting item at once, then completion
    ts.assert_result(2, 3)
    assert sched.pending_count() == 0


def test_debounce_error_drops_waiting(sched):
    pp = PublishProcessor()
    ts = pp.debounce(1, sched).test()
    pp.on_next(1)
    pp.on_error(Boom())
    ts.assert_failure(Boom)
    assert sched.pending_count() == 0


def test_debounce_requests_and_cancel(sched):
    pp = PublishProcessor()
    f, requests, cancels = probe(pp)
    ts = f.debounce(1, sched).test(0)
    assert requests == [LONG_MAX]
    ts.request(1)
    pp.on_next(1)
    assert sched.pending_count() == 1
    ts.cancel()
    assert cancels == [True]
    assert sched.pending_count() == 0
    sched.advance_time_by(2)
    ts.assert_no_values()


def test_debounce_missing_backpressure(sched):
    pp = PublishProcessor()
    f, _, cancels = probe(pp)
    ts = f.debounce(1, sched).test(0)
    pp.on_next(1)
    sched.advance_time_by(1)
    ts.assert_failure(MissingBackpressureException)
    ts.assert_error_message(mbe_message("debounce"))
    assert cancels == [True]


def test_debounce_missing_backpressure_at_completion(sched):
    pp = PublishProcessor()
    ts = pp.debounce(1, sched).test(0)
    pp.on_next(1)
    pp.on_complete()
    ts.assert_failure(MissingBackpressureException)


def test_debounce_real_thread():
    ts = Flowable.range(1, 100).debounce(10, Schedulers.computation()).test()
    ts.await_done(5).assert_result(100)


def test_debounce_race_new_item_vs_emission(race_runner, race_rounds):
    for _ in range(race_rounds):
        sched = TestScheduler()
        pp = PublishProcessor()
        ts = pp.debounce(1, sched).test()
        pp.on_next(1)
        race_runner.race(lambda sched=sched: sched.advance_time_by(1), lambda pp=pp: pp.on_next(2))
        sched.advance_time_by(1)
        pp.on_complete()
        # 1 is emitted if its timer won, never twice; 2 always; nothing after completion
        assert ts.values() in ([1, 2], [2])
        ts.assert_complete().assert_no_errors()


def test_debounce_race_emission_vs_complete(race_runner, race_rounds):
    for _ in range(race_rounds):
        sched = TestScheduler()
        pp = PublishProcessor()
        ts = pp.debounce(1, sched).test()
        pp.on_next(1)
        race_runner.race(lambda sched=sched: sched.advance_time_by(1), pp.on_complete)
        ts.assert_result(1)


# ---------------------------------------------------------------- buffer_time

def test_buffer_time(sched):
    pp = PublishProcessor()
    ts = pp.buffer_time(1, sched).test()
    pp.on_next(1)
    pp.on_next(2)
    sched.advance_time_by(1)
    ts.assert_values([1, 2])
    sched.advance_time_by(1)  # an empty span gives an empty list
    ts.assert_values([1, 2], [])
    pp.on_next(3)
    pp.on_complete()
    ts.assert_result([1, 2], [], [3])
    assert sched.pending_count() == 0


def test_buffer_time_or_count(sched):
    pp = PublishProcessor()
    ts = pp.buffer_time(1, sched, count=2).test()
    for i in range(5):
        pp.on_next(i)
    ts.assert_values([0, 1], [2, 3])
    sched.advance_time_by(1)
    ts.assert_values([0, 1], [2, 3], [4])
    pp.on_next(5)
    pp.on_complete()
    ts.assert_result([0, 1], [2, 3], [4], [5])


def test_buffer_time_error(sched):
    pp = PublishProcessor()
    ts = pp.buffer_time(1, sched).test()
    pp.on_next(1)
    pp.on_error(Boom())
    ts.assert_failure(Boom)
    assert sched.pending_count() == 0


def test_buffer_time_requests_and_cancel(sched):
    f, requests, cancels = probe(PublishProcessor())
    ts = f.buffer_time(1, sched).test(0)
    assert requests == [LONG_MAX]
    assert sched.pending_count() == 1
    ts.cancel()
    assert cancels == [True]
    assert sched.pending_count() == 0


def test_buffer_time_missing_backpressure(sched):
    pp = PublishProcessor()
    f, _, cancels = probe(pp)
    ts = f.buffer_time(1, sched).test(1)
    pp.on_next(1)
    sched.advance_time_by(1)
    ts.assert_values([1])
    sched.advance_time_by(1)
    ts.assert_failure(MissingBackpressureException, [1])
    ts.assert_error_message(mbe_message("buffer_time", "a buffer"))
    assert cancels == [True]
    assert sched.pending_count() == 0


def test_buffer_time_count_missing_backpressure(sched):
    pp = PublishProcessor()
    ts = pp.buffer_time(10, sched, count=1).test(1)
    pp.on_next(1)
    pp.on_next(2)
    ts.assert_failure(MissingBackpressureException, [1])


def test_buffer_time_bad_args():
    with pytest.raises(ValueError):
        Flowable.just(1).buffer_time(-1)
    with pytest.raises(ValueError):
        Flowable.just(1).buffer_time(0)
    with pytest.raises(ValueError):
        Flowable.just(1).buffer_time(1, count=0)
    with pytest.raises(TypeError):
        Flowable.just(1).buffer_time(1, count=1.5)


def test_buffer_time_real_thread():
    ts = Flowable.range(1, 10).buffer_time(10, Schedulers.computation(), count=4).test()
    ts.await_done(5).assert_result([1, 2, 3, 4], [5, 6, 7, 8], [9, 10])


def test_buffer_time_race_tick_vs_item(race_runner, race_rounds):
    for _ in range(race_rounds // 2):
        sched = TestScheduler()
        pp = PublishProcessor()
        ts = pp.buffer_time(1, sched).test()
        pp.on_next(1)
        race_runner.race(lambda sched=sched: sched.advance_time_by(1), lambda pp=pp: pp.on_next(2))
        pp.on_complete()
        assert [x for b in ts.values() for x in b] == [1, 2]
        ts.assert_complete()
