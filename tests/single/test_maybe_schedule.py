"""Maybe.subscribe_on / observe_on / unsubscribe_on (RxJava 2's MaybeSubscribeOn,
MaybeObserveOn, MaybeUnsubscribeOn): Single's operators with ``on_complete``."""

from __future__ import annotations

import threading
import time

import pytest
from probes import Boom, ProbeMaybe

from rxpy2 import Maybe, Schedulers

pytestmark = pytest.mark.usefixtures("shutdown_schedulers")


@pytest.mark.parametrize("name", ["subscribe_on", "observe_on", "unsubscribe_on"])
def test_scheduler_argument_checked(name):
    with pytest.raises(TypeError):
        getattr(Maybe.just(1), name)(None)
    with pytest.raises(TypeError):
        getattr(Maybe.just(1), name)(object())


# ---------------------------------------------------------------- subscribe_on

def test_subscribe_on_subscribes_in_the_task(sched):
    p = ProbeMaybe()
    to = p.subscribe_on(sched).test()
    to.assert_subscribed()
    assert p.observers == []
    sched.trigger_actions()
    assert len(p.observers) == 1
    p.success(1)
    to.assert_result(1)


@pytest.mark.parametrize("source, check", [
    (lambda: Maybe.empty(), lambda to: to.assert_result()),
    (lambda: Maybe.error(Boom()), lambda to: to.assert_failure(Boom)),
])
def test_subscribe_on_complete_and_error(sched, source, check):
    to = source().subscribe_on(sched).test()
    to.assert_empty()
    sched.trigger_actions()
    check(to)


def test_subscribe_on_dispose_before_task_never_subscribes(sched):
    p = ProbeMaybe()
    to = p.subscribe_on(sched).test()
    to.dispose()
    sched.trigger_actions()
    assert p.observers == []
    to.assert_empty()


def test_subscribe_on_dispose_after_subscribe_reaches_upstream(sched):
    p = ProbeMaybe()
    to = p.subscribe_on(sched).test()
    sched.trigger_actions()
    to.dispose()
    assert p.disposed == 1


def test_subscribe_on_real_thread():
    names = []
    v = (Maybe.from_callable(lambda: names.append(threading.current_thread().name) or 1)
         .subscribe_on(Schedulers.single()).blocking_get(timeout=5))
    assert v == 1
    assert names and names[0] != threading.current_thread().name


def test_subscribe_on_race_task_vs_dispose(race_runner, race_rounds, sched):
    for _ in range(race_rounds):
        p = ProbeMaybe()
        to = p.subscribe_on(sched).test()
        race_runner.race(to.dispose, sched.trigger_actions)
        # either never subscribed, or subscribed and its Disposable disposed
        assert len(p.observers) <= 1
        if p.observers:
            assert p.disposed == 1
        to.assert_empty()


def test_subscribe_on_race_dispose_vs_complete(race_runner, race_rounds):
    for _ in range(race_rounds):
        p = ProbeMaybe()
        to = p.subscribe_on(Schedulers.trampoline()).test()
        race_runner.race(to.dispose, p.complete)
        assert to.completions() <= 1 and not to.values() and not to.errors()
        assert p.disposed == 1
        to.assert_protocol_ok()


# ---------------------------------------------------------------- observe_on

@pytest.mark.parametrize("source, check", [
    (lambda: Maybe.just(1), lambda to: to.assert_result(1)),
    (lambda: Maybe.empty(), lambda to: to.assert_result()),
    (lambda: Maybe.error(Boom()), lambda to: to.assert_failure(Boom)),
])
def test_observe_on_delivers_in_the_task(sched, source, check):
    to = source().observe_on(sched).test()
    to.assert_empty()
    sched.trigger_actions()
    check(to)


def test_observe_on_dispose_cancels_delivery(sched):
    for m in (Maybe.just(1), Maybe.empty(), Maybe.error(Boom())):
        to = m.observe_on(sched).test()
        to.dispose()
        sched.trigger_actions()
        to.assert_empty()


def test_observe_on_dispose_reaches_upstream(sched):
    p = ProbeMaybe()
    to = p.observe_on(sched).test()
    to.dispose()
    assert p.disposed == 1


def test_observe_on_real_thread():
    names = []
    done = threading.Event()
    (Maybe.empty().observe_on(Schedulers.computation())
     .subscribe(on_complete=lambda: (names.append(threading.current_thread().name), done.set())))
    assert done.wait(5)
    assert names[0] != threading.current_thread().name


def test_observe_on_race_dispose_vs_delivery(race_runner, race_rounds, sched):
    for i in range(race_rounds):
        to = (Maybe.just(1) if i % 2 else Maybe.empty()).observe_on(sched).test()
        race_runner.race(to.dispose, sched.trigger_actions)
        # a success counts as a completion too (TestObserver, as in RxJava)
        assert (to.values(), to.completions()) in (([], 0), ([1], 1) if i % 2 else ([], 1))
        assert not to.errors()
        to.assert_protocol_ok()


# ---------------------------------------------------------------- unsubscribe_on

def test_unsubscribe_on_passes_signals():
    Maybe.just(1).unsubscribe_on(Schedulers.single()).test().assert_result(1)
    Maybe.empty().unsubscribe_on(Schedulers.single()).test().assert_result()
    Maybe.error(Boom()).unsubscribe_on(Schedulers.single()).test().assert_failure(Boom)


def test_unsubscribe_on_disposes_in_the_task(sched):
    p = ProbeMaybe()
    to = p.unsubscribe_on(sched).test()
    to.dispose()
    assert p.disposed == 0
    assert to.is_disposed()
    sched.trigger_actions()
    assert p.disposed == 1
    to.dispose()
    sched.trigger_actions()
    assert p.disposed == 1


def test_unsubscribe_on_signal_after_dispose_still_passes(sched):
    """RxJava 2's MaybeUnsubscribeOn forwards whatever the upstream still signals
    (Completable's differs, see test_completable_schedule.py)."""
    p = ProbeMaybe()
    to = p.unsubscribe_on(sched).test()
    to.dispose()
    p.complete()
    assert to.completions() == 1


def test_unsubscribe_on_real_thread():
    names = []
    done = threading.Event()
    m = Maybe.never().do_on_dispose(
        lambda: (names.append(threading.current_thread().name), done.set()))
    to = m.unsubscribe_on(Schedulers.single()).test()
    to.dispose()
    assert done.wait(5)
    assert names[0] != threading.current_thread().name


def test_unsubscribe_on_race_dispose_vs_dispose(race_runner, race_rounds, sched):
    for _ in range(race_rounds):
        p = ProbeMaybe()
        to = p.unsubscribe_on(sched).test()
        race_runner.race(to.dispose, to.dispose)
        sched.trigger_actions()
        assert p.disposed == 1


# ---------------------------------------------------------------- threads

def test_no_thread_left_after_shutdown():
    for s in (Schedulers.single(), Schedulers.computation(), Schedulers.io(),
              Schedulers.new_thread()):
        assert Maybe.just(1).subscribe_on(s).observe_on(s).unsubscribe_on(s) \
            .blocking_get(timeout=5) == 1
    Schedulers.shutdown()
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline and any(
            t.is_alive() and t.name.startswith("rxpy2-") for t in threading.enumerate()):
        time.sleep(0.01)
    assert not [t for t in threading.enumerate() if t.is_alive() and t.name.startswith("rxpy2-")]
