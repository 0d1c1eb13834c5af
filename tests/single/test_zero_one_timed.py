"""Single/Maybe/Completable.timer / timeout / delay / delay_subscription (RxJava 2's
SingleTimer, MaybeTimer, CompletableTimer, SingleTimeout, MaybeTimeoutMaybe,
CompletableTimeout, SingleDelay, MaybeDelay, CompletableDelay, SingleDelayWithPublisher,
MaybeDelaySubscriptionOtherPublisher, Completable's ``timer(...).andThen(this)``): one
implementation per operator, tested on the three types; what differs per type is at the
end (Maybe's overloads taking another source: ``test_maybe_timed.py``). Virtual time
(TestScheduler) throughout; a few runs on real schedulers check the thread use."""

from __future__ import annotations

import pytest
from probes import Boom
from zero_one_kinds import FAILING
from zero_one_kinds import KINDS
from zero_one_kinds import NEVER
from zero_one_kinds import OK
from zero_one_kinds import PROBES
from zero_one_kinds import TYPES
from zero_one_kinds import blocking
from zero_one_kinds import check_ok
from zero_one_kinds import signal_ok

from rxpy2 import Completable
from rxpy2 import Flowable
from rxpy2 import Maybe
from rxpy2 import Schedulers
from rxpy2 import Single
from rxpy2.processors import PublishProcessor

pytestmark = pytest.mark.usefixtures("shutdown_schedulers")

OTHER_SOURCES = [Single.just(0), Maybe.empty(), Maybe.just(0), Completable.complete(),
                 Flowable.range(1, 5), Flowable.empty()]
FAILING_SOURCES = [Single.error(Boom()), Maybe.error(Boom()), Completable.error(Boom()),
                   Flowable.error(Boom())]


OPS = {
    "timer": lambda kind, t: TYPES[kind].timer(t),
    "timeout": lambda kind, t: OK[kind]().timeout(t),
    "delay": lambda kind, t: OK[kind]().delay(t),
    "delay_subscription": lambda kind, t: OK[kind]().delay_subscription(t),
}


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("op", list(OPS))
def test_time_argument_checked(kind, op):
    make = OPS[op]
    with pytest.raises(ValueError):
        make(kind, -1)
    with pytest.raises(TypeError):
        make(kind, None)
    with pytest.raises(TypeError):
        make(kind, "1")


@pytest.mark.parametrize("kind", KINDS)
def test_scheduler_and_fallback_checked(kind):
    with pytest.raises(TypeError):
        TYPES[kind].timer(1, object())
    with pytest.raises(TypeError):
        OK[kind]().timeout(1, object())
    with pytest.raises(TypeError):
        OK[kind]().delay(1, object())
    with pytest.raises(TypeError):  # a fallback of another type
        OK[kind]().timeout(1, fallback=Flowable.just(1))
    with pytest.raises(TypeError):  # the scheduler goes only with a time
        OK[kind]().delay_subscription(Single.just(2), Schedulers.single())


# ---------------------------------------------------------------- timer

@pytest.mark.parametrize("kind", KINDS)
def test_timer(sched, kind):
    to = TYPES[kind].timer(2, sched).test()
    sched.advance_time_by(1.5)
    to.assert_empty()
    sched.advance_time_by(0.5)
    check_ok(kind, to, 0)


@pytest.mark.parametrize("kind", KINDS)
def test_timer_dispose(sched, kind):
    to = TYPES[kind].timer(2, sched).test()
    to.dispose()
    sched.advance_time_by(5)
    to.assert_empty()


@pytest.mark.parametrize("kind", KINDS)
def test_timer_real_scheduler(kind):
    blocking(TYPES[kind].timer(0.01, Schedulers.computation()))


@pytest.mark.parametrize("kind", KINDS)
def test_timer_race_dispose_vs_fire(race_runner, race_rounds, sched, kind):
    for _ in range(race_rounds):
        to = TYPES[kind].timer(1, sched).test()
        race_runner.race(to.dispose, lambda: sched.advance_time_by(1))
        assert len(to.values()) <= 1 and to.completions() <= 1
        to.assert_protocol_ok()


# ---------------------------------------------------------------- timeout

@pytest.mark.parametrize("kind", KINDS)
def test_timeout_signal_in_time(sched, kind):
    p = PROBES[kind]()
    to = p.timeout(1, sched).test()
    signal_ok(kind, p)
    sched.advance_time_by(5)
    check_ok(kind, to)
    p = PROBES[kind]()
    to = p.timeout(1, sched).test()
    p.error(Boom())
    sched.advance_time_by(5)
    to.assert_failure(Boom)


@pytest.mark.parametrize("kind", KINDS)
def test_timeout_fires_timeout_error_and_disposes_upstream(sched, kind, plugin_errors):
    p = PROBES[kind]()
    to = p.timeout(1, sched).test()
    sched.advance_time_by(1)
    to.assert_failure(TimeoutError)
    assert p.disposed == 1
    signal_ok(kind, p)  # late: dropped
    p.error(Boom())  # late: to plugins
    to.assert_failure(TimeoutError)
    assert [type(e) for e in plugin_errors.causes()] == [Boom]


@pytest.mark.parametrize("kind", KINDS)
def test_timeout_fallback(sched, kind):
    p = PROBES[kind]()
    to = p.timeout(1, sched, fallback=OK[kind]()).test()
    sched.advance_time_by(1)
    check_ok(kind, to)
    assert p.disposed == 1
    to = NEVER[kind]().timeout(1, sched, fallback=FAILING[kind]()).test()
    sched.advance_time_by(1)
    to.assert_failure(Boom)


@pytest.mark.parametrize("kind", KINDS)
def test_timeout_fallback_dispose(sched, kind):
    fb = PROBES[kind]()
    to = NEVER[kind]().timeout(1, sched, fallback=fb).test()
    sched.advance_time_by(1)
    assert len(fb.observers) == 1
    to.dispose()
    assert fb.disposed == 1
    to.assert_empty()


@pytest.mark.parametrize("kind", KINDS)
def test_timeout_dispose_cancels_timer(sched, kind):
    p = PROBES[kind]()
    to = p.timeout(1, sched).test()
    to.dispose()
    assert p.disposed == 1
    sched.advance_time_by(5)
    to.assert_empty()


@pytest.mark.parametrize("kind", KINDS)
def test_timeout_real_scheduler(kind):
    with pytest.raises(TimeoutError):
        blocking(NEVER[kind]().timeout(0.01))


@pytest.mark.parametrize("kind", KINDS)
def test_timeout_race_signal_vs_timeout(race_runner, race_rounds, sched, kind, plugin_errors):
    for _ in range(race_rounds):
        p = PROBES[kind]()
        to = p.timeout(1, sched).test()
        race_runner.race(lambda p=p: signal_ok(kind, p), lambda: sched.advance_time_by(1))
        to.assert_protocol_ok()
        assert to.completions() + len(to.errors()) == 1
        if to.errors():
            to.assert_failure(TimeoutError)
    assert not plugin_errors


@pytest.mark.parametrize("kind", KINDS)
def test_timeout_race_dispose_vs_timeout_with_fallback(race_runner, race_rounds, sched, kind):
    for _ in range(race_rounds):
        fb = PROBES[kind]()
        to = NEVER[kind]().timeout(1, sched, fallback=fb).test()
        race_runner.race(to.dispose, lambda: sched.advance_time_by(1))
        to.assert_empty()
        if fb.observers:
            assert fb.disposed == 1


# ---------------------------------------------------------------- delay

@pytest.mark.parametrize("kind", KINDS)
def test_delay(sched, kind):
    to = OK[kind]().delay(2, sched).test()
    sched.advance_time_by(1)
    to.assert_empty()
    sched.advance_time_by(1)
    check_ok(kind, to)


@pytest.mark.parametrize("kind", KINDS)
def test_delay_dispose(sched, kind):
    p = PROBES[kind]()
    to = p.delay(2, sched).test()
    signal_ok(kind, p)
    to.dispose()
    sched.advance_time_by(5)
    to.assert_empty()
    p2 = PROBES[kind]()
    p2.delay(2, sched).test().dispose()
    assert p2.disposed == 1


@pytest.mark.parametrize("kind", KINDS)
def test_delay_real_scheduler(kind):
    blocking(OK[kind]().delay(0.01))


@pytest.mark.parametrize("kind", KINDS)
def test_delay_race_dispose_vs_delivery(race_runner, race_rounds, sched, kind):
    for _ in range(race_rounds):
        to = OK[kind]().delay(1, sched).test()
        race_runner.race(to.dispose, lambda: sched.advance_time_by(1))
        assert len(to.values()) <= 1 and to.completions() <= 1 and not to.errors()
        to.assert_protocol_ok()


# ---------------------------------------------------------------- delay_subscription

@pytest.mark.parametrize("kind", KINDS)
def test_delay_subscription_time(sched, kind):
    p = PROBES[kind]()
    to = p.delay_subscription(2, sched).test()
    to.assert_subscribed()
    sched.advance_time_by(1)
    assert p.observers == []
    sched.advance_time_by(1)
    assert len(p.observers) == 1
    signal_ok(kind, p)
    check_ok(kind, to)


@pytest.mark.parametrize("kind", KINDS)
def test_delay_subscription_dispose_before_time(sched, kind):
    p = PROBES[kind]()
    to = p.delay_subscription(2, sched).test()
    to.dispose()
    sched.advance_time_by(5)
    assert p.observers == []
    to.assert_empty()


@pytest.mark.parametrize("kind", KINDS)
def test_delay_subscription_dispose_after_subscribe(sched, kind):
    p = PROBES[kind]()
    to = p.delay_subscription(2, sched).test()
    sched.advance_time_by(2)
    to.dispose()
    assert p.disposed == 1


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("other", OTHER_SOURCES)
def test_delay_subscription_other_sources(kind, other):
    check_ok(kind, OK[kind]().delay_subscription(other).test())


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("other", FAILING_SOURCES)
def test_delay_subscription_other_error(kind, other):
    p = PROBES[kind]()
    p.delay_subscription(other).test().assert_failure(Boom)
    assert p.observers == []


@pytest.mark.parametrize("kind", KINDS)
def test_delay_subscription_publisher_first_item_cancels_it(kind):
    pp = PublishProcessor()
    p = PROBES[kind]()
    to = p.delay_subscription(pp).test()
    assert p.observers == []
    pp.on_next(1)
    assert not pp.has_subscribers()
    assert len(p.observers) == 1
    signal_ok(kind, p)
    check_ok(kind, to)


@pytest.mark.parametrize("kind", KINDS)
def test_delay_subscription_race_dispose_vs_other(race_runner, race_rounds, kind):
    for _ in range(race_rounds):
        pp = PublishProcessor()
        p = PROBES[kind]()
        to = p.delay_subscription(pp).test()
        race_runner.race(to.dispose, lambda pp=pp: pp.on_next(1))
        if p.observers:
            assert p.disposed == 1
        to.assert_empty()


# ---------------------------------------------------------------- what differs per type

@pytest.mark.parametrize("kind", ["single", "completable"])
def test_timeout_error_names_the_time(sched, kind):
    """RxJava 2's SingleTimeout and CompletableTimeout: ``timeoutMessage(timeout, unit)``."""
    to = NEVER[kind]().timeout(1, sched).test()
    sched.advance_time_by(1)
    assert "1.0 seconds" in str(to.errors()[0])


def test_maybe_timeout_error_has_no_message(sched):
    """RxJava 2's Maybe.timeout(time) is ``timeout(timer(time))``: a bare TimeoutException."""
    to = Maybe.never().timeout(1, sched).test()
    sched.advance_time_by(1)
    to.assert_failure(TimeoutError)
    assert str(to.errors()[0]) == ""


@pytest.mark.parametrize("kind", KINDS)
def test_timeout_same_exception_as_flowable(sched, kind):
    e1 = NEVER[kind]().timeout(1, sched).test()
    e2 = Flowable.never().timeout(1, sched).test()
    sched.advance_time_by(1)
    assert type(e1.errors()[0]) is type(e2.errors()[0]) is TimeoutError


def test_maybe_empty_passes_every_operator(sched):
    for make in (lambda m: m.timeout(1, sched), lambda m: m.delay(1, sched),
                 lambda m: m.delay_subscription(1, sched),
                 lambda m: Maybe.never().timeout(1, sched, fallback=m)):
        to = make(Maybe.empty()).test()
        sched.advance_time_by(1)
        to.assert_result()


@pytest.mark.parametrize("kind", ["single", "completable"])
def test_delay_error_not_delayed_by_default(sched, kind):
    to = FAILING[kind]().delay(2, sched).test()
    to.assert_empty()  # still through the scheduler
    sched.trigger_actions()
    to.assert_failure(Boom)


@pytest.mark.parametrize("kind", ["single", "completable"])
def test_delay_error_delayed(sched, kind):
    to = FAILING[kind]().delay(2, sched, delay_error=True).test()
    sched.advance_time_by(1)
    to.assert_empty()
    sched.advance_time_by(1)
    to.assert_failure(Boom)


def test_maybe_delay_delays_the_error_too(sched):
    """RxJava 2's MaybeDelay delays the error as much as the item and the completion
    (Maybe.delay has no ``delay_error``)."""
    to = Maybe.error(Boom()).delay(2, sched).test()
    sched.advance_time_by(1.9)
    to.assert_empty()
    sched.advance_time_by(0.1)
    to.assert_failure(Boom)
    with pytest.raises(TypeError):
        Maybe.empty().delay(1, sched, delay_error=True)


def test_completable_timeout_takes_only_a_time():
    with pytest.raises(TypeError):  # RxJava 2 has no Completable.timeout(other)
        Completable.complete().timeout(Completable.never())


def test_completable_delay_subscription_time_is_timer_and_then():
    """RxJava 2: ``timer(time, scheduler).andThen(this)``."""
    c = Completable.never()
    assert repr(c.delay_subscription(1)) == repr(Completable.timer(1).and_then(c))
