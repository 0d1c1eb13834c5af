"""Single/Maybe/Completable.subscribe_on / observe_on / unsubscribe_on (RxJava 2's
SingleSubscribeOn, MaybeSubscribeOn, CompletableSubscribeOn, SingleObserveOn,
MaybeObserveOn, CompletableObserveOn, SingleUnsubscribeOn, MaybeUnsubscribeOn,
CompletableDisposeOn): one implementation (``single_schedule.py``), tested on the three
types; what differs per type is at the end."""

from __future__ import annotations

import threading
import time

import pytest
from probes import Boom
from probes import ProbeCompletable
from zero_one_kinds import FAILING
from zero_one_kinds import KINDS
from zero_one_kinds import NEVER
from zero_one_kinds import OK as ZO_OK
from zero_one_kinds import PROBES
from zero_one_kinds import blocking
from zero_one_kinds import check_ok
from zero_one_kinds import signal_ok

from rxpy2 import Maybe
from rxpy2 import Schedulers

pytestmark = pytest.mark.usefixtures("shutdown_schedulers")

#: with Maybe's empty source beside the three kinds' normal ones
OK = {**ZO_OK, "maybe_empty": Maybe.empty}


def _ok_count(to):
    """0 or 1 normal terminal signals (a success counts as a completion in TestObserver)."""
    assert len(to.values()) <= 1 and to.completions() <= 1
    return to.completions()


def _kind_of(name):
    return "maybe" if name == "maybe_empty" else name


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("name", ["subscribe_on", "observe_on", "unsubscribe_on"])
def test_scheduler_argument_checked(kind, name):
    with pytest.raises(TypeError):
        getattr(OK[kind](), name)(None)
    with pytest.raises(TypeError):
        getattr(OK[kind](), name)(object())


# ---------------------------------------------------------------- subscribe_on

@pytest.mark.parametrize("kind", KINDS)
def test_subscribe_on_subscribes_in_the_task(sched, kind):
    p = PROBES[kind]()
    to = p.subscribe_on(sched).test()
    to.assert_subscribed()
    assert p.observers == []
    sched.trigger_actions()
    assert len(p.observers) == 1
    signal_ok(kind, p)
    check_ok(kind, to)


@pytest.mark.parametrize("kind", [*KINDS, "maybe_empty"])
def test_subscribe_on_signals(sched, kind):
    to = OK[kind]().subscribe_on(sched).test()
    to.assert_empty()
    sched.trigger_actions()
    check_ok(kind, to)
    to = FAILING[_kind_of(kind)]().subscribe_on(sched).test()
    sched.trigger_actions()
    to.assert_failure(Boom)


@pytest.mark.parametrize("kind", KINDS)
def test_subscribe_on_dispose_before_task_never_subscribes(sched, kind):
    p = PROBES[kind]()
    to = p.subscribe_on(sched).test()
    to.dispose()
    sched.trigger_actions()
    assert p.observers == []
    to.assert_empty()


@pytest.mark.parametrize("kind", KINDS)
def test_subscribe_on_dispose_after_subscribe_reaches_upstream(sched, kind):
    p = PROBES[kind]()
    to = p.subscribe_on(sched).test()
    sched.trigger_actions()
    to.dispose()
    assert p.disposed == 1


@pytest.mark.parametrize("kind", KINDS)
def test_subscribe_on_real_thread(kind):
    names = []
    src = OK[kind]().do_on_subscribe(lambda _d: names.append(threading.current_thread().name))
    blocking(src.subscribe_on(Schedulers.single()))
    assert names and names[0] != threading.current_thread().name


@pytest.mark.parametrize("kind", KINDS)
def test_subscribe_on_race_task_vs_dispose(race_runner, race_rounds, sched, kind):
    for _ in range(race_rounds):
        p = PROBES[kind]()
        to = p.subscribe_on(sched).test()
        race_runner.race(to.dispose, sched.trigger_actions)
        # either never subscribed, or subscribed and its Disposable disposed
        assert len(p.observers) <= 1
        if p.observers:
            assert p.disposed == 1
        to.assert_empty()


@pytest.mark.parametrize("kind", KINDS)
def test_subscribe_on_race_dispose_vs_signal(race_runner, race_rounds, kind):
    for _ in range(race_rounds):
        p = PROBES[kind]()
        # with the trampoline the upstream is subscribed at once: race its signal with dispose
        to = p.subscribe_on(Schedulers.trampoline()).test()
        race_runner.race(to.dispose, lambda p=p: signal_ok(kind, p))
        _ok_count(to)
        assert not to.errors()
        assert p.disposed == 1
        to.assert_protocol_ok()


# ---------------------------------------------------------------- observe_on

@pytest.mark.parametrize("kind", [*KINDS, "maybe_empty"])
def test_observe_on_delivers_in_the_task(sched, kind):
    to = OK[kind]().observe_on(sched).test()
    to.assert_empty()
    sched.trigger_actions()
    check_ok(kind, to)
    to = FAILING[_kind_of(kind)]().observe_on(sched).test()
    to.assert_empty()
    sched.trigger_actions()
    to.assert_failure(Boom)


@pytest.mark.parametrize("kind", [*KINDS, "maybe_empty"])
def test_observe_on_dispose_cancels_delivery(sched, kind):
    for src in (OK[kind](), FAILING[_kind_of(kind)]()):
        to = src.observe_on(sched).test()
        to.dispose()
        sched.trigger_actions()
        to.assert_empty()


@pytest.mark.parametrize("kind", KINDS)
def test_observe_on_dispose_reaches_upstream(sched, kind):
    p = PROBES[kind]()
    p.observe_on(sched).test().dispose()
    assert p.disposed == 1


@pytest.mark.parametrize("kind", [*KINDS, "maybe_empty"])
def test_observe_on_real_thread(kind):
    names = []
    src = OK[kind]().observe_on(Schedulers.computation()).do_finally(
        lambda: names.append(threading.current_thread().name))
    blocking(src)
    deadline = time.monotonic() + 5
    while not names and time.monotonic() < deadline:
        time.sleep(0.001)
    assert names[0] != threading.current_thread().name


@pytest.mark.parametrize("kind", [*KINDS, "maybe_empty"])
def test_observe_on_race_dispose_vs_delivery(race_runner, race_rounds, sched, kind):
    for i in range(race_rounds):
        src = OK[kind]() if i % 2 else FAILING[_kind_of(kind)]()
        to = src.observe_on(sched).test()
        race_runner.race(to.dispose, sched.trigger_actions)
        assert _ok_count(to) + len(to.errors()) <= 1
        to.assert_protocol_ok()


# ---------------------------------------------------------------- unsubscribe_on

@pytest.mark.parametrize("kind", [*KINDS, "maybe_empty"])
def test_unsubscribe_on_passes_signals(kind):
    check_ok(kind, OK[kind]().unsubscribe_on(Schedulers.single()).test())
    FAILING[_kind_of(kind)]().unsubscribe_on(Schedulers.single()).test().assert_failure(Boom)


@pytest.mark.parametrize("kind", KINDS)
def test_unsubscribe_on_disposes_in_the_task(sched, kind):
    p = PROBES[kind]()
    to = p.unsubscribe_on(sched).test()
    to.dispose()
    assert p.disposed == 0
    assert to.is_disposed()
    sched.trigger_actions()
    assert p.disposed == 1
    to.dispose()
    sched.trigger_actions()
    assert p.disposed == 1


@pytest.mark.parametrize("kind", KINDS)
def test_unsubscribe_on_real_thread(kind):
    names = []
    done = threading.Event()
    src = NEVER[kind]().do_on_dispose(
        lambda: (names.append(threading.current_thread().name), done.set()))
    to = src.unsubscribe_on(Schedulers.single()).test()
    to.dispose()
    assert done.wait(5)
    assert names[0] != threading.current_thread().name


@pytest.mark.parametrize("kind", KINDS)
def test_unsubscribe_on_race_dispose_vs_dispose(race_runner, race_rounds, sched, kind):
    for _ in range(race_rounds):
        p = PROBES[kind]()
        to = p.unsubscribe_on(sched).test()
        race_runner.race(to.dispose, to.dispose)
        sched.trigger_actions()
        assert p.disposed == 1


@pytest.mark.parametrize("kind", KINDS)
def test_unsubscribe_on_race_dispose_vs_signal(race_runner, race_rounds, sched, kind):
    for _ in range(race_rounds):
        p = PROBES[kind]()
        to = p.unsubscribe_on(sched).test()
        race_runner.race(to.dispose, lambda p=p: signal_ok(kind, p))
        sched.trigger_actions()
        _ok_count(to)
        assert p.disposed == 1
        to.assert_protocol_ok()


# ---------------------------------------------------------------- what differs per type

@pytest.mark.parametrize("kind", ["single", "maybe"])
def test_unsubscribe_on_signal_after_dispose_still_passes(sched, kind):
    """RxJava 2's SingleUnsubscribeOn/MaybeUnsubscribeOn forward what the upstream still
    signals after the dispose."""
    p = PROBES[kind]()
    to = p.unsubscribe_on(sched).test()
    to.dispose()
    signal_ok(kind, p)
    assert to.completions() == 1


def test_completable_unsubscribe_on_drops_signals_after_dispose(sched, plugin_errors):
    """RxJava 2's CompletableDisposeOn: a completion after the dispose is dropped, an
    error goes to the plugin handler."""
    p = ProbeCompletable()
    to = p.unsubscribe_on(sched).test()
    to.dispose()
    p.complete()
    p.error(Boom())
    to.assert_empty()
    assert [type(e) for e in plugin_errors.causes()] == [Boom]


# ---------------------------------------------------------------- threads

def test_no_thread_left_after_shutdown():
    for s in (Schedulers.single(), Schedulers.computation(), Schedulers.io(),
              Schedulers.new_thread()):
        for kind in KINDS:
            blocking(OK[kind]().subscribe_on(s).observe_on(s).unsubscribe_on(s))
    Schedulers.shutdown()
    deadline = time.monotonic() + 5

    def alive():
        return [t for t in threading.enumerate() if t.is_alive() and t.name.startswith("rxpy2-")]

    while alive() and time.monotonic() < deadline:
        time.sleep(0.01)
    assert not alive()
