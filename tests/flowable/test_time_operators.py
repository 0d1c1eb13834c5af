"""Time operators on virtual time (TestScheduler): timestamp, time_interval, delay,
delay_subscription, timeout, take_time, skip_time; one real-thread test per family."""

from __future__ import annotations

import pytest
from probes import Boom
from probes import record as probe

from rxpy2 import LONG_MAX
from rxpy2 import Flowable
from rxpy2 import PublishProcessor
from rxpy2 import Timed
from rxpy2.schedulers import Schedulers
from rxpy2.schedulers import TestScheduler

pytestmark = pytest.mark.usefixtures("shutdown_schedulers")


# ---------------------------------------------------------------- timestamp / time_interval

def test_timestamp_values(sched):
    pp = PublishProcessor()
    ts = pp.timestamp(sched).test()
    sched.advance_time_by(1.5)
    pp.on_next(1)
    sched.advance_time_by(1)
    pp.on_next(2)
    pp.on_complete()
    ts.assert_result(Timed(1, 1.5), Timed(2, 2.5))


def test_time_interval_values(sched):
    sched.advance_time_by(10)
    pp = PublishProcessor()
    ts = pp.time_interval(sched).test()
    sched.advance_time_by(2)
    pp.on_next("a")
    sched.advance_time_by(0.5)
    pp.on_next("b")
    pp.on_next("c")
    pp.on_complete()
    ts.assert_result(Timed("a", 2.0), Timed("b", 0.5), Timed("c", 0.0))


def test_timestamp_error_and_requests(sched):
    f, requests, _ = probe(Flowable.range(1, 5))
    ts = f.timestamp(sched).test(0)
    ts.request(2)
    ts.assert_values(Timed(1, 0.0), Timed(2, 0.0))
    assert requests == [2]
    Flowable.error(Boom()).time_interval(sched).test().assert_failure(Boom)


def test_timestamp_cancel_reaches_source(sched):
    f, _, cancels = probe(PublishProcessor())
    ts = f.timestamp(sched).test()
    ts.cancel()
    assert cancels == [True]


def test_timestamp_default_scheduler_is_computation():
    ts = Flowable.range(1, 3).timestamp().test()
    ts.assert_value_count(3).assert_complete()
    assert all(isinstance(t.time, float) for t in ts.values())


def test_timestamp_bad_scheduler():
    with pytest.raises(TypeError):
        Flowable.just(1).timestamp("not a scheduler")


# ---------------------------------------------------------------- delay

def test_delay_shifts_items_and_completion(sched):
    pp = PublishProcessor()
    ts = pp.delay(1, sched).test()
    pp.on_next(1)
    sched.advance_time_by(0.5)
    pp.on_next(2)
    pp.on_complete()
    ts.assert_no_values()
    sched.advance_time_by(0.5)
    ts.assert_values(1).assert_not_complete()
    sched.advance_time_by(0.5)
    ts.assert_result(1, 2)
    assert sched.pending_count() == 0


def test_delay_error_is_immediate_and_drops_waiting_items(sched):
    pp = PublishProcessor()
    ts = pp.delay(1, sched).test()
    pp.on_next(1)
    pp.on_error(Boom())
    sched.trigger_actions()
    ts.assert_failure(Boom)
    sched.advance_time_by(5)
    ts.assert_failure(Boom)
    assert sched.pending_count() == 0


def test_delay_error_delayed_with_delay_error(sched):
    pp = PublishProcessor()
    ts = pp.delay(1, sched, delay_error=True).test()
    pp.on_next(1)
    pp.on_error(Boom())
    sched.trigger_actions()
    ts.assert_no_values().assert_no_errors()
    sched.advance_time_by(1)
    ts.assert_failure(Boom, 1)


def test_delay_requests_pass_through(sched):
    f, requests, _ = probe(Flowable.range(1, 10))
    ts = f.delay(1, sched).test(0)
    ts.request(3)
    sched.advance_time_by(1)
    ts.assert_values(1, 2, 3)
    ts.request(LONG_MAX)
    sched.advance_time_by(1)
    ts.assert_result(*range(1, 11))
    assert requests == [3, LONG_MAX]


def test_delay_cancel_disposes_tasks_and_reaches_source(sched):
    pp = PublishProcessor()
    f, _, cancels = probe(pp)
    ts = f.delay(1, sched).test()
    pp.on_next(1)
    pp.on_next(2)
    assert sched.pending_count() == 2
    ts.cancel()
    assert cancels == [True]
    assert sched.pending_count() == 0
    sched.advance_time_by(5)
    ts.assert_no_values().assert_not_terminated()


def test_delay_zero_keeps_order(sched):
    ts = Flowable.range(1, 100).delay(0, sched).test()
    sched.trigger_actions()
    ts.assert_result(*range(1, 101))


@pytest.mark.parametrize("bad", [-1, -0.001, float("nan")])
def test_delay_negative_is_value_error(bad):
    with pytest.raises(ValueError):
        Flowable.just(1).delay(bad)
    with pytest.raises(ValueError):
        Flowable.just(1).delay_subscription(bad)


def test_delay_type_error():
    with pytest.raises(TypeError):
        Flowable.just(1).delay("1")


def test_delay_real_thread():
    ts = Flowable.range(1, 50).delay(0.01, Schedulers.computation()).test()
    ts.await_done(5).assert_result(*range(1, 51))


def test_delay_subscription(sched):
    subscribed = []
    f, requests, _ = probe(Flowable.range(1, 3).do_on_subscribe(lambda s: subscribed.append(1)))
    ts = f.delay_subscription(2, sched).test(0)
    ts.request(1)
    ts.request(1)
    sched.advance_time_by(1.9)
    assert subscribed == []
    sched.advance_time_by(0.1)
    assert subscribed == [1]
    assert requests == [2]
    ts.assert_values(1, 2)
    ts.request(1)
    ts.assert_result(1, 2, 3)


def test_delay_subscription_cancel_before_subscribe(sched):
    subscribed = []
    ts = (Flowable.range(1, 3).do_on_subscribe(lambda s: subscribed.append(1))
          .delay_subscription(1, sched).test())
    assert sched.pending_count() == 1
    ts.cancel()
    assert sched.pending_count() == 0
    sched.advance_time_by(2)
    assert subscribed == []
    ts.assert_no_values()


def test_delay_subscription_cancel_reaches_source(sched):
    f, _, cancels = probe(PublishProcessor())
    ts = f.delay_subscription(1, sched).test()
    sched.advance_time_by(1)
    ts.cancel()
    assert cancels == [True]


def test_delay_subscription_error(sched):
    ts = Flowable.error(Boom()).delay_subscription(1, sched).test()
    ts.assert_no_errors()
    sched.advance_time_by(1)
    ts.assert_failure(Boom)


def test_delay_subscription_real_thread():
    Flowable.range(1, 5).delay_subscription(0.01).test().await_done(5).assert_result(1, 2, 3, 4, 5)


# ---------------------------------------------------------------- timeout

def test_timeout_no_timeout(sched):
    pp = PublishProcessor()
    ts = pp.timeout(1, sched).test()
    sched.advance_time_by(0.9)
    pp.on_next(1)
    sched.advance_time_by(0.9)
    pp.on_next(2)
    pp.on_complete()
    ts.assert_result(1, 2)
    assert sched.pending_count() == 0


def test_timeout_first_item(sched):
    pp = PublishProcessor()
    f, _, cancels = probe(pp)
    ts = f.timeout(1, sched).test()
    sched.advance_time_by(1)
    ts.assert_error(TimeoutError)
    assert "1.0 seconds" in str(ts.errors()[0])
    assert cancels == [True]
    assert not pp.has_subscribers()


def test_timeout_between_items(sched):
    pp = PublishProcessor()
    ts = pp.timeout(1, sched).test()
    pp.on_next(1)
    sched.advance_time_by(0.5)
    pp.on_next(2)
    sched.advance_time_by(0.99)
    ts.assert_values(1, 2).assert_no_errors()
    sched.advance_time_by(0.01)
    ts.assert_failure(TimeoutError, 1, 2)
    pp.on_next(3)  # the upstream was cancelled: nothing more gets through
    ts.assert_values(1, 2)
    assert sched.pending_count() == 0


def test_timeout_error_passthrough(sched):
    pp = PublishProcessor()
    ts = pp.timeout(1, sched).test()
    pp.on_error(Boom())
    ts.assert_failure(Boom)
    assert sched.pending_count() == 0
    sched.advance_time_by(2)
    assert len(ts.errors()) == 1


def test_timeout_requests_pass_through(sched):
    f, requests, _ = probe(Flowable.range(1, 5))
    ts = f.timeout(1, sched).test(0)
    ts.request(2)
    ts.assert_values(1, 2)
    ts.request(3)
    ts.assert_result(1, 2, 3, 4, 5)
    assert requests == [2, 3]


def test_timeout_cancel_disposes_timer_and_reaches_source(sched):
    f, _, cancels = probe(PublishProcessor())
    ts = f.timeout(1, sched).test()
    assert sched.pending_count() == 1
    ts.cancel()
    assert cancels == [True]
    assert sched.pending_count() == 0


def test_timeout_fallback(sched):
    pp = PublishProcessor()
    ts = pp.timeout(1, sched, fallback=Flowable.range(10, 3)).test()
    pp.on_next(1)
    sched.advance_time_by(1)
    ts.assert_result(1, 10, 11, 12)
    assert not pp.has_subscribers()


def test_timeout_fallback_gets_remaining_demand(sched):
    pp = PublishProcessor()
    fb, requests, _ = probe(Flowable.range(10, 100))
    ts = pp.timeout(1, sched, fallback=fb).test(5)
    pp.on_next(1)
    pp.on_next(2)
    sched.advance_time_by(1)
    ts.assert_values(1, 2, 10, 11, 12)
    assert requests == [3]
    ts.request(2)
    ts.assert_values(1, 2, 10, 11, 12, 13, 14)
    assert requests == [3, 2]


def test_timeout_fallback_cancel_reaches_fallback(sched):
    pp = PublishProcessor()
    fb, _, cancels = probe(PublishProcessor())
    ts = pp.timeout(1, sched, fallback=fb).test()
    sched.advance_time_by(1)
    ts.cancel()
    assert cancels == [True]


def test_timeout_fallback_cancel_before_timeout(sched):
    f, _, cancels = probe(PublishProcessor())
    ts = f.timeout(1, sched, fallback=Flowable.just(1)).test()
    ts.cancel()
    assert cancels == [True]
    assert sched.pending_count() == 0
    sched.advance_time_by(2)
    ts.assert_no_values()


def test_timeout_fallback_error(sched):
    ts = Flowable.never().timeout(1, sched, fallback=Flowable.error(Boom())).test()
    sched.advance_time_by(1)
    ts.assert_failure(Boom)


def test_timeout_bad_args():
    with pytest.raises(ValueError):
        Flowable.just(1).timeout(-1)
    with pytest.raises(TypeError):
        Flowable.just(1).timeout(1, fallback=42)


def test_timeout_real_thread():
    ts = Flowable.never().timeout(0.01).test()
    ts.await_done(5).assert_error(TimeoutError)
    ts2 = Flowable.range(1, 3).timeout(5).test()
    ts2.await_done(5).assert_result(1, 2, 3)


def test_timeout_race_item_vs_timeout(race_runner, race_rounds):
    for _ in range(race_rounds):
        sched = TestScheduler()
        pp = PublishProcessor()
        ts = pp.timeout(1, sched).test()
        sched.advance_time_by(0.5)
        race_runner.race(lambda pp=pp: pp.on_next(1), lambda sched=sched: sched.advance_time_by(0.5))
        # either the item got in first (then a new timeout waits), or the timeout fired first
        if ts.errors():
            ts.assert_failure(TimeoutError)
        else:
            ts.assert_values(1).assert_not_terminated()
            sched.advance_time_by(1)
            ts.assert_failure(TimeoutError, 1)
        assert len(ts.errors()) == 1


def test_timeout_fallback_race_item_vs_timeout(race_runner, race_rounds):
    for _ in range(race_rounds):
        sched = TestScheduler()
        pp = PublishProcessor()
        ts = pp.timeout(1, sched, fallback=Flowable.just(100)).test()
        sched.advance_time_by(0.5)
        race_runner.race(lambda pp=pp: pp.on_next(1), lambda sched=sched: sched.advance_time_by(0.5))
        sched.advance_time_by(1)
        assert ts.values() in ([100], [1, 100])
        ts.assert_complete().assert_no_errors()


# ---------------------------------------------------------------- take_time / skip_time

def test_take_time(sched):
    pp = PublishProcessor()
    f, _, cancels = probe(pp)
    ts = f.take_time(1, sched).test()
    pp.on_next(1)
    sched.advance_time_by(0.5)
    pp.on_next(2)
    sched.advance_time_by(0.5)
    ts.assert_result(1, 2)
    assert cancels == [True]
    assert sched.pending_count() == 0


def test_take_time_source_completes_first(sched):
    ts = Flowable.range(1, 3).take_time(1, sched).test()
    ts.assert_result(1, 2, 3)
    assert sched.pending_count() == 0


def test_take_time_error_and_cancel(sched):
    Flowable.error(Boom()).take_time(1, sched).test().assert_failure(Boom)
    assert sched.pending_count() == 0
    f, _, cancels = probe(PublishProcessor())
    ts = f.take_time(1, sched).test()
    ts.cancel()
    assert cancels == [True]
    assert sched.pending_count() == 0


def test_take_time_requests(sched):
    f, requests, _ = probe(Flowable.range(1, 10))
    ts = f.take_time(1, sched).test(0)
    ts.request(2)
    ts.assert_values(1, 2)
    assert requests == [2]


def test_skip_time(sched):
    pp = PublishProcessor()
    ts = pp.skip_time(1, sched).test()
    pp.on_next(1)
    sched.advance_time_by(1)
    pp.on_next(2)
    pp.on_next(3)
    pp.on_complete()
    ts.assert_result(2, 3)


def test_skip_time_error_and_cancel(sched):
    Flowable.error(Boom()).skip_time(1, sched).test().assert_failure(Boom)
    assert sched.pending_count() == 0
    f, _, cancels = probe(PublishProcessor())
    ts = f.skip_time(1, sched).test()
    ts.cancel()
    assert cancels == [True]
    assert sched.pending_count() == 0


def test_take_skip_time_bad_args():
    with pytest.raises(ValueError):
        Flowable.just(1).take_time(-1)
    with pytest.raises(ValueError):
        Flowable.just(1).skip_time(-1)


def test_take_time_real_thread():
    pp = PublishProcessor()
    ts = pp.take_time(0.01).test()
    ts.await_done(5).assert_complete()
    assert not pp.has_subscribers()
    Flowable.range(1, 3).skip_time(0).test().await_done(5).assert_complete()


def test_time_operators_chain_on_themselves(sched):
    # an operator's fields must not hide the fluent methods of its class
    f = (Flowable.range(1, 3)
         .timestamp(sched).map(lambda t: t.value).timestamp(sched).map(lambda t: t.value)
         .time_interval(sched).map(lambda t: t.value).time_interval(sched).map(lambda t: t.value)
         .delay(0, sched).delay(0, sched)
         .delay_subscription(0, sched).delay_subscription(0, sched)
         .timeout(5, sched).timeout(5, sched)
         .take_time(5, sched).take_time(5, sched)
         .throttle_first(0, sched).throttle_first(0, sched)
         .buffer_time(5, sched, count=1).filter(len).map(lambda b: b[0])
         .buffer_time(5, sched, count=1).filter(len).map(lambda b: b[0])
         .debounce(0, sched).debounce(0, sched)
         .sample(1, sched, True).sample(1, sched, True)
         .throttle_latest(1, sched, True).throttle_latest(1, sched, True))
    ts = f.test()
    sched.advance_time_by(10)
    ts.assert_complete().assert_no_errors()
    assert set(ts.values()) <= {1, 2, 3}
