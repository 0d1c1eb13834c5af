"""Single.subscribe_on / observe_on / unsubscribe_on (RxJava 2's SingleSubscribeOn,
SingleObserveOn, SingleUnsubscribeOn)."""

from __future__ import annotations

import threading

import pytest
from probes import Boom, ProbeSingle

from rxpy2 import Schedulers, Single

pytestmark = pytest.mark.usefixtures("shutdown_schedulers")


@pytest.mark.parametrize("name", ["subscribe_on", "observe_on", "unsubscribe_on"])
def test_scheduler_argument_checked(name):
    with pytest.raises(TypeError):
        getattr(Single.just(1), name)(None)
    with pytest.raises(TypeError):
        getattr(Single.just(1), name)(object())


# ---------------------------------------------------------------- subscribe_on

def test_subscribe_on_subscribes_in_the_task(sched):
    p = ProbeSingle()
    to = p.subscribe_on(sched).test()
    to.assert_subscribed()
    assert p.observers == []
    sched.trigger_actions()
    assert len(p.observers) == 1
    p.success(1)
    to.assert_result(1)


def test_subscribe_on_error(sched):
    to = Single.error(Boom()).subscribe_on(sched).test()
    sched.trigger_actions()
    to.assert_failure(Boom)


def test_subscribe_on_dispose_before_task_never_subscribes(sched):
    p = ProbeSingle()
    to = p.subscribe_on(sched).test()
    to.dispose()
    sched.trigger_actions()
    assert p.observers == []
    to.assert_empty()


def test_subscribe_on_dispose_after_subscribe_reaches_upstream(sched):
    p = ProbeSingle()
    to = p.subscribe_on(sched).test()
    sched.trigger_actions()
    to.dispose()
    assert p.disposed == 1


def test_subscribe_on_real_thread():
    names = []
    v = (Single.from_callable(lambda: names.append(threading.current_thread().name) or 1)
         .subscribe_on(Schedulers.single()).blocking_get(5))
    assert v == 1
    assert names and names[0] != threading.current_thread().name


def test_subscribe_on_race_dispose(race_runner, race_rounds):
    for _ in range(race_rounds):
        sched = Schedulers.trampoline()
        p = ProbeSingle()
        to = p.subscribe_on(sched).test(cancel=False)
        # subscribe_on with trampoline ran already: race the success with dispose
        race_runner.race(to.dispose, lambda p=p: p.success(1))
        assert len(to.values()) <= 1 and not to.errors()
        assert p.disposed == 1
        to.assert_protocol_ok()


def test_subscribe_on_race_task_vs_dispose(race_runner, race_rounds, sched):
    for _ in range(race_rounds):
        p = ProbeSingle()
        to = p.subscribe_on(sched).test()
        race_runner.race(to.dispose, sched.trigger_actions)
        # either never subscribed, or subscribed and its Disposable disposed
        assert len(p.observers) <= 1
        if p.observers:
            assert p.disposed == 1
        to.assert_empty()


# ---------------------------------------------------------------- observe_on

def test_observe_on_delivers_in_the_task(sched):
    to = Single.just(1).observe_on(sched).test()
    to.assert_empty()
    sched.trigger_actions()
    to.assert_result(1)


def test_observe_on_error(sched):
    to = Single.error(Boom()).observe_on(sched).test()
    to.assert_no_errors()
    sched.trigger_actions()
    to.assert_failure(Boom)


def test_observe_on_dispose_cancels_delivery(sched):
    to = Single.just(1).observe_on(sched).test()
    to.dispose()
    sched.trigger_actions()
    to.assert_empty()


def test_observe_on_dispose_reaches_upstream(sched):
    p = ProbeSingle()
    to = p.observe_on(sched).test()
    to.dispose()
    assert p.disposed == 1


def test_observe_on_real_thread():
    names = []
    v = (Single.just(1).observe_on(Schedulers.computation())
         .do_on_success(lambda _v: names.append(threading.current_thread().name))
         .blocking_get(5))
    assert v == 1 and names[0] != threading.current_thread().name


def test_observe_on_race_dispose_vs_delivery(race_runner, race_rounds, sched):
    for _ in range(race_rounds):
        to = Single.just(1).observe_on(sched).test()
        race_runner.race(to.dispose, sched.trigger_actions)
        assert len(to.values()) <= 1 and not to.errors()
        to.assert_protocol_ok()


# ---------------------------------------------------------------- unsubscribe_on

def test_unsubscribe_on_passes_signals():
    Single.just(1).unsubscribe_on(Schedulers.single()).test().assert_result(1)
    Single.error(Boom()).unsubscribe_on(Schedulers.single()).test().assert_failure(Boom)


def test_unsubscribe_on_disposes_in_the_task(sched):
    p = ProbeSingle()
    to = p.unsubscribe_on(sched).test()
    to.dispose()
    assert p.disposed == 0
    assert to.is_disposed()
    sched.trigger_actions()
    assert p.disposed == 1
    to.dispose()
    sched.trigger_actions()
    assert p.disposed == 1


def test_unsubscribe_on_real_thread():
    names = []
    done = threading.Event()
    s = Single.never().do_on_dispose(
        lambda: (names.append(threading.current_thread().name), done.set()))
    to = s.unsubscribe_on(Schedulers.single()).test()
    to.dispose()
    assert done.wait(5)
    assert names[0] != threading.current_thread().name
