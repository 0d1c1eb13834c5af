"""Maybe: sources, subscribe forms, operators, races, conversions and blocking_get."""

from __future__ import annotations

import threading
from functools import partial

import pytest
from probes import Boom
from probes import ProbeMaybe
from probes import Spy

from rxpy2 import CompositeException
from rxpy2 import Flowable
from rxpy2 import Maybe
from rxpy2 import OnErrorNotImplementedException
from rxpy2 import Single
from rxpy2 import plugins


def boom(*_args):
    raise Boom()


# ---------------------------------------------------------------- sources

def test_just_empty_error_never():
    Maybe.just(1).test().assert_result(1)
    Maybe.empty().test().assert_result()
    Maybe.error(Boom()).test().assert_failure(Boom)
    Maybe.error(lambda: Boom()).test().assert_failure(Boom)
    Maybe.error(lambda: None).test().assert_failure(TypeError)
    to = Maybe.never().test()
    to.assert_empty()
    assert not to.is_terminated()


def test_bad_arguments():
    for f in (Maybe.just, Maybe.error, Maybe.from_callable, Maybe.defer):
        with pytest.raises(TypeError):
            f(None)
    m = Maybe.just(1)
    for op in (m.map, m.filter, m.flat_map, m.flat_map_single, m.flat_map_publisher,
               m.on_error_return, m.on_error_return_item, m.on_error_resume_next,
               m.default_if_empty, m.switch_if_empty, m.do_on_success, m.do_on_error,
               m.do_on_complete, m.do_finally):
        with pytest.raises(TypeError):
            op(None)
    with pytest.raises(TypeError):
        m.switch_if_empty(Flowable.just(1))
    with pytest.raises(TypeError):
        m.zip_with(Single.just(1), lambda a, b: a)


def test_from_callable():
    n = []
    m = Maybe.from_callable(lambda: n.append(1) or len(n))
    m.test().assert_result(1)
    m.test().assert_result(2)
    Maybe.from_callable(lambda: None).test().assert_result()
    Maybe.from_callable(boom).test().assert_failure(Boom)


def test_defer():
    n = []
    m = Maybe.defer(lambda: n.append(1) or Maybe.just(len(n)))
    assert n == []
    m.test().assert_result(1)
    Maybe.defer(boom).test().assert_failure(Boom)
    Maybe.defer(lambda: Single.just(1)).test().assert_failure(TypeError)


def test_assembly_hook():
    seen = []
    plugins.set_on_maybe_assembly(lambda m: seen.append(type(m).__name__) or m)
    Maybe.just(1).filter(lambda x: True).test().assert_result(1)
    assert seen == ["MaybeJust", "MaybeFilter"]


# ---------------------------------------------------------------- subscribe forms

def test_subscribe_callbacks():
    got = []
    Maybe.just(1).subscribe(got.append, got.append, lambda: got.append("done"))
    Maybe.empty().subscribe(got.append, got.append, lambda: got.append("done"))
    e = Boom()
    Maybe.error(e).subscribe(got.append, got.append, lambda: got.append("done"))
    assert got == [1, "done", e]


def test_subscribe_none_and_missing_on_error(plugin_errors):
    with pytest.raises(TypeError):
        Maybe.just(1).subscribe(None)
    e = Boom()
    Maybe.error(e).subscribe(lambda v: None)
    assert isinstance(plugin_errors[0], OnErrorNotImplementedException)
    assert plugin_errors[0].__cause__ is e


def test_subscribe_dispose_reaches_upstream():
    p = ProbeMaybe()
    got = []
    d = p.subscribe(got.append, got.append, lambda: got.append("done"))
    d.dispose()
    p.complete()
    assert p.disposed == 1 and got == []


def test_subscribe_on_complete_raising_goes_to_plugins(plugin_errors):
    Maybe.empty().subscribe(lambda v: None, lambda e: None, boom)
    assert [type(e) for e in plugin_errors.causes()] == [Boom]


# ---------------------------------------------------------------- map / filter

def test_map():
    Maybe.just(1).map(lambda x: x * 2).test().assert_result(2)
    Maybe.empty().map(lambda x: x * 2).test().assert_result()
    Maybe.error(Boom()).map(lambda x: x).test().assert_failure(Boom)
    Maybe.just(1).map(boom).test().assert_failure(Boom)
    Maybe.just(1).map(lambda x: None).test().assert_failure(TypeError)


def test_map_dispose_reaches_upstream():
    p = ProbeMaybe()
    p.map(lambda x: x).test().dispose()
    assert p.disposed == 1


def test_filter():
    Maybe.just(2).filter(lambda x: x > 1).test().assert_result(2)
    Maybe.just(0).filter(lambda x: x > 1).test().assert_result()
    Maybe.empty().filter(lambda x: True).test().assert_result()
    Maybe.error(Boom()).filter(lambda x: True).test().assert_failure(Boom)
    Maybe.just(1).filter(boom).test().assert_failure(Boom)
    p = ProbeMaybe()
    p.filter(lambda x: True).test().dispose()
    assert p.disposed == 1


# ---------------------------------------------------------------- flat_map family

def test_flat_map():
    Maybe.just(1).flat_map(lambda x: Maybe.just(x + 1)).test().assert_result(2)
    Maybe.just(1).flat_map(lambda x: Maybe.empty()).test().assert_result()
    Maybe.empty().flat_map(lambda x: Maybe.just(x)).test().assert_result()
    Maybe.error(Boom()).flat_map(lambda x: Maybe.just(x)).test().assert_failure(Boom)
    Maybe.just(1).flat_map(boom).test().assert_failure(Boom)
    Maybe.just(1).flat_map(lambda x: None).test().assert_failure(TypeError)


def test_flat_map_dispose_reaches_current_source():
    outer, inner = ProbeMaybe(), ProbeMaybe()
    to = outer.flat_map(lambda x: inner).test()
    outer.success(1)
    to.dispose()
    assert inner.disposed == 1 and outer.disposed == 0


def test_flat_map_single():
    Maybe.just(1).flat_map_single(lambda x: Single.just(x + 1)).test().assert_result(2)
    Maybe.empty().flat_map_single(lambda x: Single.just(x)).test().assert_failure(IndexError)
    Maybe.just(1).flat_map_single(lambda x: Single.error(Boom())).test().assert_failure(Boom)
    Maybe.just(1).flat_map_single(boom).test().assert_failure(Boom)
    Maybe.just(1).flat_map_single(lambda x: Maybe.just(x)).test().assert_failure(TypeError)
    assert isinstance(Maybe.just(1).flat_map_single(lambda x: Single.just(x)), Single)


def test_flat_map_publisher():
    p = ProbeMaybe()
    rec = Spy(Flowable.range(1, 4))
    ts = p.flat_map_publisher(lambda x: rec).test(0)
    ts.request(2)
    p.success(1)
    assert rec.requests == [2]
    ts.assert_values(1, 2)
    ts.request(2)
    ts.assert_result(1, 2, 3, 4)


def test_flat_map_publisher_empty_error_raising_cancel():
    Maybe.empty().flat_map_publisher(lambda x: Flowable.just(x)).test().assert_result()
    Maybe.error(Boom()).flat_map_publisher(lambda x: Flowable.just(x)).test() \
        .assert_failure(Boom)
    Maybe.just(1).flat_map_publisher(boom).test().assert_failure(Boom)
    Maybe.just(1).flat_map_publisher(lambda x: None).test().assert_failure(TypeError)
    p = ProbeMaybe()
    p.flat_map_publisher(lambda x: Flowable.just(x)).test().cancel()
    assert p.disposed == 1


# ---------------------------------------------------------------- zip

def test_zip():
    Maybe.just(1).zip_with(Maybe.just(2), lambda a, b: a + b).test().assert_result(3)
    Maybe.zip(Maybe.just(1), Maybe.just(2), lambda a, b: (a, b)).test().assert_result((1, 2))
    Maybe.zip_array(lambda *xs: sum(xs), *[Maybe.just(i) for i in range(4)]).test() \
        .assert_result(6)
    Maybe.zip_array(lambda *xs: xs).test().assert_result()


def test_zip_empty_completes_and_disposes_other():
    a, b = ProbeMaybe(), ProbeMaybe()
    to = a.zip_with(b, lambda x, y: x).test()
    b.complete()
    to.assert_result()
    assert a.disposed == 1


def test_zip_error_and_zipper_failures():
    a, b = ProbeMaybe(), ProbeMaybe()
    to = a.zip_with(b, lambda x, y: x).test()
    a.error(Boom())
    to.assert_failure(Boom)
    assert b.disposed == 1
    Maybe.just(1).zip_with(Maybe.just(2), boom).test().assert_failure(Boom)
    Maybe.just(1).zip_with(Maybe.just(2), lambda a, b: None).test().assert_failure(TypeError)


def test_zip_dispose_reaches_all():
    a, b = ProbeMaybe(), ProbeMaybe()
    a.zip_with(b, lambda x, y: x).test().dispose()
    assert a.disposed == 1 and b.disposed == 1


def test_zip_race_both_succeed(race_runner, race_rounds):
    for _ in range(race_rounds):
        a, b = ProbeMaybe(), ProbeMaybe()
        to = a.zip_with(b, lambda x, y: x + y).test()
        race_runner.race(partial(a.success, 1), partial(b.success, 2))
        to.assert_result(3).assert_protocol_ok()


def test_zip_race_both_fail(race_runner, race_rounds, plugin_errors):
    for i in range(race_rounds):
        a, b = ProbeMaybe(), ProbeMaybe()
        to = a.zip_with(b, lambda x, y: x + y).test()
        e1, e2 = Boom(1), Boom(2)
        race_runner.race(partial(a.error, e1), partial(b.error, e2))
        to.assert_error(Boom).assert_protocol_ok()
        assert to.errors()[0] in (e1, e2)
        assert len(plugin_errors) == i + 1
        assert {plugin_errors.causes()[i], to.errors()[0]} == {e1, e2}


def test_zip_race_both_complete(race_runner, race_rounds):
    for _ in range(race_rounds):
        a, b = ProbeMaybe(), ProbeMaybe()
        to = a.zip_with(b, lambda x, y: x + y).test()
        race_runner.race(a.complete, b.complete)
        to.assert_result().assert_protocol_ok()


# ---------------------------------------------------------------- errors

def test_on_error_return():
    Maybe.error(Boom()).on_error_return(lambda e: 5).test().assert_result(5)
    Maybe.error(Boom()).on_error_return_item(6).test().assert_result(6)
    Maybe.empty().on_error_return_item(6).test().assert_result()
    Maybe.just(1).on_error_return_item(6).test().assert_result(1)
    Maybe.error(Boom()).on_error_return(lambda e: 1 // 0).test() \
        .assert_failure(CompositeException)
    Maybe.error(Boom()).on_error_return(lambda e: None).test().assert_failure(TypeError)


def test_on_error_resume_next():
    Maybe.error(Boom()).on_error_resume_next(Maybe.just(2)).test().assert_result(2)
    Maybe.error(Boom()).on_error_resume_next(lambda e: Maybe.empty()).test().assert_result()
    Maybe.empty().on_error_resume_next(Maybe.just(2)).test().assert_result()
    Maybe.error(Boom()).on_error_resume_next(boom).test().assert_failure(CompositeException)
    Maybe.error(Boom()).on_error_resume_next(lambda e: Single.just(1)).test() \
        .assert_failure(TypeError)


def test_on_error_resume_next_dispose_reaches_current_source():
    a, b = ProbeMaybe(), ProbeMaybe()
    to = a.on_error_resume_next(b).test()
    a.error(Boom())
    to.dispose()
    assert b.disposed == 1


def test_on_error_complete():
    Maybe.error(Boom()).on_error_complete().test().assert_result()
    Maybe.error(Boom()).on_error_complete(lambda e: isinstance(e, Boom)).test().assert_result()
    Maybe.error(Boom()).on_error_complete(lambda e: False).test().assert_failure(Boom)
    Maybe.error(Boom()).on_error_complete(lambda e: 1 // 0).test() \
        .assert_failure(CompositeException)
    Maybe.just(1).on_error_complete().test().assert_result(1)
    p = ProbeMaybe()
    p.on_error_complete().test().dispose()
    assert p.disposed == 1


# ---------------------------------------------------------------- empties

def test_default_if_empty():
    Maybe.empty().default_if_empty(5).test().assert_result(5)
    Maybe.just(1).default_if_empty(5).test().assert_result(1)
    Maybe.error(Boom()).default_if_empty(5).test().assert_failure(Boom)
    assert isinstance(Maybe.empty().default_if_empty(5), Maybe)


def test_switch_if_empty():
    Maybe.empty().switch_if_empty(Maybe.just(2)).test().assert_result(2)
    Maybe.empty().switch_if_empty(Maybe.empty()).test().assert_result()
    Maybe.just(1).switch_if_empty(Maybe.just(2)).test().assert_result(1)
    s = Maybe.empty().switch_if_empty(Single.just(3))
    assert isinstance(s, Single)
    s.test().assert_result(3)


def test_switch_if_empty_dispose_reaches_current_source():
    a, b = ProbeMaybe(), ProbeMaybe()
    to = a.switch_if_empty(b).test()
    to.dispose()
    assert a.disposed == 1 and b.observers == []
    a, b = ProbeMaybe(), ProbeMaybe()
    to = a.switch_if_empty(b).test()
    a.complete()
    to.dispose()
    assert b.disposed == 1


def test_to_single():
    Maybe.just(1).to_single().test().assert_result(1)
    Maybe.empty().to_single().test().assert_failure(IndexError)
    Maybe.empty().to_single(9).test().assert_result(9)
    Maybe.error(Boom()).to_single(9).test().assert_failure(Boom)
    p = ProbeMaybe()
    p.to_single(1).test().dispose()
    assert p.disposed == 1


def test_is_empty():
    Maybe.empty().is_empty().test().assert_result(True)
    Maybe.just(1).is_empty().test().assert_result(False)
    Maybe.error(Boom()).is_empty().test().assert_failure(Boom)
    p = ProbeMaybe()
    p.is_empty().test().dispose()
    assert p.disposed == 1


# ---------------------------------------------------------------- side effects

def test_peek_callbacks():
    got = []
    Maybe.just(1).do_on_success(got.append).do_on_complete(lambda: got.append("c")) \
        .test().assert_result(1)
    Maybe.empty().do_on_complete(lambda: got.append("done")).test().assert_result()
    e = Boom()
    Maybe.error(e).do_on_error(got.append).test().assert_failure(e)
    assert got == [1, "done", e]


def test_peek_callbacks_raising():
    Maybe.just(1).do_on_success(boom).test().assert_failure(Boom)
    Maybe.empty().do_on_complete(boom).test().assert_failure(Boom)
    Maybe.error(ValueError()).do_on_error(boom).test().assert_failure(CompositeException)
    p = ProbeMaybe()
    to = p.do_on_subscribe(boom).test()
    to.assert_failure(Boom)
    assert p.disposed == 1


def test_do_on_dispose():
    p = ProbeMaybe()
    calls = []
    p.do_on_dispose(lambda: calls.append(1)).test().dispose()
    assert calls == [1] and p.disposed == 1


def test_do_finally():
    order = []
    Maybe.empty().do_finally(lambda: order.append("f")).subscribe(
        lambda v: None, None, lambda: order.append("c"))
    p = ProbeMaybe()
    to = p.do_finally(lambda: order.append("f2")).test()
    to.dispose()
    assert order == ["c", "f", "f2"] and p.disposed == 1


# ---------------------------------------------------------------- conversions, blocking

def test_to_flowable():
    ts = Maybe.just(1).to_flowable().test(0)
    ts.assert_empty()
    ts.request(1)
    ts.assert_result(1)
    Maybe.empty().to_flowable().test(0).assert_result()
    Maybe.error(Boom()).to_flowable().test(0).assert_failure(Boom)
    p = ProbeMaybe()
    p.to_flowable().test().cancel()
    assert p.disposed == 1


def test_blocking_get():
    assert Maybe.just(1).blocking_get() == 1
    assert Maybe.empty().blocking_get() is None
    assert Maybe.empty().blocking_get(7) == 7
    assert Maybe.just(1).blocking_get(7) == 1
    with pytest.raises(Boom):
        Maybe.error(Boom()).blocking_get()


def test_blocking_get_from_another_thread():
    p = ProbeMaybe()
    subscribed = threading.Event()
    src = p.do_on_subscribe(lambda d: subscribed.set())
    t = threading.Thread(target=lambda: (subscribed.wait(10), p.complete()),
                         name="test-maybe-producer")
    t.start()
    try:
        assert src.blocking_get("empty", timeout=10) == "empty"
    finally:
        t.join(10)


def test_blocking_get_timeout_disposes():
    p = ProbeMaybe()
    with pytest.raises(TimeoutError):
        p.blocking_get(timeout=0.01)
    assert p.disposed == 1


def test_zip_of_more_sources_zipper_last():
    """RxJava 2's Maybe.zip(m1, ..., m9, zipper): any number of sources, the zipper last."""
    m = [Maybe.just(i) for i in range(1, 6)]
    Maybe.zip(m[0], m[1], m[2], lambda a, b, c: a * b * c).test().assert_result(6)
    Maybe.zip(*m, lambda *v: sum(v)).test().assert_result(15)
    Maybe.zip(m[0], Maybe.empty(), m[2], lambda *v: v).test().assert_result()
    with pytest.raises(TypeError, match=r"zip needs a zipper, last"):
        Maybe.zip(m[0], m[1], m[2])
