"""Flowable.replay(buffer_size=, time=, scheduler=, selector=): RxJava 2's FlowableReplay
(SizeBoundReplayBuffer, SizeAndTimeBoundReplayBuffer, multicastSelector, observeOn)."""

from __future__ import annotations

import threading

import pytest

from rxpy2 import Flowable
from rxpy2.processors import PublishProcessor
from rxpy2.schedulers import Schedulers
from rxpy2.testing import RaceRunner
from rxpy2.testing import TestScheduler
from tests.probes import Boom
from tests.probes import ManualSource

pytestmark = pytest.mark.usefixtures("shutdown_schedulers")


def connected(**kw):
    src, sched = PublishProcessor(), TestScheduler()
    r = src.replay(scheduler=sched, **kw)
    first = r.test()  # replay requests what its subscribers request
    r.connect()
    return src, sched, r, first


def test_time_bound_late_subscribers_see_the_live_items():
    src, sched, r, first = connected(time=2)
    src.on_next(1)
    sched.advance_time_by(1)
    src.on_next(2)
    sched.advance_time_by(1)
    r.test().assert_values(2)  # 1 is 2 seconds old: expired (stamp <= now - time)
    sched.advance_time_by(1)
    r.test().assert_no_values()
    src.on_next(3)
    src.on_complete()
    r.test().assert_result(3)
    first.assert_result(1, 2, 3)
    sched.advance_time_by(10)
    r.test().assert_result()  # every item expired, the completion stays


def test_time_bound_error_after_expired_items():
    src, sched, r, first = connected(time=1)
    src.on_next(1)
    sched.advance_time_by(5)
    src.on_error(Boom())
    r.test().assert_no_values().assert_error(Boom)


def test_size_and_time_bound():
    src, sched, r, _ = connected(buffer_size=2, time=10)
    src.on_next(1)
    src.on_next(2)
    src.on_next(3)
    r.test().assert_values(2, 3)  # the size drops 1
    sched.advance_time_by(5)
    src.on_next(4)
    sched.advance_time_by(5)
    r.test().assert_values(4)  # 3 (stamp 0) expired; 4 (stamp 5) not
    src.on_complete()
    r.test().assert_result(4)


def test_zero_time_hides_items_from_late_subscribers():
    src, sched, r, first = connected(buffer_size=1, time=0)
    src.on_next(1)
    # time 0: the item expires at once (RxJava 2 drops it on the next item, hides it now)
    r.test().assert_no_values()
    first.assert_values(1)


def test_size_bound_late_subscriber_and_requests():
    src = ManualSource()
    r = src.replay(2)
    ts1 = r.test(3)
    r.connect()
    assert src.requests == [3]
    src.emit(1, 2, 3)
    ts2 = r.test(1)
    ts2.assert_values(2)
    src.complete()
    ts1.assert_values(1, 2, 3).assert_not_complete()  # the completion waits for demand
    ts1.request(1)
    ts1.assert_result(1, 2, 3)
    r.test().assert_result(2, 3)


def test_scheduler_without_time_observes_on_it():
    sched = TestScheduler()
    src = PublishProcessor()
    r = src.replay(scheduler=sched)
    ts = r.test()
    r.connect()
    src.on_next(1)
    src.on_complete()
    ts.assert_no_values()
    sched.trigger_actions()
    ts.assert_result(1)
    late = r.test()
    late.assert_no_values()
    sched.trigger_actions()
    late.assert_result(1)


def test_scheduler_with_buffer_size_and_ref_count():
    sched = TestScheduler()
    subs = []
    shared = Flowable.range(1, 5).do_on_subscribe(subs.append).replay(2, scheduler=sched).ref_count()
    ts = shared.test()
    sched.trigger_actions()
    ts.assert_result(1, 2, 3, 4, 5)
    ts2 = shared.test()
    sched.trigger_actions()
    ts2.assert_result(1, 2, 3, 4, 5)  # reset after termination: a fresh connection (RxJava 3)
    assert len(subs) == 2


def test_selector_shares_one_subscription():
    subs = []
    src = Flowable.range(1, 5).do_on_subscribe(subs.append)
    src.replay(selector=lambda f: f.zip_with(f.skip(1), lambda a, b: a + b)).test().assert_result(3, 5, 7, 9)
    assert len(subs) == 1
    src.replay(2, selector=lambda f: f.take_last(3).concat_with(f)).test().assert_result(3, 4, 5, 4, 5)


def test_selector_with_time_and_with_observe_on():
    sched = TestScheduler()
    ts = Flowable.just(1, 2).replay(time=5, scheduler=sched,
                                    selector=lambda f: f.concat_with(f)).test()
    ts.assert_result(1, 2, 1, 2)
    ts = Flowable.just(1, 2).replay(scheduler=sched, selector=lambda f: f).test()
    ts.assert_no_values()
    sched.trigger_actions()
    ts.assert_result(1, 2)
    ts = Flowable.just(1, 2, 3).replay(1, scheduler=sched, selector=lambda f: f.concat_with(f)).test()
    sched.trigger_actions()
    ts.assert_result(1, 2, 3, 3)


def test_selector_cancel_and_end_dispose_the_connection():
    src = PublishProcessor()
    ts = src.replay(selector=lambda f: f.take(2)).test()
    assert src.has_subscribers()
    src.on_next(1)
    src.on_next(2)
    ts.assert_result(1, 2)
    assert not src.has_subscribers()
    ts = src.replay(selector=lambda f: f).test()
    ts.cancel()
    assert not src.has_subscribers()


def test_selector_errors():
    Flowable.just(1).replay(selector=lambda f: 1 // 0).test().assert_error(ZeroDivisionError)
    Flowable.just(1).replay(selector=lambda f: None).test().assert_error(TypeError)
    Flowable.error(Boom()).replay(selector=lambda f: f).test().assert_error(Boom)
    src = ManualSource()
    src.replay(selector=lambda f: 1 // 0).test()
    assert src.subscriptions == 0  # the selector failed before connecting


def test_selector_request_amounts():
    src = ManualSource()
    ts = src.replay(selector=lambda f: f).test(0)
    assert src.requests == []
    ts.request(3)
    assert src.requests == [3]


def test_arguments():
    f = Flowable.never()
    with pytest.raises(ValueError):
        f.replay(0)
    with pytest.raises(ValueError):
        f.replay(time=-1)
    with pytest.raises(TypeError):
        f.replay(time="1")
    with pytest.raises(TypeError):
        f.replay(scheduler=3)
    with pytest.raises(TypeError):
        f.replay(selector=3)
    f.replay().connect().dispose()
    f.replay(3).connect().dispose()


def test_race_subscriber_vs_items_with_time_bound():
    with RaceRunner() as r:
        for _ in range(300):
            sched = TestScheduler()
            src = PublishProcessor()
            rp = src.replay(time=10, scheduler=sched)
            first = rp.test()
            rp.connect()
            src.on_next(1)
            box = []
            r.race(lambda src=src: (src.on_next(2), src.on_complete()),
                   lambda rp=rp, box=box: box.append(rp.test()))
            box[0].assert_result(1, 2)
            first.assert_result(1, 2)


def test_observe_on_real_scheduler_delivers_everything():
    done = threading.Event()
    out = []
    Flowable.range(1, 1000).replay(scheduler=Schedulers.computation(),
                                   selector=lambda f: f.concat_with(f)).subscribe(
        out.append, on_complete=done.set)
    assert done.wait(10)
    assert out == list(range(1, 1001)) * 2
