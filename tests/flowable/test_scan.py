"""scan without seed (1:1) and with seed (queue-drain: the seed needs demand of its own)."""

from __future__ import annotations

import operator
from functools import partial

import pytest
from probes import ManualSource
from probes import Spy
from probes import failing

from rxpy2 import Flowable
from rxpy2.observers import FlowableSubscriber
from rxpy2.reactivestreams import LONG_MAX

add = operator.add


def boom(*_args):
    raise ZeroDivisionError("boom")


class OneByOne(FlowableSubscriber[int]):
    """Requests 1 up front and 1 more from inside each on_next (re-entrant requests)."""

    def __init__(self) -> None:
        self.values: list[int] = []
        self.completed = False
        self.error: BaseException | None = None

    def on_subscribe(self, s):
        self.s = s
        s.request(1)

    def on_next(self, item):
        self.values.append(item)
        self.s.request(1)

    def on_error(self, error):
        self.error = error

    def on_complete(self):
        self.completed = True


# ----------------------------------------------------------------- scan without seed

def test_scan_values():
    Flowable.range(1, 5).scan(add).test().assert_result(1, 3, 6, 10, 15)


def test_scan_first_item_as_is_without_calling_accumulator():
    Flowable.just(7).scan(boom).test().assert_result(7)


def test_scan_empty():
    src = ManualSource()
    ts = src.scan(add).test()
    src.complete()
    ts.assert_result()


def test_scan_requests_pass_through():
    spy = Spy(Flowable.range(1, 5))
    ts = spy.scan(add).test(0)
    assert spy.requests == []
    ts.request(1)
    ts.assert_values(1)
    ts.request(2)
    ts.assert_values(1, 3, 6).assert_not_complete()
    assert spy.requests == [1, 2]
    ts.request(LONG_MAX)
    ts.assert_result(1, 3, 6, 10, 15)
    assert spy.requests == [1, 2, LONG_MAX]


def test_scan_error_passthrough():
    failing(1, 2).scan(add).test().assert_failure(ValueError, 1, 3)


def test_scan_cancel_reaches_source():
    src = ManualSource()
    ts = src.scan(add).test()
    src.emit(1)
    ts.cancel()
    assert src.cancelled


def test_scan_accumulator_raises_cancels_upstream():
    spy = Spy(Flowable.range(1, 5))
    spy.scan(boom).test().assert_failure(ZeroDivisionError, 1)
    assert spy.cancels == 1


def test_scan_accumulator_none_is_type_error():
    spy = Spy(Flowable.range(1, 5))
    spy.scan(lambda a, b: None).test().assert_failure(TypeError, 1)
    assert spy.cancels == 1


def test_scan_items_after_failure_are_dropped(plugin_errors):
    src = ManualSource()
    ts = src.scan(boom).test()
    src.emit(1, 2, 3)
    err = ValueError("late")
    src.error(err)
    ts.assert_failure(ZeroDivisionError, 1)
    assert plugin_errors == [err]


def test_scan_bad_arguments():
    with pytest.raises(TypeError):
        Flowable.just(1).scan(None)
    with pytest.raises(TypeError):
        Flowable.just(1).scan(add, None)
    with pytest.raises(TypeError):
        Flowable.just(1).scan_with(None, add)
    with pytest.raises(TypeError):
        Flowable.just(1).scan_with(lambda: 0, None)


# ----------------------------------------------------------------- scan with seed

def test_scan_seed_values():
    Flowable.range(1, 3).scan(add, 0).test().assert_result(0, 1, 3, 6)


def test_scan_seed_empty_emits_seed():
    src = ManualSource()
    ts = src.scan(add, 10).test()
    ts.assert_values(10).assert_not_complete()
    src.complete()
    ts.assert_result(10)


def test_scan_seed_waits_for_demand_even_for_the_seed():
    src = ManualSource()
    ts = src.scan(add, 0).test(0)
    src.emit(1, 2)
    ts.assert_empty()
    ts.request(1)
    ts.assert_values(0)
    ts.request(1)
    ts.assert_values(0, 1)
    src.complete()
    ts.assert_values(0, 1).assert_not_complete()  # 3 still waits for demand
    ts.request(1)
    ts.assert_result(0, 1, 3)


def test_scan_seed_does_not_overemit():
    ts = Flowable.range(1, 5).scan(add, 0).test(3)
    ts.assert_values(0, 1, 3).assert_not_complete()
    ts.request(2)
    ts.assert_values(0, 1, 3, 6, 10).assert_not_complete()
    ts.request(1)
    ts.assert_result(0, 1, 3, 6, 10, 15)


def test_scan_seed_upstream_prefetch_and_replenish():
    spy = Spy(Flowable.range(1, 1000))
    ts = spy.scan(add, 0).test(0)
    assert spy.requests == [127]  # the seed takes 1 of the 128 slots
    ts.request(95)
    assert spy.requests == [127]
    ts.request(1)  # the 96th emission: replenish 75% of the prefetch
    assert spy.requests == [127, 96]
    ts.request(LONG_MAX)
    ts.assert_complete().assert_value_count(1001)
    assert ts.values()[-1] == sum(range(1, 1001))
    assert spy.requests[0] == 127
    assert set(spy.requests[1:]) == {96}
    assert LONG_MAX not in spy.requests


def test_scan_seed_prefetch_stable_under_unbounded_demand():
    spy = Spy(Flowable.range(1, 300))
    spy.scan(add, 0).test().assert_value_count(301).assert_complete()
    assert spy.requests == [127, 96, 96, 96]


def test_scan_with_fresh_seed_per_subscriber():
    f = Flowable.range(1, 3).scan_with(list, lambda acc, x: acc + [x])
    f.test().assert_result([], [1], [1, 2], [1, 2, 3])
    f.test().assert_result([], [1], [1, 2], [1, 2, 3])


def test_scan_seed_supplier_raises():
    spy = Spy(Flowable.range(1, 3))
    spy.scan_with(boom, add).test().assert_failure(ZeroDivisionError)
    assert spy.subscriptions == 0


def test_scan_seed_supplier_none_is_type_error():
    Flowable.range(1, 3).scan_with(lambda: None, add).test().assert_failure(TypeError)


def test_scan_seed_error_passthrough():
    failing(1, 2).scan(add, 0).test().assert_failure(ValueError, 0, 1, 3)


def test_scan_seed_error_cuts_ahead_of_queued_results():
    src = ManualSource()
    ts = src.scan(add, 0).test(1)
    src.emit(1, 2)
    src.error(ValueError("boom"))
    ts.assert_failure(ValueError, 0)


def test_scan_seed_accumulator_raises_cancels_upstream():
    spy = Spy(Flowable.range(1, 5))
    spy.scan(boom, 0).test().assert_failure(ZeroDivisionError, 0)
    assert spy.cancels == 1


def test_scan_seed_accumulator_none_is_type_error():
    src = ManualSource()
    ts = src.scan(lambda a, b: None, 0).test()
    src.emit(1)
    ts.assert_failure(TypeError, 0)
    assert src.cancelled


def test_scan_seed_cancel_reaches_source_and_stops_emission():
    src = ManualSource()
    ts = src.scan(add, 0).test(1)
    src.emit(1)
    ts.cancel()
    assert src.cancelled
    ts.request(5)
    src.emit(2)
    ts.assert_values(0).assert_not_terminated()


def test_scan_seed_invalid_request_goes_to_plugins(plugin_errors):
    ts = Flowable.range(1, 3).scan(add, 0).test(0)
    ts.request(0)
    ts.assert_empty()
    assert len(plugin_errors) == 1
    assert isinstance(plugin_errors[0], ValueError) and "3.9" in str(plugin_errors[0])


def test_scan_seed_reentrant_requests_no_recursion():
    s = OneByOne()
    Flowable.range(0, 20_000).scan(add, 0).subscribe(s)
    assert s.error is None and s.completed
    assert len(s.values) == 20_001
    assert s.values[-1] == sum(range(20_000))


def test_scan_seed_race_request_vs_emission(race_runner, race_rounds):
    for _ in range(race_rounds):
        src = ManualSource()
        ts = src.scan(add, 0).test(0)
        race_runner.race(partial(src.emit, 1, 2, 3, 4), partial(ts.request, 3))
        ts.assert_values(0, 1, 3).assert_no_errors()
        race_runner.race(src.complete, partial(ts.request, 2))
        ts.assert_values(0, 1, 3, 6, 10).assert_complete().assert_protocol_ok()


# ---------------------------------------------------------------- RxJava's scan(seed, accumulator)

def test_scan_seed_first_as_rxjava():
    """The first argument not callable and the second callable: RxJava's order."""
    Flowable.range(1, 3).scan(10, operator.add).test().assert_result(10, 11, 13, 16)
    Flowable.range(1, 3).scan(operator.add, 10).test().assert_result(10, 11, 13, 16)


def test_scan_a_callable_first_is_always_the_accumulator():
    def seed():
        return 0

    Flowable.just(1).scan(lambda acc, x: acc, seed).test().assert_result(seed, seed)
    with pytest.raises(TypeError, match="accumulator must be callable, not int"):
        Flowable.just(1).scan(0, 1)
