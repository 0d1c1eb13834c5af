"""flat_map: values, the request patterns at the outer source and at each inner, scalar
inners that are never subscribed, errors (immediate and delayed), cancellation,
backpressure, deep synchronous recursion, races and real threads."""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
from _async_probes import SyncFusedProbe
from _async_probes import race_items_vs_requests
from probes import ManualSource
from probes import RequestOneInOnNext
from probes import Spy
from probes import boom

from rxpy2 import Flowable
from rxpy2 import plugins
from rxpy2._internal.fuseable import ANY
from rxpy2._internal.fuseable import BOUNDARY
from rxpy2._internal.operators.flowable.flowable_empty import FlowableEmpty
from rxpy2._internal.operators.flowable.flowable_flat_map import FlowableFlatMap
from rxpy2._internal.operators.flowable.flowable_just import FlowableJust
from rxpy2.exceptions import CompositeException
from rxpy2.exceptions import MissingBackpressureException
from rxpy2.observers import FlowableSubscriber
from rxpy2.reactivestreams import LONG_MAX
from rxpy2.reactivestreams import Subscription
from rxpy2.schedulers import Schedulers
from rxpy2.testing import TestSubscriber

pytestmark = pytest.mark.usefixtures("shutdown_schedulers")


def manual_inners(k: int) -> tuple[list[ManualSource], Any]:
    """``k`` ManualSource inners and a mapper ``i -> inners[i]``."""
    inners = [ManualSource() for _ in range(k)]
    return inners, (lambda i: inners[i])


class CountingJust(FlowableJust[Any]):
    """``just(x)`` that counts the subscriptions it gets (a ScalarCallable); built with
    ``CountingJust.of(x)``, as FlowableJust has no ``__init__``."""

    subscribed = 0

    def subscribe_actual(self, subscriber: Any) -> None:
        CountingJust.subscribed += 1
        super().subscribe_actual(subscriber)


class CountingEmpty(FlowableEmpty):
    subscribed = 0

    def subscribe_actual(self, subscriber: Any) -> None:
        CountingEmpty.subscribed += 1
        super().subscribe_actual(subscriber)


def check_per_inner_order(values: list[Any], key: Any) -> None:
    """Items of one inner keep their order: ``key(v)`` groups, values increase in a group."""
    last: dict[Any, Any] = {}
    for v in values:
        k = key(v)
        assert k not in last or last[k] < v, f"out of order: {v} after {last[k]}"
        last[k] = v


# ---------------------------------------------------------------------------- values

def test_sync_inners_in_order():
    Flowable.range(1, 3).flat_map(lambda x: Flowable.range(x * 10, 3)).test() \
        .assert_result(10, 11, 12, 20, 21, 22, 30, 31, 32)


def test_unfused_inners():
    Flowable.range(1, 3).flat_map(lambda x: Flowable.range(x * 10, 2).hide()).test() \
        .assert_result(10, 11, 20, 21, 30, 31)


def test_mixed_inner_kinds():
    def mapper(x: int) -> Flowable[int]:
        return [Flowable.just(x), Flowable.empty(), Flowable.range(x * 10, 2),
                Flowable.range(x * 100, 2).hide(), Flowable.from_callable(lambda: -x)][x % 5]

    ts = Flowable.range(0, 10).flat_map(mapper).test()
    ts.assert_result(0, 20, 21, 300, 301, -4, 5, 70, 71, 800, 801, -9)


def test_from_callable_inner_none_is_empty():
    Flowable.range(0, 3).flat_map(lambda x: Flowable.from_callable(lambda: None)).test() \
        .assert_result()


def test_empty_source():
    Flowable.empty().hide().flat_map(lambda x: Flowable.just(x)).test().assert_result()


def test_source_error_passes_through():
    Flowable.error(ValueError("x")).flat_map(Flowable.just).test().assert_error(ValueError)


def test_async_inners_all_arrive():
    ts = Flowable.range(0, 20).flat_map(
        lambda x: Flowable.range(x * 100, 50).observe_on(Schedulers.computation())).test()
    ts.await_done(10).assert_no_errors().assert_complete()
    assert sorted(ts.values()) == sorted(x * 100 + i for x in range(20) for i in range(50))
    check_per_inner_order(ts.values(), lambda v: v // 100)


def test_combiner():
    Flowable.range(1, 2).flat_map(lambda x: Flowable.range(10, 2), combiner=lambda t, u: (t, u)) \
        .test().assert_result((1, 10), (1, 11), (2, 10), (2, 11))


def test_combiner_with_scalar_inner_and_bounded():
    ts = Flowable.range(1, 3).flat_map(lambda x: Flowable.just(x * 2), 1,
                                       combiner=lambda t, u: t + u).test()
    ts.assert_result(3, 6, 9)


def test_combiner_returning_none_is_type_error():
    Flowable.range(1, 2).flat_map(lambda x: Flowable.just(x), combiner=lambda t, u: None).test() \
        .assert_error(TypeError)


def test_combiner_raises():
    Flowable.range(1, 2).flat_map(lambda x: Flowable.just(x), combiner=boom).test() \
        .assert_error(ZeroDivisionError)


def test_just_source_fuses_at_assembly():
    f = Flowable.just(3).flat_map(lambda x: Flowable.range(x, 2))
    assert not isinstance(f, FlowableFlatMap)
    f.test().assert_result(3, 4)


def test_callable_source_fuses_at_subscription():
    f = Flowable.from_callable(lambda: 3).flat_map(lambda x: Flowable.range(x, 2))
    assert isinstance(f, FlowableFlatMap)
    f.test().assert_result(3, 4)
    Flowable.from_callable(lambda: None).flat_map(lambda x: Flowable.just(x)).test() \
        .assert_result()
    Flowable.from_callable(boom).flat_map(Flowable.just).test().assert_error(ZeroDivisionError)


def test_reusable():
    f = Flowable.range(0, 3).flat_map(lambda x: Flowable.range(x, 2).hide(), 2)
    f.test().assert_result(0, 1, 1, 2, 2, 3)
    f.test().assert_result(0, 1, 1, 2, 2, 3)


# ---------------------------------------------------------------------------- bad arguments

def test_bad_arguments():
    f = Flowable.range(0, 3)
    with pytest.raises(TypeError):
        f.flat_map(None)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        f.flat_map(Flowable.just, 0)
    with pytest.raises(ValueError):
        f.flat_map(Flowable.just, buffer_size=0)
    with pytest.raises(ValueError):
        f.flat_map(Flowable.just, -1)
    with pytest.raises(TypeError):
        f.flat_map(Flowable.just, combiner=5)  # type: ignore[arg-type]


def test_non_positive_request_is_reported(plugin_errors):
    ts = Flowable.range(0, 3).flat_map(Flowable.just).test(0)
    ts.request(0)
    ts.request(-1)
    assert [type(e) for e in plugin_errors] == [ValueError, ValueError]
    assert "3.9" in str(plugin_errors[0])
    ts.assert_no_values().assert_not_terminated()
    ts.request(5)
    ts.assert_result(0, 1, 2)


# ---------------------------------------------------------------------------- outer requests

@pytest.mark.parametrize("max_concurrency, first", [((), 128), ((LONG_MAX,), LONG_MAX)])
def test_default_bound_128_and_unbounded_replenish_one_per_finished_inner(max_concurrency,
                                                                           first):
    """RxJava 2.2.21 Flowable.flatMap(mapper) is flatMap(mapper, false, bufferSize(),
    bufferSize()): the upstream is asked for 128; FlowableFlatMap.drainLoop asks for one
    more per removed inner whether bounded or not (unbounded: LONG_MAX first)."""
    outer = ManualSource()
    inners, mapper = manual_inners(3)
    ts = outer.flat_map(mapper, *max_concurrency).test()
    assert outer.requests == [first]
    outer.emit(0, 1, 2)
    for s in inners:
        s.complete()
    assert outer.requests == [first, 1, 1, 1]
    outer.complete()
    ts.assert_result()


def test_bounded_requests_max_concurrency_then_one_per_finished_inner():
    outer = ManualSource()
    inners, mapper = manual_inners(4)
    ts = outer.flat_map(mapper, 2).test()
    assert outer.requests == [2]
    outer.emit(0, 1)
    assert [s.subscriptions for s in inners] == [1, 1, 0, 0]
    inners[1].emit("b")
    inners[1].complete()
    assert outer.requests == [2, 1]
    outer.emit(2)
    inners[0].emit("a")
    assert outer.requests == [2, 1]
    inners[0].complete()
    assert outer.requests == [2, 1, 1]
    outer.emit(3)
    inners[2].complete()
    inners[3].emit("d")
    inners[3].complete()
    assert outer.requests == [2, 1, 1, 1, 1]
    outer.complete()
    ts.assert_result("b", "a", "d")


def test_finished_inners_are_replenished_in_one_request_per_drain_pass():
    outer = ManualSource()
    inners, mapper = manual_inners(3)
    ts = outer.flat_map(mapper, 3).test(0)
    outer.emit(0, 1, 2)
    for i, s in enumerate(inners):
        s.emit(i)
        s.complete()  # done, but its item waits for demand: not finished yet
    assert outer.requests == [3]
    ts.request(3)  # one drain pass emits all three and removes all three inners
    assert outer.requests == [3, 3]
    ts.assert_values(0, 1, 2)


def test_scalar_inners_replenish_one_each_when_bounded():
    log: list[int] = []
    ts = Flowable.range(0, 5).do_on_request(log.append) \
        .flat_map(lambda x: Flowable.just(x), 2).test()
    ts.assert_result(0, 1, 2, 3, 4)
    assert log == [2, 1, 1, 1, 1, 1]


def test_queued_scalars_replenish_in_one_batch():
    outer = ManualSource()
    ts = outer.flat_map(lambda x: Flowable.just(x), 3).test(0)
    outer.emit(1, 2, 3)
    assert outer.requests == [3]
    ts.request(10)
    ts.assert_values(1, 2, 3)
    assert outer.requests == [3, 3]


def test_empty_inner_replenishes_one_when_bounded():
    log: list[int] = []
    Flowable.range(0, 4).do_on_request(log.append) \
        .flat_map(lambda x: Flowable.empty(), 2).test().assert_result()
    assert log == [2, 1, 1, 1, 1]


def test_empty_inner_unbounded_requests_nothing_more():
    """RxJava 2.2.21 FlowableFlatMap.onNext: an empty Callable inner counts towards
    scalarLimit only when maxConcurrency is bounded."""
    log: list[int] = []
    Flowable.range(0, 4).do_on_request(log.append) \
        .flat_map(lambda x: Flowable.empty(), LONG_MAX).test().assert_result()
    assert log == [LONG_MAX]
    log.clear()
    Flowable.range(0, 4).do_on_request(log.append) \
        .flat_map(lambda x: Flowable.empty()).test().assert_result()
    assert log == [128]  # 4 of a batch of 64


def test_request_pattern_max_concurrency_one_is_sequential():
    log: list[int] = []
    ts = Flowable.range(0, 4).do_on_request(log.append) \
        .flat_map(lambda x: Flowable.range(x * 10, 3).hide(), 1).test()
    ts.assert_result(0, 1, 2, 10, 11, 12, 20, 21, 22, 30, 31, 32)
    assert log == [1, 1, 1, 1, 1]


# ---------------------------------------------------------------------------- inner requests

def test_inner_requests_buffer_size_then_a_quarter():
    """RxJava 2.2.21 FlowableFlatMap.InnerSubscriber: limit = bufferSize >> 2; requestMore
    asks for what was consumed once that reaches the limit."""
    outer = ManualSource()
    inners, mapper = manual_inners(1)
    ts = outer.flat_map(mapper).test()
    outer.emit(0)
    assert inners[0].requests == [128]
    inners[0].emit(*range(31))
    assert inners[0].requests == [128]
    inners[0].emit(31)
    assert inners[0].requests == [128, 32]
    inners[0].emit(*range(32, 96))
    assert inners[0].requests == [128, 32, 32, 32]
    ts.assert_value_count(96)


def test_inner_requests_with_small_buffer_and_small_downstream_demand():
    outer = ManualSource()
    inners, mapper = manual_inners(1)
    ts = outer.flat_map(mapper, buffer_size=8).test(0)
    outer.emit(0)
    inner = inners[0]
    assert inner.requests == [8]  # limit = 8 >> 2 = 2 (RxJava 2.2.21)
    inner.emit(*range(8))  # all queued: no demand
    assert inner.requests == [8]
    ts.request(1)
    ts.assert_values(0)
    assert inner.requests == [8]
    ts.request(5)  # consumed in one drain pass: asked for in one go
    assert inner.requests == [8, 6]
    ts.request(2)
    ts.assert_values(*range(8))
    assert inner.requests == [8, 6, 2]
    inner.emit(8, 9, 10, 11, 12, 13)
    ts.request(1)
    assert inner.requests == [8, 6, 2]
    ts.request(5)
    assert inner.requests == [8, 6, 2, 6]
    ts.assert_values(*range(14))


def test_inner_buffer_size_one():
    outer = ManualSource()
    inners, mapper = manual_inners(1)
    ts = outer.flat_map(mapper, buffer_size=1).test()
    outer.emit(0)
    inners[0].emit("a")
    inners[0].emit("b")
    assert inners[0].requests == [1, 1, 1]
    ts.assert_values("a", "b")


def test_sync_fused_inner_gets_no_request():
    probes = [SyncFusedProbe(5), SyncFusedProbe(3)]
    ts = Flowable.range(0, 2).flat_map(lambda i: probes[i]).test()
    ts.assert_result(0, 1, 2, 3, 4, 0, 1, 2)
    assert [p.requests for p in probes] == [[], []]
    assert probes[0].modes == [ANY | BOUNDARY]


def test_sync_fused_inner_under_small_demand():
    probes = [SyncFusedProbe(5), SyncFusedProbe(3)]
    ts = Flowable.range(0, 2).flat_map(lambda i: probes[i], 1).test(0)
    for k in range(8):
        ts.request(1)
        assert ts.value_count() == k + 1
    ts.assert_result(0, 1, 2, 3, 4, 0, 1, 2)
    assert [p.requests for p in probes] == [[], []]


def test_sync_fused_inner_poll_error():
    ts = Flowable.range(0, 3).hide().flat_map(lambda i: SyncFusedProbe(5, fail_at=2)).test()
    ts.assert_values(0, 1).assert_error(ValueError)


def test_sync_fused_inner_poll_error_delayed():
    ts = Flowable.range(0, 2).hide().flat_map(lambda i: SyncFusedProbe(3, fail_at=2), 1,
                                              delay_errors=True).test()
    ts.assert_values(0, 1, 0, 1).assert_error(CompositeException)
    assert len(ts.errors()[0].exceptions) == 2


def test_async_fused_inner():
    # an inner observe_on whose queue the drain polls (ASYNC fusion of a QueueSubscription)
    from rxpy2.processors import UnicastProcessor
    up = UnicastProcessor()
    ts = Flowable.just(0).hide().flat_map(lambda _: up).test(0)
    up.on_next(1)
    up.on_next(2)
    up.on_next(3)
    ts.assert_no_values()
    ts.request(2)
    ts.assert_values(1, 2)
    up.on_complete()
    ts.assert_not_complete()
    ts.request(1)
    ts.assert_result(1, 2, 3)


def test_inner_overflow_is_missing_backpressure():
    outer = ManualSource()
    inners, mapper = manual_inners(1)
    ts = outer.flat_map(mapper, buffer_size=4).test(0)
    outer.emit(0)
    inners[0].emit(1, 2, 3, 4)
    inners[0].emit(5)  # beyond the 4 requested
    ts.assert_error(MissingBackpressureException).assert_no_values()
    assert inners[0].cancels == 1
    assert outer.cancels == 1


def test_scalar_overflow_is_missing_backpressure():
    outer = ManualSource()
    ts = outer.flat_map(Flowable.just, 2).test(0)
    outer.emit(1, 2)
    outer.emit(3)  # beyond the 2 requested
    ts.assert_error(MissingBackpressureException).assert_no_values()
    assert outer.cancels == 1


# ---------------------------------------------------------------------------- scalar inners

def test_just_inner_is_never_subscribed():
    CountingJust.subscribed = 0
    ts = Flowable.range(0, 100).flat_map(lambda x: CountingJust.of(x)).test()
    ts.assert_value_sequence(list(range(100))).assert_complete()
    assert CountingJust.subscribed == 0
    CountingJust.of(5).test().assert_result(5)  # the probe does count
    assert CountingJust.subscribed == 1


def test_just_inner_is_never_subscribed_bounded_and_under_backpressure():
    CountingJust.subscribed = 0
    ts = Flowable.range(0, 10).flat_map(lambda x: CountingJust.of(x), 3).test(0)
    for k in range(10):
        ts.request(1)
        assert ts.value_count() == k + 1
    ts.assert_value_sequence(list(range(10))).assert_complete()
    assert CountingJust.subscribed == 0


def test_empty_inner_is_never_subscribed():
    CountingEmpty.subscribed = 0
    Flowable.range(0, 10).flat_map(lambda x: CountingEmpty(), 2).test().assert_result()
    assert CountingEmpty.subscribed == 0


def test_no_subscription_at_all_for_scalar_inners_via_subscribe_hook():
    subscribed: list[str] = []

    def hook(flowable: Any, subscriber: Any) -> Any:
        subscribed.append(type(flowable).__name__)
        return subscriber

    source = Flowable.range(0, 50)
    # the operator itself (source.flat_map(...) joins the range's sync chain: one
    # subscription in all, tests/fusion/test_fused_flatten.py)
    f = FlowableFlatMap(source, lambda x: Flowable.just(x) if x % 2 else Flowable.empty(),
                        False, 128, 128)
    plugins.set_on_flowable_subscribe(hook)
    ts = TestSubscriber()
    f.subscribe(ts)
    plugins.set_on_flowable_subscribe(None)
    ts.assert_value_sequence(list(range(1, 50, 2))).assert_complete()
    assert subscribed == ["FlowableFlatMap", "FlowableRange"]


def test_callable_inner_error_immediate_cancels_upstream():
    outer = ManualSource()
    ts = outer.flat_map(lambda x: Flowable.from_callable(boom)).test()
    outer.emit(1)
    ts.assert_error(ZeroDivisionError)
    assert outer.cancels == 1


def test_callable_inner_error_delayed_replenishes_and_continues():
    log: list[int] = []
    ts = Flowable.range(0, 4).do_on_request(log.append).flat_map(
        lambda x: Flowable.from_callable(boom if x == 1 else (lambda: x)), 1,
        delay_errors=True).test()
    ts.assert_values(0, 2, 3).assert_error(ZeroDivisionError)
    assert log == [1, 1, 1, 1, 1]


def test_scalar_value_waits_for_demand_in_scalar_queue():
    outer = ManualSource()
    ts = outer.flat_map(Flowable.just).test(0)
    outer.emit(1, 2, 3)
    outer.complete()
    ts.assert_no_values().assert_not_complete()
    ts.request(2)
    ts.assert_values(1, 2).assert_not_complete()
    ts.request(1)
    ts.assert_result(1, 2, 3)


def test_scalars_and_inner_items_keep_their_queue_order():
    outer = ManualSource()
    inners, mapper = manual_inners(1)
    ts = outer.flat_map(lambda x: mapper(0) if x == 0 else Flowable.just(x)).test(0)
    outer.emit(0)
    inners[0].emit("a", "b")
    outer.emit(1, 2)
    ts.request(10)
    ts.assert_values(1, 2, "a", "b")  # the scalar queue goes first


# ---------------------------------------------------------------------------- errors

def test_mapper_raises_cancels_upstream():
    outer = ManualSource()
    ts = outer.flat_map(boom).test()
    outer.emit(1)
    ts.assert_error(ZeroDivisionError).assert_no_values()
    assert outer.cancels == 1
    outer.emit(2)  # a source that has not seen the cancel yet: dropped
    ts.assert_error(ZeroDivisionError)


def test_mapper_returns_none_is_type_error():
    outer = ManualSource()
    ts = outer.flat_map(lambda x: None).test()
    outer.emit(1)
    ts.assert_error(TypeError).assert_no_values()
    assert outer.cancels == 1


def test_mapper_returns_non_publisher_is_type_error():
    Flowable.range(0, 2).flat_map(lambda x: [x]).test().assert_error(TypeError)


def test_mapper_raises_delayed_waits_for_live_inners():
    outer = ManualSource()
    inners, mapper = manual_inners(2)
    ts = outer.flat_map(lambda x: boom() if x == 1 else mapper(x), delay_errors=True).test()
    outer.emit(0, 1)
    assert outer.cancels == 1
    ts.assert_not_terminated()
    inners[0].emit("a")
    inners[0].complete()
    ts.assert_values("a").assert_error(ZeroDivisionError)


def test_immediate_inner_error_cancels_outer_and_all_live_inners(plugin_errors):
    outer = ManualSource()
    inners, mapper = manual_inners(3)
    ts = outer.flat_map(mapper).test()
    outer.emit(0, 1, 2)
    inners[0].emit("a")
    err = ValueError("inner 1")
    inners[1].error(err)
    ts.assert_values("a").assert_error(err)
    assert outer.cancels == 1
    assert inners[0].cancels == 1 and inners[2].cancels == 1
    # late signals: dropped, a second error goes to the plugins
    inners[2].emit("late")
    inners[0].complete()
    late = KeyError("late")
    inners[2].error(late)
    outer.complete()
    ts.assert_values("a").assert_error(err).assert_not_complete()
    assert plugin_errors.causes() == [late]


def test_immediate_inner_error_overtakes_queued_items():
    outer = ManualSource()
    inners, mapper = manual_inners(2)
    ts = outer.flat_map(mapper).test(0)
    outer.emit(0, 1)
    inners[0].emit("a", "b")
    inners[1].error(ValueError("x"))
    ts.assert_no_values().assert_error(ValueError)
    assert inners[0].cancels == 1
    assert outer.cancels == 1


def test_immediate_outer_error_cancels_inners():
    outer = ManualSource()
    inners, mapper = manual_inners(2)
    ts = outer.flat_map(mapper).test()
    outer.emit(0, 1)
    outer.error(ValueError("outer"))
    ts.assert_error(ValueError)
    assert inners[0].cancels == 1 and inners[1].cancels == 1
    assert outer.cancels == 0  # it terminated itself


def test_delay_errors_collects_every_cause_in_order():
    errors = [ValueError(f"e{i}") for i in range(3)]
    ts = Flowable.range(0, 6).flat_map(
        lambda x: Flowable.error(errors[x // 2]) if x % 2 == 0 else Flowable.range(x * 10, 2),
        delay_errors=True).test()
    ts.assert_values(10, 11, 30, 31, 50, 51).assert_error(CompositeException)
    assert ts.errors()[0].exceptions == errors


def test_delay_errors_with_outer_error_last():
    outer = ManualSource()
    inners, mapper = manual_inners(3)
    ts = outer.flat_map(mapper, delay_errors=True).test()
    outer.emit(0, 1, 2)
    e0, e1, e2 = ValueError("0"), KeyError("1"), TypeError("outer")
    inners[1].error(e1)
    inners[0].error(e0)
    outer.error(e2)
    ts.assert_not_terminated()
    assert inners[2].cancels == 0 and outer.cancels == 0
    inners[2].emit("x")
    inners[2].complete()
    ts.assert_values("x").assert_error(CompositeException)
    assert ts.errors()[0].exceptions == [e1, e0, e2]


def test_delay_errors_single_error_is_itself():
    err = ValueError("x")
    ts = Flowable.range(0, 3).flat_map(
        lambda x: Flowable.error(err) if x == 1 else Flowable.just(x), delay_errors=True).test()
    ts.assert_values(0, 2).assert_error(err)


def test_delay_errors_pending_when_cancelled_go_to_plugins(plugin_errors):
    outer = ManualSource()
    inners, mapper = manual_inners(2)
    ts = outer.flat_map(mapper, delay_errors=True).test()
    outer.emit(0, 1)
    err = ValueError("x")
    inners[0].error(err)
    ts.cancel()
    assert plugin_errors.causes() == [err]
    ts.assert_not_terminated()


def test_late_outer_error_after_completion_goes_to_plugins(plugin_errors):
    outer = ManualSource()
    ts = outer.flat_map(Flowable.just).test()
    outer.complete()
    late = ValueError("late")
    outer.error(late)
    ts.assert_result()
    assert plugin_errors.causes() == [late]


# ---------------------------------------------------------------------------- cancellation

def test_cancel_reaches_outer_and_inners_and_stops_everything():
    outer = ManualSource()
    inners, mapper = manual_inners(3)
    ts = outer.flat_map(mapper).test(0)
    outer.emit(0, 1)
    inners[0].emit("a")
    ts.cancel()
    assert outer.cancels == 1
    assert inners[0].cancels == 1 and inners[1].cancels == 1
    # sources that did not see the cancel yet
    outer.emit(2)
    assert inners[2].subscriptions == 0
    inners[1].emit("b")
    inners[1].complete()
    outer.complete()
    ts.request(5)
    ts.assert_no_values().assert_not_terminated()
    parent = inners[0].subscriber.parent  # type: ignore[union-attr]
    assert parent.inners[0].queue.is_empty()  # the queued item was dropped


def test_late_inner_after_cancel_is_cancelled_at_once():
    outer = ManualSource()
    inners, mapper = manual_inners(1)
    ts = outer.flat_map(mapper).test()
    parent = outer.subscriber
    ts.cancel()
    # an inner that comes after the cancel (an outer on_next already under way)
    from rxpy2._internal.operators.flowable.flowable_flat_map import InnerSubscriber
    inner = InnerSubscriber(parent, 99)  # type: ignore[arg-type]
    assert not parent.add_inner(inner)  # type: ignore[union-attr]
    inners[0].subscribe(inner)
    assert inners[0].cancels == 1
    inners[0].emit(1)
    ts.assert_no_values()


def test_cancel_from_on_next():
    log: list[int] = []
    cancels: list[int] = []
    sub = RequestOneInOnNext(stop_after=3)
    Flowable.range(0, 10).do_on_cancel(lambda: cancels.append(1)) \
        .flat_map(lambda x: Flowable.range(x * 10, 5).do_on_request(log.append)) \
        .subscribe(sub)
    assert sub.values == [0, 1, 2]
    assert cancels == [1]
    assert sub.completed == 0 and sub.errors == []


def test_cancel_from_on_next_scalar_fast_path():
    ts = TestSubscriber()
    seen: list[int] = []

    class Canceller(FlowableSubscriber[int]):
        def on_subscribe(self, s: Subscription) -> None:
            self.s = s
            s.request(LONG_MAX)

        def on_next(self, item: int) -> None:
            seen.append(item)
            if item == 2:
                self.s.cancel()

        def on_error(self, error: BaseException) -> None:
            seen.append(-1)

        def on_complete(self) -> None:
            seen.append(-2)

    Flowable.range(0, 10).flat_map(Flowable.just, 2).subscribe(Canceller())
    assert seen == [0, 1, 2]
    ts.assert_no_values()


def test_cancel_during_on_subscribe_requests_nothing():
    outer = ManualSource()

    class CancelAtOnce(FlowableSubscriber[Any]):
        def on_subscribe(self, s: Subscription) -> None:
            s.cancel()

        def on_next(self, item: Any) -> None:
            raise AssertionError("no item expected")

        def on_error(self, error: BaseException) -> None:
            raise AssertionError("no error expected")

        def on_complete(self) -> None:
            raise AssertionError("no completion expected")

    outer.flat_map(Flowable.just).subscribe(CancelAtOnce())
    assert outer.requests == []
    assert outer.cancels == 1


# ---------------------------------------------------------------------------- backpressure

def test_one_by_one_requests_give_exactly_one_item_each():
    def mapper(x: int) -> Flowable[int]:
        k = x % 5
        if k == 0:
            return Flowable.just(x * 1000)
        if k == 1:
            return Flowable.range(x * 1000, x % 7 + 1).hide()
        if k == 2:
            return Flowable.empty()
        if k == 3:
            return Flowable.range(x * 1000, x % 4 + 2)
        return Flowable.from_callable(lambda: x * 1000)

    expected = Flowable.range(0, 40).flat_map(mapper).test().values()
    for mc in (1, 3, LONG_MAX):
        ts = Flowable.range(0, 40).flat_map(mapper, mc).test(0)
        for k in range(len(expected)):
            ts.request(1)
            assert ts.value_count() == k + 1, (mc, k)
        ts.assert_complete()
        assert Counter(ts.values()) == Counter(expected)
        check_per_inner_order(ts.values(), lambda v: v // 1000)


def test_one_by_one_requests_with_manual_inners_of_different_lengths():
    outer = ManualSource()
    inners, mapper = manual_inners(3)
    ts = outer.flat_map(mapper, 2).test(0)
    outer.emit(0, 1)
    inners[0].emit(1, 2, 3, 4)
    inners[1].emit(10)
    inners[1].complete()
    assert outer.requests == [2]  # the finished inner still holds an item
    # RxJava 2.2.21 FlowableFlatMap.drainLoop: a pass out of demand stops at the inner it
    # was on, and the next one starts there: inner 0 goes on while it has items
    for k in range(4):
        ts.request(1)
        assert ts.value_count() == k + 1
    ts.assert_values(1, 2, 3, 4)
    assert outer.requests == [2]
    ts.request(1)  # inner 0 has nothing: inner 1 emits, finishes and is asked for again
    ts.assert_values(1, 2, 3, 4, 10)
    assert outer.requests == [2, 1]
    outer.emit(2)
    inners[2].emit(20, 21)
    inners[2].complete()  # no demand: the pass stops at inner 0 (where the last one did)
    assert outer.requests == [2, 1]
    inners[0].complete()  # ... which is now removed and asked for again
    assert outer.requests == [2, 1, 1]
    outer.complete()
    ts.request(1)
    ts.assert_values(1, 2, 3, 4, 10, 20).assert_not_complete()
    ts.request(1)  # inner 2 finishes: asked for again, and the stream completes
    assert outer.requests == [2, 1, 1, 1]
    ts.assert_result(1, 2, 3, 4, 10, 20, 21)


def test_completion_waits_for_demand_for_queued_items():
    ts = Flowable.range(0, 3).flat_map(lambda x: Flowable.range(x, 2)).test(0)
    ts.assert_not_complete()
    ts.request(5)
    ts.assert_not_complete()
    ts.request(1)
    ts.assert_result(0, 1, 1, 2, 2, 3)


def test_completion_without_demand_when_nothing_to_emit():
    ts = Flowable.range(0, 3).flat_map(lambda x: Flowable.empty().hide()).test(0)
    ts.assert_result()


def test_request_inside_on_next_over_many_items():
    sub = RequestOneInOnNext()
    Flowable.range(0, 100).flat_map(lambda x: Flowable.range(x * 100, 100).hide(), 4) \
        .subscribe(sub)
    assert len(sub.values) == 10_000
    assert sub.completed == 1


# ---------------------------------------------------------------------------- deep recursion

def test_many_scalar_inners_synchronously():
    Flowable.range(0, 100_000).flat_map(Flowable.just).test() \
        .assert_value_count(100_000).assert_complete()


def test_many_scalar_inners_bounded():
    ts = Flowable.range(0, 100_000).flat_map(Flowable.just, 1).test()
    ts.assert_value_count(100_000).assert_complete()
    assert ts.values()[-1] == 99_999


def test_many_scalar_inners_one_by_one_request_in_on_next():
    sub = RequestOneInOnNext()
    Flowable.range(0, 20_000).flat_map(Flowable.just, 2).subscribe(sub)
    assert len(sub.values) == 20_000 and sub.completed == 1


def test_long_sync_inners():
    Flowable.range(0, 10).flat_map(lambda x: Flowable.range(0, 10_000)).test() \
        .assert_value_count(100_000).assert_complete()


def test_long_unfused_inners():
    Flowable.range(0, 3).flat_map(lambda x: Flowable.range(0, 10_000).hide()).test() \
        .assert_value_count(30_000).assert_complete()


def test_many_inners_completing_synchronously_with_bounded_concurrency():
    for mc in (1, 2, 16):
        Flowable.range(0, 10_000).flat_map(lambda x: Flowable.range(x, 2).hide(), mc).test() \
            .assert_value_count(20_000).assert_complete()


def test_many_empty_inners_bounded():
    Flowable.range(0, 20_000).flat_map(lambda x: Flowable.empty(), 1).test().assert_result()


def test_nested_flat_map():
    Flowable.range(0, 100).flat_map(
        lambda x: Flowable.range(0, 100).flat_map(lambda y: Flowable.just(x * 100 + y), 2), 3) \
        .test().assert_value_count(10_000).assert_complete()


# ---------------------------------------------------------------------------- races

def test_race_two_inners_emitting_on_two_threads(race_runner, race_rounds):
    for _ in range(race_rounds):
        outer = ManualSource()
        inners, mapper = manual_inners(2)
        ts = outer.flat_map(mapper).test()
        outer.emit(0, 1)
        outer.complete()
        a, b = inners

        def run_a(a=a):
            a.emit(*range(0, 10))
            a.complete()

        def run_b(b=b):
            b.emit(*range(100, 110))
            b.complete()

        race_runner.race(run_a, run_b)
        ts.assert_complete().assert_no_errors().assert_protocol_ok()
        assert sorted(ts.values()) == list(range(10)) + list(range(100, 110))
        check_per_inner_order(ts.values(), lambda v: v // 100)


def test_race_two_inners_emitting_under_small_demand(race_runner, race_rounds):
    for _ in range(race_rounds // 2):
        outer = ManualSource()
        inners, mapper = manual_inners(2)
        ts = outer.flat_map(mapper, buffer_size=16).test(5)
        outer.emit(0, 1)
        outer.complete()
        a, b = inners

        def run_a(a=a):
            a.emit(*range(0, 8))
            a.complete()

        def run_b(b=b, ts=ts):
            b.emit(*range(100, 108))
            ts.request(6)
            b.complete()

        race_runner.race(run_a, run_b)
        ts.assert_value_count(11).assert_not_complete().assert_protocol_ok()
        ts.request(5)
        ts.assert_complete().assert_no_errors()
        assert sorted(ts.values()) == list(range(8)) + list(range(100, 108))
        check_per_inner_order(ts.values(), lambda v: v // 100)


def test_race_inner_completion_vs_outer_on_next(race_runner, race_rounds):
    for _ in range(race_rounds):
        outer = ManualSource()
        inners, mapper = manual_inners(2)
        ts = outer.flat_map(mapper, 2).test()
        outer.emit(0)
        inners[0].emit("a")

        def finish_first(s=inners[0]):
            s.emit("b")
            s.complete()

        def next_outer(outer=outer, s=inners[1]):
            outer.emit(1)
            s.emit("c")
            s.complete()
            outer.complete()

        race_runner.race(finish_first, next_outer)
        ts.assert_complete().assert_no_errors().assert_protocol_ok()
        assert sorted(ts.values()) == ["a", "b", "c"]
        assert ts.values().index("a") < ts.values().index("b")
        # one more per finished inner; two that finish in one drain pass: one request of 2
        assert outer.requests[0] == 2 and sum(outer.requests[1:]) == 2


def test_race_scalar_outer_on_next_vs_inner_on_next(race_runner, race_rounds):
    for _ in range(race_rounds):
        outer = ManualSource()
        inners, mapper = manual_inners(1)
        ts = outer.flat_map(lambda x, m=mapper: m(0) if x == 0 else Flowable.just(x), 8).test(0)
        outer.emit(0)

        def scalars(outer=outer):
            outer.emit(1, 2, 3)

        def inner_items(s=inners[0], ts=ts):
            s.emit(10, 11, 12)
            ts.request(6)

        race_runner.race(scalars, inner_items)
        ts.assert_value_count(6).assert_no_errors().assert_protocol_ok()
        assert sorted(ts.values()) == [1, 2, 3, 10, 11, 12]
        check_per_inner_order(ts.values(), lambda v: v // 10)


def test_race_request_vs_inner_on_next(race_runner, race_rounds):
    for _ in range(race_rounds):
        outer = ManualSource()
        inners, mapper = manual_inners(1)
        ts = outer.flat_map(mapper).test(0)
        outer.emit(0)
        outer.complete()
        race_items_vs_requests(race_runner, inners[0], (1, 2, 3, 4, 5), ts)
        ts.assert_result(1, 2, 3, 4, 5).assert_protocol_ok()


def test_race_request_vs_scalar_on_next(race_runner, race_rounds):
    for _ in range(race_rounds // 2):
        outer = ManualSource()
        ts = outer.flat_map(Flowable.just, 5).test(0)
        race_items_vs_requests(race_runner, outer, (1, 2, 3, 4, 5), ts)
        ts.assert_result(1, 2, 3, 4, 5).assert_protocol_ok()
        assert sum(outer.requests) <= 10


def test_race_cancel_vs_inner_on_next(race_runner, race_rounds):
    for _ in range(race_rounds):
        outer = ManualSource()
        inners, mapper = manual_inners(1)
        ts = outer.flat_map(mapper).test()
        outer.emit(0)
        inner = inners[0]

        def produce(s=inner):
            s.emit(*range(10))
            s.complete()

        race_runner.race(produce, ts.cancel)
        n = ts.value_count()
        ts.assert_value_sequence(list(range(n))).assert_no_errors().assert_protocol_ok()
        assert outer.cancels == 1
        if n < 10:  # cancelled while the inner was live (a finished inner is not cancelled)
            assert inner.cancels == 1
        assert inner.cancels <= 1
        ts.assert_not_complete()  # the outer never completed
        inner.emit(99)
        assert ts.value_count() == n


def test_race_cancel_vs_inner_completion(race_runner, race_rounds):
    for _ in range(race_rounds):
        outer = ManualSource()
        inners, mapper = manual_inners(1)
        ts = outer.flat_map(mapper).test(2)
        outer.emit(0)
        outer.complete()
        inner = inners[0]
        inner.emit(1, 2, 3)

        def finish(s=inner, ts=ts):
            s.complete()
            ts.request(1)

        race_runner.race(finish, ts.cancel)
        n = ts.value_count()
        assert n in (2, 3)
        ts.assert_value_sequence([1, 2, 3][:n]).assert_no_errors().assert_protocol_ok()
        if ts.completions():
            assert n == 3
        ts.request(5)
        assert ts.value_count() == n
        assert inner.cancels <= 1


def test_race_cancel_vs_outer_on_next_adding_inners(race_runner, race_rounds):
    for _ in range(race_rounds):
        outer = ManualSource()
        inners, mapper = manual_inners(6)
        ts = outer.flat_map(mapper).test()

        def produce(outer=outer):
            outer.emit(*range(6))

        race_runner.race(produce, ts.cancel)
        for s in inners:
            assert s.subscriptions == 0 or s.cancels >= 1  # every subscribed one got cancelled
            if s.subscriptions:
                s.emit("late")
        ts.assert_no_values().assert_not_terminated()


def test_race_two_inner_errors(race_runner, race_rounds, plugin_errors):
    for _ in range(race_rounds // 2):
        outer = ManualSource()
        inners, mapper = manual_inners(2)
        ts = outer.flat_map(mapper).test()
        outer.emit(0, 1)
        e1, e2 = ValueError("1"), ValueError("2")
        race_runner.race(lambda s=inners[0], e=e1: s.error(e), lambda s=inners[1], e=e2: s.error(e))
        ts.assert_no_values().assert_protocol_ok()
        assert len(ts.errors()) == 1
        delivered = ts.errors()[0]
        assert delivered in (e1, e2)
        assert plugin_errors.causes() == [e2 if delivered is e1 else e1]
        plugin_errors.clear()


def test_race_two_inner_errors_delayed(race_runner, race_rounds):
    for _ in range(race_rounds // 2):
        outer = ManualSource()
        inners, mapper = manual_inners(2)
        ts = outer.flat_map(mapper, delay_errors=True).test()
        outer.emit(0, 1)
        outer.complete()
        e1, e2 = ValueError("1"), ValueError("2")
        race_runner.race(lambda s=inners[0], e=e1: s.error(e), lambda s=inners[1], e=e2: s.error(e))
        ts.assert_error(CompositeException).assert_protocol_ok()
        assert set(map(id, ts.errors()[0].exceptions)) == {id(e1), id(e2)}


# ---------------------------------------------------------------------------- real threads

def drain_in_small_batches(ts: TestSubscriber[Any], total: int, batch: int) -> None:
    """Request ``batch`` at a time, waiting for each batch to arrive."""
    got = 0
    while got < total:
        ts.request(batch)
        got = min(total, got + batch)
        ts.await_count(got, timeout=10)
        assert not ts.timeout, f"stalled at {ts.value_count()} of {total}"


@pytest.mark.parametrize("max_concurrency", [1, 3, LONG_MAX])
def test_observe_on_inners_small_batches(max_concurrency):
    total = 30 * 40
    ts = Flowable.range(0, 30).flat_map(
        lambda x: Flowable.range(x * 100, 40).observe_on(Schedulers.computation(), buffer_size=8),
        max_concurrency, buffer_size=4).test(0)
    drain_in_small_batches(ts, total, 7)
    ts.await_done(10).assert_no_errors().assert_complete()
    assert sorted(ts.values()) == sorted(x * 100 + i for x in range(30) for i in range(40))
    check_per_inner_order(ts.values(), lambda v: v // 100)


@pytest.mark.parametrize("max_concurrency", [2, LONG_MAX])
def test_subscribe_on_inners_small_batches(max_concurrency):
    total = 20 * 50
    ts = Flowable.range(0, 20).flat_map(
        lambda x: Flowable.range(x * 100, 50).hide().subscribe_on(Schedulers.io()),
        max_concurrency, buffer_size=16).test(0)
    drain_in_small_batches(ts, total, 5)
    ts.await_done(10).assert_no_errors().assert_complete()
    assert sorted(ts.values()) == sorted(x * 100 + i for x in range(20) for i in range(50))
    check_per_inner_order(ts.values(), lambda v: v // 100)


def test_async_outer_and_inners_mixed_with_scalars():
    def mapper(x: int) -> Flowable[int]:
        if x % 3 == 0:
            return Flowable.just(x * 1000)
        return Flowable.range(x * 1000, 20).subscribe_on(Schedulers.computation())

    ts = Flowable.range(0, 60).subscribe_on(Schedulers.io()).flat_map(mapper, 4).test(0)
    total = 20 + 40 * 20
    drain_in_small_batches(ts, total, 9)
    ts.await_done(10).assert_no_errors().assert_complete()
    assert len(ts.values()) == total
    check_per_inner_order(ts.values(), lambda v: v // 1000)


def test_unbounded_consumer_on_many_threads():
    ts = Flowable.range(0, 50).flat_map(
        lambda x: Flowable.range(x * 1000, 200).subscribe_on(Schedulers.computation())).test()
    ts.await_done(10).assert_no_errors().assert_complete()
    assert len(ts.values()) == 50 * 200
    assert len(set(ts.values())) == 50 * 200
    check_per_inner_order(ts.values(), lambda v: v // 1000)


def test_downstream_on_next_is_serialized():
    inside = [0]
    overlap = [False]
    lock = threading.Lock()

    def enter(_v: int) -> None:
        with lock:
            inside[0] += 1
            if inside[0] > 1:
                overlap[0] = True
        for _ in range(50):
            pass
        with lock:
            inside[0] -= 1

    ts = Flowable.range(0, 8).flat_map(
        lambda x: Flowable.range(x * 1000, 300).hide().subscribe_on(Schedulers.computation())) \
        .do_on_next(enter).test()
    ts.await_done(10).assert_no_errors().assert_complete()
    assert ts.value_count() == 8 * 300
    assert not overlap[0]


def test_spy_sees_cancel_of_async_inner():
    spies: list[Spy] = []

    def mapper(x: int) -> Flowable[int]:
        s = Spy(Flowable.never())
        spies.append(s)
        return s

    ts = Flowable.range(0, 3).flat_map(mapper, 2).test()
    assert len(spies) == 2
    assert [s.requests for s in spies] == [[128], [128]]
    ts.cancel()
    assert [s.cancels for s in spies] == [1, 1]


# ---------------------------------------------------------------------------- issue 6: the cheap paths
# (inners finished within on_next are replenished in batches of max(1, max_concurrency // 2);
# a SYNC-fused inner is polled right in on_next when nothing else is live; a LambdaSubscriber
# downstream gets its function called directly)

class CapturingSubscriber(TestSubscriber[Any]):
    """A TestSubscriber that keeps the Subscription it got (white-box checks)."""

    def on_subscribe(self, s: Subscription) -> None:
        self.subscription = s
        super().on_subscribe(s)


def assert_token_ok(ts: CapturingSubscriber) -> None:
    """The drain was never given back twice (two tokens or a negative count: two
    emitters at once)."""
    gate = ts.subscription.gate
    if hasattr(gate, "_token"):  # the gil backend
        assert len(gate._token) <= 1
    else:  # the lock backend
        assert gate._wip >= 0


def test_scalar_inners_replenish_in_batches_of_half_max_concurrency():
    log: list[int] = []
    ts = Flowable.range(0, 40).do_on_request(log.append).flat_map(Flowable.just, 16).test()
    ts.assert_value_sequence(list(range(40))).assert_complete()
    assert log == [16, 8, 8, 8, 8, 8]


def test_scalar_batch_with_odd_max_concurrency():
    log: list[int] = []
    ts = Flowable.range(0, 10).do_on_request(log.append).flat_map(Flowable.just, 5).test()
    ts.assert_value_sequence(list(range(10))).assert_complete()
    assert log == [5, 2, 2, 2, 2, 2]


def test_scalar_batch_with_max_concurrency_one_is_one_by_one():
    log: list[int] = []
    Flowable.range(0, 3).do_on_request(log.append).flat_map(Flowable.just, 1) \
        .test().assert_result(0, 1, 2)
    assert log == [1, 1, 1, 1]


def test_just_empty_mixture_max_concurrent():
    log: list[int] = []
    ts = Flowable.range(0, 4 * 128).do_on_request(log.append).flat_map(
        lambda v: Flowable.empty() if v % 2 == 0 else Flowable.just(v), 16).test()
    ts.assert_value_sequence(list(range(1, 512, 2))).assert_complete()
    assert log == [16] + [8] * 64  # empty and just inners count alike


def test_range_empty_mixture_max_concurrent():
    ts = Flowable.range(0, 4 * 128).flat_map(
        lambda v: Flowable.empty() if v % 2 == 0 else Flowable.range(v, 2), 16).test()
    expected = [x for v in range(1, 512, 2) for x in (v, v + 1)]
    ts.assert_value_sequence(expected).assert_complete()


@pytest.mark.parametrize("hide", [False, True], ids=["sync_fused", "unfused"])
def test_inners_finished_in_on_next_replenish_one_each(hide):
    """RxJava 2.2.21 FlowableFlatMap: a subscribed inner that finishes within on_next is
    removed by the drain pass its completion runs, which asks for one more (only Callable
    inners are batched by scalarLimit)."""
    log: list[int] = []
    ts = Flowable.range(0, 12).do_on_request(log.append) \
        .flat_map(lambda x: Flowable.range(x * 10, 2).hide() if hide
                  else Flowable.range(x * 10, 2), 4).test()
    ts.assert_value_sequence([x * 10 + k for x in range(12) for k in range(2)]).assert_complete()
    assert log == [4] + [1] * 12


def test_queued_scalars_replenish_per_drain_pass_and_direct_ones_in_batches():
    outer = ManualSource()
    ts = outer.flat_map(Flowable.just, 4).test(1)
    outer.emit(1)  # went downstream at once: counted (1 of a batch of 2)
    outer.emit(2, 3)  # no demand: queued
    assert outer.requests == [4]
    ts.request(2)  # one drain pass emits both and asks for both
    assert outer.requests == [4, 2]
    ts.request(1)
    outer.emit(4)  # at once again: the batch of 2 is full
    assert outer.requests == [4, 2, 2]
    ts.assert_values(1, 2, 3, 4)


def test_uncounted_scalars_wait_while_other_inners_are_live():
    outer = ManualSource()
    inners, mapper = manual_inners(3)
    ts = outer.flat_map(lambda x: Flowable.just(x) if x < 0 else mapper(x), 4).test()
    outer.emit(-1)  # counted, not asked for yet (a batch is 2)
    outer.emit(0, 1, 2)
    assert outer.requests == [4]  # all four slots taken or counted
    for s in inners:
        s.complete()  # each finishes in its own drain pass
    assert outer.requests == [4, 1, 1, 1]
    outer.emit(-2)  # completes the batch of 2
    assert outer.requests == [4, 1, 1, 1, 2]
    outer.complete()
    ts.assert_result(-1, -2)


def test_no_batch_request_after_cancel():
    log: list[int] = []
    ts: TestSubscriber[int] = TestSubscriber()
    Flowable.range(0, 100).do_on_request(log.append).flat_map(Flowable.just, 4) \
        .do_on_next(lambda v: ts.cancel() if v == 3 else None).subscribe(ts)
    ts.assert_values(0, 1, 2, 3).assert_not_terminated()
    assert log == [4, 2]  # 0, 1 asked for again; 2, 3 not: cancelled by then


def test_sync_inner_next_to_a_live_inner_goes_through_the_drain():
    outer = ManualSource()
    manual = ManualSource()
    probe = SyncFusedProbe(3)
    ts = outer.flat_map(lambda x: manual if x == 0 else probe).test()
    outer.emit(0, 1)
    ts.assert_values(0, 1, 2)
    manual.emit("a")
    manual.complete()
    outer.complete()
    ts.assert_result(0, 1, 2, "a")
    assert probe.requests == [] and probe.cancelled == 0


def test_sync_inner_under_partial_demand_finishes_in_the_drain():
    log: list[int] = []
    ts = Flowable.range(0, 2).do_on_request(log.append) \
        .flat_map(lambda x: Flowable.range(x * 10, 3), 2).test(2)
    ts.assert_values(0, 1)
    assert log == [2]
    ts.request(2)
    ts.assert_values(0, 1, 2, 10)
    assert log == [2, 1]  # the first inner finished in a drain pass
    ts.request(10)
    ts.assert_result(0, 1, 2, 10, 11, 12)
    assert log == [2, 1, 1]


def test_cancel_while_a_sync_inner_is_polled_in_on_next_cancels_it():
    probe = SyncFusedProbe(5)
    ts: TestSubscriber[int] = TestSubscriber()
    Flowable.just(0).hide().flat_map(lambda _: probe) \
        .do_on_next(lambda v: ts.cancel() if v == 2 else None).subscribe(ts)
    ts.assert_values(0, 1, 2).assert_not_terminated()
    assert probe.cancelled == 1


def test_sync_inner_polled_in_on_next_empty_from_the_start():
    probe = SyncFusedProbe(0)
    log: list[int] = []
    Flowable.range(0, 4).do_on_request(log.append).flat_map(lambda _: probe, 2) \
        .test().assert_result()
    assert log == [2, 1, 1, 1, 1]


def test_lambda_consumer_raising_on_the_scalar_path():
    seen: list[int] = []
    errors: list[BaseException] = []
    cancels: list[int] = []

    def on_next(v: int) -> None:
        seen.append(v)
        if v == 3:
            raise ValueError("consumer")

    Flowable.range(0, 10).do_on_cancel(lambda: cancels.append(1)) \
        .flat_map(Flowable.just).subscribe(on_next, errors.append)
    assert seen == [0, 1, 2, 3]
    assert [type(e) for e in errors] == [ValueError]
    assert cancels == [1]


def test_lambda_consumer_raising_on_a_sync_inner():
    seen: list[int] = []
    errors: list[BaseException] = []
    cancels: list[int] = []

    def on_next(v: int) -> None:
        seen.append(v)
        if v == 11:
            raise ValueError("consumer")

    Flowable.range(0, 10).do_on_cancel(lambda: cancels.append(1)) \
        .flat_map(lambda x: Flowable.range(x * 10, 3)).subscribe(on_next, errors.append)
    assert seen == [0, 1, 2, 10, 11]
    assert [type(e) for e in errors] == [ValueError]
    assert cancels == [1]


def test_lambda_consumer_raising_in_the_drain_loop():
    from rxpy2.processors import UnicastProcessor
    up: UnicastProcessor[int] = UnicastProcessor()
    seen: list[int] = []
    errors: list[BaseException] = []

    def on_next(v: int) -> None:
        seen.append(v)
        if v == 2:
            raise ValueError("consumer")

    Flowable.just(0).hide().flat_map(lambda _: up).subscribe(on_next, errors.append)
    up.on_next(1)
    up.on_next(2)
    up.on_next(3)
    assert seen == [1, 2]
    assert [type(e) for e in errors] == [ValueError]


def test_lambda_consumer_disposed_gets_nothing_more():
    outer = ManualSource()
    seen: list[Any] = []
    d = outer.flat_map(lambda x: Flowable.just(x) if x % 2 else Flowable.range(x, 2)) \
        .subscribe(seen.append)
    outer.emit(1, 2)
    d.dispose()
    outer.emit(3, 4)
    assert seen == [1, 2, 3]
    assert outer.cancels == 1


def test_race_request_vs_sync_inners_in_on_next(race_runner, race_rounds):
    for _ in range(race_rounds // 2):
        outer = ManualSource()
        ts = CapturingSubscriber(0)
        outer.flat_map(lambda x: Flowable.range(x * 10, 3), 4).subscribe(ts)

        def produce(outer=outer):
            outer.emit(0, 1, 2, 3)
            outer.complete()

        def consume(ts=ts):
            for _ in range(12):
                ts.request(1)

        race_runner.race(produce, consume)
        ts.assert_value_count(12).assert_complete().assert_no_errors().assert_protocol_ok()
        assert sorted(ts.values()) == [x * 10 + k for x in range(4) for k in range(3)]
        check_per_inner_order(ts.values(), lambda v: v // 10)
        assert outer.requests[0] == 4 and sum(outer.requests) <= 8
        assert_token_ok(ts)


def test_race_request_vs_scalars_bounded(race_runner, race_rounds):
    for _ in range(race_rounds // 2):
        outer = ManualSource()
        ts = CapturingSubscriber(0)
        outer.flat_map(Flowable.just, 4).subscribe(ts)

        def produce(outer=outer):
            outer.emit(1, 2, 3, 4)
            outer.complete()

        def consume(ts=ts):
            for _ in range(4):
                ts.request(1)

        race_runner.race(produce, consume)
        ts.assert_result(1, 2, 3, 4).assert_protocol_ok()
        assert outer.requests[0] == 4 and sum(outer.requests) <= 8
        assert_token_ok(ts)


def test_race_cancel_vs_sync_inners_in_on_next(race_runner, race_rounds):
    for _ in range(race_rounds):
        outer = ManualSource()
        probes = [SyncFusedProbe(4) for _ in range(6)]
        ts = CapturingSubscriber()
        outer.flat_map(lambda x, p=probes: p[x]).subscribe(ts)

        def produce(outer=outer):
            outer.emit(*range(6))

        race_runner.race(produce, ts.cancel)
        ts.assert_no_errors().assert_not_complete().assert_protocol_ok()
        n = ts.value_count()
        ts.assert_value_sequence([k for _ in range(6) for k in range(4)][:n])
        assert outer.cancels == 1
        for p in probes:
            assert p.cancelled <= 1
        assert_token_ok(ts)


def test_race_inner_signals_vs_its_subscribe_returning(race_runner, race_rounds):
    import time
    for _ in range(race_rounds):
        outer = ManualSource()
        inner = ManualSource()
        ts = CapturingSubscriber()
        outer.flat_map(lambda _, s=inner: s, 2).subscribe(ts)

        def subscribe_it(outer=outer):
            outer.emit(0)

        def signal(s=inner):
            while not s.requests:  # its on_subscribe ran (it asks for buffer_size there)
                time.sleep(0)
            s.emit(1, 2)
            s.complete()

        race_runner.race(subscribe_it, signal)
        outer.complete()
        ts.assert_result(1, 2).assert_protocol_ok()
        assert outer.requests == [2, 1]
        assert_token_ok(ts)


def test_race_two_threads_draining_many_rounds_token_stays_single(race_runner, race_rounds):
    for _ in range(race_rounds // 2):
        outer = ManualSource()
        inners, mapper = manual_inners(2)
        ts = CapturingSubscriber(3)
        outer.flat_map(mapper).subscribe(ts)
        outer.emit(0, 1)
        outer.complete()

        def run_a(a=inners[0], ts=ts):
            a.emit(*range(0, 6))
            ts.request(3)
            a.complete()

        def run_b(b=inners[1], ts=ts):
            b.emit(*range(100, 106))
            ts.request(6)
            b.complete()

        race_runner.race(run_a, run_b)
        ts.assert_complete().assert_no_errors().assert_protocol_ok()
        assert sorted(ts.values()) == list(range(6)) + list(range(100, 106))
        check_per_inner_order(ts.values(), lambda v: v // 100)
        assert_token_ok(ts)


def test_cancel_inside_a_synchronous_inner_stops_that_inner() -> None:
    """A cancel that comes while an inner emits inside its own ``subscribe`` (before it joins
    the live inners) stops that inner at once: a lazy inner is pulled no further (RxJava 2
    adds the inner before subscribing it, so cancelling the inners reaches it)."""
    pulled: list[int] = []

    def endless() -> Iterator[int]:
        i = 0
        while True:
            pulled.append(i)
            yield i
            i += 1

    out = (Flowable.just(1).hide()
           .flat_map(lambda _: Flowable.from_iterable(endless()).hide())
           .take(5).to_list().blocking_get())
    assert out == [0, 1, 2, 3, 4]
    assert pulled == [0, 1, 2, 3, 4]
