"""Flowable.delay(function), delay(function, subscription_delay=...), delay_subscription(Publisher):
RxJava 2's flatMap(itemDelay) and FlowableDelaySubscriptionOther."""

from __future__ import annotations

import pytest

from rxpy2 import Flowable
from rxpy2 import Single
from rxpy2.processors import PublishProcessor
from rxpy2.testing import RaceRunner
from rxpy2.testing import TestScheduler
from tests.probes import Boom
from tests.probes import ManualSource


def test_items_go_out_when_their_indicator_signals():
    ps = {i: PublishProcessor() for i in range(1, 4)}
    ts = Flowable.range(1, 3).delay(lambda x: ps[x]).test()
    ts.assert_no_values()
    ps[2].on_next("a")
    assert not ps[2].has_subscribers()  # take(1): cancelled at its first item
    ps[3].on_complete()  # completion releases the item too (default_if_empty)
    ps[1].on_next("b")
    ts.assert_result(2, 3, 1)


def test_with_test_scheduler_timers():
    sched = TestScheduler()
    ts = Flowable.just(3, 1, 2).delay(lambda x: Flowable.timer(x, sched)).test()
    sched.advance_time_by(1)
    ts.assert_values(1)
    sched.advance_time_by(2)
    ts.assert_result(1, 2, 3)


def test_indicator_error_and_selector_errors():
    src, ind = ManualSource(), PublishProcessor()
    ts = src.delay(lambda x: ind).test()
    src.emit(1)
    ind.on_error(Boom())
    ts.assert_error(Boom)
    assert src.cancelled
    src2 = ManualSource()
    ts2 = src2.delay(lambda x: 1 // 0).test()
    src2.emit(1)
    ts2.assert_error(ZeroDivisionError)
    assert src2.cancelled
    Flowable.just(1).delay(lambda x: None).test().assert_error(TypeError)


def test_requests_as_flat_map():
    src = ManualSource()
    src.delay(lambda x: Flowable.empty()).test(0)
    assert src.requests == [128]  # flat_map's max_concurrency, as RxJava 2's flatMap


def test_cancel_cancels_indicators():
    ind = PublishProcessor()
    ts = Flowable.just(1).delay(lambda x: ind).test()
    assert ind.has_subscribers()
    ts.cancel()
    assert not ind.has_subscribers()


def test_delay_subscription_publisher():
    src = ManualSource()
    trigger = PublishProcessor()
    ts = src.delay_subscription(trigger).test(0)
    ts.request(3)
    assert src.subscriptions == 0
    trigger.on_next(1)
    assert src.subscriptions == 1 and src.requests == [3]  # the deferred demand
    assert not trigger.has_subscribers()
    src.emit(1)
    src.complete()
    ts.assert_result(1)


def test_delay_subscription_completion_error_and_cancel():
    Flowable.just(1).delay_subscription(Flowable.empty()).test().assert_result(1)
    src = ManualSource()
    src.delay_subscription(Flowable.error(Boom())).test().assert_error(Boom)
    assert src.subscriptions == 0
    trigger = PublishProcessor()
    ts = src.delay_subscription(trigger).test()
    ts.cancel()
    assert not trigger.has_subscribers()
    trigger.on_next(1)
    assert src.subscriptions == 0


def test_delay_with_subscription_delay():
    trigger = PublishProcessor()
    ind = PublishProcessor()
    src = ManualSource()
    ts = src.delay(lambda x: ind, subscription_delay=trigger).test()
    assert src.subscriptions == 0
    trigger.on_complete()
    src.emit(5)
    src.complete()
    ts.assert_no_values()
    ind.on_next(0)
    ts.assert_result(5)


def test_arguments():
    f = Flowable.never()
    with pytest.raises(TypeError):
        f.delay(lambda x: f, Single.just(1))  # no scheduler with a function
    with pytest.raises(TypeError):
        f.delay(lambda x: f, delay_error=True)
    with pytest.raises(TypeError):
        f.delay(1.0, subscription_delay=f)
    with pytest.raises(TypeError):
        f.delay(lambda x: f, subscription_delay=3)
    with pytest.raises(TypeError):
        f.delay_subscription(f, TestScheduler())
    with pytest.raises(TypeError):
        f.delay_subscription(None)
    f.delay(1.0)
    f.delay_subscription(1.0)


@pytest.mark.parametrize("seed", range(2))
def test_race_trigger_vs_cancel(seed):
    with RaceRunner() as r:
        for _ in range(300):
            src, trigger = ManualSource(), PublishProcessor()
            ts = src.delay_subscription(trigger).test()
            r.race(lambda t=trigger: t.on_next(1), ts.cancel)
            # subscribed at most once; if subscribed, the subscription was cancelled
            assert src.subscriptions <= 1
            if src.subscriptions:
                assert src.cancelled
            assert not trigger.has_subscribers()


def test_race_two_indicators():
    with RaceRunner() as r:
        for _ in range(300):
            a, b = PublishProcessor(), PublishProcessor()
            ts = Flowable.just(1, 2).delay(lambda x, a=a, b=b: a if x == 1 else b).test()
            r.race(lambda a=a: a.on_next(0), lambda b=b: b.on_next(0))
            assert sorted(ts.values()) == [1, 2]
            ts.assert_complete()
