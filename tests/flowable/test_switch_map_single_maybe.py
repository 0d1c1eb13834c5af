"""switch_map_single / switch_map_maybe / switch_map_completable (and ``_delay_error``):
the latest inner wins, requests, errors, cancellation, deep synchronous streams, races."""

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
from rxpy2.reactivestreams import LONG_MAX

KINDS = {
    "single": ("switch_map_single", Single.just, ProbeSingle),
    "maybe": ("switch_map_maybe", Maybe.just, ProbeMaybe),
}


@pytest.fixture(params=sorted(KINDS))
def kind(request):
    """(method name, just, Probe class) of switch_map_single / switch_map_maybe."""
    return KINDS[request.param]


def smap(f, name, mapper, delay=False):
    return getattr(f, name + "_delay_error" if delay else name)(mapper)


def probes(probe_cls, n):
    ps = [probe_cls() for _ in range(n)]
    return ps, (lambda i: ps[i])


# ----------------------------------------------------------------- values


def test_synchronous_inners(kind):
    name, just, _ = kind
    smap(Flowable.range(1, 5), name, lambda x: just(x * 10)).test() \
        .assert_result(10, 20, 30, 40, 50).assert_protocol_ok()


def test_latest_inner_wins(kind):
    name, _, probe_cls = kind
    ps, mapper = probes(probe_cls, 3)
    src = ManualSource()
    ts = smap(src, name, mapper).test()
    src.emit(0)
    src.emit(1)
    assert ps[0].disposed == 1
    ps[0].success("stale")
    ps[1].success("b")
    ts.assert_values("b")
    src.emit(2)
    src.complete()
    ts.assert_not_complete()
    ps[2].success("c")
    ts.assert_result("b", "c")


def test_maybe_empty_emits_nothing():
    Flowable.range(1, 6).switch_map_maybe(lambda x: Maybe.just(x) if x % 2 else Maybe.empty()) \
        .test().assert_result(1, 3, 5)


def test_empty_upstream(kind):
    name, _, _ = kind
    smap(Flowable.empty(), name, boom).test().assert_result()


def test_repr_names_the_methods():
    f = Flowable.range(1, 2)
    assert "switch_map_single(" in repr(f.switch_map_single(Single.just))
    assert "switch_map_maybe(" in repr(f.switch_map_maybe_delay_error(Maybe.just))
    assert "switch_map_completable(" in repr(f.switch_map_completable(lambda x: Completable.complete()))


# ----------------------------------------------------------------- requests


def test_upstream_asked_for_everything(kind):
    name, _, probe_cls = kind
    ps, mapper = probes(probe_cls, 1)
    src = ManualSource()
    smap(src, name, mapper).test(0)
    assert src.requests == [LONG_MAX]


def test_success_waits_for_demand_and_is_replaced(kind):
    name, _, probe_cls = kind
    ps, mapper = probes(probe_cls, 3)
    src = ManualSource()
    ts = smap(src, name, mapper).test(0)
    src.emit(0)
    ps[0].success("a")
    ts.assert_no_values()
    ts.request(1)
    ts.assert_values("a")
    src.emit(1)
    ps[1].success("dropped")
    src.emit(2)  # replaces the success that waited for demand
    ps[2].success("c")
    src.complete()
    ts.assert_values("a").assert_not_complete()
    ts.request(1)
    ts.assert_result("a", "c")


def test_synchronous_upstream_without_demand_leaves_the_latest(kind):
    name, just, _ = kind
    ts = smap(Flowable.range(0, 10), name, just).test(0)
    ts.assert_no_values()  # the upstream ran to its end at subscription (LONG_MAX asked)
    ts.request(1)
    ts.assert_result(9)


# ----------------------------------------------------------------- errors


def test_inner_error_cancels_everything(kind):
    name, _, probe_cls = kind
    ps, mapper = probes(probe_cls, 1)
    src = ManualSource()
    ts = smap(src, name, mapper).test()
    src.emit(0)
    e = ValueError()
    ps[0].error(e)
    ts.assert_failure(e)
    assert src.cancelled


def test_upstream_error_disposes_inner(kind):
    name, _, probe_cls = kind
    ps, mapper = probes(probe_cls, 1)
    src = ManualSource()
    ts = smap(src, name, mapper).test()
    src.emit(0)
    e = ValueError()
    src.error(e)
    ts.assert_failure(e)
    assert ps[0].disposed == 1


def test_stale_inner_error_goes_to_plugins(kind, plugin_errors):
    name, _, probe_cls = kind
    ps, mapper = probes(probe_cls, 2)
    src = ManualSource()
    ts = smap(src, name, mapper).test()
    src.emit(0, 1)
    e = ValueError()
    ps[0].error(e)
    ts.assert_empty()
    assert plugin_errors == [e]
    ps[1].success("b")
    ts.assert_values("b")


def test_delay_errors_wait_for_upstream_and_last_inner(kind):
    name, _, probe_cls = kind
    ps, mapper = probes(probe_cls, 2)
    src = ManualSource()
    ts = smap(src, name, mapper, delay=True).test()
    src.emit(0)
    e1, e2 = ValueError("1"), ValueError("2")
    ps[0].error(e1)
    assert not src.cancelled
    src.emit(1)
    src.error(e2)
    assert ps[1].disposed == 0
    ts.assert_not_terminated()
    ps[1].success("b")
    ts.assert_values("b").assert_error(CompositeException)
    assert ts.errors()[0].exceptions == [e1, e2]


def test_mapper_raises(kind):
    name, _, probe_cls = kind
    ps, _ = probes(probe_cls, 1)
    src = ManualSource()
    ts = smap(src, name, lambda i: ps[0] if i == 0 else boom()).test()
    src.emit(0, 1)
    ts.assert_failure(ZeroDivisionError)
    assert src.cancelled and ps[0].disposed >= 1


def test_delay_error_mapper_raises_ends_the_stream(kind):
    """RxJava 2 never terminates here (its drain waits for the disposed inner); RxJava 3's
    behaviour as intended: the collected errors go downstream."""
    name, _, probe_cls = kind
    ps, _ = probes(probe_cls, 1)
    src = ManualSource()
    ts = smap(src, name, lambda i: ps[0] if i == 0 else boom(), delay=True).test()
    src.emit(0, 1)
    ts.assert_failure(ZeroDivisionError)
    assert src.cancelled and ps[0].disposed >= 1


@pytest.mark.parametrize("result", [None, 5, Flowable.just(1)])
def test_mapper_returns_wrong_thing(kind, result):
    name, _, _ = kind
    smap(Flowable.just(1), name, lambda x: result).test().assert_failure(TypeError)


def test_inner_none_success_is_type_error(kind):
    name, _, probe_cls = kind
    ps, mapper = probes(probe_cls, 1)
    src = ManualSource()
    ts = smap(src, name, mapper).test()
    src.emit(0)
    ps[0].success(None)
    ts.assert_failure(TypeError)


# ----------------------------------------------------------------- cancellation


def test_cancel_disposes_active_inner(kind):
    name, _, probe_cls = kind
    ps, mapper = probes(probe_cls, 1)
    src = ManualSource()
    ts = smap(src, name, mapper).test()
    src.emit(0)
    ts.cancel()
    assert src.cancelled and ps[0].disposed == 1
    ps[0].success("late")
    src.emit(1)  # the mapper is not even asked: no inner after the cancel
    ts.assert_empty()


def test_error_after_cancel_goes_to_plugins(kind, plugin_errors):
    name, _, probe_cls = kind
    ps, mapper = probes(probe_cls, 1)
    src = ManualSource()
    ts = smap(src, name, mapper, delay=True).test()
    src.emit(0)
    ts.cancel()
    e = ValueError()
    src.error(e)
    ts.assert_empty()
    assert plugin_errors == [e]


# ----------------------------------------------------------------- deep synchronous streams


@pytest.fixture
def shallow_stack():
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(600)
    yield
    sys.setrecursionlimit(old)


@pytest.mark.parametrize("delay", [False, True])
def test_100_000_synchronous_inners(kind, delay, shallow_stack):
    name, just, _ = kind
    smap(Flowable.range(0, 100_000), name, just, delay).test() \
        .assert_value_count(100_000).assert_complete()


def test_100_000_completables(shallow_stack):
    Flowable.range(0, 100_000).switch_map_completable(lambda x: Completable.complete()) \
        .test().assert_complete()


# ----------------------------------------------------------------- assembly


@pytest.mark.parametrize("method", ["switch_map_single", "switch_map_single_delay_error",
                                    "switch_map_maybe", "switch_map_maybe_delay_error",
                                    "switch_map_completable",
                                    "switch_map_completable_delay_error"])
def test_bad_arguments(method):
    f = Flowable.range(1, 3)
    with pytest.raises(TypeError):
        getattr(f, method)(None)
    with pytest.raises(TypeError):
        getattr(f, method)("x")


# ----------------------------------------------------------------- completable


def test_completable_completes_after_upstream_and_latest():
    ps, mapper = probes(ProbeCompletable, 2)
    src = ManualSource()
    to = src.switch_map_completable(mapper).test()
    src.emit(0, 1)
    assert ps[0].disposed == 1
    src.complete()
    to.assert_not_complete()
    ps[1].complete()
    to.assert_result()


def test_completable_errors():
    ps, mapper = probes(ProbeCompletable, 1)
    src = ManualSource()
    to = src.switch_map_completable(mapper).test()
    src.emit(0)
    e = ValueError()
    ps[0].error(e)
    to.assert_failure(e)
    assert src.cancelled


def test_completable_delay_errors():
    ps, mapper = probes(ProbeCompletable, 2)
    src = ManualSource()
    to = src.switch_map_completable_delay_error(mapper).test()
    src.emit(0)
    e1, e2 = ValueError("1"), ValueError("2")
    ps[0].error(e1)
    src.emit(1)
    src.error(e2)
    to.assert_empty()
    ps[1].complete()
    to.assert_error(CompositeException)
    assert to.errors()[0].exceptions == [e1, e2]


def test_completable_delay_error_mapper_raises_lets_running_one_end():
    ps, _ = probes(ProbeCompletable, 1)
    src = ManualSource()
    to = src.switch_map_completable_delay_error(lambda i: ps[0] if i == 0 else boom()).test()
    src.emit(0, 1)
    assert src.cancelled and ps[0].disposed == 0
    to.assert_empty()
    ps[0].complete()
    to.assert_failure(ZeroDivisionError)


def test_completable_dispose():
    ps, mapper = probes(ProbeCompletable, 1)
    src = ManualSource()
    to = src.switch_map_completable(mapper).test()
    src.emit(0)
    to.dispose()
    assert src.cancelled and ps[0].disposed == 1
    ps[0].complete()
    src.complete()
    to.assert_empty()


# ----------------------------------------------------------------- races


def test_race_new_item_vs_previous_success(kind, race_runner, race_rounds):
    """The previous inner's success arrives or is dropped (it lost to its replacement);
    the new inner's success always arrives, after it."""
    name, _, probe_cls = kind
    for _ in range(race_rounds):
        ps, mapper = probes(probe_cls, 2)
        src = ManualSource()
        ts = smap(src, name, mapper).test()
        src.emit(0)
        race_runner.race(lambda p=ps[0]: p.success("a"), lambda s=src: s.emit(1))
        ps[1].success("b")
        src.complete()
        assert ts.values() in (["a", "b"], ["b"])
        ts.assert_complete().assert_no_errors().assert_protocol_ok()


def test_race_new_item_vs_previous_success_bounded(kind, race_runner, race_rounds):
    name, _, probe_cls = kind
    for _ in range(race_rounds):
        ps, mapper = probes(probe_cls, 2)
        src = ManualSource()
        ts = smap(src, name, mapper).test(0)
        src.emit(0)
        race_runner.race(lambda p=ps[0]: p.success("a"), lambda s=src: s.emit(1))
        ps[1].success("b")
        src.complete()
        ts.request(5)
        ts.assert_result("b").assert_protocol_ok()


def test_race_success_vs_cancel(kind, race_runner, race_rounds, plugin_errors):
    name, _, probe_cls = kind
    for _ in range(race_rounds):
        ps, mapper = probes(probe_cls, 1)
        src = ManualSource()
        ts = smap(src, name, mapper).test()
        src.emit(0)
        race_runner.race(lambda p=ps[0]: p.success("a"), ts.cancel)
        assert ts.values() in ([], ["a"])
        ts.assert_not_terminated()
        assert src.cancelled
        if ps[0].disposed == 0:  # it had succeeded and was emitted: nothing to dispose
            ts.assert_values("a")
        ps[0].success("late")
        assert ts.values() in ([], ["a"])
    assert plugin_errors == []


def test_race_success_vs_request(kind, race_runner, race_rounds):
    name, _, probe_cls = kind
    for _ in range(race_rounds):
        ps, mapper = probes(probe_cls, 1)
        src = ManualSource()
        ts = smap(src, name, mapper).test(0)
        src.emit(0)
        src.complete()
        race_runner.race(lambda p=ps[0]: p.success("a"), lambda ts=ts: ts.request(1))
        ts.assert_result("a").assert_protocol_ok()


def test_race_completable_upstream_vs_inner_completion(race_runner, race_rounds):
    for _ in range(race_rounds):
        ps, mapper = probes(ProbeCompletable, 1)
        src = ManualSource()
        to = src.switch_map_completable(mapper).test()
        src.emit(0)
        race_runner.race(ps[0].complete, src.complete)
        to.assert_result()
        assert to.completions() == 1
