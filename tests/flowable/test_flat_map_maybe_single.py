"""flat_map_maybe / flat_map_single: values, request pattern, backpressure, errors, disposal, races."""

from __future__ import annotations

import pytest
from probes import ManualSource
from probes import ProbeMaybe
from probes import ProbeSingle
from probes import Recorded
from probes import RequestOneInOnNext
from probes import boom
from probes import failing

from rxpy2 import Flowable
from rxpy2 import Maybe
from rxpy2 import Single
from rxpy2.exceptions import CompositeException
from rxpy2.reactivestreams import LONG_MAX

KINDS = {
    "maybe": (lambda f, *a, **k: f.flat_map_maybe(*a, **k), Maybe.just, ProbeMaybe),
    "single": (lambda f, *a, **k: f.flat_map_single(*a, **k), Single.just, ProbeSingle),
}


@pytest.fixture(params=sorted(KINDS))
def kind(request):
    """(flat_map_x(f, mapper, ...), just, Probe class)."""
    return KINDS[request.param]


def probes_for(probe_cls, n):
    ps = [probe_cls() for _ in range(n)]
    return ps, (lambda i: ps[i])


# ----------------------------------------------------------------- values


def test_values(kind):
    op, just, _ = kind
    op(Flowable.range(1, 5), lambda x: just(x * 2)).test().assert_result(2, 4, 6, 8, 10) \
        .assert_protocol_ok()


def test_maybe_empty_ones_are_skipped():
    Flowable.range(1, 6).flat_map_maybe(lambda x: Maybe.just(x) if x % 2 else Maybe.empty()) \
        .test().assert_result(1, 3, 5)


def test_successes_in_arrival_order(kind):
    op, _, probe_cls = kind
    ps, mapper = probes_for(probe_cls, 3)
    src = ManualSource()
    ts = op(src, mapper).test()
    src.emit(0, 1, 2)
    src.complete()
    ps[2].success("c")
    ps[0].success("a")
    ts.assert_values("c", "a").assert_not_complete()
    ps[1].success("b")
    ts.assert_result("c", "a", "b")


def test_completes_only_when_upstream_and_inners_are_done(kind):
    op, _, probe_cls = kind
    ps, mapper = probes_for(probe_cls, 1)
    src = ManualSource()
    ts = op(src, mapper).test()
    src.emit(0)
    ps[0].success(1)
    ts.assert_values(1).assert_not_complete()
    src.complete()
    ts.assert_result(1)


def test_empty_source(kind):
    op, _, _ = kind
    op(Flowable.empty(), boom).test().assert_result()


def test_upstream_error_passes_through(kind):
    op, just, _ = kind
    op(failing(1, 2), just).test().assert_failure(ValueError, 1, 2)


# ----------------------------------------------------------------- requests at the source


def test_unbounded_requests_everything(kind):
    op, just, _ = kind
    rec = Recorded(1, 5)
    op(rec.flowable, just).test(1).assert_values(1)
    assert rec.requests == [LONG_MAX]


def test_bounded_requests_max_concurrency_then_one_per_success(kind):
    op, _, probe_cls = kind
    ps, mapper = probes_for(probe_cls, 5)
    src = ManualSource()
    ts = op(src, mapper, max_concurrency=2).test()
    assert src.requests == [2]
    src.emit(0, 1)
    assert src.requests == [2]
    ps[1].success("b")
    assert src.requests == [2, 1]
    src.emit(2)
    ps[0].success("a")
    ps[2].success("c")
    assert src.requests == [2, 1, 1, 1]
    ts.assert_values("b", "a", "c")


def test_bounded_success_without_demand_requests_when_emitted(kind):
    op, _, probe_cls = kind
    ps, mapper = probes_for(probe_cls, 3)
    src = ManualSource()
    ts = op(src, mapper, max_concurrency=2).test(0)
    src.emit(0, 1)
    ps[0].success("a")
    ps[1].success("b")
    assert src.requests == [2]  # both wait in the queue
    ts.request(1)
    ts.assert_values("a")
    assert src.requests == [2, 1]
    ts.request(1)
    ts.assert_values("a", "b")
    assert src.requests == [2, 1, 1]


def test_maybe_empty_requests_one_more():
    ps, mapper = probes_for(ProbeMaybe, 2)
    src = ManualSource()
    ts = src.flat_map_maybe(mapper, max_concurrency=1).test(0)
    assert src.requests == [1]
    src.emit(0)
    ps[0].complete()
    assert src.requests == [1, 1]
    src.emit(1)
    src.complete()
    ps[1].complete()
    ts.assert_result()
    assert src.requests == [1, 1]  # nothing more once the upstream completed


def test_request_pattern_with_range(kind):
    op, just, _ = kind
    rec = Recorded(1, 10)
    op(rec.flowable, just, max_concurrency=3).test().assert_value_sequence(list(range(1, 11))) \
        .assert_complete()
    assert rec.requests[0] == 3 and set(rec.requests[1:]) == {1}
    assert sum(rec.requests) >= 10


# ----------------------------------------------------------------- backpressure


def test_one_by_one(kind):
    op, _, probe_cls = kind
    ps, mapper = probes_for(probe_cls, 4)
    src = ManualSource()
    ts = op(src, mapper).test(0)
    src.emit(0, 1, 2, 3)
    src.complete()
    for i, p in enumerate(ps):
        p.success(i)
    ts.assert_no_values().assert_not_terminated()
    for i in range(4):
        ts.request(1)
        ts.assert_value_sequence(list(range(i + 1)))
    ts.assert_result(0, 1, 2, 3)


def test_one_by_one_synchronous(kind):
    op, just, _ = kind
    ts = op(Flowable.range(0, 5), just).test(0)
    for i in range(5):
        ts.request(1)
        ts.assert_value_sequence(list(range(i + 1)))
    ts.assert_complete()


def test_request_inside_on_next(kind):
    op, just, _ = kind
    sub = RequestOneInOnNext()
    op(Flowable.range(0, 10), just, max_concurrency=2).subscribe(sub)
    assert sub.values == list(range(10)) and sub.completed == 1


# ----------------------------------------------------------------- errors


def test_inner_error_immediate_disposes_everything(kind):
    op, _, probe_cls = kind
    ps, mapper = probes_for(probe_cls, 3)
    src = ManualSource()
    ts = op(src, mapper).test(0)
    src.emit(0, 1, 2)
    ps[0].success("queued")
    e = ValueError("inner")
    ps[1].error(e)
    ts.assert_failure(e)  # the queued success is dropped
    assert src.cancelled
    assert ps[2].disposed == 1


def test_upstream_error_immediate_disposes_inners(kind):
    op, _, probe_cls = kind
    ps, mapper = probes_for(probe_cls, 2)
    src = ManualSource()
    ts = op(src, mapper).test()
    src.emit(0, 1)
    e = ValueError("up")
    src.error(e)
    ts.assert_failure(e)
    assert ps[0].disposed == 1 and ps[1].disposed == 1


def test_delay_errors_collects_every_cause(kind):
    op, _, probe_cls = kind
    ps, mapper = probes_for(probe_cls, 4)
    src = ManualSource()
    ts = op(src, mapper, delay_errors=True).test()
    src.emit(0, 1, 2, 3)
    e1, e2, e3 = ValueError("1"), KeyError("2"), TypeError("up")
    ps[0].error(e1)
    ps[1].success("b")
    ps[2].error(e2)
    src.error(e3)
    ts.assert_values("b").assert_not_terminated()
    assert not src.cancelled and ps[3].disposed == 0
    ps[3].success("d")
    ts.assert_values("b", "d").assert_error(CompositeException)
    assert ts.errors()[0].exceptions == [e1, e2, e3]


def test_delay_errors_single_error_is_not_wrapped(kind):
    op, _, probe_cls = kind
    ps, mapper = probes_for(probe_cls, 2)
    src = ManualSource()
    ts = op(src, mapper, delay_errors=True).test()
    src.emit(0, 1)
    src.complete()
    e = ValueError("x")
    ps[0].error(e)
    ps[1].success(5)
    ts.assert_failure(e, 5)


def test_delay_errors_bounded_requests_after_error(kind):
    op, _, probe_cls = kind
    ps, mapper = probes_for(probe_cls, 2)
    src = ManualSource()
    op(src, mapper, delay_errors=True, max_concurrency=1).test()
    src.emit(0)
    ps[0].error(ValueError())
    assert src.requests == [1, 1]


def test_mapper_raises(kind):
    op, _, _ = kind
    src = ManualSource()
    ts = op(src, boom).test()
    src.emit(1)
    ts.assert_failure(ZeroDivisionError)
    assert src.cancelled


def test_mapper_raises_delayed_waits_for_inners(kind):
    op, _, probe_cls = kind
    p = probe_cls()
    src = ManualSource()
    ts = op(src, lambda x: boom() if x else p, delay_errors=True).test()
    src.emit(0, 1)
    assert src.cancelled
    ts.assert_not_terminated()
    p.success(7)
    ts.assert_failure(ZeroDivisionError, 7)


@pytest.mark.parametrize("result", [None, 5, Flowable.just(1)])
def test_mapper_returns_wrong_thing(kind, result):
    op, _, _ = kind
    src = ManualSource()
    ts = op(src, lambda x: result).test()
    src.emit(1)
    ts.assert_failure(TypeError)
    assert src.cancelled


def test_mapper_returns_the_other_kind():
    Flowable.just(1).flat_map_single(Maybe.just).test().assert_failure(TypeError)
    Flowable.just(1).flat_map_maybe(Single.just).test().assert_failure(TypeError)


def test_inner_none_success_is_type_error(kind):
    op, _, probe_cls = kind
    p = probe_cls()
    src = ManualSource()
    ts = op(src, lambda x: p).test()
    src.emit(1)
    p.success(None)
    ts.assert_failure(TypeError)
    assert src.cancelled


def test_error_after_terminal_goes_to_plugins(kind, plugin_errors):
    op, _, probe_cls = kind
    ps, mapper = probes_for(probe_cls, 2)
    src = ManualSource()
    ts = op(src, mapper).test()
    src.emit(0, 1)
    e1, e2 = ValueError("1"), ValueError("2")
    ps[0].error(e1)
    ps[1].error(e2)  # the probe ignores disposal: a late error
    ts.assert_failure(e1)
    assert plugin_errors == [e2]


# ----------------------------------------------------------------- cancellation


def test_cancel_disposes_upstream_and_every_inner(kind):
    op, _, probe_cls = kind
    ps, mapper = probes_for(probe_cls, 3)
    src = ManualSource()
    ts = op(src, mapper).test()
    src.emit(0, 1, 2)
    ps[1].success("b")
    ts.cancel()
    assert src.cancelled
    assert [p.disposed for p in ps] == [1, 0, 1]  # the finished one is not held any more
    ps[0].success("late")
    ts.assert_values("b").assert_not_terminated()


def test_cancel_with_queued_successes_clears(kind):
    op, _, probe_cls = kind
    ps, mapper = probes_for(probe_cls, 2)
    src = ManualSource()
    ts = op(src, mapper).test(0)
    src.emit(0, 1)
    ps[0].success("a")
    parent = src.subscriber
    ts.cancel()
    assert parent.queue.is_empty()  # type: ignore[union-attr]
    ts.request(5)
    ts.assert_empty()


def test_error_after_cancel_goes_to_plugins(kind, plugin_errors):
    op, _, probe_cls = kind
    ps, mapper = probes_for(probe_cls, 1)
    src = ManualSource()
    ts = op(src, mapper, delay_errors=True).test()
    src.emit(0)
    ts.cancel()
    e = ValueError("late")
    ps[0].error(e)
    ts.assert_empty()
    assert plugin_errors == [e]


def test_pending_delayed_error_reported_on_cancel(kind, plugin_errors):
    op, _, probe_cls = kind
    ps, mapper = probes_for(probe_cls, 2)
    src = ManualSource()
    ts = op(src, mapper, delay_errors=True).test()
    src.emit(0, 1)
    e = ValueError("held")
    ps[0].error(e)
    ts.cancel()
    ts.assert_empty()
    assert plugin_errors == [e]


# ----------------------------------------------------------------- deep synchronous streams


@pytest.mark.parametrize("max_concurrency", [LONG_MAX, 1, 16])
def test_deep(kind, max_concurrency):
    op, just, _ = kind
    op(Flowable.range(0, 100_000), just, max_concurrency=max_concurrency).test() \
        .assert_value_count(100_000).assert_complete()


def test_deep_one_by_one(kind):
    op, just, _ = kind
    sub = RequestOneInOnNext()
    op(Flowable.range(0, 100_000).hide(), just, max_concurrency=1).subscribe(sub)
    assert len(sub.values) == 100_000 and sub.completed == 1


def test_deep_maybe_empties():
    Flowable.range(0, 100_000).flat_map_maybe(lambda x: Maybe.empty(), max_concurrency=1) \
        .test().assert_result()


# ----------------------------------------------------------------- assembly


def test_bad_arguments(kind):
    op, just, _ = kind
    f = Flowable.range(1, 3)
    with pytest.raises(TypeError):
        op(f, None)
    with pytest.raises(ValueError):
        op(f, just, max_concurrency=0)


# ----------------------------------------------------------------- races


def test_race_two_successes_each_with_a_request(kind, race_runner, race_rounds):
    op, _, probe_cls = kind
    for _ in range(race_rounds):
        ps, mapper = probes_for(probe_cls, 2)
        src = ManualSource()
        ts = op(src, mapper).test(0)
        src.emit(0, 1)
        src.complete()

        def a(p=ps[0], ts=ts):
            p.success(1)
            ts.request(1)

        def b(p=ps[1], ts=ts):
            p.success(2)
            ts.request(1)

        race_runner.race(a, b)
        assert sorted(ts.values()) == [1, 2]
        ts.assert_complete().assert_no_errors().assert_protocol_ok()


def test_race_success_vs_request(kind, race_runner, race_rounds):
    op, _, probe_cls = kind
    for _ in range(race_rounds):
        ps, mapper = probes_for(probe_cls, 2)
        src = ManualSource()
        ts = op(src, mapper, max_concurrency=2).test(0)
        src.emit(0, 1)

        def succeed(ps=ps):
            ps[0].success(1)
            ps[1].success(2)

        def consume(ts=ts):
            ts.request(1)
            ts.request(1)

        race_runner.race(succeed, consume)
        ts.assert_values(1, 2).assert_not_terminated()
        # one per success, when it went downstream (the drain loop asks for its batch at once)
        assert src.requests[0] == 2 and sum(src.requests[1:]) == 2
        src.complete()
        ts.assert_result(1, 2).assert_protocol_ok()


def test_race_two_successes_unbounded_demand(kind, race_runner, race_rounds):
    op, _, probe_cls = kind
    for _ in range(race_rounds):
        ps, mapper = probes_for(probe_cls, 2)
        src = ManualSource()
        ts = op(src, mapper).test()
        src.emit(0, 1)
        src.complete()
        race_runner.race(lambda p=ps[0]: p.success(1), lambda p=ps[1]: p.success(2))
        assert sorted(ts.values()) == [1, 2]
        ts.assert_complete().assert_protocol_ok()
