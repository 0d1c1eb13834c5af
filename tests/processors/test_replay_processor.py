"""ReplayProcessor: unbounded, size-bound and time-bound buffers, per-subscriber replay, races."""

from __future__ import annotations

import gc
import weakref
from functools import partial

import pytest
from probes import ManualSource
from processor_probes import FakeClock
from processor_probes import emit
from processor_probes import race
from processor_probes import request_each

from rxpy2 import Flowable
from rxpy2 import ReplayProcessor
from rxpy2.reactivestreams import LONG_MAX
from rxpy2.testing import TestSubscriber


class Item:
    """A weak-referenceable item."""

    def __init__(self, n: int) -> None:
        self.n = n

    def __repr__(self) -> str:
        return f"Item({self.n})"


# ---------------------------------------------------------------------------- unbounded


def test_unbounded_replays_everything_then_relays():
    rp = ReplayProcessor.create()
    rp.on_next(1)
    rp.on_next(2)
    ts = rp.test()
    ts.assert_values(1, 2).assert_not_terminated()
    rp.on_next(3)
    rp.on_complete()
    ts.assert_result(1, 2, 3).assert_protocol_ok()
    rp.test().assert_result(1, 2, 3).assert_protocol_ok()


def test_state_accessors():
    rp = ReplayProcessor.create()
    assert not rp.has_value() and rp.get_value() is None and rp.get_values() == []
    rp.on_next("a")
    rp.on_next("b")
    assert rp.has_value() and rp.get_value() == "b" and rp.get_values() == ["a", "b"]
    assert rp.size() == 2
    assert not rp.has_complete() and not rp.has_throwable() and rp.get_throwable() is None
    rp.on_complete()
    assert rp.has_complete() and not rp.has_throwable()
    assert rp.get_values() == ["a", "b"]


def test_error_is_replayed_after_the_items():
    rp = ReplayProcessor.create()
    rp.on_next(1)
    e = ValueError("boom")
    rp.on_error(e)
    assert rp.has_throwable() and rp.get_throwable() is e and not rp.has_complete()
    ts = rp.test(0)
    ts.assert_empty()  # the item waits for demand, and the error waits for the item
    ts.request(1)
    ts.assert_failure(e, 1).assert_protocol_ok()


def test_per_subscriber_demand():
    rp = ReplayProcessor.create()
    for i in range(5):
        rp.on_next(i)
    ts1, ts2 = rp.test(0), rp.test(0)
    ts1.request(2)
    ts2.request(4)
    ts1.assert_values(0, 1)
    ts2.assert_values(0, 1, 2, 3)
    rp.on_next(5)
    ts1.assert_values(0, 1)
    ts1.request(10)
    ts1.assert_values(0, 1, 2, 3, 4, 5)
    ts2.assert_values(0, 1, 2, 3)
    ts2.request(1)
    ts2.assert_values(0, 1, 2, 3, 4).assert_no_errors()
    rp.on_complete()
    ts1.assert_result(0, 1, 2, 3, 4, 5)
    ts2.assert_not_complete()  # one item still waits for its demand
    ts2.request(1)
    ts2.assert_result(0, 1, 2, 3, 4, 5).assert_protocol_ok()


def test_completion_waits_for_the_buffered_items():
    rp = ReplayProcessor.create()
    ts = rp.test(1)
    rp.on_next(1)
    rp.on_next(2)
    rp.on_complete()
    ts.assert_values(1).assert_not_complete()
    ts.request(1)
    ts.assert_result(1, 2)


def test_completion_needs_no_demand_once_items_were_taken():
    rp = ReplayProcessor.create()
    ts = rp.test(1)
    rp.on_next(1)
    rp.on_complete()
    ts.assert_result(1)


def test_cancel_removes_the_subscriber_and_stops_the_replay():
    rp = ReplayProcessor.create()
    ts1, ts2 = rp.test(1), rp.test()
    assert rp.subscriber_count() == 2
    ts1.cancel()
    assert rp.subscriber_count() == 1
    rp.on_next(1)
    ts1.request(5)
    rp.on_next(2)
    ts1.assert_empty()
    ts2.assert_values(1, 2)


def test_cancel_in_on_subscribe():
    rp = ReplayProcessor.create()
    rp.on_next(1)
    ts = rp.test(cancel=True)
    ts.assert_empty()
    assert not rp.has_subscribers()


def test_request_in_on_next_does_not_recurse():
    rp = ReplayProcessor.create()
    n = 10_000
    for i in range(n):
        rp.on_next(i)
    rp.on_complete()

    class OneByOne(TestSubscriber[int]):
        def on_next(self, item: int) -> None:
            super().on_next(item)
            self.request(1)

    ts = OneByOne(1)
    rp.subscribe(ts)
    assert ts.value_count() == n
    ts.assert_complete().assert_no_errors()


def test_none_and_bad_arguments():
    rp = ReplayProcessor.create()
    with pytest.raises(TypeError):
        rp.on_next(None)
    with pytest.raises(TypeError):
        rp.on_error(None)
    with pytest.raises(TypeError):
        rp.on_subscribe(None)
    assert not rp.has_value()
    with pytest.raises(ValueError):
        ReplayProcessor.create(0)
    with pytest.raises(TypeError):
        ReplayProcessor.create("16")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        ReplayProcessor.create_with_size(0)
    with pytest.raises(TypeError):
        ReplayProcessor.create_with_size(1.5)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        ReplayProcessor.create_with_time(0, FakeClock())
    with pytest.raises(TypeError):
        ReplayProcessor.create_with_time("1", FakeClock())  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        ReplayProcessor.create_with_time(1, object())  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        ReplayProcessor.create_with_time_and_size(1, FakeClock(), 0)


def test_errors_after_termination_go_to_plugins(plugin_errors):
    rp = ReplayProcessor.create()
    rp.on_next(1)
    rp.on_complete()
    e = ValueError("late")
    rp.on_error(e)
    rp.on_next(2)
    rp.on_complete()
    rp.test().assert_result(1).assert_protocol_ok()
    assert plugin_errors.causes() == [e]


def test_as_subscriber():
    rp = ReplayProcessor.create()
    requests: list[int] = []
    Flowable.range(1, 3).do_on_request(requests.append).subscribe(rp)
    assert requests == [LONG_MAX]
    rp.test().assert_result(1, 2, 3)
    src = ManualSource()
    src.subscribe(rp)
    assert src.cancelled


# ---------------------------------------------------------------------------- size-bound


def test_size_bound_replays_the_last_items():
    rp = ReplayProcessor.create_with_size(2)
    for i in range(5):
        rp.on_next(i)
    assert rp.get_values() == [3, 4] and rp.get_value() == 4 and rp.size() == 2
    rp.test().assert_values(3, 4).assert_not_terminated()
    rp.on_complete()
    rp.test().assert_result(3, 4)


def test_size_bound_early_subscriber_loses_nothing():
    rp = ReplayProcessor.create_with_size(1)
    ts = rp.test(0)
    for i in range(5):
        rp.on_next(i)
    rp.on_complete()
    ts.request(2)
    ts.assert_values(0, 1)
    ts.request(10)
    ts.assert_result(0, 1, 2, 3, 4)
    rp.test().assert_result(4)


def test_size_bound_cleanup_buffer_releases_the_item_before_the_window():
    rp = ReplayProcessor.create_with_size(1)
    first = Item(1)
    ref = weakref.ref(first)
    rp.on_next(first)
    rp.on_next(Item(2))
    del first
    gc.collect()
    assert ref() is not None  # the node before the window still holds it
    rp.cleanup_buffer()
    gc.collect()
    assert ref() is None
    assert [x.n for x in rp.get_values()] == [2]


def test_size_bound_error():
    rp = ReplayProcessor.create_with_size(2)
    for i in range(3):
        rp.on_next(i)
    e = ValueError()
    rp.on_error(e)
    rp.test().assert_failure(e, 1, 2)


# ---------------------------------------------------------------------------- time-bound


def test_time_bound_replays_only_young_items():
    clock = FakeClock()
    rp = ReplayProcessor.create_with_time(2.0, clock)
    rp.on_next(1)  # t = 0
    clock.advance(1)
    rp.on_next(2)  # t = 1
    clock.advance(1.5)  # t = 2.5: item 1 is older than 2 s
    assert rp.get_values() == [2]
    rp.test().assert_values(2)
    clock.advance(1)  # t = 3.5: item 2 too
    assert rp.get_values() == [] and not rp.has_value() and rp.get_value() is None
    rp.test().assert_empty()
    rp.on_next(3)
    assert rp.get_values() == [3]
    rp.on_complete()
    rp.test().assert_result(3)


def test_time_bound_early_subscriber_loses_nothing():
    clock = FakeClock()
    rp = ReplayProcessor.create_with_time(1.0, clock)
    ts = rp.test(0)
    for i in range(3):
        rp.on_next(i)
        clock.advance(5)
    ts.request(3)
    ts.assert_values(0, 1, 2)


def test_time_bound_completion_drops_expired_items():
    clock = FakeClock()
    rp = ReplayProcessor.create_with_time(1.0, clock)
    rp.on_next(1)
    clock.advance(5)
    rp.on_complete()
    rp.test().assert_result()
    assert rp.get_values() == []


def test_time_and_size_bound():
    clock = FakeClock()
    rp = ReplayProcessor.create_with_time_and_size(10.0, clock, 2)
    for i in range(4):
        rp.on_next(i)
        clock.advance(1)
    assert rp.get_values() == [2, 3]
    clock.advance(8.5)  # t = 12.5: item 2 (t=2) expired, item 3 (t=3) not
    assert rp.get_values() == [3]
    rp.test().assert_values(3)


def test_time_bound_default_clock():
    rp = ReplayProcessor.create_with_time(60.0)
    rp.on_next(1)
    rp.test().assert_values(1)


# ---------------------------------------------------------------------------- races


FACTORIES = {
    "unbounded": ReplayProcessor.create,
    "size": lambda: ReplayProcessor.create_with_size(100),
    "time": lambda: ReplayProcessor.create_with_time(3600.0, FakeClock()),
}


@pytest.mark.parametrize("kind", FACTORIES)
def test_race_subscribe_vs_on_next(race_runner, race_rounds, kind):
    make = FACTORIES[kind]
    for _ in range(race_rounds // 4):
        rp = make()
        rp.on_next(0)
        ts: TestSubscriber[int] = TestSubscriber()
        race(race_runner, partial(rp.on_next, 1), partial(rp.subscribe, ts))
        rp.on_next(2)
        rp.on_complete()
        ts.assert_result(0, 1, 2).assert_protocol_ok()


@pytest.mark.parametrize("kind", FACTORIES)
def test_race_request_vs_on_next(race_runner, race_rounds, kind):
    make = FACTORIES[kind]
    for _ in range(race_rounds // 4):
        rp = make()
        ts = rp.test(0)
        rp.on_next(0)
        race(race_runner, partial(emit, rp, [1, 2]), partial(request_each, ts, 2))
        ts.assert_values(0, 1).assert_no_errors()
        ts.request(1)
        ts.assert_values(0, 1, 2).assert_protocol_ok()


def test_race_cancel_vs_on_next(race_runner, race_rounds):
    for _ in range(race_rounds // 2):
        rp = ReplayProcessor.create()
        ts = rp.test()
        race(race_runner, ts.cancel, partial(rp.on_next, 1))
        assert not rp.has_subscribers()
        rp.on_next(2)
        rp.on_complete()
        assert ts.values() in ([], [1])
        ts.assert_not_terminated().assert_protocol_ok()


def test_race_on_complete_vs_subscribe(race_runner, race_rounds):
    for _ in range(race_rounds // 2):
        rp = ReplayProcessor.create()
        rp.on_next(1)
        ts: TestSubscriber[int] = TestSubscriber()
        race(race_runner, rp.on_complete, partial(rp.subscribe, ts))
        ts.assert_result(1).assert_protocol_ok()


def test_race_one_by_one_requests_vs_production(race_runner, race_rounds):
    """A subscriber requesting one at a time while items arrive, next to an unbounded one:
    each sees the whole sequence once, in order."""
    for _ in range(race_rounds // 8):
        rp = ReplayProcessor.create_with_size(3)
        ts1 = rp.test(1)
        ts2 = rp.test()
        race(race_runner, partial(emit, rp, range(5), True), partial(request_each, ts1, 5))
        ts1.assert_result(0, 1, 2, 3, 4).assert_protocol_ok()
        ts2.assert_result(0, 1, 2, 3, 4).assert_protocol_ok()
