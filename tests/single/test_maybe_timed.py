"""Maybe.timer / timeout / delay / delay_subscription (RxJava 2's MaybeTimer,
MaybeTimeoutMaybe/MaybeTimeoutPublisher, MaybeDelay/MaybeDelayOtherPublisher,
MaybeDelaySubscriptionOtherPublisher). Virtual time (TestScheduler) throughout; a few
runs on real schedulers check the thread use."""

from __future__ import annotations

import pytest
from probes import Boom, Manual, ProbeMaybe

from rxpy2 import Completable, Flowable, Maybe, Schedulers, Single
from rxpy2.exceptions import CompositeException
from rxpy2.processors import PublishProcessor

pytestmark = pytest.mark.usefixtures("shutdown_schedulers")


@pytest.mark.parametrize("make", [
    lambda t: Maybe.timer(t),
    lambda t: Maybe.just(1).timeout(t),
    lambda t: Maybe.just(1).delay(t),
    lambda t: Maybe.just(1).delay_subscription(t),
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
        Maybe.timer(1, object())
    with pytest.raises(TypeError):
        Maybe.just(1).timeout(1, fallback=Single.just(1))
    with pytest.raises(TypeError):
        Maybe.just(1).timeout(1, object())
    for make in (lambda m, o, s: m.timeout(o, s), lambda m, o, s: m.delay(o, s),
                 lambda m, o, s: m.delay_subscription(o, s)):
        with pytest.raises(TypeError):  # scheduler goes only with a time
            make(Maybe.just(1), Maybe.just(2), Schedulers.single())


# ---------------------------------------------------------------- timer

def test_timer(sched):
    to = Maybe.timer(2, sched).test()
    sched.advance_time_by(1.5)
    to.assert_empty()
    sched.advance_time_by(0.5)
    to.assert_result(0)


def test_timer_dispose(sched):
    to = Maybe.timer(2, sched).test()
    to.dispose()
    sched.advance_time_by(5)
    to.assert_empty()


def test_timer_real_scheduler():
    assert Maybe.timer(0.01, Schedulers.computation()).blocking_get(timeout=5) == 0


def test_timer_race_dispose_vs_fire(race_runner, race_rounds, sched):
    for _ in range(race_rounds):
        to = Maybe.timer(1, sched).test()
        race_runner.race(to.dispose, lambda: sched.advance_time_by(1))
        assert len(to.values()) <= 1
        to.assert_protocol_ok()


# ---------------------------------------------------------------- timeout(time)

@pytest.mark.parametrize("signal, check", [
    (lambda p: p.success(1), lambda to: to.assert_result(1)),
    (lambda p: p.complete(), lambda to: to.assert_result()),
    (lambda p: p.error(Boom()), lambda to: to.assert_failure(Boom)),
])
def test_timeout_signal_in_time(sched, signal, check):
    p = ProbeMaybe()
    to = p.timeout(1, sched).test()
    signal(p)
    sched.advance_time_by(5)
    check(to)


def test_timeout_fires_bare_timeout_error_and_disposes_upstream(sched, plugin_errors):
    p = ProbeMaybe()
    to = p.timeout(1, sched).test()
    sched.advance_time_by(1)
    to.assert_failure(TimeoutError)
    assert str(to.errors()[0]) == ""  # RxJava 2: timeout(timer(...)), no message
    assert p.disposed == 1
    p.complete()  # late: dropped
    p.error(Boom())  # late: to plugins
    to.assert_failure(TimeoutError)
    assert [type(e) for e in plugin_errors.causes()] == [Boom]


def test_timeout_fallback(sched):
    p = ProbeMaybe()
    to = p.timeout(1, sched, fallback=Maybe.empty()).test()
    sched.advance_time_by(1)
    to.assert_result()
    assert p.disposed == 1
    to = Maybe.never().timeout(1, sched, fallback=Maybe.just(9)).test()
    sched.advance_time_by(1)
    to.assert_result(9)


def test_timeout_fallback_dispose(sched):
    fb = ProbeMaybe()
    to = Maybe.never().timeout(1, sched, fallback=fb).test()
    sched.advance_time_by(1)
    assert len(fb.observers) == 1
    to.dispose()
    assert fb.disposed == 1
    to.assert_empty()


def test_timeout_dispose_cancels_timer(sched):
    p = ProbeMaybe()
    to = p.timeout(1, sched).test()
    to.dispose()
    assert p.disposed == 1
    sched.advance_time_by(5)
    to.assert_empty()


def test_timeout_real_scheduler():
    with pytest.raises(TimeoutError):
        Maybe.never().timeout(0.01).blocking_get(timeout=5)


def test_timeout_race_complete_vs_timeout(race_runner, race_rounds, sched, plugin_errors):
    for _ in range(race_rounds):
        p = ProbeMaybe()
        to = p.timeout(1, sched).test()
        race_runner.race(p.complete, lambda: sched.advance_time_by(1))
        to.assert_protocol_ok()
        assert to.completions() + len(to.errors()) == 1
        if to.errors():
            to.assert_failure(TimeoutError)
    assert not plugin_errors


def test_timeout_race_dispose_vs_timeout_with_fallback(race_runner, race_rounds, sched):
    for _ in range(race_rounds):
        fb = ProbeMaybe()
        to = Maybe.never().timeout(1, sched, fallback=fb).test()
        race_runner.race(to.dispose, lambda: sched.advance_time_by(1))
        to.assert_empty()
        if fb.observers:
            assert fb.disposed == 1


# ---------------------------------------------------------------- timeout(other source)

@pytest.mark.parametrize("other", [Maybe.just(0), Maybe.empty(), Single.just(0),
                                   Completable.complete(), Flowable.range(1, 3), Flowable.empty()])
def test_timeout_other_source_signals_first(other):
    p = ProbeMaybe()
    to = p.timeout(other).test()
    to.assert_failure(TimeoutError)
    assert p.disposed == 1  # subscribed after the timeout: disposed at once


def test_timeout_other_publisher_first_item_cancels_it():
    pp = PublishProcessor()
    p = ProbeMaybe()
    to = p.timeout(pp).test()
    assert pp.has_subscribers()
    pp.on_next(1)
    assert not pp.has_subscribers()
    to.assert_failure(TimeoutError)
    assert p.disposed == 1


def test_timeout_other_signal_in_time_cancels_other():
    pp = PublishProcessor()
    p = ProbeMaybe()
    to = p.timeout(pp).test()
    p.success(4)
    assert not pp.has_subscribers()
    to.assert_result(4)


def test_timeout_other_error(plugin_errors):
    pp = PublishProcessor()
    p = ProbeMaybe()
    to = p.timeout(pp).test()
    pp.on_error(Boom())
    to.assert_failure(Boom)
    assert p.disposed == 1
    assert not plugin_errors
    Maybe.never().timeout(Maybe.error(Boom())).test().assert_failure(Boom)


def test_timeout_other_error_after_the_main_won(plugin_errors):
    other = Manual()
    p = ProbeMaybe()
    to = p.timeout(other).test()
    p.complete()
    assert other.probe.cancelled == 1
    other.subscriber.on_error(Boom())  # late: to plugins
    other.subscriber.on_complete()  # late: dropped
    to.assert_result()
    assert [type(e) for e in plugin_errors.causes()] == [Boom]


def test_timeout_other_with_fallback():
    pp = PublishProcessor()
    to = Maybe.never().timeout(pp, fallback=Maybe.just(5)).test()
    pp.on_complete()
    to.assert_result(5)


def test_timeout_other_dispose_cancels_both():
    pp = PublishProcessor()
    p = ProbeMaybe()
    to = p.timeout(pp).test()
    to.dispose()
    assert p.disposed == 1
    assert not pp.has_subscribers()
    to.assert_empty()


def test_timeout_other_race_success_vs_other(race_runner, race_rounds, plugin_errors):
    for _ in range(race_rounds):
        pp = PublishProcessor()
        p = ProbeMaybe()
        to = p.timeout(pp).test()
        race_runner.race(lambda p=p: p.success(1), lambda pp=pp: pp.on_next(0))
        to.assert_protocol_ok()
        assert len(to.values()) + len(to.errors()) == 1
        if to.errors():
            to.assert_failure(TimeoutError)
    assert not plugin_errors


# ---------------------------------------------------------------- delay(time)

@pytest.mark.parametrize("source, check", [
    (lambda: Maybe.just(1), lambda to: to.assert_result(1)),
    (lambda: Maybe.empty(), lambda to: to.assert_result()),
    (lambda: Maybe.error(Boom()), lambda to: to.assert_failure(Boom)),
])
def test_delay_delays_every_signal(sched, source, check):
    """RxJava 2's MaybeDelay delays the error as much as the item and the completion."""
    to = source().delay(2, sched).test()
    sched.advance_time_by(1.9)
    to.assert_empty()
    sched.advance_time_by(0.1)
    check(to)


def test_delay_dispose(sched):
    p = ProbeMaybe()
    to = p.delay(2, sched).test()
    p.complete()
    to.dispose()
    sched.advance_time_by(5)
    to.assert_empty()
    p2 = ProbeMaybe()
    p2.delay(2, sched).test().dispose()
    assert p2.disposed == 1


def test_delay_real_scheduler():
    assert Maybe.just(3).delay(0.01).blocking_get(timeout=5) == 3


def test_delay_race_dispose_vs_delivery(race_runner, race_rounds, sched):
    for _ in range(race_rounds):
        to = Maybe.empty().delay(1, sched).test()
        race_runner.race(to.dispose, lambda: sched.advance_time_by(1))
        assert to.completions() <= 1 and not to.errors()
        to.assert_protocol_ok()


# ---------------------------------------------------------------- delay(other source)

@pytest.mark.parametrize("source, check", [
    (lambda: Maybe.just(1), lambda to: to.assert_result(1)),
    (lambda: Maybe.empty(), lambda to: to.assert_result()),
    (lambda: Maybe.error(Boom()), lambda to: to.assert_failure(Boom)),
])
def test_delay_other_holds_the_signal(source, check):
    pp = PublishProcessor()
    to = source().delay(pp).test()
    assert pp.has_subscribers()  # subscribed once the main Maybe signalled
    to.assert_empty()
    pp.on_next(0)
    assert not pp.has_subscribers()
    check(to)


def test_delay_other_subscribed_only_after_the_signal():
    pp = PublishProcessor()
    p = ProbeMaybe()
    to = p.delay(pp).test()
    assert not pp.has_subscribers()
    p.success(2)
    pp.on_complete()
    to.assert_result(2)


@pytest.mark.parametrize("other", [Maybe.just(0), Maybe.empty(), Single.just(0),
                                   Completable.complete(), Flowable.timer(0, Schedulers.trampoline())])
def test_delay_other_sources(other):
    Maybe.just(1).delay(other).test().assert_result(1)


def test_delay_other_error():
    Maybe.just(1).delay(Flowable.error(Boom())).test().assert_failure(Boom)
    to = Maybe.error(ValueError("main")).delay(Completable.error(Boom())).test()
    to.assert_failure(CompositeException)
    assert [type(e) for e in to.errors()[0].exceptions] == [ValueError, Boom]


def test_delay_other_dispose():
    p = ProbeMaybe()
    to = p.delay(PublishProcessor()).test()
    to.dispose()
    assert p.disposed == 1 and to.is_disposed()
    pp = PublishProcessor()
    p2 = ProbeMaybe()
    to2 = p2.delay(pp).test()
    p2.success(1)
    to2.dispose()
    assert not pp.has_subscribers()
    pp.on_next(0)
    to2.assert_empty()


def test_delay_other_race_dispose_vs_other(race_runner, race_rounds):
    for _ in range(race_rounds):
        pp = PublishProcessor()
        to = Maybe.just(1).delay(pp).test()
        race_runner.race(to.dispose, lambda pp=pp: pp.on_next(0))
        assert len(to.values()) <= 1 and not to.errors()
        to.assert_protocol_ok()


# ---------------------------------------------------------------- delay_subscription

def test_delay_subscription_time(sched):
    p = ProbeMaybe()
    to = p.delay_subscription(2, sched).test()
    to.assert_subscribed()
    sched.advance_time_by(1)
    assert p.observers == []
    sched.advance_time_by(1)
    assert len(p.observers) == 1
    p.complete()
    to.assert_result()


def test_delay_subscription_dispose(sched):
    p = ProbeMaybe()
    to = p.delay_subscription(2, sched).test()
    to.dispose()
    sched.advance_time_by(5)
    assert p.observers == []
    p2 = ProbeMaybe()
    to2 = p2.delay_subscription(2, sched).test()
    sched.advance_time_by(2)
    to2.dispose()
    assert p2.disposed == 1


@pytest.mark.parametrize("other", [Single.just(0), Maybe.empty(), Maybe.just(0),
                                   Completable.complete(), Flowable.range(1, 5), Flowable.empty()])
def test_delay_subscription_other_sources(other):
    Maybe.just(1).delay_subscription(other).test().assert_result(1)
    Maybe.empty().delay_subscription(other).test().assert_result()


@pytest.mark.parametrize("other", [Single.error(Boom()), Maybe.error(Boom()),
                                   Completable.error(Boom()), Flowable.error(Boom())])
def test_delay_subscription_other_error(other):
    p = ProbeMaybe()
    p.delay_subscription(other).test().assert_failure(Boom)
    assert p.observers == []


def test_delay_subscription_race_dispose_vs_other(race_runner, race_rounds):
    for _ in range(race_rounds):
        pp = PublishProcessor()
        p = ProbeMaybe()
        to = p.delay_subscription(pp).test()
        race_runner.race(to.dispose, lambda pp=pp: pp.on_next(1))
        if p.observers:
            assert p.disposed == 1
        to.assert_empty()
