"""Flowable.publish(buffer_size, selector=...): RxJava 2's FlowablePublishMulticast."""

from __future__ import annotations

import pytest

from rxpy2 import Flowable
from rxpy2.processors import PublishProcessor
from rxpy2.testing import RaceRunner
from tests.probes import Boom
from tests.probes import ManualSource


def test_one_subscription_shared_inside_the_selector():
    subs = []
    src = Flowable.range(1, 5).do_on_subscribe(subs.append)
    ts = src.publish(selector=lambda f: f.zip_with(f.skip(1), lambda a, b: a + b)).test()
    ts.assert_result(3, 5, 7, 9)
    assert len(subs) == 1
    Flowable.range(1, 3).publish(selector=lambda f: f.merge_with(f)).test().assert_result(1, 1, 2, 2, 3, 3)


def test_prefetch_and_replenishment():
    src = ManualSource()
    ts = src.publish(8, selector=lambda f: f).test(0)
    assert src.requests == [8]
    ts.request(6)
    src.emit(*range(8))
    ts.assert_values(*range(6))
    assert src.requests == [8, 6]  # 8 - 8 // 4 = 6 went out: 6 more


def test_pace_of_the_slowest_inner_subscriber():
    seen = []

    def sel(f):
        f.subscribe(seen.append)  # an unbounded side subscriber
        return f

    ts = Flowable.range(1, 5).publish(selector=sel).test(2)
    ts.assert_values(1, 2)
    assert seen == [1, 2]
    ts.request(10)
    ts.assert_result(1, 2, 3, 4, 5)
    assert seen == [1, 2, 3, 4, 5]


def test_error_overtakes_queued_items():
    src = PublishProcessor()
    ts = src.publish(selector=lambda f: f).test(1)
    src.on_next(1)
    src.on_next(2)
    src.on_error(Boom())
    ts.assert_values(1).assert_error(Boom)  # delayError=false: 2 is dropped


def test_completion_waits_for_the_queued_items():
    src = PublishProcessor()
    ts = src.publish(selector=lambda f: f).test(1)
    src.on_next(1)
    src.on_next(2)
    src.on_complete()
    ts.assert_values(1).assert_not_complete()
    ts.request(1)
    ts.assert_result(1, 2)


def test_output_end_cancels_the_source():
    src = ManualSource()
    ts = src.publish(selector=lambda f: f.take(2)).test()
    src.emit(1, 2)
    ts.assert_result(1, 2)
    assert src.cancelled
    src2 = ManualSource()
    ts2 = src2.publish(selector=lambda f: Flowable.just(9)).test()
    ts2.assert_result(9)
    assert src2.cancelled


def test_cancel_cancels_the_source():
    src = PublishProcessor()
    ts = src.publish(selector=lambda f: f).test()
    assert src.has_subscribers()
    ts.cancel()
    assert not src.has_subscribers()


def test_selector_errors():
    src = ManualSource()
    src.publish(selector=lambda f: 1 // 0).test().assert_error(ZeroDivisionError)
    assert src.subscriptions == 0
    Flowable.just(1).publish(selector=lambda f: None).test().assert_error(TypeError)
    Flowable.just(1).publish(selector=lambda f: f.map(lambda x: 1 // 0)).test().assert_error(ZeroDivisionError)


def test_late_subscriber_gets_the_terminal_event():
    holder = []

    def sel(f):
        holder.append(f)
        return f

    Flowable.just(1).publish(selector=sel).test().assert_result(1)
    holder[0].test().assert_result()
    holder.clear()
    Flowable.error(Boom()).publish(selector=sel).test().assert_error(Boom)
    holder[0].test().assert_error(Boom)


def test_arguments():
    f = Flowable.never()
    with pytest.raises(TypeError):
        f.publish(selector=3)
    with pytest.raises(ValueError):
        f.publish(0, selector=lambda g: g)
    f.publish().connect().dispose()


def test_race_items_vs_cancel():
    with RaceRunner() as r:
        for _ in range(300):
            src = PublishProcessor()
            ts = src.publish(selector=lambda f: f).test()
            r.race(lambda src=src: [src.on_next(i) for i in range(5)], ts.cancel)
            vals = ts.values()
            assert vals == list(range(len(vals)))
            assert not src.has_subscribers()
            ts.assert_no_errors()


def test_race_request_vs_items():
    with RaceRunner() as r:
        for _ in range(300):
            src = PublishProcessor()
            ts = src.publish(selector=lambda f: f.merge_with(f)).test(0)
            r.race(lambda src=src: ([src.on_next(i) for i in range(3)], src.on_complete()),
                   lambda ts=ts: ts.request(100))
            ts.assert_complete()
            assert sorted(ts.values()) == [0, 0, 1, 1, 2, 2]  # the prefetch kept them all
