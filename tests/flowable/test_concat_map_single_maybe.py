"""concat_map_single / concat_map_maybe / concat_map_completable (and ``_delay_error``):
order, request amounts, error modes, cancellation, deep synchronous streams, races."""

from __future__ import annotations

import sys

import pytest
from probes import ManualSource
from probes import ProbeCompletable
from probes import ProbeMaybe
from probes import ProbeSingle
from probes import boom

from rxpy2 import Completable
from rxpy2 import Flowable
from rxpy2 import Maybe
from rxpy2 import Single
from rxpy2.exceptions import CompositeException
from rxpy2.exceptions import MissingBackpressureException

KINDS = {
    "single": ("concat_map_single", Single.just, ProbeSingle),
    "maybe": ("concat_map_maybe", Maybe.just, ProbeMaybe),
}


@pytest.fixture(params=sorted(KINDS))
def kind(request):
    """(method name, just, Probe class) of concat_map_single / concat_map_maybe."""
    return KINDS[request.param]


def cmap(f, name, mapper, mode="immediate", **kw):
    """``f.<name>(mapper)``; mode ``end`` / ``boundary``: the ``_delay_error`` form."""
    if mode == "immediate":
        return getattr(f, name)(mapper, **kw)
    return getattr(f, name + "_delay_error")(mapper, till_the_end=mode == "end", **kw)


def probes(probe_cls, n):
    ps = [probe_cls() for _ in range(n)]
    return ps, (lambda i: ps[i])


def subscribed(ps):
    return [len(p.observers) for p in ps]


# ----------------------------------------------------------------- values and order


def test_values_in_upstream_order(kind):
    name, just, _ = kind
    cmap(Flowable.range(1, 5), name, lambda x: just(x * 10)).test() \
        .assert_result(10, 20, 30, 40, 50).assert_protocol_ok()


def test_one_inner_at_a_time(kind):
    name, _, probe_cls = kind
    ps, mapper = probes(probe_cls, 3)
    src = ManualSource()
    ts = cmap(src, name, mapper).test()
    src.emit(0, 1)
    src.complete()
    assert subscribed(ps) == [1, 0, 0]
    ps[0].success("a")
    assert subscribed(ps) == [1, 1, 0]
    ts.assert_values("a").assert_not_complete()
    ps[1].success("b")
    ts.assert_result("a", "b")


def test_maybe_empty_emits_nothing_and_moves_on():
    Flowable.range(1, 6).concat_map_maybe(lambda x: Maybe.just(x) if x % 2 else Maybe.empty()) \
        .test().assert_result(1, 3, 5)


def test_empty_upstream(kind):
    name, _, _ = kind
    cmap(Flowable.empty(), name, boom).test().assert_result()


def test_completes_after_last_inner(kind):
    name, _, probe_cls = kind
    ps, mapper = probes(probe_cls, 1)
    src = ManualSource()
    ts = cmap(src, name, mapper).test()
    src.emit(0)
    src.complete()
    ts.assert_not_complete()
    ps[0].success(1)
    ts.assert_result(1)


def test_repr_names_the_methods():
    f = Flowable.range(1, 2)
    assert "concat_map_single(" in repr(f.concat_map_single(Single.just))
    assert "concat_map_maybe(" in repr(f.concat_map_maybe_delay_error(Maybe.just))
    assert "concat_map_completable(" in repr(f.concat_map_completable(lambda x: Completable.complete()))


# ----------------------------------------------------------------- requests


@pytest.mark.parametrize("prefetch, first, then", [(1, 1, 1), (2, 2, 1), (4, 4, 2), (5, 5, 3),
                                                   (16, 16, 8)])
def test_request_amounts(kind, prefetch, first, then):
    """``prefetch`` up front, then ``prefetch - prefetch // 2`` each time that many were mapped."""
    name, just, _ = kind
    requests = []
    cmap(Flowable.range(0, 40).do_on_request(requests.append), name, just, prefetch=prefetch) \
        .test().assert_value_count(40).assert_complete()
    assert requests[0] == first
    assert set(requests[1:]) == {then}


def test_completable_request_amounts():
    requests = []
    Flowable.range(0, 20).do_on_request(requests.append) \
        .concat_map_completable(lambda x: Completable.complete(), prefetch=4).test().assert_complete()
    assert requests[0] == 4 and set(requests[1:]) == {2}


def test_success_waits_for_demand(kind):
    name, _, probe_cls = kind
    ps, mapper = probes(probe_cls, 2)
    src = ManualSource()
    ts = cmap(src, name, mapper).test(0)
    src.emit(0, 1)
    assert src.requests == [2, 1]  # prefetch 2: one more for each item mapped
    ps[0].success("a")
    ts.assert_no_values()
    assert subscribed(ps) == [1, 0]  # the next inner waits until the success went out
    ts.request(1)
    ts.assert_values("a")
    assert subscribed(ps) == [1, 1]
    assert src.requests == [2, 1, 1]
    ps[1].success("b")
    ts.assert_values("a")
    src.complete()
    ts.assert_values("a").assert_not_complete()
    ts.request(1)
    ts.assert_result("a", "b")


def test_request_inside_on_next_one_by_one(kind):
    name, just, _ = kind
    ts = cmap(Flowable.range(0, 10), name, just).test(1)
    for i in range(1, 10):
        ts.assert_value_count(i)
        ts.request(1)
    ts.assert_result(*range(10))


def test_more_than_prefetch_is_missing_backpressure(kind):
    name, _, probe_cls = kind
    ps, mapper = probes(probe_cls, 5)
    src = ManualSource()
    ts = cmap(src, name, mapper, prefetch=2).test()
    src.emit(0, 1, 2, 3)  # 0 runs, 1 and 2 queued, 3 does not fit
    ts.assert_failure(MissingBackpressureException)
    assert src.cancelled
    assert ps[0].disposed == 1


# ----------------------------------------------------------------- errors


def test_immediate_inner_error(kind):
    name, _, probe_cls = kind
    ps, mapper = probes(probe_cls, 2)
    src = ManualSource()
    ts = cmap(src, name, mapper).test()
    src.emit(0, 1)
    e = ValueError()
    ps[0].error(e)
    ts.assert_failure(e)
    assert src.cancelled and subscribed(ps) == [1, 0]


def test_immediate_upstream_error_disposes_inner_and_drops_waiting_success(kind):
    name, _, probe_cls = kind
    ps, mapper = probes(probe_cls, 2)
    src = ManualSource()
    ts = cmap(src, name, mapper).test(0)
    src.emit(0, 1)
    ps[0].success("waiting")
    e = ValueError()
    src.error(e)
    ts.assert_failure(e)
    src2 = ManualSource()
    ps2, mapper2 = probes(probe_cls, 1)
    ts2 = cmap(src2, name, mapper2).test()
    src2.emit(0)
    src2.error(e)
    ts2.assert_failure(e)
    assert ps2[0].disposed == 1


def test_boundary_upstream_error_waits_for_running_inner(kind):
    name, _, probe_cls = kind
    ps, mapper = probes(probe_cls, 2)
    src = ManualSource()
    ts = cmap(src, name, mapper, mode="boundary").test()
    src.emit(0, 1)
    e = ValueError()
    src.error(e)
    ts.assert_empty()
    assert ps[0].disposed == 0
    ps[0].success("a")
    ts.assert_failure(e, "a")
    assert subscribed(ps) == [1, 0]  # the queued item is not mapped


def test_boundary_inner_error_cancels_upstream(kind):
    name, _, probe_cls = kind
    ps, mapper = probes(probe_cls, 2)
    src = ManualSource()
    ts = cmap(src, name, mapper, mode="boundary").test()
    src.emit(0, 1)
    e = ValueError()
    ps[0].error(e)
    ts.assert_failure(e)
    assert src.cancelled and subscribed(ps) == [1, 0]


def test_end_runs_everything_then_all_errors(kind):
    name, _, probe_cls = kind
    ps, mapper = probes(probe_cls, 3)
    src = ManualSource()
    ts = cmap(src, name, mapper, mode="end").test()
    src.emit(0, 1, 2)
    e1, e2, e3 = ValueError("1"), ValueError("2"), ValueError("3")
    ps[0].error(e1)
    assert not src.cancelled
    ps[1].success("b")
    src.error(e2)
    ps[2].error(e3)
    ts.assert_values("b").assert_error(CompositeException)
    assert ts.errors()[0].exceptions == [e1, e2, e3]


def test_end_single_error_is_not_wrapped(kind):
    name, just, probe_cls = kind
    e = ValueError()
    error = Single.error if probe_cls is ProbeSingle else Maybe.error
    cmap(Flowable.just(1, 2, 3), name, lambda x: error(e) if x == 2 else just(x),
         mode="end").test().assert_failure(e, 1, 3)


@pytest.mark.parametrize("mode", ["immediate", "boundary", "end"])
def test_mapper_raises_ends_at_once(kind, mode):
    name, _, _ = kind
    src = ManualSource()
    ts = cmap(src, name, boom, mode=mode).test()
    src.emit(1)
    ts.assert_failure(ZeroDivisionError)
    assert src.cancelled


def test_end_mapper_raises_with_earlier_errors(kind):
    name, _, probe_cls = kind
    ps, _ = probes(probe_cls, 1)
    src = ManualSource()
    ts = cmap(src, name, lambda i: ps[0] if i == 0 else boom(), mode="end").test()
    src.emit(0, 1)
    e = ValueError()
    ps[0].error(e)
    ts.assert_error(CompositeException)
    assert ts.errors()[0].exceptions[0] is e
    assert isinstance(ts.errors()[0].exceptions[1], ZeroDivisionError)


@pytest.mark.parametrize("result", [None, 5, Flowable.just(1)])
def test_mapper_returns_wrong_thing(kind, result):
    name, _, _ = kind
    cmap(Flowable.just(1), name, lambda x: result).test().assert_failure(TypeError)


def test_mapper_returns_the_other_kind():
    Flowable.just(1).concat_map_single(Maybe.just).test().assert_failure(TypeError)


def test_inner_none_success_is_type_error(kind):
    name, _, probe_cls = kind
    ps, mapper = probes(probe_cls, 1)
    src = ManualSource()
    ts = cmap(src, name, mapper).test()
    src.emit(0)
    ps[0].success(None)
    ts.assert_failure(TypeError)
    assert src.cancelled


def test_error_after_terminal_goes_to_plugins(kind, plugin_errors):
    name, _, probe_cls = kind
    ps, mapper = probes(probe_cls, 1)
    src = ManualSource()
    ts = cmap(src, name, mapper).test()
    src.emit(0)
    e1, e2 = ValueError("1"), ValueError("2")
    src.error(e1)
    ps[0].error(e2)  # the probe ignores the disposal
    ts.assert_failure(e1)
    assert plugin_errors == [e2]


# ----------------------------------------------------------------- cancellation


def test_cancel_disposes_running_inner(kind):
    name, _, probe_cls = kind
    ps, mapper = probes(probe_cls, 2)
    src = ManualSource()
    ts = cmap(src, name, mapper).test()
    src.emit(0, 1)
    ts.cancel()
    assert src.cancelled and ps[0].disposed == 1
    ps[0].success("late")
    ts.assert_empty()
    assert subscribed(ps) == [1, 0]


def test_cancel_drops_waiting_success(kind):
    name, _, probe_cls = kind
    ps, mapper = probes(probe_cls, 1)
    src = ManualSource()
    ts = cmap(src, name, mapper).test(0)
    src.emit(0)
    ps[0].success("a")
    parent = src.subscriber
    ts.cancel()
    assert parent.item is None and parent.queue.is_empty()  # type: ignore[union-attr]
    ts.request(1)
    ts.assert_empty()


def test_error_after_cancel_goes_to_plugins(kind, plugin_errors):
    name, _, probe_cls = kind
    ps, mapper = probes(probe_cls, 1)
    src = ManualSource()
    ts = cmap(src, name, mapper, mode="end").test()
    src.emit(0)
    ts.cancel()
    e = ValueError()
    ps[0].error(e)
    ts.assert_empty()
    assert plugin_errors == [e]


def test_pending_delayed_error_reported_on_cancel(kind, plugin_errors):
    name, _, probe_cls = kind
    ps, mapper = probes(probe_cls, 2)
    src = ManualSource()
    ts = cmap(src, name, mapper, mode="end").test()
    src.emit(0, 1)
    e = ValueError()
    ps[0].error(e)
    ts.cancel()
    ts.assert_empty()
    assert plugin_errors == [e]


# ----------------------------------------------------------------- deep synchronous streams


@pytest.fixture
def shallow_stack():
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(600)
    yield
    sys.setrecursionlimit(old)


@pytest.mark.parametrize("mode", ["immediate", "end"])
def test_100_000_synchronous_inners(kind, mode, shallow_stack):
    name, just, _ = kind
    cmap(Flowable.range(0, 100_000), name, just, mode=mode).test() \
        .assert_value_count(100_000).assert_complete()


def test_100_000_empty_maybes(shallow_stack):
    Flowable.range(0, 100_000).concat_map_maybe(lambda x: Maybe.empty()).test().assert_result()


def test_100_000_one_by_one(kind, shallow_stack):
    name, just, _ = kind
    ts = cmap(Flowable.range(0, 100_000), name, just).test(0)
    for _ in range(100_000):
        ts.request(1)
    ts.assert_value_count(100_000).assert_complete()


def test_100_000_completables(shallow_stack):
    Flowable.range(0, 100_000).concat_map_completable(lambda x: Completable.complete()) \
        .test().assert_complete()


# ----------------------------------------------------------------- assembly


@pytest.mark.parametrize("method", ["concat_map_single", "concat_map_single_delay_error",
                                    "concat_map_maybe", "concat_map_maybe_delay_error",
                                    "concat_map_completable",
                                    "concat_map_completable_delay_error"])
def test_bad_arguments(method):
    f = Flowable.range(1, 3)
    with pytest.raises(TypeError):
        getattr(f, method)(None)
    with pytest.raises(TypeError):
        getattr(f, method)(5)
    for bad in (0, -1):
        with pytest.raises(ValueError):
            getattr(f, method)(Single.just, prefetch=bad)


def test_delay_error_defaults_till_the_end():
    e = ValueError()
    Flowable.just(1, 2).concat_map_single_delay_error(
        lambda x: Single.error(e) if x == 1 else Single.just(x)).test().assert_failure(e, 2)
    Flowable.just(1, 2).concat_map_single_delay_error(
        lambda x: Single.error(e) if x == 1 else Single.just(x), False).test().assert_failure(e)


# ----------------------------------------------------------------- completable


def test_completable_runs_in_order_then_completes():
    ps, mapper = probes(ProbeCompletable, 3)
    src = ManualSource()
    to = src.concat_map_completable(mapper).test()
    src.emit(0, 1, 2)
    src.complete()
    assert subscribed(ps) == [1, 0, 0]
    ps[0].complete()
    ps[1].complete()
    to.assert_not_complete()
    ps[2].complete()
    to.assert_result()


def test_completable_immediate_errors():
    ps, mapper = probes(ProbeCompletable, 2)
    src = ManualSource()
    to = src.concat_map_completable(mapper).test()
    src.emit(0, 1)
    e = ValueError()
    src.error(e)
    to.assert_failure(e)
    assert ps[0].disposed == 1 and subscribed(ps) == [1, 0]


def test_completable_boundary_and_end():
    for mode, expected_subscribed in (("boundary", [1, 0]), ("end", [1, 1])):
        ps, mapper = probes(ProbeCompletable, 2)
        src = ManualSource()
        to = cmap(src, "concat_map_completable", mapper, mode=mode).test()
        src.emit(0, 1)
        e = ValueError()
        src.error(e)
        to.assert_empty()
        ps[0].complete()
        assert subscribed(ps) == expected_subscribed
        if mode == "end":
            to.assert_empty()
            ps[1].complete()
        to.assert_failure(e)


def test_completable_dispose():
    ps, mapper = probes(ProbeCompletable, 1)
    src = ManualSource()
    to = src.concat_map_completable(mapper).test()
    src.emit(0)
    to.dispose()
    assert src.cancelled and ps[0].disposed == 1
    ps[0].complete()
    src.complete()
    to.assert_empty()


def test_completable_mapper_raises():
    src = ManualSource()
    to = src.concat_map_completable(boom).test()
    src.emit(1)
    to.assert_failure(ZeroDivisionError)
    assert src.cancelled


# ----------------------------------------------------------------- races


def test_race_success_vs_cancel(kind, race_runner, race_rounds, plugin_errors):
    name, _, probe_cls = kind
    for _ in range(race_rounds):
        ps, mapper = probes(probe_cls, 2)
        src = ManualSource()
        ts = cmap(src, name, mapper).test()
        src.emit(0, 1)
        race_runner.race(lambda p=ps[0]: p.success("a"), ts.cancel)
        assert ts.values() in ([], ["a"])
        ts.assert_not_terminated()
        assert src.cancelled
        ps[0].success("late")  # nothing after the cancel
        assert ts.values() in ([], ["a"])
        assert sum(subscribed(ps)) in (1, 2)
        if len(ps[1].observers):
            assert ps[1].disposed == 1  # subscribed after the cancel: disposed at once
    assert plugin_errors == []


def test_race_success_vs_request(kind, race_runner, race_rounds):
    name, _, probe_cls = kind
    for _ in range(race_rounds):
        ps, mapper = probes(probe_cls, 2)
        src = ManualSource()
        ts = cmap(src, name, mapper).test(0)
        src.emit(0, 1)
        src.complete()
        race_runner.race(lambda p=ps[0]: p.success("a"), lambda ts=ts: ts.request(2))
        ts.assert_values("a").assert_not_complete()
        ps[1].success("b")
        ts.assert_result("a", "b").assert_protocol_ok()


def test_race_inner_error_vs_upstream_error(kind, race_runner, race_rounds, plugin_errors):
    """Each error is signalled once: both together downstream (a CompositeException, as
    RxJava 2 collects them), or one downstream and the other to plugins.on_error."""
    name, _, probe_cls = kind
    for _ in range(race_rounds):
        ps, mapper = probes(probe_cls, 1)
        src = ManualSource()
        ts = cmap(src, name, mapper).test()
        src.emit(0)
        e1, e2 = ValueError("1"), ValueError("2")
        plugin_errors.clear()
        race_runner.race(lambda p=ps[0], e=e1: p.error(e), lambda s=src, e=e2: s.error(e))
        ts.assert_no_values().assert_not_complete()
        assert len(ts.errors()) == 1
        err = ts.errors()[0]
        delivered = err.exceptions if isinstance(err, CompositeException) else [err]
        assert sorted(map(str, [*delivered, *plugin_errors])) == ["1", "2"]
