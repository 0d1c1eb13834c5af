"""Completable.timer / timeout / delay / delay_subscription (RxJava 2's CompletableTimer,
CompletableTimeout, CompletableDelay, and ``timer(...).andThen(this)``). Virtual time
(TestScheduler) throughout; a few runs on real schedulers check the thread use."""

from __future__ import annotations

import pytest
from probes import Boom, ProbeCompletable

from rxpy2 import Completable, Flowable, Maybe, Schedulers, Single
from rxpy2.processors import PublishProcessor

pytestmark = pytest.mark.usefixtures("shutdown_schedulers")


@pytest.mark.parametrize("make", [
    lambda t: Completable.timer(t),
    lambda t: Completable.complete().timeout(t),
    lambda t: Completable.complete().delay(t),
    lambda t: Completable.complete().delay_subscription(t),
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
        Completable.timer(1, object())
    with pytest.raises(TypeError):
        Completable.complete().timeout(1, fallback=Maybe.empty())
    with pytest.raises(TypeError):
        Completable.complete().delay(1, object())
    with pytest.raises(TypeError):
        Completable.complete().delay_subscription(Completable.complete(), Schedulers.single())
    with pytest.raises(TypeError):  # Completable.timeout takes only a time (RxJava 2)
        Completable.complete().timeout(Completable.never())


# ---------------------------------------------------------------- timer

def test_timer(sched):
    to = Completable.timer(2, sched).test()
    sched.advance_time_by(1.5)
    to.assert_empty()
    sched.advance_time_by(0.5)
    to.assert_result()


def test_timer_dispose(sched):
    to = Completable.timer(2, sched).test()
    to.dispose()
    sched.advance_time_by(5)
    to.assert_empty()


def test_timer_real_scheduler():
    Completable.timer(0.01, Schedulers.computation()).blocking_await(5)


def test_timer_race_dispose_vs_fire(race_runner, race_rounds, sched):
    for _ in range(race_rounds):
        to = Completable.timer(1, sched).test()
        race_runner.race(to.dispose, lambda: sched.advance_time_by(1))
        assert to.completions() <= 1
        to.assert_protocol_ok()


# ---------------------------------------------------------------- timeout

def test_timeout_complete_in_time(sched):
    p = ProbeCompletable()
    to = p.timeout(1, sched).test()
    p.complete()
    sched.advance_time_by(5)
    to.assert_result()


def test_timeout_error_in_time(sched):
    p = ProbeCompletable()
    to = p.timeout(1, sched).test()
    p.error(Boom())
    sched.advance_time_by(5)
    to.assert_failure(Boom)


def test_timeout_fires_timeout_error_and_disposes_upstream(sched, plugin_errors):
    p = ProbeCompletable()
    to = p.timeout(1, sched).test()
    sched.advance_time_by(1)
    to.assert_failure(TimeoutError)
    assert "1.0 seconds" in str(to.errors()[0])  # RxJava 2: timeoutMessage(timeout, unit)
    assert p.disposed == 1
    p.complete()  # late: dropped
    p.error(Boom())  # late: to plugins
    to.assert_failure(TimeoutError)
    assert [type(e) for e in plugin_errors.causes()] == [Boom]


def test_timeout_fallback(sched):
    p = ProbeCompletable()
    to = p.timeout(1, sched, fallback=Completable.complete()).test()
    sched.advance_time_by(1)
    to.assert_result()
    assert p.disposed == 1
    to = Completable.never().timeout(1, sched, fallback=Completable.error(Boom())).test()
    sched.advance_time_by(1)
    to.assert_failure(Boom)


def test_timeout_fallback_dispose(sched):
    fb = ProbeCompletable()
    to = Completable.never().timeout(1, sched, fallback=fb).test()
    sched.advance_time_by(1)
    assert len(fb.observers) == 1
    to.dispose()
    assert fb.disposed == 1
    to.assert_empty()


def test_timeout_dispose_cancels_timer(sched):
    p = ProbeCompletable()
    to = p.timeout(1, sched).test()
    to.dispose()
    assert p.disposed == 1
    sched.advance_time_by(5)
    to.assert_empty()


def test_timeout_real_scheduler():
    with pytest.raises(TimeoutError):
        Completable.never().timeout(0.01).blocking_await(5)


def test_timeout_race_complete_vs_timeout(race_runner, race_rounds, sched, plugin_errors):
    for _ in range(race_rounds):
        p = ProbeCompletable()
        to = p.timeout(1, sched).test()
        race_runner.race(p.complete, lambda: sched.advance_time_by(1))
        to.assert_protocol_ok()
        assert to.completions() + len(to.errors()) == 1
        if to.errors():
            to.assert_failure(TimeoutError)
    assert not plugin_errors


def test_timeout_race_dispose_vs_timeout_with_fallback(race_runner, race_rounds, sched):
    for _ in range(race_rounds):
        fb = ProbeCompletable()
        to = Completable.never().timeout(1, sched, fallback=fb).test()
        race_runner.race(to.dispose, lambda: sched.advance_time_by(1))
        to.assert_empty()
        if fb.observers:
            assert fb.disposed == 1


# ---------------------------------------------------------------- delay

def test_delay_complete(sched):
    to = Completable.complete().delay(2, sched).test()
    sched.advance_time_by(1)
    to.assert_empty()
    sched.advance_time_by(1)
    to.assert_result()


def test_delay_error_not_delayed_by_default(sched):
    to = Completable.error(Boom()).delay(2, sched).test()
    to.assert_empty()  # still through the scheduler
    sched.trigger_actions()
    to.assert_failure(Boom)


def test_delay_error_delayed(sched):
    to = Completable.error(Boom()).delay(2, sched, delay_error=True).test()
    sched.advance_time_by(1)
    to.assert_empty()
    sched.advance_time_by(1)
    to.assert_failure(Boom)


def test_delay_dispose(sched):
    p = ProbeCompletable()
    to = p.delay(2, sched).test()
    p.complete()
    to.dispose()
    sched.advance_time_by(5)
    to.assert_empty()
    p2 = ProbeCompletable()
    p2.delay(2, sched).test().dispose()
    assert p2.disposed == 1


def test_delay_real_scheduler():
    Completable.complete().delay(0.01).blocking_await(5)


def test_delay_race_dispose_vs_delivery(race_runner, race_rounds, sched):
    for _ in range(race_rounds):
        to = Completable.complete().delay(1, sched).test()
        race_runner.race(to.dispose, lambda: sched.advance_time_by(1))
        assert to.completions() <= 1 and not to.errors()
        to.assert_protocol_ok()


# ---------------------------------------------------------------- delay_subscription

def test_delay_subscription_time(sched):
    p = ProbeCompletable()
    to = p.delay_subscription(2, sched).test()
    to.assert_subscribed()
    sched.advance_time_by(1)
    assert p.observers == []
    sched.advance_time_by(1)
    assert len(p.observers) == 1
    p.complete()
    to.assert_result()


def test_delay_subscription_time_is_timer_and_then():
    """RxJava 2: ``timer(time, scheduler).andThen(this)``."""
    c = Completable.never()
    assert repr(c.delay_subscription(1)) == repr(Completable.timer(1).and_then(c))


def test_delay_subscription_dispose(sched):
    p = ProbeCompletable()
    to = p.delay_subscription(2, sched).test()
    to.dispose()
    sched.advance_time_by(5)
    assert p.observers == []
    p2 = ProbeCompletable()
    to2 = p2.delay_subscription(2, sched).test()
    sched.advance_time_by(2)
    to2.dispose()
    assert p2.disposed == 1


@pytest.mark.parametrize("other", [Single.just(0), Maybe.empty(), Maybe.just(0),
                                   Completable.complete(), Flowable.range(1, 5), Flowable.empty()])
def test_delay_subscription_other_sources(other):
    Completable.complete().delay_subscription(other).test().assert_result()


@pytest.mark.parametrize("other", [Single.error(Boom()), Maybe.error(Boom()),
                                   Completable.error(Boom()), Flowable.error(Boom())])
def test_delay_subscription_other_error(other):
    p = ProbeCompletable()
    p.delay_subscription(other).test().assert_failure(Boom)
    assert p.observers == []


def test_delay_subscription_race_dispose_vs_other(race_runner, race_rounds):
    for _ in range(race_rounds):
        pp = PublishProcessor()
        p = ProbeCompletable()
        to = p.delay_subscription(pp).test()
        race_runner.race(to.dispose, lambda pp=pp: pp.on_next(1))
        if p.observers:
            assert p.disposed == 1
        to.assert_empty()
