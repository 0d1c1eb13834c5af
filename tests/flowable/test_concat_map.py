"""concat_map / concat_map_delay_error and Flowable.concat(_delay_error) of a Publisher of
Publishers: order, request patterns at the outer and inner sources, the arbiter hand-over,
the trampoline, error modes, cancellation, fusion, races."""

from __future__ import annotations

import time

import pytest
from _async_probes import race_items_vs_requests
from probes import Manual
from probes import ManualSource
from probes import Recorded
from probes import RequestOneInOnNext
from probes import Spy
from probes import boom

from rxpy2 import Flowable
from rxpy2._internal.fuseable import ASYNC
from rxpy2._internal.fuseable import SYNC
from rxpy2._internal.helpers.error_mode import ErrorMode
from rxpy2._internal.operators.flowable.flowable_concat_map import FlowableConcatMap
from rxpy2.exceptions import CompositeException
from rxpy2.exceptions import MissingBackpressureException
from rxpy2.processors import UnicastProcessor
from rxpy2.reactivestreams import LONG_MAX
from rxpy2.schedulers import Schedulers

pytestmark = pytest.mark.usefixtures("shutdown_schedulers")


def parent_of(ts):
    """The operator's subscriber, as the TestSubscriber's Subscription."""
    return ts._upstream.get()


def tens(x):
    return Flowable.range(x * 10, 3)


# ---------------------------------------------------------------------------- values

def test_values_in_order_from_range_inners():
    Flowable.range(1, 3).concat_map(tens).test() \
        .assert_result(10, 11, 12, 20, 21, 22, 30, 31, 32).assert_protocol_ok()


def test_hidden_outer_and_inners():
    Flowable.range(1, 3).hide().concat_map(lambda x: tens(x).hide()).test() \
        .assert_result(10, 11, 12, 20, 21, 22, 30, 31, 32)


def test_scalar_inners_just_empty_from_callable():
    def inner(x):
        if x % 3 == 0:
            return Flowable.empty()
        if x % 3 == 1:
            return Flowable.just(x)
        return Flowable.from_callable(lambda: -x)

    Flowable.range(1, 7).concat_map(inner).test().assert_result(1, -2, 4, -5, 7)


def test_from_callable_inner_returning_none_is_empty():
    Flowable.range(1, 3).concat_map(lambda x: Flowable.from_callable(lambda: None)).test() \
        .assert_result()


def test_empty_outer_completes():
    Flowable.empty().hide().concat_map(tens).test().assert_result()


def test_from_callable_outer_uses_scalar_subscribe():
    Flowable.from_callable(lambda: 2).concat_map(tens).test().assert_result(20, 21, 22)
    Flowable.from_callable(lambda: None).concat_map(tens).test().assert_result()


def test_concat_of_a_publisher_of_publishers():
    Flowable.concat(Flowable.just(Flowable.range(1, 2), Flowable.empty(), Flowable.just(5))) \
        .test().assert_result(1, 2, 5)


def test_concat_delay_error_of_a_publisher_of_publishers():
    e1, e2 = ValueError("1"), KeyError("2")
    ts = Flowable.concat_delay_error(Flowable.just(
        Flowable.error(e1), Flowable.just(1), Flowable.error(e2), Flowable.just(2))).test()
    ts.assert_failure(CompositeException, 1, 2)
    assert ts.errors()[0].exceptions == [e1, e2]


def test_operator_type_and_error_modes():
    src = Flowable.range(1, 2).hide()  # (over range itself concat_map joins its sync chain)
    assert isinstance(src.concat_map(tens), FlowableConcatMap)
    assert src.concat_map(tens).error_mode == ErrorMode.IMMEDIATE
    assert src.concat_map_delay_error(tens).error_mode == ErrorMode.END
    assert src.concat_map_delay_error(tens, till_the_end=False).error_mode == ErrorMode.BOUNDARY


def test_bad_arguments():
    with pytest.raises(TypeError):
        Flowable.range(1, 2).concat_map(None)
    with pytest.raises(ValueError):
        Flowable.range(1, 2).concat_map(tens, 0)
    with pytest.raises(ValueError):
        Flowable.range(1, 2).concat_map_delay_error(tens, -1)


# ---------------------------------------------------------------------------- deep chains

def test_100k_just_inners_no_recursion():
    ts = Flowable.range(0, 100_000).concat_map(Flowable.just).test()
    ts.assert_value_count(100_000).assert_complete()
    assert ts.values()[-1] == 99_999


def test_100k_mixed_inners_hidden_outer_no_recursion():
    def inner(x):
        k = x % 3
        return Flowable.empty() if k == 0 else Flowable.just(x) if k == 1 else Flowable.range(x, 2)

    ts = Flowable.range(0, 100_000).hide().concat_map(inner).test()
    ts.assert_no_errors().assert_complete()
    assert ts.value_count() == 33_333 + 2 * 33_333


def test_100k_range_inners_no_recursion():
    ts = Flowable.range(0, 100_000).concat_map(lambda x: Flowable.range(x, 2)).test()
    ts.assert_value_count(200_000).assert_complete()


def test_bounded_demand_just_inners_request_in_on_next_no_recursion():
    sub = RequestOneInOnNext()
    Flowable.range(0, 20_000).concat_map(Flowable.just).subscribe(sub)
    assert sub.values == list(range(20_000))
    assert sub.completed == 1 and not sub.errors


def test_bounded_demand_range_inners_request_in_on_next_no_recursion():
    sub = RequestOneInOnNext()
    Flowable.range(0, 10_000).hide().concat_map(lambda x: Flowable.range(x, 2).hide()).subscribe(sub)
    assert len(sub.values) == 20_000
    assert sub.completed == 1 and not sub.errors


def test_concat_of_a_publisher_of_10k_publishers():
    sources = [Flowable.range(i * 2, 2) for i in range(10_000)]
    ts = Flowable.concat(Flowable.from_iterable(sources)).test()
    ts.assert_value_sequence(list(range(20_000))).assert_complete()


def test_concat_of_a_hidden_publisher_of_10k_hidden_publishers():
    sources = [Flowable.just(i).hide() for i in range(10_000)]
    ts = Flowable.concat(Flowable.from_iterable(sources).hide()).test()
    ts.assert_value_sequence(list(range(10_000))).assert_complete()


# ---------------------------------------------------------------------------- requests upstream

@pytest.mark.parametrize("prefetch,count,expected", [
    (2, 5, [2, 2, 2]),          # limit = 2 - 0 = 2
    (1, 3, [1, 1, 1, 1]),       # limit = 1: one more per item mapped
    (4, 10, [4, 3, 3, 3]),      # limit = 4 - 1 = 3
    (16, 30, [16, 12, 12]),     # limit = 16 - 4 = 12
])
def test_outer_request_pattern(prefetch, count, expected):
    rec = Recorded(1, count)
    rec.flowable.concat_map(Flowable.just, prefetch).test().assert_value_count(count)
    assert rec.requests == expected


def test_outer_request_pattern_follows_the_items_mapped():
    rec = Recorded(1, 5)
    ts = rec.flowable.concat_map(Flowable.just).test(0)
    assert rec.requests == [2]  # 1 is mapped at once and waits for demand; 2 waits in the queue
    ts.request(1)
    ts.assert_values(1)
    assert rec.requests == [2, 2]  # 2 was mapped next: 2 mapped, the limit
    ts.request(1)
    assert rec.requests == [2, 2]
    ts.request(1)
    ts.assert_values(1, 2, 3)
    assert rec.requests == [2, 2, 2]
    ts.request(LONG_MAX)
    ts.assert_result(1, 2, 3, 4, 5)


def test_sync_fused_outer_is_polled_without_requests():
    # the operator itself (Flowable.range(1, 3).concat_map(tens) is one sync chain)
    ts = FlowableConcatMap(Flowable.range(1, 3), tens, 2, ErrorMode.IMMEDIATE).test()
    ts.assert_value_count(9)
    assert parent_of(ts).source_mode == SYNC


def test_async_fused_outer():
    up = UnicastProcessor.create()
    ts = up.concat_map(tens).test(0)
    assert parent_of(ts).source_mode == ASYNC
    up.on_next(1)
    up.on_next(2)
    ts.assert_no_values()
    ts.request(4)
    ts.assert_values(10, 11, 12, 20)
    up.on_complete()
    ts.request(10)
    ts.assert_result(10, 11, 12, 20, 21, 22)


def test_outer_overflow_is_missing_backpressure():
    src = ManualSource()
    ts = src.concat_map(lambda x: Flowable.never(), prefetch=2).test()
    src.emit(1, 2, 3)  # the first one is mapped at once; 2 and 3 fill the queue; ...
    src.emit(4)        # ... this one has no room
    ts.assert_failure(MissingBackpressureException)
    assert src.cancelled


# ---------------------------------------------------------------------------- inner demand

def test_inner_gets_the_outstanding_demand_through_the_arbiter():
    spies = [Spy(Flowable.range(1, 3)), Spy(Flowable.range(10, 3)), Spy(Flowable.range(20, 3))]
    ts = Flowable.range(0, 3).concat_map(lambda i: spies[i]).test(0)
    assert [s.subscriptions for s in spies] == [1, 0, 0]
    assert spies[0].requests == []
    ts.request(5)
    ts.assert_values(1, 2, 3, 10, 11)
    assert spies[0].requests == [5]
    assert spies[1].requests == [2]  # 5 requested, 3 came from the first inner
    ts.request(3)
    ts.assert_values(1, 2, 3, 10, 11, 12, 20, 21)
    assert spies[1].requests == [2, 3]
    assert spies[2].requests == [2]
    ts.request(1)
    ts.assert_result(1, 2, 3, 10, 11, 12, 20, 21, 22)


def test_inner_gets_long_max_under_unbounded_demand():
    spies = [Spy(Flowable.range(1, 2)), Spy(Flowable.range(3, 2))]
    Flowable.range(0, 2).concat_map(lambda i: spies[i]).test().assert_result(1, 2, 3, 4)
    assert spies[0].requests == [LONG_MAX]
    assert spies[1].requests == [LONG_MAX]


@pytest.mark.parametrize("inner", [Flowable.just, lambda x: Flowable.just(x).hide(),
                                   lambda x: Flowable.from_callable(lambda: x)])
def test_backpressure_exact_one_by_one(inner):
    ts = Flowable.range(1, 4).concat_map(inner).test(0)
    ts.assert_no_values()
    for k in range(1, 5):
        ts.request(1)
        ts.assert_values(*range(1, k + 1))
    ts.assert_complete()


def test_backpressure_exact_over_range_inners():
    ts = Flowable.range(0, 3).concat_map(lambda i: Flowable.range(i * 10, 4)).test(0)
    ts.request(3)
    ts.assert_values(0, 1, 2).assert_not_complete()
    ts.request(2)
    ts.assert_values(0, 1, 2, 3, 10)
    ts.request(7)
    ts.assert_values(0, 1, 2, 3, 10, 11, 12, 13, 20, 21, 22, 23).assert_complete()


def test_scalar_inner_value_waits_for_demand_and_survives_switching():
    src = ManualSource()
    ts = src.concat_map(Flowable.just).test(0)
    src.emit(1, 2)
    ts.assert_no_values()
    ts.request(1)
    ts.assert_values(1)
    src.complete()
    ts.assert_not_complete()
    ts.request(1)
    ts.assert_result(1, 2)


# ---------------------------------------------------------------------------- errors: immediate

def test_immediate_outer_error_cancels_the_inner():
    src, inner = ManualSource(), Manual()
    ts = src.concat_map(lambda x: inner).test()
    src.emit(1)
    inner.subscriber.on_next("a")
    src.error(ValueError("outer"))
    ts.assert_failure(ValueError, "a")
    assert inner.probe.cancelled == 1
    inner.subscriber.on_next("b")  # the inner has not seen the cancel: nothing more arrives
    ts.assert_value_count(1)


def test_immediate_inner_error_cancels_the_outer():
    src, inner = ManualSource(), Manual()
    ts = src.concat_map(lambda x: inner).test()
    src.emit(1, 2)
    inner.subscriber.on_error(KeyError("inner"))
    ts.assert_failure(KeyError)
    assert src.cancelled
    assert inner.subscriptions == 1  # the queued 2 was never mapped


def test_immediate_late_errors_go_to_plugins(plugin_errors):
    src, inner = ManualSource(), Manual()
    ts = src.concat_map(lambda x: inner).test()
    src.emit(1)
    e1, e2 = ValueError("outer"), KeyError("inner")
    src.error(e1)
    inner.subscriber.on_error(e2)
    ts.assert_failure(lambda e: e is e1)
    assert plugin_errors.causes() == [e2]


def test_immediate_error_from_inner_flowable():
    Flowable.range(1, 3).concat_map(
        lambda x: Flowable.error(ValueError(x)) if x == 2 else Flowable.just(x)).test() \
        .assert_failure(ValueError, 1)


def test_immediate_from_callable_inner_raising():
    Flowable.range(1, 3).concat_map(
        lambda x: Flowable.from_callable(boom) if x == 2 else Flowable.just(x)).test() \
        .assert_failure(ZeroDivisionError, 1)


# ---------------------------------------------------------------------------- errors: boundary

def test_boundary_outer_error_waits_for_the_current_inner():
    src, inner = ManualSource(), Manual()
    ts = src.concat_map_delay_error(lambda x: inner, till_the_end=False).test()
    src.emit(1, 2)
    inner.subscriber.on_next("a")
    src.error(ValueError("outer"))
    ts.assert_values("a").assert_not_terminated()
    assert inner.probe.cancelled == 0
    inner.subscriber.on_next("b")
    inner.subscriber.on_complete()
    ts.assert_failure(ValueError, "a", "b")
    assert inner.subscriptions == 1  # the queued 2 is dropped at the boundary


def test_boundary_inner_error_cancels_outer_and_stops_at_once():
    src = ManualSource()
    ts = src.concat_map_delay_error(
        lambda x: Flowable.error(KeyError(x)) if x == 1 else Flowable.just(x),
        till_the_end=False).test()
    src.emit(0, 1)
    ts.assert_failure(KeyError, 0)
    assert src.cancelled
    src.emit(2)
    ts.assert_value_count(1)


# ---------------------------------------------------------------------------- errors: end

def test_end_collects_every_error():
    e_outer = ValueError("outer")
    inner_errors = {}

    def inner(x):
        if x % 2:
            inner_errors[x] = KeyError(x)
            return Flowable.just(x * 10).concat_with(Flowable.error(inner_errors[x]))
        return Flowable.just(x)

    outer = Flowable.range(0, 4).concat_with(Flowable.error(e_outer))
    ts = outer.concat_map_delay_error(inner).test()
    ts.assert_failure(CompositeException, 0, 10, 2, 30)
    assert ts.errors()[0].exceptions == [inner_errors[1], inner_errors[3], e_outer]


def test_end_single_error_is_delivered_as_is():
    err = KeyError("x")
    ts = Flowable.range(0, 3).concat_map_delay_error(
        lambda x: Flowable.error(err) if x == 1 else Flowable.just(x)).test()
    ts.assert_failure(lambda e: e is err, 0, 2)


def test_end_outer_error_after_items_runs_them_all():
    src = ManualSource()
    ts = src.concat_map_delay_error(Flowable.just, prefetch=4).test()
    src.emit(1, 2)
    src.error(ValueError("x"))
    ts.assert_failure(ValueError, 1, 2)


def test_end_from_callable_inner_raising_goes_on():
    ts = Flowable.range(1, 3).concat_map_delay_error(
        lambda x: Flowable.from_callable(boom) if x == 2 else Flowable.just(x)).test()
    ts.assert_failure(ZeroDivisionError, 1, 3)


def test_boundary_from_callable_inner_raising_stops():
    src = ManualSource()
    ts = src.concat_map_delay_error(
        lambda x: Flowable.from_callable(boom) if x == 2 else Flowable.just(x),
        till_the_end=False).test()
    src.emit(1, 2, 3)
    ts.assert_failure(ZeroDivisionError, 1)
    assert src.cancelled


def test_delayed_late_outer_error_goes_to_plugins(plugin_errors):
    src = ManualSource()
    ts = src.concat_map_delay_error(Flowable.just).test()
    src.complete()
    err = ValueError("late")
    src.error(err)
    ts.assert_result()
    assert plugin_errors.causes() == [err]


# ---------------------------------------------------------------------------- user functions

@pytest.mark.parametrize("op", ["concat_map", "concat_map_delay_error"])
def test_mapper_raising_cancels_upstream(op):
    rec = Recorded(1, 5)
    ts = getattr(rec.flowable, op)(lambda x: boom() if x == 2 else Flowable.just(x)).test()
    ts.assert_failure(ZeroDivisionError, 1)
    assert rec.cancels == [1]


def test_mapper_raising_with_end_mode_includes_earlier_errors():
    err = KeyError("inner")
    rec = Recorded(1, 5)

    def mapper(x):
        if x == 1:
            return Flowable.error(err)
        if x == 3:
            boom()
        return Flowable.just(x)

    ts = rec.flowable.concat_map_delay_error(mapper).test()
    ts.assert_failure(CompositeException, 2)
    assert ts.errors()[0].exceptions[0] is err
    assert isinstance(ts.errors()[0].exceptions[1], ZeroDivisionError)
    assert rec.cancels == [1]


@pytest.mark.parametrize("op", ["concat_map", "concat_map_delay_error"])
def test_mapper_returning_none_is_type_error(op):
    rec = Recorded(1, 5)
    ts = getattr(rec.flowable, op)(lambda x: None).test()
    ts.assert_failure(TypeError)
    assert rec.cancels == [1]


def test_mapper_returning_a_non_publisher_is_type_error():
    Flowable.range(1, 3).concat_map(lambda x: [x]).test().assert_failure(TypeError)


def test_fused_outer_poll_raising():
    ts = Flowable.range(1, 3).map(lambda x: boom() if x == 2 else x).concat_map(Flowable.just).test()
    ts.assert_failure(ZeroDivisionError, 1)


# ---------------------------------------------------------------------------- cancellation

@pytest.mark.parametrize("op", ["concat_map", "concat_map_delay_error"])
def test_cancel_reaches_outer_and_current_inner(op):
    src, inner = ManualSource(), Manual()
    ts = getattr(src, op)(lambda x: inner).test()
    src.emit(1, 2)
    inner.subscriber.on_next("a")
    ts.cancel()
    assert src.cancelled
    assert inner.probe.cancelled == 1
    inner.subscriber.on_next("b")
    inner.subscriber.on_complete()  # the queued 2 is not mapped after the cancel
    assert inner.subscriptions == 1
    ts.assert_values("a").assert_not_terminated()


def test_cancel_from_downstream_inside_on_next():
    rec = Recorded(1, 100)
    ts = rec.flowable.concat_map(lambda x: Flowable.range(x, 3)).take(4).test()
    ts.assert_result(1, 2, 3, 2)
    assert rec.cancels == [1]


def test_inner_error_after_cancel_goes_to_plugins(plugin_errors):
    src, inner = ManualSource(), Manual()
    ts = src.concat_map(lambda x: inner).test()
    src.emit(1)
    ts.cancel()
    err = KeyError("late")
    inner.subscriber.on_error(err)
    ts.assert_not_terminated()
    assert plugin_errors.causes() == [err]


# ---------------------------------------------------------------------------- threads


def test_end_to_end_inners_on_computation():
    ts = Flowable.range(0, 30).concat_map(
        lambda i: Flowable.range(i * 10, 10).observe_on(Schedulers.computation())).test()
    ts.await_done(10).assert_value_sequence(list(range(300))).assert_complete()


def test_end_to_end_outer_and_inners_on_computation_bounded():
    sub = RequestOneInOnNext()
    Flowable.range(0, 20).observe_on(Schedulers.computation()).concat_map(
        lambda i: Flowable.range(i * 5, 5).observe_on(Schedulers.computation()),
        prefetch=3).subscribe(sub)
    deadline = time.monotonic() + 10
    while not sub.completed and time.monotonic() < deadline:
        time.sleep(0.005)
    assert sub.values == list(range(100)) and sub.completed == 1


# ---------------------------------------------------------------------------- races

def test_race_inner_completion_vs_request(race_runner, race_rounds):
    for _ in range(race_rounds):
        first = ManualSource()
        second = Spy(Flowable.range(10, 3))
        ts = Flowable.range(0, 2).concat_map(lambda i, f=first, s=second: f if i == 0 else s).test(0)
        ts.request(1)
        first.emit(1)
        race_runner.race(first.complete, lambda ts=ts: ts.request(3))
        ts.assert_result(1, 10, 11, 12).assert_protocol_ok()
        assert sum(second.requests) == 3  # exactly the outstanding demand, nothing more


def test_race_request_vs_scalar_inners(race_runner, race_rounds):
    for _ in range(race_rounds // 2):
        src = ManualSource()
        ts = src.concat_map(Flowable.just, prefetch=8).test(0)
        race_items_vs_requests(race_runner, src, (1, 2, 3, 4), ts)
        ts.assert_result(1, 2, 3, 4).assert_protocol_ok()


def test_race_cancel_vs_inner_on_next(race_runner, race_rounds):
    for _ in range(race_rounds):
        src, inner = ManualSource(), ManualSource()
        ts = src.concat_map(lambda x, inner=inner: inner).test()
        src.emit(1)

        def produce(inner=inner):
            inner.emit(*range(5))
            inner.complete()

        race_runner.race(produce, ts.cancel)
        n = ts.value_count()
        ts.assert_value_sequence(list(range(n))).assert_no_errors().assert_protocol_ok()
        assert src.cancelled and inner.cancelled  # the outer never completes here
        ts.assert_not_complete()
        inner.emit(99)  # a source that missed the cancel: nothing more arrives
        assert ts.value_count() == n


def test_race_outer_error_vs_inner_on_next(race_runner, race_rounds, plugin_errors):
    for _ in range(race_rounds // 2):
        src, inner = ManualSource(), ManualSource()
        ts = src.concat_map(lambda x, inner=inner: inner).test()
        src.emit(1)
        err = ValueError("outer")
        race_runner.race(lambda src=src, err=err: src.error(err),
                         lambda inner=inner: inner.emit(1, 2, 3))
        ts.assert_error(err).assert_protocol_ok()
        assert ts.values() == [1, 2, 3][:ts.value_count()]
    assert plugin_errors == []
