"""PublishProcessor: multicast, per-subscriber demand, MissingBackpressureException, offer, races."""

from __future__ import annotations

from functools import partial

import pytest
from probes import ManualSource
from processor_probes import offer_into
from processor_probes import race

from rxpy2 import Flowable
from rxpy2 import FlowableProcessor
from rxpy2 import MissingBackpressureException
from rxpy2 import PublishProcessor
from rxpy2.reactivestreams import LONG_MAX
from rxpy2.reactivestreams import Processor
from rxpy2.testing import TestSubscriber


def test_is_a_flowable_processor_and_flowable_subscriber():
    pp = PublishProcessor.create()
    assert isinstance(pp, FlowableProcessor) and isinstance(pp, Flowable)
    assert isinstance(pp, Processor)


def test_multicasts_to_current_subscribers():
    pp = PublishProcessor.create()
    ts1 = pp.test()
    pp.on_next(1)
    ts2 = pp.test()
    pp.on_next(2)
    pp.on_next(3)
    pp.on_complete()
    ts1.assert_result(1, 2, 3).assert_protocol_ok()
    ts2.assert_result(2, 3).assert_protocol_ok()


def test_items_without_subscribers_are_dropped():
    pp = PublishProcessor.create()
    pp.on_next(1)
    ts = pp.test()
    pp.on_next(2)
    ts.assert_values(2).assert_not_terminated()


def test_error_reaches_every_subscriber_and_state():
    pp = PublishProcessor.create()
    ts1, ts2 = pp.test(), pp.test(0)
    assert not pp.has_throwable() and not pp.has_complete() and pp.get_throwable() is None
    e = ValueError("boom")
    pp.on_error(e)
    ts1.assert_failure(e)
    ts2.assert_failure(e)  # an error needs no demand
    assert pp.has_throwable() and not pp.has_complete() and pp.get_throwable() is e
    assert not pp.has_subscribers()


def test_complete_state():
    pp = PublishProcessor.create()
    ts = pp.test(0)
    pp.on_complete()
    ts.assert_result()
    assert pp.has_complete() and not pp.has_throwable() and pp.get_throwable() is None


def test_late_subscriber_gets_the_terminal_signal():
    pp = PublishProcessor.create()
    pp.on_next(1)
    pp.on_complete()
    pp.test().assert_result().assert_protocol_ok()
    pe = PublishProcessor.create()
    e = ValueError()
    pe.on_error(e)
    pe.test(0).assert_failure(e).assert_protocol_ok()


def test_per_subscriber_demand_and_missing_backpressure():
    pp = PublishProcessor.create()
    ts1, ts2 = pp.test(0), pp.test(0)
    ts1.request(3)
    ts2.request(1)
    pp.on_next(1)
    pp.on_next(2)  # ts2 has no demand left: it leaves with an error, ts1 goes on
    ts1.assert_values(1, 2).assert_not_terminated()
    ts2.assert_failure(MissingBackpressureException, 1)
    assert pp.has_subscribers()
    pp.on_next(3)
    pp.on_next(4)  # ts1 had 3
    ts1.assert_failure(MissingBackpressureException, 1, 2, 3)
    ts2.assert_values(1)
    assert not pp.has_subscribers()


def test_subscriber_without_demand_fails_while_others_get_the_item():
    pp = PublishProcessor.create()
    slow = pp.test(0)
    fast = pp.test()
    pp.on_next("a")
    slow.assert_failure(MissingBackpressureException).assert_protocol_ok()
    fast.assert_values("a").assert_no_errors()
    pp.on_next("b")
    fast.assert_values("a", "b")
    slow.assert_no_values()


def test_demand_is_decremented_per_item_and_replenished():
    pp = PublishProcessor.create()
    ts = pp.test(1)
    pp.on_next(1)
    ts.request(2)
    pp.on_next(2)
    pp.on_next(3)
    ts.assert_values(1, 2, 3).assert_no_errors()
    pp.on_next(4)
    ts.assert_failure(MissingBackpressureException, 1, 2, 3)


def test_cancel_removes_the_subscriber():
    pp = PublishProcessor.create()
    ts1, ts2 = pp.test(), pp.test()
    ts1.cancel()
    assert pp.has_subscribers()
    pp.on_next(1)
    ts2.cancel()
    assert not pp.has_subscribers()
    pp.on_next(2)
    pp.on_complete()
    ts1.assert_empty()
    ts2.assert_values(1).assert_not_terminated()


def test_cancel_in_on_subscribe_does_not_add():
    pp = PublishProcessor.create()
    ts = pp.test(cancel=True)
    assert not pp.has_subscribers()
    pp.on_next(1)
    ts.assert_empty()


def test_offer_emits_only_when_every_subscriber_has_demand():
    pp = PublishProcessor.create()
    assert pp.offer(0)  # nobody there: accepted and dropped
    ts1, ts2 = pp.test(0), pp.test(0)
    ts1.request(1)
    assert not pp.offer(1)
    ts1.assert_no_values()
    ts2.assert_no_values().assert_no_errors()
    ts2.request(1)
    assert pp.offer(1)
    ts1.assert_values(1)
    ts2.assert_values(1)
    assert not pp.offer(2)
    with pytest.raises(TypeError):
        pp.offer(None)


def test_none_signals_raise_type_error():
    pp = PublishProcessor.create()
    ts = pp.test()
    with pytest.raises(TypeError):
        pp.on_next(None)
    with pytest.raises(TypeError):
        pp.on_error(None)
    with pytest.raises(TypeError):
        pp.on_subscribe(None)
    ts.assert_empty()


def test_errors_after_termination_go_to_plugins(plugin_errors):
    pp = PublishProcessor.create()
    ts = pp.test()
    pp.on_complete()
    e = ValueError("late")
    pp.on_error(e)
    pp.on_next(1)
    pp.on_complete()
    ts.assert_result().assert_protocol_ok()
    assert plugin_errors.causes() == [e]


def test_non_positive_request_is_reported(plugin_errors):
    pp = PublishProcessor.create()
    ts = pp.test(0)
    ts.request(0)
    assert len(plugin_errors) == 1 and isinstance(plugin_errors[0], ValueError)
    ts.request(1)
    pp.on_next(1)
    ts.assert_values(1).assert_no_errors()


def test_as_subscriber_requests_everything_and_relays():
    pp = PublishProcessor.create()
    ts = pp.test()
    requests: list[int] = []
    Flowable.range(1, 5).do_on_request(requests.append).subscribe(pp)
    ts.assert_result(1, 2, 3, 4, 5)
    assert requests == [LONG_MAX]


def test_as_subscriber_after_termination_cancels_the_upstream():
    pp = PublishProcessor.create()
    pp.on_complete()
    src = ManualSource()
    src.subscribe(pp)
    assert src.cancelled and src.requests == []


def test_operators_apply_to_a_processor():
    pp = PublishProcessor.create()
    ts = pp.map(lambda x: x * 10).filter(lambda x: x > 10).test()
    for i in (1, 2, 3):
        pp.on_next(i)
    pp.on_complete()
    ts.assert_result(20, 30)


def test_subscriber_count_over_many_subscribers():
    pp = PublishProcessor.create()
    subs = [pp.test() for _ in range(50)]
    for ts in subs[::2]:
        ts.cancel()
    pp.on_next(1)
    pp.on_complete()
    for i, ts in enumerate(subs):
        if i % 2:
            ts.assert_result(1)
        else:
            ts.assert_empty()


# ---------------------------------------------------------------------------- races


def test_race_subscribe_vs_on_next(race_runner, race_rounds):
    seen = set()
    for _ in range(race_rounds // 2):
        pp = PublishProcessor.create()
        ts: TestSubscriber[int] = TestSubscriber()
        race(race_runner, partial(pp.on_next, 1), partial(pp.subscribe, ts))
        pp.on_next(2)
        pp.on_complete()
        values = ts.values()
        assert values in ([1, 2], [2])
        seen.add(tuple(values))
        ts.assert_complete().assert_no_errors().assert_protocol_ok()
    if race_rounds >= 1000:
        assert seen == {(1, 2), (2,)}


def test_race_cancel_vs_on_next(race_runner, race_rounds):
    for _ in range(race_rounds // 2):
        pp = PublishProcessor.create()
        ts = pp.test()
        race(race_runner, ts.cancel, partial(pp.on_next, 1))
        assert not pp.has_subscribers()
        pp.on_next(2)
        pp.on_complete()
        assert ts.values() in ([], [1])
        ts.assert_not_terminated().assert_protocol_ok()


def test_race_on_complete_vs_subscribe(race_runner, race_rounds):
    for _ in range(race_rounds // 2):
        pp = PublishProcessor.create()
        ts: TestSubscriber[int] = TestSubscriber()
        race(race_runner, pp.on_complete, partial(pp.subscribe, ts))
        ts.assert_result().assert_protocol_ok()
        assert not pp.has_subscribers()


def test_race_on_error_vs_subscribe(race_runner, race_rounds):
    for _ in range(race_rounds // 2):
        pp = PublishProcessor.create()
        ts: TestSubscriber[int] = TestSubscriber(0)
        e = ValueError()
        race(race_runner, partial(pp.on_error, e), partial(pp.subscribe, ts))
        ts.assert_failure(e).assert_protocol_ok()


def test_race_two_subscribers_cancel(race_runner, race_rounds):
    """Two removals racing on the copy-on-write array both take effect."""
    for _ in range(race_rounds // 2):
        pp = PublishProcessor.create()
        ts1, ts2, ts3 = pp.test(), pp.test(), pp.test()
        race(race_runner, ts1.cancel, ts2.cancel)
        pp.on_next(1)
        ts1.assert_no_values()
        ts2.assert_no_values()
        ts3.assert_values(1)


def test_race_request_vs_offer(race_runner, race_rounds):
    for _ in range(race_rounds // 2):
        pp = PublishProcessor.create()
        ts = pp.test(0)
        result: list[bool] = []
        race(race_runner, partial(ts.request, 1), partial(offer_into, pp, 1, result))
        ts.assert_no_errors()
        assert ts.values() == ([1] if result[0] else [])
