"""Completable: sources, subscribe forms, and_then, concat/merge, amb, errors, blocking."""

from __future__ import annotations

import threading
from functools import partial

import pytest
from probes import Boom
from probes import ProbeCompletable
from probes import ProbeSingle
from probes import Spy

from rxpy2 import Completable
from rxpy2 import CompositeException
from rxpy2 import Disposable
from rxpy2 import Flowable
from rxpy2 import Maybe
from rxpy2 import OnErrorNotImplementedException
from rxpy2 import Single
from rxpy2 import plugins
from rxpy2._internal.fuseable import ASYNC
from rxpy2.testing import TestSubscriber


def boom(*_args):
    raise Boom()


# ---------------------------------------------------------------- sources

def test_complete_error_never():
    Completable.complete().test().assert_result()
    Completable.error(Boom()).test().assert_failure(Boom)
    Completable.error(lambda: Boom()).test().assert_failure(Boom)
    Completable.error(boom).test().assert_failure(Boom)
    to = Completable.never().test()
    to.assert_empty()
    assert not to.is_terminated()


def test_from_action():
    calls = []
    c = Completable.from_action(lambda: calls.append(1))
    assert calls == []
    c.test().assert_result()
    c.test().assert_result()
    assert calls == [1, 1]
    Completable.from_action(boom).test().assert_failure(Boom)


def test_from_action_disposed_first_does_not_run():
    calls = []
    Completable.from_action(lambda: calls.append(1)).test(cancel=True)
    assert calls == []


def test_from_callable_ignores_result():
    Completable.from_callable(lambda: 42).test().assert_result()
    Completable.from_callable(lambda: 1 // 0).test().assert_failure(ZeroDivisionError)


def test_defer():
    calls = []
    c = Completable.defer(lambda: calls.append(1) or Completable.complete())
    assert calls == []
    c.test().assert_result()
    Completable.defer(boom).test().assert_failure(Boom)
    Completable.defer(lambda: None).test().assert_failure(TypeError)


def test_bad_arguments():
    for f in (Completable.error, Completable.from_action, Completable.from_callable,
              Completable.defer, Completable.amb, Completable.concat, Completable.merge):
        with pytest.raises(TypeError):
            f(None)
    c = Completable.complete()
    for op in (c.and_then, c.concat_with, c.merge_with, c.amb_with, c.on_error_resume_next,
               c.do_on_complete, c.do_on_error, c.do_finally, c.to_single):
        with pytest.raises(TypeError):
            op(None)
    with pytest.raises(TypeError):
        c.and_then(5)
    with pytest.raises(TypeError):
        Completable.concat_array(c, None)


def test_assembly_hook():
    seen = []
    plugins.set_on_completable_assembly(lambda c: seen.append(type(c).__name__) or c)
    Completable.complete().do_on_complete(lambda: None).test().assert_result()
    assert seen == ["CompletableEmpty", "CompletablePeek"]


# ---------------------------------------------------------------- subscribe forms

def test_subscribe_callbacks():
    got = []
    d = Completable.complete().subscribe(lambda: got.append("done"), got.append)
    e = Boom()
    Completable.error(e).subscribe(lambda: got.append("done"), got.append)
    assert got == ["done", e]
    assert isinstance(d, Disposable)


def test_subscribe_none_and_missing_on_error(plugin_errors):
    with pytest.raises(TypeError):
        Completable.complete().subscribe(None)
    e = Boom()
    Completable.error(e).subscribe()
    assert isinstance(plugin_errors[0], OnErrorNotImplementedException)
    assert plugin_errors[0].__cause__ is e


def test_subscribe_dispose_reaches_upstream():
    p = ProbeCompletable()
    got = []
    d = p.subscribe(lambda: got.append(1))
    d.dispose()
    p.complete()
    assert p.disposed == 1 and got == []


# ---------------------------------------------------------------- and_then

def test_and_then_completable():
    order = []
    Completable.from_action(lambda: order.append(1)) \
        .and_then(Completable.from_action(lambda: order.append(2))).test().assert_result()
    assert order == [1, 2]


def test_and_then_error_skips_next():
    calls = []
    Completable.error(Boom()).and_then(Completable.from_action(lambda: calls.append(1))) \
        .test().assert_failure(Boom)
    assert calls == []


def test_and_then_single_and_maybe():
    s = Completable.complete().and_then(Single.just(1))
    assert isinstance(s, Single)
    s.test().assert_result(1)
    Completable.error(Boom()).and_then(Single.just(1)).test().assert_failure(Boom)
    m = Completable.complete().and_then(Maybe.empty())
    assert isinstance(m, Maybe)
    m.test().assert_result()
    Completable.complete().and_then(Maybe.just(2)).test().assert_result(2)


def test_and_then_single_dispose_reaches_current_source():
    a, b = ProbeCompletable(), ProbeSingle()
    to = a.and_then(b).test()
    to.dispose()
    assert a.disposed == 1 and b.observers == []
    a, b = ProbeCompletable(), ProbeSingle()
    to = a.and_then(b).test()
    a.complete()
    to.dispose()
    assert b.d.disposed == 1 and a.disposed == 0


def test_and_then_publisher_deferred_requests():
    a = ProbeCompletable()
    rec = Spy(Flowable.range(1, 5))
    ts = a.and_then(rec).test(0)
    ts.request(2)
    assert rec.requests == []
    a.complete()
    assert rec.requests == [2]
    ts.assert_values(1, 2)
    ts.request(10)
    ts.assert_result(1, 2, 3, 4, 5)


def test_and_then_publisher_error_and_cancel():
    Completable.error(Boom()).and_then(Flowable.just(1)).test().assert_failure(Boom)
    a = ProbeCompletable()
    a.and_then(Flowable.just(1)).test().cancel()
    assert a.disposed == 1
    rec = Spy(Flowable.range(1, 5))
    ts = Completable.complete().and_then(rec).test(1)
    ts.cancel()
    assert rec.cancels == 1


# ---------------------------------------------------------------- concat

def test_concat_in_order():
    order = []
    Completable.concat_array(*[Completable.from_action(lambda i=i: order.append(i))
                               for i in range(5)]).test().assert_result()
    assert order == [0, 1, 2, 3, 4]
    Completable.concat(iter([Completable.complete(), Completable.complete()])).test() \
        .assert_result()
    Completable.concat([]).test().assert_result()


def test_concat_error_stops():
    calls = []
    Completable.concat_array(Completable.error(Boom()),
                             Completable.from_action(lambda: calls.append(1))) \
        .test().assert_failure(Boom)
    assert calls == []
    Completable.concat([Completable.complete(), None]).test().assert_failure(TypeError)


def test_concat_many_synchronous_sources_no_recursion():
    Completable.concat([Completable.complete()] * 10_000).test().assert_result()


def test_concat_with_chain_flattens():
    c = Completable.complete()
    for _ in range(10_000):
        c = c.concat_with(Completable.complete())
    c.test().assert_result()


def test_concat_waits_and_dispose_reaches_current():
    a, b = ProbeCompletable(), ProbeCompletable()
    to = a.concat_with(b).test()
    assert b.observers == []
    a.complete()
    assert len(b.observers) == 1
    to.dispose()
    assert b.disposed == 1


# ---------------------------------------------------------------- merge

def test_merge_completes_after_all():
    a, b = ProbeCompletable(), ProbeCompletable()
    to = a.merge_with(b).test()
    a.complete()
    to.assert_empty()
    b.complete()
    to.assert_result()
    Completable.merge_array().test().assert_result()
    Completable.merge([Completable.complete()] * 100).test().assert_result()


def test_merge_error_disposes_rest():
    a, b = ProbeCompletable(), ProbeCompletable()
    to = Completable.merge_array(a, b)
    to = to.test()
    a.error(Boom())
    to.assert_failure(Boom)
    assert b.disposed == 1


def test_merge_with_chain_flattens():
    c = Completable.complete()
    for _ in range(5_000):
        c = c.merge_with(Completable.complete())
    c.test().assert_result()


def test_merge_dispose_reaches_all():
    a, b = ProbeCompletable(), ProbeCompletable()
    a.merge_with(b).test().dispose()
    assert a.disposed == 1 and b.disposed == 1


def test_merge_race_both_fail(race_runner, race_rounds, plugin_errors):
    for i in range(race_rounds):
        a, b = ProbeCompletable(), ProbeCompletable()
        to = a.merge_with(b).test()
        e1, e2 = Boom(1), Boom(2)
        race_runner.race(partial(a.error, e1), partial(b.error, e2))
        to.assert_error(Boom).assert_protocol_ok()
        assert to.errors()[0] in (e1, e2)
        assert len(plugin_errors) == i + 1


def test_merge_race_both_complete(race_runner, race_rounds):
    for _ in range(race_rounds):
        a, b = ProbeCompletable(), ProbeCompletable()
        to = a.merge_with(b).test()
        race_runner.race(a.complete, b.complete)
        to.assert_result().assert_protocol_ok()


# ---------------------------------------------------------------- amb

def test_amb():
    a, b = ProbeCompletable(), ProbeCompletable()
    to = a.amb_with(b).test()
    b.complete()
    to.assert_result()
    assert a.disposed == 1
    Completable.amb([]).test().assert_result()  # RxJava 2: no sources completes
    a, b = ProbeCompletable(), ProbeCompletable()
    to = Completable.amb([a, b]).test()
    a.error(Boom())
    to.assert_failure(Boom)
    assert b.disposed == 1


def test_amb_race_complete_and_error(race_runner, race_rounds, plugin_errors):
    for _ in range(race_rounds):
        a, b = ProbeCompletable(), ProbeCompletable()
        to = a.amb_with(b).test()
        e = Boom()
        race_runner.race(a.complete, partial(b.error, e))
        to.assert_terminated().assert_protocol_ok()
        if to.completions():
            assert plugin_errors.causes()[-1] is e
            plugin_errors.clear()
        else:
            to.assert_failure(e)
    assert plugin_errors == []


# ---------------------------------------------------------------- errors

def test_on_error_complete():
    Completable.error(Boom()).on_error_complete().test().assert_result()
    Completable.error(Boom()).on_error_complete(lambda e: False).test().assert_failure(Boom)
    Completable.error(Boom()).on_error_complete(boom).test().assert_failure(CompositeException)
    p = ProbeCompletable()
    p.on_error_complete().test().dispose()
    assert p.disposed == 1


def test_on_error_resume_next():
    Completable.error(Boom()).on_error_resume_next(Completable.complete()).test() \
        .assert_result()
    Completable.error(Boom()).on_error_resume_next(lambda e: Completable.error(ValueError())) \
        .test().assert_failure(ValueError)
    Completable.error(Boom()).on_error_resume_next(boom).test().assert_failure(CompositeException)
    Completable.error(Boom()).on_error_resume_next(lambda e: None).test() \
        .assert_failure(TypeError)
    a, b = ProbeCompletable(), ProbeCompletable()
    to = a.on_error_resume_next(b).test()
    a.error(Boom())
    to.dispose()
    assert b.disposed == 1


# ---------------------------------------------------------------- side effects

def test_peek():
    got = []
    Completable.complete().do_on_complete(lambda: got.append("c")).test().assert_result()
    e = Boom()
    Completable.error(e).do_on_error(got.append).test().assert_failure(e)
    Completable.complete().do_on_complete(boom).test().assert_failure(Boom)
    Completable.error(ValueError()).do_on_error(boom).test().assert_failure(CompositeException)
    assert got == ["c", e]
    p = ProbeCompletable()
    p.do_on_subscribe(boom).test().assert_failure(Boom)
    assert p.disposed == 1
    p = ProbeCompletable()
    calls = []
    p.do_on_dispose(lambda: calls.append(1)).test().dispose()
    assert calls == [1] and p.disposed == 1


def test_do_finally():
    order = []
    Completable.complete().do_finally(lambda: order.append("f")) \
        .subscribe(lambda: order.append("c"))
    Completable.error(Boom()).do_finally(lambda: order.append("f2")) \
        .subscribe(lambda: None, lambda e: order.append("e"))
    assert order == ["c", "f", "e", "f2"]
    p = ProbeCompletable()
    p.do_finally(lambda: order.append("f3")).test().dispose()
    assert order[-1] == "f3" and p.disposed == 1


# ---------------------------------------------------------------- conversions

def test_to_single_and_maybe():
    Completable.complete().to_single(lambda: 1).test().assert_result(1)
    Completable.complete().to_single_default(2).test().assert_result(2)
    Completable.complete().to_single(lambda: None).test().assert_failure(TypeError)
    Completable.complete().to_single(boom).test().assert_failure(Boom)
    Completable.error(Boom()).to_single(lambda: 1).test().assert_failure(Boom)
    Completable.complete().to_maybe().test().assert_result()
    Completable.error(Boom()).to_maybe().test().assert_failure(Boom)
    p = ProbeCompletable()
    p.to_single(lambda: 1).test().dispose()
    assert p.disposed == 1


def test_to_flowable():
    Completable.complete().to_flowable().test(0).assert_result()
    Completable.error(Boom()).to_flowable().test(0).assert_failure(Boom)
    p = ProbeCompletable()
    ts = p.to_flowable().test()
    ts.cancel()
    assert p.disposed == 1


def test_to_flowable_async_fusion():
    ts = TestSubscriber().with_fusion(ASYNC)
    Completable.complete().to_flowable().subscribe(ts)
    ts.assert_fusion_mode(ASYNC).assert_result()


# ---------------------------------------------------------------- blocking

def test_blocking_await():
    assert Completable.complete().blocking_await() is None
    with pytest.raises(Boom):
        Completable.error(Boom()).blocking_await()


def test_blocking_await_from_another_thread():
    p = ProbeCompletable()
    subscribed = threading.Event()
    src = p.do_on_subscribe(lambda d: subscribed.set())
    t = threading.Thread(target=lambda: (subscribed.wait(10), p.complete()),
                         name="test-completable-producer")
    t.start()
    try:
        src.blocking_await(timeout=10)
    finally:
        t.join(10)
    assert not t.is_alive()


def test_blocking_await_timeout_disposes():
    p = ProbeCompletable()
    with pytest.raises(TimeoutError):
        p.blocking_await(timeout=0.01)
    assert p.disposed == 1
