"""BehaviorProcessor: the latest value replayed, per-subscriber demand, offer, races."""

from __future__ import annotations

from functools import partial

import pytest
from probes import ManualSource
from processor_probes import race

from rxpy2 import BehaviorProcessor
from rxpy2 import Flowable
from rxpy2 import MissingBackpressureException
from rxpy2.reactivestreams import LONG_MAX
from rxpy2.testing import TestSubscriber


def test_without_value_a_subscriber_gets_the_later_items():
    bp = BehaviorProcessor.create()
    assert not bp.has_value() and bp.get_value() is None
    ts = bp.test()
    ts.assert_empty()
    bp.on_next(1)
    bp.on_next(2)
    ts.assert_values(1, 2).assert_not_terminated()


def test_default_value_comes_first():
    bp = BehaviorProcessor.create_default("d")
    assert bp.has_value() and bp.get_value() == "d"
    ts = bp.test()
    bp.on_next("x")
    ts.assert_values("d", "x")


def test_new_subscriber_gets_the_latest_value_then_the_rest():
    bp = BehaviorProcessor.create_default(0)
    bp.on_next(1)
    bp.on_next(2)
    ts = bp.test()
    bp.on_next(3)
    bp.on_complete()
    ts.assert_result(2, 3).assert_protocol_ok()


def test_multicast_to_all_subscribers():
    bp = BehaviorProcessor.create()
    ts1 = bp.test()
    bp.on_next(1)
    ts2 = bp.test()
    bp.on_next(2)
    bp.on_complete()
    ts1.assert_result(1, 2)
    ts2.assert_result(1, 2)


def test_complete_then_late_subscriber_gets_only_completion():
    bp = BehaviorProcessor.create_default(1)
    bp.on_next(2)
    bp.on_complete()
    bp.test().assert_result().assert_protocol_ok()
    assert bp.has_complete() and not bp.has_throwable() and bp.get_throwable() is None
    assert not bp.has_value() and bp.get_value() is None


def test_error_reaches_subscribers_and_late_ones():
    bp = BehaviorProcessor.create_default(1)
    ts = bp.test(1)
    e = ValueError("boom")
    bp.on_error(e)
    ts.assert_failure(e, 1)
    bp.test(0).assert_failure(e).assert_protocol_ok()
    assert bp.has_throwable() and bp.get_throwable() is e and not bp.has_complete()
    assert bp.get_value() is None


def test_value_with_no_demand_at_subscription_fails_that_subscriber():
    bp = BehaviorProcessor.create_default(1)
    ts = bp.test(0)
    ts.assert_failure(MissingBackpressureException).assert_protocol_ok()
    assert not bp.has_subscribers()


def test_per_subscriber_demand():
    bp = BehaviorProcessor.create()
    ts1, ts2 = bp.test(0), bp.test(0)
    ts1.request(2)
    ts2.request(1)
    bp.on_next(1)
    bp.on_next(2)
    ts1.assert_values(1, 2).assert_no_errors()
    ts2.assert_failure(MissingBackpressureException, 1)
    assert bp.subscriber_count() == 1
    ts1.request(1)
    bp.on_next(3)
    ts1.assert_values(1, 2, 3).assert_not_terminated()


def test_subscriber_without_demand_fails_while_others_get_the_item():
    bp = BehaviorProcessor.create()
    slow, fast = bp.test(0), bp.test()
    bp.on_next("a")
    slow.assert_failure(MissingBackpressureException)
    fast.assert_values("a").assert_no_errors()
    bp.on_next("b")
    fast.assert_values("a", "b")


def test_cancel_removes_the_subscriber():
    bp = BehaviorProcessor.create_default(0)
    ts1, ts2 = bp.test(), bp.test()
    assert bp.subscriber_count() == 2
    ts1.cancel()
    assert bp.subscriber_count() == 1
    bp.on_next(1)
    ts1.assert_values(0)
    ts2.assert_values(0, 1)
    ts2.cancel()
    assert not bp.has_subscribers()


def test_cancel_in_on_subscribe_gets_nothing():
    bp = BehaviorProcessor.create_default(0)
    ts = bp.test(cancel=True)
    ts.assert_empty()
    assert not bp.has_subscribers()


def test_offer():
    bp = BehaviorProcessor.create()
    ts1, ts2 = bp.test(0), bp.test(1)
    assert not bp.offer(1)
    assert not bp.has_value()  # a refused item does not become the value
    ts1.request(1)
    assert bp.offer(1)
    assert bp.get_value() == 1
    ts1.assert_values(1)
    ts2.assert_values(1)
    with pytest.raises(TypeError):
        bp.offer(None)


def test_none_raises_type_error():
    with pytest.raises(TypeError):
        BehaviorProcessor.create_default(None)
    bp = BehaviorProcessor.create()
    with pytest.raises(TypeError):
        bp.on_next(None)
    with pytest.raises(TypeError):
        bp.on_error(None)
    with pytest.raises(TypeError):
        bp.on_subscribe(None)
    assert not bp.has_value()


def test_errors_after_termination_go_to_plugins(plugin_errors):
    bp = BehaviorProcessor.create()
    ts = bp.test()
    e1, e2 = ValueError(1), ValueError(2)
    bp.on_error(e1)
    bp.on_error(e2)
    bp.on_next(5)
    bp.on_complete()
    ts.assert_failure(e1).assert_protocol_ok()
    assert plugin_errors.causes() == [e2]


def test_as_subscriber():
    bp = BehaviorProcessor.create()
    requests: list[int] = []
    Flowable.range(1, 3).do_on_request(requests.append).subscribe(bp)
    assert requests == [LONG_MAX]
    assert bp.has_complete()
    src = ManualSource()
    src.subscribe(bp)
    assert src.cancelled


def test_request_inside_on_next_does_not_recurse():
    bp = BehaviorProcessor.create()

    class OneByOne(TestSubscriber[int]):
        def on_next(self, item: int) -> None:
            super().on_next(item)
            self.request(1)

    ts = OneByOne(1)
    bp.subscribe(ts)
    for i in range(5000):
        bp.on_next(i)
    assert ts.value_count() == 5000
    ts.assert_no_errors()


# ---------------------------------------------------------------------------- races


def test_race_subscribe_vs_on_next_gets_old_then_new_or_just_new(race_runner, race_rounds):
    seen = set()
    for _ in range(race_rounds // 2):
        bp = BehaviorProcessor.create_default(0)
        bp.on_next(1)
        ts: TestSubscriber[int] = TestSubscriber()
        race(race_runner, partial(bp.on_next, 2), partial(bp.subscribe, ts))
        values = ts.values()
        assert values in ([1, 2], [2]), values
        seen.add(tuple(values))
        bp.on_next(3)
        bp.on_complete()
        ts.assert_result(*values, 3).assert_protocol_ok()
    if race_rounds >= 1000:  # both interleavings were exercised (each occurs in ~25% of rounds)
        assert seen == {(1, 2), (2,)}


def test_race_subscribe_vs_on_next_without_default(race_runner, race_rounds):
    for _ in range(race_rounds // 2):
        bp = BehaviorProcessor.create()
        ts: TestSubscriber[int] = TestSubscriber()
        race(race_runner, partial(bp.on_next, 1), partial(bp.subscribe, ts))
        ts.assert_values(1).assert_no_errors().assert_protocol_ok()


def test_race_cancel_vs_on_next(race_runner, race_rounds):
    for _ in range(race_rounds // 2):
        bp = BehaviorProcessor.create_default(0)
        ts = bp.test()
        race(race_runner, ts.cancel, partial(bp.on_next, 1))
        assert not bp.has_subscribers()
        bp.on_next(2)
        bp.on_complete()
        assert ts.values() in ([0], [0, 1])
        ts.assert_not_terminated().assert_protocol_ok()


def test_race_on_complete_vs_subscribe(race_runner, race_rounds):
    for _ in range(race_rounds // 2):
        bp = BehaviorProcessor.create_default(1)
        ts: TestSubscriber[int] = TestSubscriber()
        race(race_runner, bp.on_complete, partial(bp.subscribe, ts))
        assert ts.values() in ([1], [])
        ts.assert_complete().assert_no_errors().assert_protocol_ok()


def test_race_on_error_vs_subscribe(race_runner, race_rounds):
    for _ in range(race_rounds // 2):
        bp = BehaviorProcessor.create_default(1)
        ts: TestSubscriber[int] = TestSubscriber()
        e = ValueError()
        race(race_runner, partial(bp.on_error, e), partial(bp.subscribe, ts))
        assert ts.values() in ([1], [])
        ts.assert_error(e).assert_not_complete().assert_protocol_ok()
