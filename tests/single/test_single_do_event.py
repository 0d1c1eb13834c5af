"""Single.hide / do_on_event / do_on_terminate / do_after_success / do_after_terminate
(RxJava 2's SingleHide, SingleDoOnEvent, SingleDoOnTerminate, SingleDoAfterSuccess,
SingleDoAfterTerminate)."""

from __future__ import annotations

import pytest
from probes import Boom
from probes import ProbeSingle

from rxpy2 import CompositeException
from rxpy2 import Single
from rxpy2.observers import SingleObserver


def boom(*_a):
    raise Boom()


@pytest.mark.parametrize("name", ["do_on_event", "do_on_terminate", "do_after_success",
                                  "do_after_terminate"])
def test_callback_checked(name):
    with pytest.raises(TypeError):
        getattr(Single.just(1), name)(None)
    with pytest.raises(TypeError):
        getattr(Single.just(1), name)(1)


# ---------------------------------------------------------------- hide

def test_hide_passes_signals():
    Single.just(1).hide().test().assert_result(1)
    Single.error(Boom()).hide().test().assert_failure(Boom)


def test_hide_hides_identity_and_disposable():
    p = ProbeSingle()
    seen = []

    class Obs(SingleObserver):
        def on_subscribe(self, d):
            seen.append(d)

        def on_success(self, item):
            pass

        def on_error(self, error):
            pass
    h = p.hide()
    assert h is not p and not isinstance(h, ProbeSingle)
    h.subscribe(Obs())
    assert seen[0] is not p.d
    assert not seen[0].is_disposed()
    seen[0].dispose()
    assert p.disposed == 1


# ---------------------------------------------------------------- do_on_event / do_on_terminate

def test_do_on_event_success_then_downstream():
    log = []
    Single.just(1).do_on_event(lambda v, e: log.append((v, e))).do_on_success(
        lambda v: log.append("down")).test().assert_result(1)
    # do_on_success sits downstream: it sees the item after the event callback
    assert log == [(1, None), "down"]


def test_do_on_event_error():
    log = []
    e = Boom()
    Single.error(e).do_on_event(lambda v, x: log.append((v, x))).test().assert_failure(Boom)
    assert log == [(None, e)]


def test_do_on_event_raising_on_success_becomes_error():
    Single.just(1).do_on_event(boom).test().assert_failure(Boom)


def test_do_on_event_raising_on_error_is_composite():
    to = Single.error(ValueError()).do_on_event(boom).test()
    to.assert_failure(CompositeException)
    assert [type(x) for x in to.errors()[0].exceptions] == [ValueError, Boom]


def test_do_on_terminate():
    log = []
    Single.just(1).do_on_terminate(lambda: log.append("t")).test().assert_result(1)
    Single.error(Boom()).do_on_terminate(lambda: log.append("t")).test().assert_failure(Boom)
    assert log == ["t", "t"]
    Single.just(1).do_on_terminate(boom).test().assert_failure(Boom)


def test_do_on_terminate_runs_before_downstream():
    log = []
    Single.just(1).do_on_terminate(lambda: log.append("t")).subscribe(lambda v: log.append(v))
    assert log == ["t", 1]


def test_do_on_terminate_not_on_dispose():
    log = []
    to = Single.never().do_on_terminate(lambda: log.append("t")).test()
    to.dispose()
    assert log == []


# ---------------------------------------------------------------- do_after_*

def test_do_after_success_runs_after_downstream():
    log = []
    Single.just(1).do_after_success(lambda v: log.append(("after", v))).subscribe(
        lambda v: log.append(v))
    assert log == [1, ("after", 1)]


def test_do_after_success_not_on_error():
    log = []
    Single.error(Boom()).do_after_success(log.append).test().assert_failure(Boom)
    assert log == []


def test_do_after_success_raising_goes_to_plugins(plugin_errors):
    Single.just(1).do_after_success(boom).test().assert_result(1)
    assert [type(e) for e in plugin_errors.causes()] == [Boom]


def test_do_after_terminate_success_and_error():
    log = []
    Single.just(1).do_after_terminate(lambda: log.append("after")).subscribe(
        lambda v: log.append(v))
    Single.error(Boom()).do_after_terminate(lambda: log.append("after")).subscribe(
        lambda v: None, lambda e: log.append("err"))
    assert log == [1, "after", "err", "after"]


def test_do_after_terminate_raising_goes_to_plugins(plugin_errors):
    Single.just(1).do_after_terminate(boom).test().assert_result(1)
    assert [type(e) for e in plugin_errors.causes()] == [Boom]


def test_do_after_terminate_not_on_dispose_and_dispose_passes():
    log = []
    p = ProbeSingle()
    to = p.do_after_terminate(lambda: log.append("t")).test()
    to.dispose()
    assert p.disposed == 1
    assert log == []


def test_do_after_race_dispose_vs_success(race_runner, race_rounds):
    for _ in range(race_rounds):
        log = []
        p = ProbeSingle()
        to = p.do_after_success(log.append).test()
        race_runner.race(to.dispose, lambda p=p: p.success(1))
        assert p.disposed == 1
        assert log == [1]  # the probe signals anyway: the callback follows the item
        to.assert_protocol_ok()
