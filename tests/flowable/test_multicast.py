"""publish / connect / ref_count / auto_connect / share / replay / cache."""

from __future__ import annotations

import functools

import pytest
from probes import Boom
from probes import ManualSource

from rxpy2 import ConnectableFlowable
from rxpy2 import Flowable
from rxpy2 import MissingBackpressureException
from rxpy2 import TestSubscriber
from rxpy2.reactivestreams import LONG_MAX
from rxpy2.schedulers import TestScheduler

pytestmark = pytest.mark.usefixtures("shutdown_schedulers")


def recorded(f, requests, cancels, subs=None):
    f = f.do_on_request(requests.append).do_on_cancel(lambda: cancels.append(1))
    if subs is not None:
        f = f.do_on_subscribe(lambda s: subs.append(1))
    return f


# ---- publish / connect


def test_publish_is_connectable_and_waits_for_connect():
    subs = []
    c = recorded(Flowable.range(1, 5), [], [], subs).publish()
    assert isinstance(c, ConnectableFlowable)
    ts1, ts2 = c.test(), c.test()
    ts1.assert_no_values()
    assert subs == []
    c.connect()
    ts1.assert_result(1, 2, 3, 4, 5)
    ts2.assert_result(1, 2, 3, 4, 5)
    assert subs == [1]


def test_publish_prefetch_and_replenish_what_went_out():
    req = []
    c = recorded(Flowable.range(0, 1000), req, []).publish(16)
    ts = c.test(0)
    c.connect()
    assert req == [16]
    ts.request(5)
    ts.assert_values(*range(5))
    assert req == [16, 5]
    ts.request(LONG_MAX)
    ts.assert_value_count(1000).assert_complete()
    assert all(r <= 16 for r in req[1:])


def test_publish_paces_to_slowest_subscriber():
    src = ManualSource()
    c = src.publish(8)
    fast = c.test()
    slow = c.test(0)
    c.connect()
    assert src.requests == [8]
    src.emit(1, 2, 3)
    fast.assert_no_values()
    slow.assert_no_values()
    slow.request(2)
    fast.assert_values(1, 2)
    slow.assert_values(1, 2)
    assert src.requests == [8, 2]
    src.emit(*range(4, 10))  # 7 queued: 3 .. 9
    slow.request(1)
    fast.assert_values(1, 2, 3)
    slow.cancel()  # the slow one leaves: the rest goes to the fast one
    fast.assert_values(*range(1, 10))
    src.complete()
    fast.assert_complete()


def test_publish_overflow_is_missing_backpressure():
    src = ManualSource()
    c = src.publish(4)
    ts = c.test(0)
    c.connect()
    src.emit(1, 2, 3, 4, 5)
    ts.assert_failure(MissingBackpressureException)
    assert src.cancels == 1


def test_publish_error_reaches_every_subscriber():
    c = Flowable.range(1, 2).concat_with(Flowable.error(Boom())).publish()
    a, b = c.test(), c.test()
    c.connect()
    a.assert_failure(Boom, 1, 2)
    b.assert_failure(Boom, 1, 2)


def test_publish_dispose_connection_cancels_upstream():
    src = ManualSource()
    c = src.publish()
    ts = c.test()
    d = c.connect()
    src.emit(1)
    d.dispose()
    assert d.is_disposed()
    assert src.cancels == 1
    ts.assert_values(1).assert_not_complete()
    ts2 = c.test()  # waits for the next connect
    c.connect()
    assert src.subscriptions == 2
    src.emit(2)
    ts2.assert_values(2)


def test_publish_connect_twice_is_one_connection():
    src = ManualSource()
    c = src.publish()
    seen = []
    d1 = c.connect(seen.append)
    d2 = c.connect()
    assert d1 is d2 and seen == [d1]
    assert src.subscriptions == 1


def test_publish_late_subscriber_after_completion_waits_for_reconnect():
    c = Flowable.range(1, 3).publish()
    c.test()
    c.connect()
    late = c.test()
    late.assert_no_values().assert_not_complete()
    c.connect()
    late.assert_result(1, 2, 3)


def test_publish_cancelled_subscriber_gets_nothing_more():
    src = ManualSource()
    c = src.publish()
    a, b = c.test(), c.test()
    c.connect()
    src.emit(1)
    a.cancel()
    src.emit(2)
    a.assert_values(1)
    b.assert_values(1, 2)


def test_publish_bad_buffer_size():
    with pytest.raises(ValueError):
        Flowable.range(1, 2).publish(0)


def test_publish_request_vs_emit_race(race_runner, race_rounds):
    for _ in range(race_rounds):
        src = ManualSource()
        c = src.publish(8)
        a, b = c.test(0), c.test(2)
        c.connect()
        race_runner.race(lambda src=src: src.emit(1, 2, 3, 4), lambda a=a: a.request(4))
        a.assert_values(1, 2)
        b.assert_values(1, 2)
        b.request(2)
        a.assert_values(1, 2, 3, 4)
        b.assert_values(1, 2, 3, 4)


# ---- ref_count / share


def test_ref_count_connects_on_first_and_disconnects_on_last_cancel():
    src = ManualSource()
    r = src.publish().ref_count()
    a = r.test()
    assert src.subscriptions == 1
    b = r.test()
    assert src.subscriptions == 1
    src.emit(1)
    a.cancel()
    assert src.cancels == 0
    src.emit(2)
    b.cancel()
    assert src.cancels == 1
    a.assert_values(1)
    b.assert_values(1, 2)
    c = r.test()  # connects again
    assert src.subscriptions == 2
    src.emit(3)
    c.assert_values(3)


def test_ref_count_n_connects_with_the_nth_subscriber():
    """RxJava 2's refCount(n): nothing connects before the n-th subscriber."""
    src = ManualSource()
    r = src.publish().ref_count(2)
    a = r.test()
    assert src.subscriptions == 0
    b = r.test()
    assert src.subscriptions == 1
    src.emit(1)
    a.cancel()
    b.cancel()
    assert src.cancels == 1
    a.assert_values(1)
    b.assert_values(1)


def test_ref_count_n_below_n_cancels_do_not_connect_or_disconnect():
    src = ManualSource()
    r = src.publish().ref_count(3)
    a = r.test()
    a.cancel()
    r.test()
    r.test()
    assert src.subscriptions == 0  # one left: two are there, three are needed
    r.test()
    assert src.subscriptions == 1


def test_ref_count_timeout_disconnects_only_when_the_timer_fires():
    sch = TestScheduler()
    src = ManualSource()
    r = src.publish().ref_count(timeout=0.5, scheduler=sch)
    a = r.test()
    a.cancel()
    assert src.cancels == 0
    sch.advance_time_by(0.4)
    assert src.cancels == 0
    sch.advance_time_by(0.1)
    assert src.cancels == 1
    r.test()
    assert src.subscriptions == 2  # a new connection


def test_ref_count_timeout_a_subscriber_in_time_keeps_the_connection():
    sch = TestScheduler()
    src = ManualSource()
    r = src.publish().ref_count(1, 0.5, sch)
    r.test().cancel()
    sch.advance_time_by(0.3)
    b = r.test()
    sch.advance_time_by(1.0)
    assert (src.subscriptions, src.cancels) == (1, 0)
    src.emit(7)
    b.assert_values(7)
    b.cancel()
    sch.advance_time_by(0.5)
    assert src.cancels == 1


def test_ref_count_n_after_termination_the_next_n_connect_again():
    sch = TestScheduler()
    subs: list[int] = []
    r = recorded(Flowable.range(1, 2), [], [], subs).publish().ref_count(2, 0.5, sch)
    a, b = r.test(), r.test()
    a.assert_result(1, 2)
    b.assert_result(1, 2)
    assert sch.pending_count() == 0  # the terminal event left no disconnect timer
    r.test()
    r.test().assert_result(1, 2)
    assert subs == [1, 1]


def test_ref_count_arguments():
    c = Flowable.never().publish()
    with pytest.raises(ValueError, match="subscriber_count > 0"):
        c.ref_count(0)
    with pytest.raises(TypeError, match=r"ref_count\(timeout=0.5\)"):
        c.ref_count(0.5)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="timeout >= 0"):
        c.ref_count(timeout=-1)
    with pytest.raises(TypeError, match="scheduler"):
        c.ref_count(1, 0.5, "computation")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="scheduler"):
        c.ref_count(1, 0.0, "computation")  # type: ignore[arg-type]
    assert repr(c.ref_count()).endswith("ref_count()")
    assert repr(c.ref_count(2)).endswith("ref_count(2)")


@pytest.mark.parametrize("first", ["cancel", "subscribe"])
def test_ref_count_timeout_race_last_cancel_vs_new_subscriber(race_runner, race_rounds, first):
    """Whichever wins, the new subscriber keeps the connection: no disconnect, ever."""
    for _ in range(race_rounds):
        sch = TestScheduler()
        src = ManualSource()
        r = src.publish().ref_count(timeout=0.5, scheduler=sch)
        a = r.test()
        b = TestSubscriber()
        sides = [a.cancel, functools.partial(r.subscribe, b)]
        race_runner.race(*(sides if first == "cancel" else sides[::-1]))
        sch.advance_time_by(1.0)
        assert (src.subscriptions, src.cancels) == (1, 0)
        src.emit(1)
        b.assert_values(1)


def test_ref_count_reconnects_after_completion():
    subs = []
    r = recorded(Flowable.range(1, 3), [], [], subs).share()
    r.test().assert_result(1, 2, 3)
    r.test().assert_result(1, 2, 3)
    assert subs == [1, 1]


def test_share_values_and_error():
    Flowable.range(1, 4).share().test().assert_result(1, 2, 3, 4)
    Flowable.error(Boom()).share().test().assert_failure(Boom)


def test_ref_count_on_replay_resets_after_completion():
    subs = []
    r = recorded(Flowable.range(1, 3), [], [], subs).replay().ref_count()
    r.test().assert_result(1, 2, 3)
    r.test().assert_result(1, 2, 3)
    assert subs == [1, 1]


def test_ref_count_subscribe_vs_cancel_race(race_runner, race_rounds):
    for _ in range(race_rounds):
        src = ManualSource()
        r = src.publish().ref_count()
        a = r.test()
        b = TestSubscriber()
        race_runner.race(a.cancel, lambda r=r, b=b: r.subscribe(b))
        # b is subscribed to a live connection, or a new one after a's disconnect
        assert src.subscriptions - src.cancels == 1
        src.emit(1)
        b.assert_values(1)
        b.cancel()
        assert src.subscriptions == src.cancels


# ---- auto_connect


def test_auto_connect_two():
    subs = []
    f = recorded(Flowable.range(1, 3), [], [], subs).publish().auto_connect(2)
    a = f.test()
    assert subs == []
    b = f.test()
    assert subs == [1]
    a.assert_result(1, 2, 3)
    b.assert_result(1, 2, 3)


def test_auto_connect_on_connect_disposable_and_zero():
    src = ManualSource()
    got = []
    f = src.publish().auto_connect(1, got.append)
    ts = f.test()
    src.emit(1)
    got[0].dispose()
    assert src.cancels == 1
    ts.assert_values(1)
    src2 = ManualSource()
    f2 = src2.publish().auto_connect(0)
    assert src2.subscriptions == 1
    assert isinstance(f2, ConnectableFlowable)


def test_connect_vs_subscribe_race(race_runner, race_rounds):
    for _ in range(race_rounds):
        c = Flowable.range(1, 5).publish()
        ts = TestSubscriber()
        race_runner.race(c.connect, lambda c=c, ts=ts: c.subscribe(ts))
        # either it subscribed in time (all items) or it waits for the next connect
        if ts.value_count() == 0 and not ts.is_terminated():
            c.connect()
        ts.assert_result(1, 2, 3, 4, 5)


# ---- replay


def test_replay_to_early_and_late_subscribers():
    c = Flowable.range(1, 5).replay()
    early = c.test()
    c.connect()
    early.assert_result(1, 2, 3, 4, 5)
    c.test().assert_result(1, 2, 3, 4, 5)
    late = c.test(2)
    late.assert_values(1, 2).assert_not_complete()
    late.request(10)
    late.assert_result(1, 2, 3, 4, 5)


def test_replay_bounded_keeps_last_n():
    src = ManualSource()
    c = src.replay(2)
    slow = c.test(0)
    c.connect()
    src.emit(1, 2, 3, 4)
    c.test().assert_values(3, 4)
    slow.request(10)  # a subscriber from before keeps everything after its position
    slow.assert_values(1, 2, 3, 4)
    src.complete()
    c.test().assert_result(3, 4)


def test_replay_requests_max_of_subscribers():
    src = ManualSource()
    c = src.replay()
    a = c.test(0)
    b = c.test(0)
    c.connect()
    assert src.requests == []
    a.request(2)
    assert src.requests == [2]
    b.request(1)
    assert src.requests == [2]
    b.request(3)
    assert src.requests == [2, 2]
    src.emit(1, 2, 3, 4)
    a.assert_values(1, 2)
    b.assert_values(1, 2, 3, 4)


def test_replay_error_replayed():
    c = Flowable.range(1, 2).concat_with(Flowable.error(Boom())).replay()
    c.connect()
    c.test().assert_failure(Boom, 1, 2)
    c.test().assert_failure(Boom, 1, 2)


def test_replay_dispose_cancels_upstream_and_auto_connect():
    src = ManualSource()
    c = src.replay()
    d = c.connect()
    d.dispose()
    assert src.cancels == 1
    Flowable.range(1, 3).replay().auto_connect().test().assert_result(1, 2, 3)
    with pytest.raises(ValueError):
        Flowable.range(1, 3).replay(0)


def test_replay_cancel_stops_items():
    src = ManualSource()
    c = src.replay()
    ts = c.test()
    c.connect()
    src.emit(1)
    ts.cancel()
    src.emit(2)
    ts.assert_values(1)


# ---- cache


def test_cache_subscribes_on_first_and_replays_to_late():
    subs, req = [], []
    c = recorded(Flowable.range(1, 5), req, [], subs).cache()
    assert subs == []
    c.test().assert_result(1, 2, 3, 4, 5)
    assert subs == [1] and req == [LONG_MAX]
    c.test().assert_result(1, 2, 3, 4, 5)
    assert subs == [1]


def test_cache_late_subscriber_midway_and_backpressure():
    src = ManualSource()
    c = src.cache()
    a = c.test()
    src.emit(1, 2)
    late = c.test(1)
    late.assert_values(1)
    src.emit(3)
    src.complete()
    late.request(5)
    late.assert_result(1, 2, 3)
    a.assert_result(1, 2, 3)


def test_cache_error_and_cancel_does_not_disconnect():
    Flowable.error(Boom()).cache().test().assert_failure(Boom)
    src = ManualSource()
    c = src.cache()
    c.test().cancel()
    assert src.cancels == 0
    src.emit(1)
    c.test().assert_values(1)


def test_cache_subscribe_vs_emit_race(race_runner, race_rounds):
    for _ in range(race_rounds):
        src = ManualSource()
        c = src.cache()
        a = c.test()
        b = TestSubscriber()
        race_runner.race(lambda src=src: src.emit(1, 2, 3), lambda c=c, b=b: c.subscribe(b))
        src.complete()
        a.assert_result(1, 2, 3)
        b.assert_result(1, 2, 3)
