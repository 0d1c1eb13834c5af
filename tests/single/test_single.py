"""Single: sources, subscribe forms, operators, races, to_flowable and blocking_get."""

from __future__ import annotations

import threading
from functools import partial

import pytest
from probes import Boom
from probes import ProbeSingle
from probes import Spy

from rxpy2 import CompositeException
from rxpy2 import Disposable
from rxpy2 import Flowable
from rxpy2 import Maybe
from rxpy2 import OnErrorNotImplementedException
from rxpy2 import Single
from rxpy2 import plugins
from rxpy2.observers import SingleObserver
from rxpy2.testing import TestSubscriber


def boom(*_args):
    raise Boom()


# ---------------------------------------------------------------- sources

def test_just():
    Single.just(1).test().assert_result(1)


def test_just_none_is_type_error():
    with pytest.raises(TypeError):
        Single.just(None)


def test_error_instance_and_supplier():
    e = Boom()
    Single.error(e).test().assert_failure(e)
    Single.error(lambda: Boom("fresh")).test().assert_failure(Boom)


def test_error_supplier_raises_or_returns_none():
    Single.error(lambda: 1 // 0).test().assert_failure(ZeroDivisionError)
    Single.error(lambda: None).test().assert_failure(TypeError)


def test_error_none_is_type_error():
    with pytest.raises(TypeError):
        Single.error(None)


def test_never():
    to = Single.never().test()
    to.assert_empty()
    assert not to.is_terminated()


def test_from_callable():
    calls = []
    s = Single.from_callable(lambda: calls.append(1) or len(calls))
    s.test().assert_result(1)
    s.test().assert_result(2)


def test_from_callable_raises_and_none():
    Single.from_callable(lambda: 1 // 0).test().assert_failure(ZeroDivisionError)
    Single.from_callable(lambda: None).test().assert_failure(TypeError)


def test_from_callable_disposed_before_call_does_not_call():
    calls = []
    to = Single.from_callable(lambda: calls.append(1) or 1).test(cancel=True)
    assert calls == []
    to.assert_no_values().assert_no_errors().assert_not_complete()


def test_defer():
    calls = []

    def supplier():
        calls.append(1)
        return Single.just(len(calls))

    s = Single.defer(supplier)
    assert calls == []
    s.test().assert_result(1)
    s.test().assert_result(2)


def test_defer_raises_or_returns_non_single():
    Single.defer(boom).test().assert_failure(Boom)
    Single.defer(lambda: None).test().assert_failure(TypeError)
    Single.defer(lambda: 5).test().assert_failure(TypeError)


def test_factory_arguments_validated():
    for f in (Single.from_callable, Single.defer):
        with pytest.raises(TypeError):
            f(None)
    with pytest.raises(TypeError):
        Single.just(1).map(None)
    with pytest.raises(TypeError):
        Single.just(1).zip_with(None, lambda a, b: a)
    with pytest.raises(TypeError):
        Single.just(1).zip_with(Maybe.just(1), lambda a, b: a)
    with pytest.raises(TypeError):
        Single.zip_array(lambda *v: v, Single.just(1), None)
    with pytest.raises(TypeError):
        Single.just(1).on_error_resume_next(None)
    with pytest.raises(TypeError):
        Single.just(1).flat_map("not callable")


def test_assembly_hook_sees_each_new_single():
    seen = []
    plugins.set_on_single_assembly(lambda s: seen.append(type(s).__name__) or s)
    Single.just(1).map(lambda x: x).test().assert_result(1)
    assert seen == ["SingleJust", "SingleMap"]


# ---------------------------------------------------------------- subscribe forms

def test_subscribe_callbacks():
    got = []
    d = Single.just(5).subscribe(got.append, lambda e: got.append(("error", e)))
    assert got == [5]
    assert isinstance(d, Disposable)
    e = Boom()
    Single.error(e).subscribe(got.append, lambda x: got.append(("error", x)))
    assert got == [5, ("error", e)]


def test_subscribe_observer_returns_none():
    got = []

    class Observer(SingleObserver):
        def on_subscribe(self, d):
            got.append("sub")

        def on_success(self, item):
            got.append(item)

        def on_error(self, error):
            got.append(error)

    assert Single.just(1).subscribe(Observer()) is None
    assert got == ["sub", 1]


def test_subscribe_explicit_none_is_type_error():
    with pytest.raises(TypeError):
        Single.just(1).subscribe(None)


def test_subscribe_without_on_error_reports(plugin_errors):
    e = Boom()
    Single.error(e).subscribe(lambda v: None)
    assert len(plugin_errors) == 1
    assert isinstance(plugin_errors[0], OnErrorNotImplementedException)
    assert plugin_errors[0].__cause__ is e


def test_subscribe_no_args_ignores_item():
    d = Single.just(1).subscribe()
    assert d.is_disposed()  # terminated


def test_subscribe_on_success_raising_goes_to_plugins(plugin_errors):
    Single.just(1).subscribe(boom, lambda e: pytest.fail("on_error called"))
    assert [type(e) for e in plugin_errors.causes()] == [Boom]


def test_subscribe_dispose_reaches_upstream_and_drops_later_signals(plugin_errors):
    p = ProbeSingle()
    got = []
    d = p.subscribe(got.append, got.append)
    d.dispose()
    assert p.disposed == 1 and d.is_disposed()
    p.success(1)
    e = Boom()
    p.error(e)
    assert got == []
    assert plugin_errors.causes() == [e]


# ---------------------------------------------------------------- map / filter

def test_map():
    Single.just(1).map(lambda x: x + 1).test().assert_result(2)


def test_map_error_passthrough_and_raising():
    Single.error(Boom()).map(lambda x: x).test().assert_failure(Boom)
    Single.just(1).map(boom).test().assert_failure(Boom)
    Single.just(1).map(lambda x: None).test().assert_failure(TypeError)


def test_map_dispose_reaches_upstream():
    p = ProbeSingle()
    to = p.map(lambda x: x).test()
    to.dispose()
    assert p.disposed == 1


def test_filter():
    Single.just(2).filter(lambda x: x % 2 == 0).test().assert_result(2)
    Single.just(3).filter(lambda x: x % 2 == 0).test().assert_result()
    Single.error(Boom()).filter(lambda x: True).test().assert_failure(Boom)
    Single.just(1).filter(boom).test().assert_failure(Boom)
    assert isinstance(Single.just(1).filter(lambda x: True), Maybe)


def test_filter_dispose_reaches_upstream():
    p = ProbeSingle()
    p.filter(lambda x: True).test().dispose()
    assert p.disposed == 1


# ---------------------------------------------------------------- flat_map family

def test_flat_map():
    Single.just(1).flat_map(lambda x: Single.just(x + 10)).test().assert_result(11)


def test_flat_map_errors():
    Single.error(Boom()).flat_map(lambda x: Single.just(x)).test().assert_failure(Boom)
    Single.just(1).flat_map(lambda x: Single.error(Boom())).test().assert_failure(Boom)
    Single.just(1).flat_map(boom).test().assert_failure(Boom)
    Single.just(1).flat_map(lambda x: None).test().assert_failure(TypeError)
    Single.just(1).flat_map(lambda x: Maybe.just(x)).test().assert_failure(TypeError)


def test_flat_map_dispose_reaches_current_source():
    outer, inner = ProbeSingle(), ProbeSingle()
    to = outer.flat_map(lambda x: inner).test()
    to.dispose()
    assert outer.disposed == 1 and inner.observers == []

    outer, inner = ProbeSingle(), ProbeSingle()
    to = outer.flat_map(lambda x: inner).test()
    outer.success(1)
    to.dispose()
    assert inner.disposed == 1 and outer.disposed == 0


def test_flat_map_maybe():
    Single.just(1).flat_map_maybe(lambda x: Maybe.just(x * 3)).test().assert_result(3)
    Single.just(1).flat_map_maybe(lambda x: Maybe.empty()).test().assert_result()
    Single.just(1).flat_map_maybe(lambda x: Maybe.error(Boom())).test().assert_failure(Boom)
    Single.just(1).flat_map_maybe(boom).test().assert_failure(Boom)
    Single.just(1).flat_map_maybe(lambda x: Single.just(x)).test().assert_failure(TypeError)


def test_flat_map_publisher_values_and_deferred_requests():
    p = ProbeSingle()
    rec = Spy(Flowable.range(1, 5))
    ts = p.flat_map_publisher(lambda x: rec).test(0)
    ts.request(2)
    ts.request(1)
    assert rec.requests == []
    p.success(1)
    assert rec.requests == [3]  # what accumulated, in one request
    ts.assert_values(1, 2, 3).assert_not_complete()
    ts.request(5)
    ts.assert_result(1, 2, 3, 4, 5)
    assert rec.requests == [3, 5]


def test_flat_map_publisher_unbounded():
    rec = Spy(Flowable.range(1, 3))
    Single.just(0).flat_map_publisher(lambda x: rec).test().assert_result(1, 2, 3)
    assert rec.requests == [2**63 - 1]


def test_flat_map_publisher_errors():
    Single.error(Boom()).flat_map_publisher(lambda x: Flowable.just(x)).test() \
        .assert_failure(Boom)
    Single.just(1).flat_map_publisher(boom).test().assert_failure(Boom)
    Single.just(1).flat_map_publisher(lambda x: None).test().assert_failure(TypeError)
    Single.just(1).flat_map_publisher(lambda x: Flowable.error(Boom())).test() \
        .assert_failure(Boom)


def test_flat_map_publisher_cancel_reaches_single_then_publisher():
    p = ProbeSingle()
    ts = p.flat_map_publisher(lambda x: Flowable.just(x)).test(0)
    ts.cancel()
    assert p.disposed == 1

    rec = Spy(Flowable.range(1, 10))
    ts = Single.just(1).flat_map_publisher(lambda x: rec).test(1)
    ts.assert_values(1)
    ts.cancel()
    assert rec.cancels == 1


def test_flat_map_publisher_cancelled_before_item_never_subscribes():
    p = ProbeSingle()
    rec = Spy(Flowable.just(1))
    ts = p.flat_map_publisher(lambda x: rec).test()
    ts.cancel()
    p.success(1)
    assert rec.requests == [] and rec.cancels == 0
    ts.assert_empty()


# ---------------------------------------------------------------- zip

def test_zip_with_and_zip():
    Single.just(1).zip_with(Single.just(2), lambda a, b: (a, b)).test().assert_result((1, 2))
    Single.zip(Single.just(1), Single.just(2), lambda a, b: a + b).test().assert_result(3)
    Single.zip_array(lambda *xs: sum(xs), *[Single.just(i) for i in range(5)]).test() \
        .assert_result(10)


def test_zip_array_no_sources_is_index_error():
    Single.zip_array(lambda *xs: xs).test().assert_failure(IndexError)


def test_zip_error_disposes_other():
    a, b = ProbeSingle(), ProbeSingle()
    to = a.zip_with(b, lambda x, y: x + y).test()
    a.error(Boom())
    to.assert_failure(Boom)
    assert b.disposed == 1 and a.disposed == 0


def test_zip_first_error_stops_subscribing():
    b = ProbeSingle()
    Single.error(Boom()).zip_with(b, lambda x, y: x).test().assert_failure(Boom)
    assert b.observers == []


def test_zip_zipper_raises_or_returns_none():
    Single.just(1).zip_with(Single.just(2), boom).test().assert_failure(Boom)
    Single.just(1).zip_with(Single.just(2), lambda a, b: None).test().assert_failure(TypeError)


def test_zip_dispose_reaches_all():
    a, b = ProbeSingle(), ProbeSingle()
    to = a.zip_with(b, lambda x, y: x).test()
    to.dispose()
    assert a.disposed == 1 and b.disposed == 1


def test_zip_race_both_succeed(race_runner, race_rounds):
    for _ in range(race_rounds):
        a, b = ProbeSingle(), ProbeSingle()
        to = a.zip_with(b, lambda x, y: x + y).test()
        race_runner.race(partial(a.success, 1), partial(b.success, 2))
        to.assert_result(3).assert_protocol_ok()


def test_zip_race_both_fail(race_runner, race_rounds, plugin_errors):
    for i in range(race_rounds):
        a, b = ProbeSingle(), ProbeSingle()
        to = a.zip_with(b, lambda x, y: x + y).test()
        e1, e2 = Boom(1), Boom(2)
        race_runner.race(partial(a.error, e1), partial(b.error, e2))
        to.assert_error(Boom).assert_protocol_ok()
        assert to.errors()[0] in (e1, e2)
        assert len(plugin_errors) == i + 1
        lost = plugin_errors.causes()[i]
        assert {lost, to.errors()[0]} == {e1, e2}


def test_zip_race_success_and_error(race_runner, race_rounds):
    for _ in range(race_rounds):
        a, b = ProbeSingle(), ProbeSingle()
        to = a.zip_with(b, lambda x, y: x + y).test()
        e = Boom()
        race_runner.race(partial(a.success, 1), partial(b.error, e))
        to.assert_failure(e).assert_protocol_ok()


# ---------------------------------------------------------------- errors

def test_on_error_return():
    Single.error(Boom()).on_error_return(lambda e: type(e).__name__).test().assert_result("Boom")
    Single.just(1).on_error_return(lambda e: 2).test().assert_result(1)
    Single.error(Boom()).on_error_return_item(7).test().assert_result(7)


def test_on_error_return_fn_raises_or_returns_none():
    to = Single.error(Boom()).on_error_return(lambda e: 1 // 0).test()
    to.assert_failure(CompositeException)
    assert [type(x) for x in to.errors()[0].exceptions] == [Boom, ZeroDivisionError]
    Single.error(Boom()).on_error_return(lambda e: None).test().assert_failure(TypeError)


def test_on_error_return_dispose_reaches_upstream():
    p = ProbeSingle()
    p.on_error_return_item(1).test().dispose()
    assert p.disposed == 1


def test_on_error_resume_next():
    Single.error(Boom()).on_error_resume_next(Single.just(2)).test().assert_result(2)
    Single.error(Boom()).on_error_resume_next(lambda e: Single.just(3)).test().assert_result(3)
    Single.just(1).on_error_resume_next(Single.just(2)).test().assert_result(1)
    Single.error(Boom()).on_error_resume_next(Single.error(ValueError())).test() \
        .assert_failure(ValueError)


def test_on_error_resume_next_fn_raises_or_returns_none():
    Single.error(Boom()).on_error_resume_next(lambda e: 1 // 0).test() \
        .assert_failure(CompositeException)
    Single.error(Boom()).on_error_resume_next(lambda e: None).test().assert_failure(TypeError)


def test_on_error_resume_next_dispose_reaches_current_source():
    a, b = ProbeSingle(), ProbeSingle()
    to = a.on_error_resume_next(b).test()
    to.dispose()
    assert a.disposed == 1 and b.observers == []

    a, b = ProbeSingle(), ProbeSingle()
    to = a.on_error_resume_next(b).test()
    a.error(Boom())
    to.dispose()
    assert b.disposed == 1 and a.disposed == 0


# ---------------------------------------------------------------- side effects

def test_do_on_success_and_error():
    got = []
    Single.just(1).do_on_success(got.append).test().assert_result(1)
    e = Boom()
    Single.error(e).do_on_error(got.append).test().assert_failure(e)
    assert got == [1, e]


def test_do_on_success_runs_before_downstream():
    order = []
    Single.just(1).do_on_success(lambda v: order.append("peek")) \
        .subscribe(lambda v: order.append("down"))
    assert order == ["peek", "down"]


def test_do_on_success_raises():
    got = []
    Single.just(1).do_on_success(boom).do_on_error(got.append).test().assert_failure(Boom)
    assert [type(e) for e in got] == [Boom]


def test_do_on_error_raises_composite():
    to = Single.error(Boom()).do_on_error(lambda e: 1 // 0).test()
    to.assert_failure(CompositeException)


def test_do_on_subscribe():
    got = []
    Single.just(1).do_on_subscribe(got.append).test().assert_result(1)
    assert len(got) == 1 and isinstance(got[0], Disposable)


def test_do_on_subscribe_raises_disposes_upstream():
    p = ProbeSingle()
    to = p.do_on_subscribe(boom).test()
    to.assert_failure(Boom)
    assert p.disposed == 1
    p.success(1)  # dropped
    to.assert_failure(Boom)


def test_do_on_dispose():
    p = ProbeSingle()
    calls = []
    to = p.do_on_dispose(lambda: calls.append(1)).test()
    to.dispose()
    to.dispose()
    assert calls == [1] and p.disposed == 1


def test_do_on_dispose_not_after_success():
    calls = []
    d = Single.just(1).do_on_dispose(lambda: calls.append(1)).subscribe()
    d.dispose()
    assert calls == []


def test_do_on_dispose_raises_goes_to_plugins(plugin_errors):
    p = ProbeSingle()
    p.do_on_dispose(boom).test().dispose()
    assert p.disposed == 1
    assert [type(e) for e in plugin_errors.causes()] == [Boom]


def test_do_finally_after_terminal():
    order = []
    Single.just(1).do_finally(lambda: order.append("finally")) \
        .subscribe(lambda v: order.append(v))
    Single.error(Boom()).do_finally(lambda: order.append("finally2")) \
        .subscribe(lambda v: None, lambda e: order.append("error"))
    assert order == [1, "finally", "error", "finally2"]


def test_do_finally_on_dispose_once():
    p = ProbeSingle()
    calls = []
    to = p.do_finally(lambda: calls.append(1)).test()
    to.dispose()
    p.success(1)
    assert calls == [1] and p.disposed == 1


def test_do_finally_raises_goes_to_plugins(plugin_errors):
    Single.just(1).do_finally(boom).test().assert_result(1)
    assert [type(e) for e in plugin_errors.causes()] == [Boom]


# ---------------------------------------------------------------- amb

def test_amb_first_wins_and_disposes_rest():
    a, b = ProbeSingle(), ProbeSingle()
    to = Single.amb([a, b]).test()
    b.success(2)
    to.assert_result(2)
    assert a.disposed == 1


def test_amb_error_wins():
    a, b = ProbeSingle(), ProbeSingle()
    to = a.amb_with(b).test()
    a.error(Boom())
    to.assert_failure(Boom)
    assert b.disposed == 1


def test_amb_synchronous_winner_stops_subscribing():
    b = ProbeSingle()
    Single.amb_array(Single.just(1), b).test().assert_result(1)
    assert b.observers == []


def test_amb_empty_and_bad_sources():
    Single.amb([]).test().assert_failure(IndexError)
    Single.amb([None]).test().assert_failure(TypeError)
    with pytest.raises(TypeError):
        Single.amb(None)


def test_amb_dispose_reaches_all():
    a, b = ProbeSingle(), ProbeSingle()
    Single.amb([a, b]).test().dispose()
    assert a.disposed == 1 and b.disposed == 1


def test_amb_race_both_succeed(race_runner, race_rounds):
    for _ in range(race_rounds):
        a, b = ProbeSingle(), ProbeSingle()
        to = a.amb_with(b).test()
        race_runner.race(partial(a.success, 1), partial(b.success, 2))
        to.assert_value(lambda v: v in (1, 2)).assert_complete().assert_protocol_ok()


def test_amb_race_both_fail(race_runner, race_rounds, plugin_errors):
    for i in range(race_rounds):
        a, b = ProbeSingle(), ProbeSingle()
        to = a.amb_with(b).test()
        e1, e2 = Boom(1), Boom(2)
        race_runner.race(partial(a.error, e1), partial(b.error, e2))
        to.assert_error(Boom).assert_protocol_ok()
        assert to.errors()[0] in (e1, e2)
        assert len(plugin_errors) == i + 1
        assert {plugin_errors.causes()[i], to.errors()[0]} == {e1, e2}


# ---------------------------------------------------------------- to_flowable

def test_to_flowable_waits_for_request():
    ts = Single.just(1).to_flowable().test(0)
    ts.assert_empty()
    ts.request(1)
    ts.assert_result(1)


def test_to_flowable_error_and_cancel():
    Single.error(Boom()).to_flowable().test(0).assert_failure(Boom)
    p = ProbeSingle()
    ts = p.to_flowable().test()
    ts.cancel()
    assert p.disposed == 1


def test_to_flowable_item_before_request_from_another_order():
    p = ProbeSingle()
    ts = p.to_flowable().test(0)
    p.success(5)
    ts.assert_empty()
    ts.request(3)
    ts.assert_result(5)


def test_to_flowable_non_positive_request_reported(plugin_errors):
    ts = TestSubscriber(0)
    Single.just(1).to_flowable().subscribe(ts)
    ts.request(0)
    ts.assert_empty()
    assert len(plugin_errors) == 1 and "3.9" in str(plugin_errors[0])


# ---------------------------------------------------------------- blocking_get

def test_blocking_get():
    assert Single.just(3).blocking_get() == 3
    with pytest.raises(Boom):
        Single.error(Boom()).blocking_get()


def test_blocking_get_from_another_thread():
    p = ProbeSingle()
    result = []
    waiting = threading.Event()

    def consumer():
        result.append(p.do_on_subscribe(lambda d: waiting.set()).blocking_get(timeout=10))

    t = threading.Thread(target=consumer, name="test-single-consumer")
    t.start()
    assert waiting.wait(10)
    producer = threading.Thread(target=partial(p.success, 42), name="test-single-producer")
    producer.start()
    producer.join(10)
    t.join(10)
    assert result == [42]


def test_blocking_get_error_from_another_thread():
    p = ProbeSingle()
    subscribed = threading.Event()
    src = p.do_on_subscribe(lambda d: subscribed.set())
    t = threading.Thread(target=lambda: (subscribed.wait(10), p.error(Boom())),
                         name="test-single-producer")
    t.start()
    try:
        with pytest.raises(Boom):
            src.blocking_get(timeout=10)
    finally:
        t.join(10)


def test_blocking_get_timeout_disposes():
    p = ProbeSingle()
    with pytest.raises(TimeoutError):
        p.blocking_get(timeout=0.01)
    assert p.disposed == 1


def test_zip_of_more_sources_zipper_last():
    """RxJava 2's Single.zip(s1, ..., s9, zipper): any number of sources, the zipper last."""
    s = [Single.just(i) for i in range(1, 7)]
    Single.zip(s[0], s[1], s[2], lambda a, b, c: a + b + c).test().assert_result(6)
    Single.zip(s[0], s[1], s[2], s[3], lambda *v: v).test().assert_result((1, 2, 3, 4))
    Single.zip(*s, lambda *v: sum(v)).test().assert_result(21)
    Single.zip(s[0], s[1], zipper=lambda a, b: a - b).test().assert_result(-1)
    with pytest.raises(TypeError, match=r"zip needs a zipper, last: zip\(a, b, fn\)"):
        Single.zip(s[0], s[1])
    with pytest.raises(TypeError, match="source 2 must be a Single, not MaybeJust"):
        Single.zip(s[0], s[1], Maybe.just(1), lambda *v: v)
