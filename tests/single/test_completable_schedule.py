"""Completable.subscribe_on / observe_on / unsubscribe_on (RxJava 2's CompletableSubscribeOn,
CompletableObserveOn, CompletableDisposeOn): Single's operators; ``unsubscribe_on`` drops
signals after a dispose as CompletableDisposeOn does."""

from __future__ import annotations

import threading

import pytest
from probes import Boom, ProbeCompletable

from rxpy2 import Completable, Schedulers

pytestmark = pytest.mark.usefixtures("shutdown_schedulers")


@pytest.mark.parametrize("name", ["subscribe_on", "observe_on", "unsubscribe_on"])
def test_scheduler_argument_checked(name):
    with pytest.raises(TypeError):
        getattr(Completable.complete(), name)(None)
    with pytest.raises(TypeError):
        getattr(Completable.complete(), name)(object())


# ---------------------------------------------------------------- subscribe_on

def test_subscribe_on_subscribes_in_the_task(sched):
    p = ProbeCompletable()
    to = p.subscribe_on(sched).test()
    to.assert_subscribed()
    assert p.observers == []
    sched.trigger_actions()
    assert len(p.observers) == 1
    p.complete()
    to.assert_result()


def test_subscribe_on_error(sched):
    to = Completable.error(Boom()).subscribe_on(sched).test()
    to.assert_empty()
    sched.trigger_actions()
    to.assert_failure(Boom)


def test_subscribe_on_dispose_before_task_never_subscribes(sched):
    p = ProbeCompletable()
    to = p.subscribe_on(sched).test()
    to.dispose()
    sched.trigger_actions()
    assert p.observers == []
    to.assert_empty()


def test_subscribe_on_dispose_after_subscribe_reaches_upstream(sched):
    p = ProbeCompletable()
    to = p.subscribe_on(sched).test()
    sched.trigger_actions()
    to.dispose()
    assert p.disposed == 1


def test_subscribe_on_real_thread():
    names = []
    (Completable.from_action(lambda: names.append(threading.current_thread().name))
     .subscribe_on(Schedulers.io()).blocking_await(5))
    assert names and names[0] != threading.current_thread().name


def test_subscribe_on_race_task_vs_dispose(race_runner, race_rounds, sched):
    for _ in range(race_rounds):
        p = ProbeCompletable()
        to = p.subscribe_on(sched).test()
        race_runner.race(to.dispose, sched.trigger_actions)
        assert len(p.observers) <= 1
        if p.observers:
            assert p.disposed == 1
        to.assert_empty()


def test_subscribe_on_race_dispose_vs_error(race_runner, race_rounds, plugin_errors):
    for _ in range(race_rounds):
        p = ProbeCompletable()
        to = p.subscribe_on(Schedulers.trampoline()).test()
        race_runner.race(to.dispose, lambda p=p: p.error(Boom()))
        assert len(to.errors()) <= 1 and not to.completions()
        assert p.disposed == 1
        to.assert_protocol_ok()


# ---------------------------------------------------------------- observe_on

def test_observe_on_delivers_in_the_task(sched):
    to = Completable.complete().observe_on(sched).test()
    to.assert_empty()
    sched.trigger_actions()
    to.assert_result()
    to = Completable.error(Boom()).observe_on(sched).test()
    to.assert_empty()
    sched.trigger_actions()
    to.assert_failure(Boom)


def test_observe_on_dispose_cancels_delivery(sched):
    for c in (Completable.complete(), Completable.error(Boom())):
        to = c.observe_on(sched).test()
        to.dispose()
        sched.trigger_actions()
        to.assert_empty()


def test_observe_on_dispose_reaches_upstream(sched):
    p = ProbeCompletable()
    p.observe_on(sched).test().dispose()
    assert p.disposed == 1


def test_observe_on_real_thread():
    names = []
    done = threading.Event()
    (Completable.complete().observe_on(Schedulers.computation())
     .subscribe(lambda: (names.append(threading.current_thread().name), done.set())))
    assert done.wait(5)
    assert names[0] != threading.current_thread().name


def test_observe_on_race_dispose_vs_delivery(race_runner, race_rounds, sched):
    for i in range(race_rounds):
        c = Completable.complete() if i % 2 else Completable.error(Boom())
        to = c.observe_on(sched).test()
        race_runner.race(to.dispose, sched.trigger_actions)
        assert to.completions() + len(to.errors()) <= 1
        to.assert_protocol_ok()


# ---------------------------------------------------------------- unsubscribe_on

def test_unsubscribe_on_passes_signals():
    Completable.complete().unsubscribe_on(Schedulers.single()).test().assert_result()
    Completable.error(Boom()).unsubscribe_on(Schedulers.single()).test().assert_failure(Boom)


def test_unsubscribe_on_disposes_in_the_task(sched):
    p = ProbeCompletable()
    to = p.unsubscribe_on(sched).test()
    to.dispose()
    assert p.disposed == 0
    assert to.is_disposed()
    sched.trigger_actions()
    assert p.disposed == 1
    to.dispose()
    sched.trigger_actions()
    assert p.disposed == 1


def test_unsubscribe_on_drops_signals_after_dispose(sched, plugin_errors):
    """RxJava 2's CompletableDisposeOn: a completion after the dispose is dropped, an
    error goes to the plugin handler."""
    p = ProbeCompletable()
    to = p.unsubscribe_on(sched).test()
    to.dispose()
    p.complete()
    p.error(Boom())
    to.assert_empty()
    assert [type(e) for e in plugin_errors.causes()] == [Boom]


def test_unsubscribe_on_real_thread():
    names = []
    done = threading.Event()
    c = Completable.never().do_on_dispose(
        lambda: (names.append(threading.current_thread().name), done.set()))
    to = c.unsubscribe_on(Schedulers.single()).test()
    to.dispose()
    assert done.wait(5)
    assert names[0] != threading.current_thread().name


def test_unsubscribe_on_race_dispose_vs_complete(race_runner, race_rounds, sched):
    for _ in range(race_rounds):
        p = ProbeCompletable()
        to = p.unsubscribe_on(sched).test()
        race_runner.race(to.dispose, p.complete)
        sched.trigger_actions()
        assert to.completions() <= 1
        assert p.disposed == 1
        to.assert_protocol_ok()
