"""Single.timer / timeout / delay / delay_subscription (RxJava 2's SingleTimer,
SingleTimeout, SingleDelay, SingleDelayWithPublisher/Observable). Virtual time
(TestScheduler) throughout; a few runs on real schedulers check the thread use."""

from __future__ import annotations

import pytest
from probes import Boom, ProbeSingle

from rxpy2 import Completable, Flowable, Maybe, Schedulers, Single
from rxpy2.processors import PublishProcessor

pytestmark = pytest.mark.usefixtures("shutdown_schedulers")


@pytest.mark.parametrize("make", [
    lambda t: Single.timer(t),
    lambda t: Single.just(1).timeout(t),
    lambda t: Single.just(1).delay(t),
    lambda t: Single.just(1).delay_subscription(t),
])
def test_time_argument_checked(make):
    with pytest.raises(ValueError):
        make(-1)
    with pytest.raises(TypeError):
        make(None)
    with pytest.raises(TypeError):
        make("1")


def test_scheduler_and_fallback_checked():
    with pytest.raises(TypeError):
        Single.timer(1, object())
    with pytest.raises(TypeError):
        Single.just(1).timeout(1, fallback=Flowable.just(1))
    with pytest.raises(TypeError):
        Single.just(1).delay_subscription(Single.just(2), Schedulers.single())


# ---------------------------------------------------------------- timer

def test_timer(sched):
    to = Single.timer(2, sched).test()
    sched.advance_time_by(1.5)
    to.assert_empty()
    sched.advance_time_by(0.5)
    to.assert_result(0)


def test_timer_dispose(sched):
    to = Single.timer(2, sched).test()
    to.dispose()
    sched.advance_time_by(5)
    to.assert_empty()


def test_timer_real_scheduler():
    assert Single.timer(0.01, Schedulers.computation()).blocking_get(5) == 0


def test_timer_race_dispose_vs_fire(race_runner, race_rounds, sched):
    for _ in range(race_rounds):
        to = Single.timer(1, sched).test()
        race_runner.race(to.dispose, lambda: sched.advance_time_by(1))
        assert len(to.values()) <= 1
        to.assert_protocol_ok()


# ---------------------------------------------------------------- timeout

def test_timeout_success_in_time(sched):
    p = ProbeSingle()
    to = p.timeout(1, sched).test()
    p.success(1)
    to.assert_result(1)
    sched.advance_time_by(5)
    to.assert_result(1)


def test_timeout_error_in_time(sched):
    p = ProbeSingle()
    to = p.timeout(1, sched).test()
    p.error(Boom())
    sched.advance_time_by(5)
    to.assert_failure(Boom)


def test_timeout_fires_timeout_error_and_disposes_upstream(sched, plugin_errors):
    p = ProbeSingle()
    to = p.timeout(1, sched).test()
    sched.advance_time_by(1)
    to.assert_failure(TimeoutError)
    assert "1.0 seconds" in str(to.errors()[0])
    assert p.disposed == 1
    p.success(2)  # late: dropped
    p.error(Boom())  # late: to plugins
    to.assert_failure(TimeoutError)
    assert [type(e) for e in plugin_errors.causes()] == [Boom]


def test_timeout_same_exception_as_flowable(sched):
    e1 = Single.never().timeout(1, sched).test()
    e2 = Flowable.never().timeout(1, sched).test()
    sched.advance_time_by(1)
    assert type(e1.errors()[0]) is type(e2.errors()[0]) is TimeoutError


def test_timeout_fallback(sched):
    p = ProbeSingle()
    to = p.timeout(1, sched, fallback=Single.just(9)).test()
    sched.advance_time_by(1)
    to.assert_result(9)
    assert p.disposed == 1


def test_timeout_fallback_dispose(sched):
    fb = ProbeSingle()
    to = Single.never().timeout(1, sched, fallback=fb).test()
    sched.advance_time_by(1)
    assert len(fb.observers) == 1
    to.dispose()
    assert fb.disposed == 1
    to.assert_empty()


def test_timeout_dispose_cancels_timer(sched):
    p = ProbeSingle()
    to = p.timeout(1, sched).test()
    to.dispose()
    assert p.disposed == 1
    sched.advance_time_by(5)
    to.assert_empty()


def test_timeout_real_scheduler():
    with pytest.raises(TimeoutError):
        Single.never().timeout(0.01).blocking_get(5)


def test_timeout_race_success_vs_timeout(race_runner, race_rounds, sched, plugin_errors):
    for _ in range(race_rounds):
        p = ProbeSingle()
        to = p.timeout(1, sched).test()
        race_runner.race(lambda p=p: p.success(1), lambda: sched.advance_time_by(1))
        to.assert_protocol_ok()
        assert len(to.values()) + len(to.errors()) == 1
        if to.errors():
            to.assert_failure(TimeoutError)
    assert not plugin_errors


def test_timeout_race_dispose_vs_timeout_with_fallback(race_runner, race_rounds, sched):
    for _ in range(race_rounds):
        fb = ProbeSingle()
        to = Single.never().timeout(1, sched, fallback=fb).test()
        race_runner.race(to.dispose, lambda: sched.advance_time_by(1))
        to.assert_empty()
        if fb.observers:
            assert fb.disposed == 1


# ---------------------------------------------------------------- delay

def test_delay_success(sched):
    to = Single.just(1).delay(2, sched).test()
    sched.advance_time_by(1)
    to.assert_empty()
    sched.advance_time_by(1)
    to.assert_result(1)


def test_delay_error_not_delayed_by_default(sched):
    to = Single.error(Boom()).delay(2, sched).test()
    sched.trigger_actions()
    to.assert_failure(Boom)


def test_delay_error_delayed(sched):
    to = Single.error(Boom()).delay(2, sched, delay_error=True).test()
    sched.advance_time_by(1)
    to.assert_empty()
    sched.advance_time_by(1)
    to.assert_failure(Boom)


def test_delay_dispose(sched):
    p = ProbeSingle()
    to = p.delay(2, sched).test()
    p.success(1)
    to.dispose()
    sched.advance_time_by(5)
    to.assert_empty()
    to2 = ProbeSingle()
    t2 = to2.delay(2, sched).test()
    t2.dispose()
    assert to2.disposed == 1


def test_delay_real_scheduler():
    assert Single.just(3).delay(0.01).blocking_get(5) == 3


def test_delay_race_dispose_vs_delivery(race_runner, race_rounds, sched):
    for _ in range(race_rounds):
        to = Single.just(1).delay(1, sched).test()
        race_runner.race(to.dispose, lambda: sched.advance_time_by(1))
        assert len(to.values()) <= 1 and not to.errors()
        to.assert_protocol_ok()


# ---------------------------------------------------------------- delay_subscription

def test_delay_subscription_time(sched):
    p = ProbeSingle()
    to = p.delay_subscription(2, sched).test()
    to.assert_subscribed()
    sched.advance_time_by(1)
    assert p.observers == []
    sched.advance_time_by(1)
    assert len(p.observers) == 1
    p.success(1)
    to.assert_result(1)


def test_delay_subscription_dispose_before_time(sched):
    p = ProbeSingle()
    to = p.delay_subscription(2, sched).test()
    to.dispose()
    sched.advance_time_by(5)
    assert p.observers == []
    to.assert_empty()


def test_delay_subscription_dispose_after_subscribe(sched):
    p = ProbeSingle()
    to = p.delay_subscription(2, sched).test()
    sched.advance_time_by(2)
    to.dispose()
    assert p.disposed == 1


@pytest.mark.parametrize("other", [Single.just(0), Maybe.empty(), Maybe.just(0),
                                   Completable.complete(), Flowable.range(1, 5), Flowable.empty()])
def test_delay_subscription_other_sources(other):
    Single.just(1).delay_subscription(other).test().assert_result(1)


@pytest.mark.parametrize("other", [Single.error(Boom()), Maybe.error(Boom()),
                                   Completable.error(Boom()), Flowable.error(Boom())])
def test_delay_subscription_other_error(other):
    p = ProbeSingle()
    p.delay_subscription(other).test().assert_failure(Boom)
    assert p.observers == []


def test_delay_subscription_publisher_first_item_cancels_it():
    pp = PublishProcessor()
    p = ProbeSingle()
    to = p.delay_subscription(pp).test()
    assert p.observers == []
    pp.on_next(1)
    assert not pp.has_subscribers()
    assert len(p.observers) == 1
    p.success(5)
    to.assert_result(5)


def test_delay_subscription_race_dispose_vs_other(race_runner, race_rounds):
    for _ in range(race_rounds):
        pp = PublishProcessor()
        p = ProbeSingle()
        to = p.delay_subscription(pp).test()
        race_runner.race(to.dispose, lambda pp=pp: pp.on_next(1))
        if p.observers:
            assert p.disposed == 1
        to.assert_empty()
