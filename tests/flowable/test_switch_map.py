"""switch_map / switch_map_delay_error: switching, stale inners, shared demand, fusion,
errors, cancellation, races."""

from __future__ import annotations

import pytest
from _async_probes import race_cancel_vs_inner_items
from _async_probes import race_items_vs_requests
from probes import Manual
from probes import ManualSource
from probes import Recorded
from probes import RequestOneInOnNext
from probes import Spy
from probes import boom
from probes import switch_between

from rxpy2 import Flowable
from rxpy2._internal.fuseable import Callable
from rxpy2._internal.operators.flowable.flowable_switch_map import FlowableSwitchMap
from rxpy2._internal.subscriptions.scalar import ScalarSubscription
from rxpy2.exceptions import CompositeException
from rxpy2.exceptions import MissingBackpressureException
from rxpy2.processors import UnicastProcessor
from rxpy2.reactivestreams import LONG_MAX
from rxpy2.schedulers import Schedulers

pytestmark = pytest.mark.usefixtures("shutdown_schedulers")


def tens(x):
    return Flowable.range(x * 10, 3)


class CountingCallable(Flowable, Callable):
    """A Callable source that counts how often it was subscribed and called."""

    def __init__(self, value):
        self.value = value
        self.subscriptions = 0
        self.calls = 0

    def subscribe_actual(self, subscriber):
        self.subscriptions += 1
        subscriber.on_subscribe(ScalarSubscription(subscriber, self.value))

    def call(self):
        self.calls += 1
        if isinstance(self.value, BaseException):
            raise self.value
        return self.value


# ---------------------------------------------------------------------------- values

def test_synchronous_inners_all_emit():
    Flowable.range(1, 3).switch_map(tens).test() \
        .assert_result(10, 11, 12, 20, 21, 22, 30, 31, 32).assert_protocol_ok()


def test_hidden_inners():
    Flowable.range(1, 3).hide().switch_map(lambda x: tens(x).hide()).test() \
        .assert_result(10, 11, 12, 20, 21, 22, 30, 31, 32)


def test_stale_inner_items_are_dropped_and_it_is_cancelled():
    src = ManualSource()
    inners = [ManualSource() for _ in range(2)]
    ts = src.switch_map(lambda i: inners[i]).test()
    src.emit(0)
    inners[0].emit("a1")
    src.emit(1)
    assert inners[0].cancelled
    inners[0].emit("a2")  # stale: ignored
    inners[1].emit("b1")
    inners[0].complete()  # stale: ignored
    ts.assert_values("a1", "b1").assert_not_complete()
    src.complete()
    ts.assert_not_complete()  # waits for the last inner
    inners[1].emit("b2")
    inners[1].complete()
    ts.assert_result("a1", "b1", "b2")


def test_upstream_completion_waits_for_the_last_inner():
    src, inner = ManualSource(), Manual()
    ts = src.switch_map(lambda x: inner).test()
    src.emit(1)
    src.complete()
    ts.assert_not_complete()
    inner.subscriber.on_next(5)
    inner.subscriber.on_complete()
    ts.assert_result(5)


def test_empty_outer_completes():
    Flowable.empty().hide().switch_map(tens).test().assert_result()


def test_from_callable_outer():
    Flowable.from_callable(lambda: 2).switch_map(tens).test().assert_result(20, 21, 22)


def test_callable_inners_are_not_subscribed():
    inners = [CountingCallable(1), CountingCallable(2)]
    ts = Flowable.range(0, 2).hide().switch_map(lambda i: inners[i]).test()
    ts.assert_result(1, 2)
    assert [c.subscriptions for c in inners] == [0, 0]
    assert [c.calls for c in inners] == [1, 1]


def test_callable_inner_empty_and_failing():
    Flowable.range(0, 3).switch_map(
        lambda i: Flowable.empty() if i == 1 else Flowable.just(i)).test().assert_result(0, 2)
    Flowable.range(0, 3).switch_map(
        lambda i: Flowable.from_callable(boom) if i == 1 else Flowable.just(i)).test() \
        .assert_failure(ZeroDivisionError, 0)


def test_scalar_inner_waits_for_demand_and_a_switch_drops_it():
    src = ManualSource()
    ts = src.switch_map(Flowable.just).test(0)
    ts.request(1)
    src.emit(1)
    ts.assert_values(1)
    src.emit(2)
    src.emit(3)  # 2 was waiting for demand: replaced by 3
    ts.request(5)
    src.complete()
    ts.assert_result(1, 3)


def test_async_fused_inner():
    up = UnicastProcessor.create()
    ts = Flowable.just(0).hide().switch_map(lambda _: up).test(0)
    up.on_next(1)
    up.on_next(2)
    ts.request(1)
    ts.assert_values(1)
    up.on_complete()
    ts.request(1)
    ts.assert_result(1, 2)


def test_operator_type():
    assert isinstance(Flowable.range(1, 2).switch_map(tens), FlowableSwitchMap)
    assert Flowable.range(1, 2).switch_map_delay_error(tens).delay_errors is True


def test_bad_arguments():
    with pytest.raises(TypeError):
        Flowable.range(1, 2).switch_map(None)
    with pytest.raises(ValueError):
        Flowable.range(1, 2).switch_map(tens, 0)
    with pytest.raises(ValueError):
        Flowable.range(1, 2).switch_map_delay_error(tens, -4)


def test_100k_outer_items_no_recursion():
    ts = Flowable.range(0, 100_000).switch_map(Flowable.just).test()
    ts.assert_value_count(100_000).assert_complete()


def test_10k_hidden_inners_under_request_in_on_next_no_recursion():
    sub = RequestOneInOnNext()
    Flowable.range(0, 10_000).switch_map(lambda x: Flowable.just(x).hide()).subscribe(sub)
    # bounded demand: some inners are replaced before their item was asked for
    assert sub.completed == 1 and not sub.errors
    assert sub.values == sorted(set(sub.values)) and sub.values[-1] == 9_999


# ---------------------------------------------------------------------------- requests

def test_upstream_gets_long_max_on_the_first_request_only():
    rec = Recorded(1, 3)
    ts = rec.flowable.switch_map(Flowable.just).test(0)
    assert rec.requests == []
    ts.request(1)
    assert rec.requests == [LONG_MAX]
    ts.request(1)
    assert rec.requests == [LONG_MAX]


def test_inner_prefetch_and_replenish_by_what_was_emitted():
    spy = Spy(Flowable.range(0, 10))
    ts = Flowable.just(0).hide().switch_map(lambda _: spy, buffer_size=4).test(0)
    ts.request(1)
    ts.assert_values(0)
    assert spy.requests == [4, 1]  # the prefetch, then one for the one that went out
    ts.request(2)
    ts.assert_values(0, 1, 2)
    assert spy.requests == [4, 1, 2]  # one drain pass emitted two
    ts.request(LONG_MAX)
    ts.assert_result(*range(10))
    assert max(spy.requests) == 4  # never more than the buffer at once


def test_demand_is_shared_across_inners():
    src = ManualSource()
    inners = [ManualSource() for _ in range(2)]
    ts = src.switch_map(lambda i: inners[i]).test(0)
    ts.request(3)
    src.emit(0)
    inners[0].emit("a1", "a2")
    src.emit(1)
    inners[1].emit("b1", "b2")
    ts.assert_values("a1", "a2", "b1")  # 3 requested in all
    ts.request(1)
    ts.assert_values("a1", "a2", "b1", "b2")


def test_inner_overflow_is_missing_backpressure():
    inner = ManualSource()
    ts = Flowable.just(0).hide().switch_map(lambda _: inner, buffer_size=2).test(0)
    ts.request(1)
    inner.emit(1, 2, 3)  # 1 goes out; 2 and 3 fill the queue ... beyond what was asked
    inner.emit(4)
    ts.assert_failure(MissingBackpressureException, 1)


# ---------------------------------------------------------------------------- errors

def test_outer_error_cancels_the_inner():
    src, inner = ManualSource(), Manual()
    ts = src.switch_map(lambda x: inner).test()
    src.emit(1)
    inner.subscriber.on_next("a")
    src.error(ValueError("x"))
    ts.assert_failure(ValueError, "a")
    assert inner.probe.cancelled == 1


def test_inner_error_cancels_the_outer():
    src, inner = ManualSource(), Manual()
    ts = src.switch_map(lambda x: inner).test()
    src.emit(1)
    inner.subscriber.on_error(KeyError("x"))
    ts.assert_failure(KeyError)
    assert src.cancelled


def test_delay_errors_outer_error_waits_for_the_last_inner():
    src, inner = ManualSource(), Manual()
    ts = src.switch_map_delay_error(lambda x: inner).test()
    src.emit(1)
    src.error(ValueError("x"))
    ts.assert_not_terminated()
    assert inner.probe.cancelled == 0
    inner.subscriber.on_next("a")
    inner.subscriber.on_complete()
    ts.assert_failure(ValueError, "a")


def test_delay_errors_collects_every_error():
    src = ManualSource()
    inners = [ManualSource() for _ in range(2)]
    ts = src.switch_map_delay_error(lambda i: inners[i]).test()
    e1, e2, e3 = KeyError(1), KeyError(2), ValueError("outer")
    src.emit(0)
    inners[0].emit("a")
    inners[0].error(e1)
    assert not src.cancelled
    src.emit(1)
    inners[1].emit("b")
    src.error(e3)
    inners[1].error(e2)
    ts.assert_failure(CompositeException, "a", "b")
    assert ts.errors()[0].exceptions == [e1, e3, e2]


def test_delay_errors_single_error_as_is():
    err = KeyError("x")
    Flowable.range(0, 3).switch_map_delay_error(
        lambda i: Flowable.error(err) if i == 1 else Flowable.just(i)).test() \
        .assert_failure(lambda e: e is err, 0, 2)


def test_stale_inner_error_goes_to_plugins(plugin_errors):
    src = ManualSource()
    inners = [ManualSource() for _ in range(2)]
    ts = src.switch_map(lambda i: inners[i]).test()
    src.emit(0)
    src.emit(1)
    err = KeyError("stale")
    inners[0].error(err)
    ts.assert_not_terminated()
    assert plugin_errors.causes() == [err]


@pytest.mark.parametrize("op", ["switch_map", "switch_map_delay_error"])
def test_mapper_raising_cancels_upstream_and_inner(op):
    src, inner = ManualSource(), Manual()
    ts = getattr(src, op)(lambda x: boom() if x == 2 else inner).test()
    src.emit(1)
    inner.subscriber.on_next("a")
    src.emit(2)
    ts.assert_failure(ZeroDivisionError, "a")
    assert src.cancelled and inner.probe.cancelled == 1


@pytest.mark.parametrize("op", ["switch_map", "switch_map_delay_error"])
def test_mapper_returning_none(op):
    rec = Recorded(1, 3)
    getattr(rec.flowable, op)(lambda x: None).test().assert_failure(TypeError)
    assert rec.cancels == [1]


def test_fused_inner_poll_raising():
    Flowable.just(0).hide().switch_map(
        lambda _: Flowable.range(1, 3).map(lambda v: boom() if v == 2 else v)).test() \
        .assert_failure(ZeroDivisionError, 1)


def test_fused_inner_poll_raising_delayed():
    Flowable.range(0, 2).hide().switch_map_delay_error(
        lambda i: Flowable.range(i * 10 + 1, 3).map(lambda v: boom() if v == 2 else v)).test() \
        .assert_failure(ZeroDivisionError, 1, 11, 12, 13)


# ---------------------------------------------------------------------------- cancellation

@pytest.mark.parametrize("op", ["switch_map", "switch_map_delay_error"])
def test_cancel_reaches_upstream_and_inner(op):
    src, inner = ManualSource(), Manual()
    ts = getattr(src, op)(lambda x: inner).test()
    src.emit(1)
    inner.subscriber.on_next("a")
    ts.cancel()
    assert src.cancelled and inner.probe.cancelled == 1
    inner.subscriber.on_next("b")
    src.emit(2)  # a source that missed the cancel: nothing new is subscribed
    assert inner.subscriptions == 1
    ts.assert_values("a").assert_not_terminated()


def test_take_cancels_upstream():
    rec = Recorded(1, 100)
    rec.flowable.switch_map(tens).take(4).test().assert_result(10, 11, 12, 20)
    assert rec.cancels == [1]


# ---------------------------------------------------------------------------- threads

def test_end_to_end_inners_on_computation():
    ts = Flowable.range(0, 20).switch_map(
        lambda i: Flowable.range(i * 10, 10).observe_on(Schedulers.computation())).test()
    ts.await_done(10).assert_no_errors().assert_complete()
    values = ts.values()
    assert values[-10:] == list(range(190, 200))  # the last inner is never replaced
    assert values == sorted(values)  # never back to an earlier inner
    assert len(set(values)) == len(values)


def test_race_new_outer_item_vs_inner_on_next(race_runner, race_rounds):
    for _ in range(race_rounds):
        src, a, b, ts = switch_between()

        def old_inner(a=a):
            a.emit(*range(10))

        def switch(src=src, b=b):
            src.emit(1)
            b.emit(100, 101, 102)
            b.complete()

        race_runner.race(old_inner, switch)
        values = ts.values()
        n = len(values) - 3
        assert values[n:] == [100, 101, 102]  # nothing of the old inner after the new one
        assert values[:n] == list(range(n))  # an in-order prefix of the old one, no duplicate
        ts.assert_not_complete().assert_no_errors().assert_protocol_ok()
        assert a.cancelled


def test_race_request_vs_inner_on_next(race_runner, race_rounds):
    for _ in range(race_rounds // 2):
        inner = ManualSource()
        ts = Flowable.just(0).hide().switch_map(lambda _, inner=inner: inner).test(0)
        ts.request(1)
        race_items_vs_requests(race_runner, inner, (1, 2, 3, 4), ts, requests=3)
        ts.assert_result(1, 2, 3, 4).assert_protocol_ok()


def test_race_cancel_vs_inner_on_next(race_runner, race_rounds):
    race_cancel_vs_inner_items(
        race_runner, race_rounds,
        lambda inner: Flowable.just(0).hide().switch_map(lambda _: inner).test())
