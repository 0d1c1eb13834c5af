"""Single/Maybe/Completable.take_until (RxJava 2's SingleTakeUntil, MaybeTakeUntilPublisher,
MaybeTakeUntilMaybe, CompletableTakeUntilCompletable)."""

from __future__ import annotations

from concurrent.futures import CancelledError

import pytest
from probes import Boom
from probes import ProbeCompletable
from probes import ProbeMaybe
from probes import ProbeSingle

from rxpy2 import Completable
from rxpy2 import Flowable
from rxpy2 import Maybe
from rxpy2 import Single
from rxpy2.processors import PublishProcessor

TYPES = {"single": Single, "maybe": Maybe, "completable": Completable}
PROBES = {"single": ProbeSingle, "maybe": ProbeMaybe, "completable": ProbeCompletable}

# other sources whose signal triggers take_until
TRIGGERS = {
    "publisher_item": lambda: Flowable.just(1, 2),
    "publisher_empty": Flowable.empty,
    "single": lambda: Single.just(1),
    "maybe": lambda: Maybe.just(1),
    "maybe_empty": Maybe.empty,
    "completable": Completable.complete,
}


def _signal_ok(kind, p):
    if kind == "completable":
        p.complete()
    else:
        p.success(1)


def _check_ok(kind, to):
    if kind == "completable":
        to.assert_result()
    else:
        to.assert_result(1)


def _check_triggered(kind, to):
    """RxJava 2: a Single signals CancellationException, a Maybe/Completable completes."""
    if kind == "single":
        to.assert_failure(CancelledError)
    else:
        to.assert_result()


@pytest.mark.parametrize("kind", list(TYPES))
@pytest.mark.parametrize("trigger", list(TRIGGERS))
def test_other_triggers(kind, trigger):
    p = PROBES[kind]()
    to = p.take_until(TRIGGERS[trigger]()).test()
    _check_triggered(kind, to)
    assert p.disposed == 1  # the main source is disposed


@pytest.mark.parametrize("kind", list(TYPES))
def test_main_first_cancels_other(kind):
    p = PROBES[kind]()
    other = PublishProcessor.create()
    to = p.take_until(other).test()
    assert other.has_subscribers()
    _signal_ok(kind, p)
    _check_ok(kind, to)
    assert not other.has_subscribers()


def test_maybe_empty_main_first():
    p = ProbeMaybe()
    other = PublishProcessor.create()
    to = p.take_until(other).test()
    p.complete()
    to.assert_result()
    assert not other.has_subscribers()


@pytest.mark.parametrize("kind", list(TYPES))
def test_main_error_cancels_other(kind):
    p = PROBES[kind]()
    other = PublishProcessor.create()
    to = p.take_until(other).test()
    p.error(Boom())
    to.assert_failure(Boom)
    assert not other.has_subscribers()


@pytest.mark.parametrize("kind", list(TYPES))
def test_other_later_item_triggers(kind):
    p = PROBES[kind]()
    other = PublishProcessor.create()
    to = p.take_until(other).test()
    to.assert_empty()
    other.on_next(1)
    _check_triggered(kind, to)
    assert not other.has_subscribers()
    assert p.disposed == 1


@pytest.mark.parametrize("kind", list(TYPES))
def test_other_error(kind):
    p = PROBES[kind]()
    other = PublishProcessor.create()
    to = p.take_until(other).test()
    other.on_error(Boom())
    to.assert_failure(Boom)
    assert p.disposed == 1


@pytest.mark.parametrize("kind", list(TYPES))
@pytest.mark.parametrize("other_kind", ["single", "maybe", "completable"])
def test_zero_one_other_error(kind, other_kind):
    p = PROBES[kind]()
    to = p.take_until(TYPES[other_kind].error(Boom())).test()
    to.assert_failure(Boom)


@pytest.mark.parametrize("kind", list(TYPES))
def test_main_error_after_trigger_goes_to_plugins(kind, plugin_errors):
    p = PROBES[kind]()
    to = p.take_until(Flowable.just(1)).test()
    err = Boom()
    p.error(err)
    _check_triggered(kind, to)
    assert plugin_errors.causes() == [err]


@pytest.mark.parametrize("kind", list(TYPES))
def test_main_signal_after_trigger_dropped(kind):
    p = PROBES[kind]()
    to = p.take_until(Flowable.just(1)).test()
    _signal_ok(kind, p)
    _check_triggered(kind, to)


@pytest.mark.parametrize("kind", list(TYPES))
def test_dispose_disposes_both(kind):
    p = PROBES[kind]()
    other = PublishProcessor.create()
    to = p.take_until(other).test()
    to.dispose()
    assert p.disposed == 1
    assert not other.has_subscribers()
    _signal_ok(kind, p)
    to.assert_empty()


@pytest.mark.parametrize("kind", list(TYPES))
def test_disposed_before_subscribe(kind):
    p = PROBES[kind]()
    other = PublishProcessor.create()
    to = p.take_until(other).test(cancel=True)
    to.assert_empty()
    assert not other.has_subscribers()


@pytest.mark.parametrize("kind", list(TYPES))
def test_arguments_checked(kind):
    s = {"single": Single.just(1), "maybe": Maybe.just(1), "completable": Completable.complete()}
    for bad in (None, 1, [Flowable.just(1)], lambda: None):
        with pytest.raises(TypeError):
            s[kind].take_until(bad)


def test_repr():
    assert repr(Single.just(1).take_until(Flowable.never())) == "just(1) → take_until(<never>)"


# ---------------------------------------------------------------- races


@pytest.mark.parametrize("kind", list(TYPES))
def test_race_trigger_vs_signal(kind, race_runner, race_rounds, plugin_errors):
    # RxJava 2: a Single's CancellationException that loses the race goes to the plugins
    for _ in range(race_rounds):
        p = PROBES[kind]()
        other = PublishProcessor.create()
        to = p.take_until(other).test()
        race_runner.race(lambda p=p: _signal_ok(kind, p), lambda o=other: o.on_next(1))
        to.assert_protocol_ok()
        if kind == "single" and to.errors():
            to.assert_failure(CancelledError)
        elif kind == "completable" or not to.values():
            to.assert_result()
        else:
            to.assert_result(1)
        assert not other.has_subscribers()
    assert all(isinstance(e, CancelledError) for e in plugin_errors.causes())
    assert kind == "single" or not plugin_errors


@pytest.mark.parametrize("kind", list(TYPES))
def test_race_error_vs_error(kind, race_runner, race_rounds, plugin_errors):
    for _ in range(race_rounds):
        p = PROBES[kind]()
        other = PublishProcessor.create()
        to = p.take_until(other).test()
        e1, e2 = Boom("main"), Boom("other")
        race_runner.race(lambda p=p, e=e1: p.error(e), lambda o=other, e=e2: o.on_error(e))
        to.assert_failure(Boom)
        to.assert_protocol_ok()
        lost = [e for e in (e1, e2) if e is not to.errors()[0]]
        # the other error is either undelivered (plugins) or never sent (other cancelled)
        assert all(c is lost[0] for c in plugin_errors.causes())
        plugin_errors.clear()


@pytest.mark.parametrize("kind", list(TYPES))
def test_race_dispose_vs_trigger(kind, race_runner, race_rounds, plugin_errors):
    for _ in range(race_rounds):
        p = PROBES[kind]()
        other = PublishProcessor.create()
        to = p.take_until(other).test()
        race_runner.race(to.dispose, lambda o=other: o.on_next(1))
        assert p.disposed == 1
        assert len(to.values()) == 0
        to.assert_protocol_ok()
    assert all(isinstance(e, CancelledError) for e in plugin_errors.causes())
    assert kind == "single" or not plugin_errors
