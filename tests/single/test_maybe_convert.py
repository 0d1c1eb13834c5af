"""Maybe's converting and element operators (RxJava 2.2.21): from_action, from_completable,
from_future, from_single, ignore_element, materialize, contains, count,
flat_map_completable, flat_map_single_element, flatten_as_flowable, concat_map."""

from __future__ import annotations

import concurrent.futures

import pytest
from probes import Boom
from probes import ProbeCompletable
from probes import ProbeMaybe
from probes import ProbeSingle

from rxpy2 import Completable
from rxpy2 import Flowable
from rxpy2 import Maybe
from rxpy2 import Single
from rxpy2.notification import Notification

pytestmark = pytest.mark.usefixtures("shutdown_schedulers")


def test_arguments_checked_at_assembly():
    m = Maybe.just(1)
    for bad in (None, 5):
        with pytest.raises(TypeError):
            Maybe.from_action(bad)  # type: ignore[arg-type]
        with pytest.raises(TypeError):
            Maybe.from_completable(bad)  # type: ignore[arg-type]
        with pytest.raises(TypeError):
            Maybe.from_single(bad)  # type: ignore[arg-type]
        with pytest.raises(TypeError):
            Maybe.from_future(bad)  # type: ignore[arg-type]
        with pytest.raises(TypeError):
            m.flat_map_completable(bad)  # type: ignore[arg-type]
        with pytest.raises(TypeError):
            m.flat_map_single_element(bad)  # type: ignore[arg-type]
        with pytest.raises(TypeError):
            m.flatten_as_flowable(bad)  # type: ignore[arg-type]
        with pytest.raises(TypeError):
            m.concat_map(bad)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        Maybe.from_single(Maybe.just(1))  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        Maybe.from_completable(Single.just(1))  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        m.contains(None)
    with pytest.raises(ValueError):
        Maybe.from_future(concurrent.futures.Future(), -1)


# ---------------------------------------------------------------- sources

def test_from_action():
    calls = []
    m = Maybe.from_action(lambda: calls.append(1))
    m.test().assert_result()
    m.test().assert_result()
    assert calls == [1, 1]


def test_from_action_raises():
    def boom():
        raise Boom()

    Maybe.from_action(boom).test().assert_failure(Boom)


def test_from_action_disposed_first_does_not_run():
    calls = []
    Maybe.from_action(lambda: calls.append(1)).test(cancel=True).assert_empty()
    assert calls == []


def test_from_completable():
    Maybe.from_completable(Completable.complete()).test().assert_result()
    Maybe.from_completable(Completable.error(Boom())).test().assert_failure(Boom)
    c = ProbeCompletable()
    Maybe.from_completable(c).test().dispose()
    assert c.disposed == 1


def test_from_single():
    Maybe.from_single(Single.just(1)).test().assert_result(1)
    Maybe.from_single(Single.error(Boom())).test().assert_failure(Boom)
    s = ProbeSingle()
    Maybe.from_single(s).test().dispose()
    assert s.disposed == 1


def test_from_future():
    f: concurrent.futures.Future[int] = concurrent.futures.Future()
    to = Maybe.from_future(f).test()
    to.assert_empty()
    f.set_result(3)
    to.assert_result(3)


def test_from_future_none_is_empty():
    f: concurrent.futures.Future[None] = concurrent.futures.Future()
    f.set_result(None)
    Maybe.from_future(f).test().assert_result()


def test_from_future_error_timeout_dispose(sched):
    f: concurrent.futures.Future[int] = concurrent.futures.Future()
    f.set_exception(Boom())
    Maybe.from_future(f).test().assert_failure(Boom)
    g: concurrent.futures.Future[int] = concurrent.futures.Future()
    to = Maybe.from_future(g, 1, sched).test()
    sched.advance_time_by(1)
    to.assert_failure(TimeoutError)
    h: concurrent.futures.Future[int] = concurrent.futures.Future()
    to = Maybe.from_future(h, 1, sched).test()
    to.dispose()
    h.set_result(1)
    sched.advance_time_by(1)
    to.assert_empty()
    assert not h.cancelled()


def test_from_future_race_result_vs_dispose(race_runner, race_rounds):
    for _ in range(race_rounds):
        f: concurrent.futures.Future[int] = concurrent.futures.Future()
        to = Maybe.from_future(f).test()
        race_runner.race(lambda f=f: f.set_result(1), to.dispose)
        assert to.values() in ([], [1]) and not to.errors()
        to.assert_protocol_ok()


# ---------------------------------------------------------------- element operators

def test_ignore_element():
    for m in (Maybe.just(1), Maybe.empty()):
        to = m.ignore_element().test()
        to.assert_result()
    Maybe.error(Boom()).ignore_element().test().assert_failure(Boom)
    assert isinstance(Maybe.just(1).ignore_element(), Completable)
    p = ProbeMaybe()
    p.ignore_element().test().dispose()
    assert p.disposed == 1


def test_materialize():
    Maybe.just(1).materialize().test().assert_result(Notification.create_on_next(1))
    Maybe.empty().materialize().test().assert_result(Notification.create_on_complete())
    n = Maybe.error(Boom()).materialize().blocking_get()
    assert n.is_on_error() and isinstance(n.error, Boom)
    assert isinstance(Maybe.just(1).materialize(), Single)
    p = ProbeMaybe()
    p.materialize().test().dispose()
    assert p.disposed == 1


def test_contains():
    Maybe.just(1).contains(1).test().assert_result(True)
    Maybe.just(1).contains(2).test().assert_result(False)
    Maybe.empty().contains(1).test().assert_result(False)
    Maybe.error(Boom()).contains(1).test().assert_failure(Boom)


def test_contains_equality_raising():
    class Weird:
        def __eq__(self, other):
            raise Boom()

    Maybe.just(Weird()).contains(1).test().assert_failure(Boom)


def test_count():
    Maybe.just("x").count().test().assert_result(1)
    Maybe.empty().count().test().assert_result(0)
    Maybe.error(Boom()).count().test().assert_failure(Boom)
    p = ProbeMaybe()
    p.count().test().dispose()
    assert p.disposed == 1


def test_flat_map_completable():
    Maybe.just(1).flat_map_completable(lambda _: Completable.complete()).test().assert_result()
    calls = []
    Maybe.empty().flat_map_completable(lambda _: calls.append(1)).test().assert_result()
    assert calls == []
    (Maybe.just(1).flat_map_completable(lambda _: Completable.error(Boom())).test()
     .assert_failure(Boom))
    Maybe.just(1).flat_map_completable(lambda _: None).test().assert_failure(TypeError)


def test_flat_map_completable_dispose():
    p = ProbeMaybe()
    c = ProbeCompletable()
    to = p.flat_map_completable(lambda _: c).test()
    p.success(1)
    to.dispose()
    assert c.disposed == 1


def test_flat_map_single_element():
    Maybe.just(1).flat_map_single_element(lambda x: Single.just(x + 1)).test().assert_result(2)
    Maybe.empty().flat_map_single_element(lambda x: Single.just(x)).test().assert_result()
    (Maybe.just(1).flat_map_single_element(lambda _: Single.error(Boom())).test()
     .assert_failure(Boom))
    Maybe.error(Boom()).flat_map_single_element(Single.just).test().assert_failure(Boom)
    Maybe.just(1).flat_map_single_element(lambda _: None).test().assert_failure(TypeError)
    Maybe.just(1).flat_map_single_element(Maybe.just).test().assert_failure(TypeError)
    assert isinstance(Maybe.just(1).flat_map_single_element(Single.just), Maybe)


def test_flat_map_single_element_dispose_reaches_inner():
    p = ProbeMaybe()
    s = ProbeSingle()
    to = p.flat_map_single_element(lambda _: s).test()
    p.success(1)
    to.dispose()
    assert s.disposed == 1 and p.disposed == 0


def test_flat_map_single_element_race_dispose_vs_success(race_runner, race_rounds):
    for _ in range(race_rounds):
        p = ProbeMaybe()
        s = ProbeSingle()
        to = p.flat_map_single_element(lambda _, s=s: s).test()
        race_runner.race(to.dispose, lambda p=p: p.success(1))
        assert p.disposed == 1 or s.disposed == 1
        to.assert_empty()


def test_flatten_as_flowable():
    Maybe.just(3).flatten_as_flowable(range).test().assert_result(0, 1, 2)
    Maybe.empty().flatten_as_flowable(range).test(0).assert_result()
    Maybe.error(Boom()).flatten_as_flowable(range).test(0).assert_failure(Boom)
    ts = Maybe.just(3).flatten_as_flowable(range).test(0)
    ts.request(2)
    ts.assert_values(0, 1).assert_not_complete()
    ts.request(1)
    ts.assert_result(0, 1, 2)
    assert isinstance(Maybe.just(1).flatten_as_flowable(range), Flowable)


def test_flatten_as_flowable_race_request_vs_cancel(race_runner, race_rounds):
    for _ in range(race_rounds):
        ts = Maybe.just(10).flatten_as_flowable(range).test(0)
        race_runner.race(lambda ts=ts: ts.request(10), ts.cancel)
        vals = ts.values()
        assert vals == list(range(len(vals))) and not ts.errors()


def test_concat_map_is_flat_map():
    Maybe.just(1).concat_map(lambda x: Maybe.just(x + 1)).test().assert_result(2)
    Maybe.empty().concat_map(lambda x: Maybe.just(x)).test().assert_result()
    Maybe.just(1).concat_map(lambda _: Maybe.empty()).test().assert_result()
