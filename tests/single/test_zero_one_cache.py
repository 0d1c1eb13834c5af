"""Single/Maybe/Completable.cache (RxJava 2's SingleCache, MaybeCache, CompletableCache)."""

from __future__ import annotations

import pytest
from probes import Boom
from probes import ProbeCompletable
from probes import ProbeMaybe
from probes import ProbeSingle

from rxpy2 import Completable
from rxpy2 import Maybe
from rxpy2 import Single

# (probe class, signal the probe's terminal event, assert it on a TestObserver)
KINDS = {
    "single": (ProbeSingle, lambda p: p.success(1), lambda to: to.assert_result(1)),
    "maybe": (ProbeMaybe, lambda p: p.success(1), lambda to: to.assert_result(1)),
    "maybe_empty": (ProbeMaybe, lambda p: p.complete(), lambda to: to.assert_result()),
    "completable": (ProbeCompletable, lambda p: p.complete(), lambda to: to.assert_result()),
}
PROBES = {"single": ProbeSingle, "maybe": ProbeMaybe, "completable": ProbeCompletable}


def _from_callable(kind, fn):
    if kind == "single":
        return Single.from_callable(fn)
    if kind == "maybe":
        return Maybe.from_callable(fn)
    return Completable.from_callable(fn)


@pytest.mark.parametrize("kind", list(KINDS))
def test_waiting_observers_all_get_the_signal(kind):
    probe_cls, signal, check = KINDS[kind]
    p = probe_cls()
    c = p.cache()
    assert p.observers == []  # nothing happens before the first subscriber
    observers = [c.test() for _ in range(3)]
    assert len(p.observers) == 1  # one upstream subscription
    for to in observers:
        to.assert_subscribed().assert_empty()
    signal(p)
    for to in observers:
        check(to)
    check(c.test())  # a later subscriber gets the replay
    assert len(p.observers) == 1
    assert p.disposed == 0  # the cache never disposes its upstream


@pytest.mark.parametrize("kind", ["single", "maybe", "completable"])
def test_upstream_subscribed_once(kind):
    calls = []
    c = _from_callable(kind, lambda: calls.append(1) or 5).cache()
    assert calls == []
    for _ in range(4):
        c.test().assert_no_errors().assert_complete()
    assert calls == [1]


@pytest.mark.parametrize("kind", ["single", "maybe", "completable"])
def test_error_replayed_to_all(kind):
    p = PROBES[kind]()
    c = p.cache()
    first = c.test()
    err = Boom()
    p.error(err)
    second = c.test()
    for to in (first, second):
        to.assert_failure(Boom)
        assert to.errors()[0] is err


@pytest.mark.parametrize("kind", list(KINDS))
def test_disposed_observer_gets_nothing_others_do(kind):
    probe_cls, signal, check = KINDS[kind]
    p = probe_cls()
    c = p.cache()
    a, b = c.test(), c.test()
    a.dispose()
    signal(p)
    a.assert_empty()
    check(b)
    assert p.disposed == 0


@pytest.mark.parametrize("kind,connects", [("single", True), ("maybe", False),
                                           ("completable", True)])
def test_disposed_in_on_subscribe_connects_as_rxjava2(kind, connects):
    # RxJava 2: SingleCache/CompletableCache connect even for an observer that disposed in
    # onSubscribe; MaybeCache does not
    p = PROBES[kind]()
    c = p.cache()
    c.test(cancel=True).assert_empty()
    assert len(p.observers) == (1 if connects else 0)


@pytest.mark.parametrize("kind,replays", [("single", True), ("maybe", False),
                                          ("completable", True)])
def test_disposed_in_on_subscribe_after_termination_as_rxjava2(kind, replays):
    # RxJava 2: SingleCache/CompletableCache replay to an observer that disposed in
    # onSubscribe; MaybeCache does not
    c = {"single": Single.just(1), "maybe": Maybe.just(1),
         "completable": Completable.complete()}[kind].cache()
    c.test()
    to = c.test(cancel=True)
    assert to.is_terminated() == replays


def test_cache_of_cache_and_repr():
    c = Single.just(3).cache()
    c.cache().test().assert_result(3)
    assert repr(c) == "just(3) → cache()"


def test_misbehaving_upstream_second_signal_ignored(plugin_errors):
    p = ProbeMaybe()
    c = p.cache()
    to = c.test()
    p.success(1)
    p.complete()
    err = Boom()
    p.error(err)
    to.assert_result(1)
    c.test().assert_result(1)
    assert plugin_errors.causes() == [err]


# ---------------------------------------------------------------- races


@pytest.mark.parametrize("kind", list(KINDS))
def test_race_subscribe_vs_signal(kind, race_runner, race_rounds):
    probe_cls, signal, check = KINDS[kind]
    for _ in range(race_rounds):
        p = probe_cls()
        c = p.cache()
        first = c.test()  # connected
        late = []
        race_runner.race(lambda c=c, late=late: late.append(c.test()), lambda p=p: signal(p))
        check(first)
        check(late[0])  # waiting or replayed, exactly once
        late[0].assert_protocol_ok()


@pytest.mark.parametrize("kind", list(KINDS))
def test_race_dispose_vs_signal(kind, race_runner, race_rounds):
    probe_cls, signal, check = KINDS[kind]
    for _ in range(race_rounds):
        p = probe_cls()
        c = p.cache()
        a, b = c.test(), c.test()
        race_runner.race(a.dispose, lambda p=p: signal(p))
        check(b)
        if a.is_terminated():
            check(a)
        else:
            a.assert_empty()
        a.assert_protocol_ok()


@pytest.mark.parametrize("kind", ["single", "maybe", "completable"])
def test_race_first_subscribers_connect_once(kind, race_runner, race_rounds):
    for _ in range(race_rounds):
        calls = []
        c = _from_callable(kind, lambda calls=calls: calls.append(1) or 5).cache()
        tos = []
        race_runner.race(lambda c=c, tos=tos: tos.append(c.test()),
                         lambda c=c, tos=tos: tos.append(c.test()))
        assert calls == [1]
        for to in tos:
            to.assert_no_errors().assert_complete()


def test_race_subscribe_dispose_many_threads():
    """Observers come and go on several threads while the signal arrives: each kept one
    gets exactly one signal."""
    import threading
    p = ProbeSingle()
    c = p.cache()
    c.test()
    kept: list = []
    lock = threading.Lock()

    def churn():
        for _ in range(300):
            to = c.test()
            to2 = c.test()
            to2.dispose()
            with lock:
                kept.append(to)

    threads = [threading.Thread(target=churn) for _ in range(3)]
    for t in threads:
        t.start()
    p.success(9)
    for t in threads:
        t.join()
    for to in kept:
        to.assert_result(9)
