"""Maybe.timeout(other) / Maybe.delay(other): the overloads taking another source
instead of a time (RxJava 2's MaybeTimeoutMaybe/MaybeTimeoutPublisher with a source,
MaybeDelayOtherPublisher). What Maybe shares with Single and Completable is in
``test_zero_one_timed.py``."""

from __future__ import annotations

import pytest
from probes import Boom
from probes import Manual
from probes import ProbeMaybe

from rxpy2 import Completable
from rxpy2 import Flowable
from rxpy2 import Maybe
from rxpy2 import Schedulers
from rxpy2 import Single
from rxpy2.exceptions import CompositeException
from rxpy2.processors import PublishProcessor

pytestmark = pytest.mark.usefixtures("shutdown_schedulers")


def test_scheduler_goes_only_with_a_time():
    for make in (lambda m, o, s: m.timeout(o, s), lambda m, o, s: m.delay(o, s)):
        with pytest.raises(TypeError):
            make(Maybe.just(1), Maybe.just(2), Schedulers.single())
    with pytest.raises(TypeError):
        Maybe.just(1).timeout(Flowable.never(), fallback=Single.just(1))


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


def test_delay_other_nothing_after_dispose(plugin_errors):
    other = Manual()
    to = Maybe.just(1).delay(other).test()
    to.dispose()
    assert other.probe.cancelled == 1
    other.subscriber.on_next(0)  # late: dropped
    other.subscriber.on_complete()
    other.subscriber.on_error(Boom())  # late: to plugins
    to.assert_empty()
    assert [type(e) for e in plugin_errors.causes()] == [Boom]
