"""Races on the Drain-based multicast and buffering stages: publish, replay, the processors,
create(BUFFER/LATEST), on_backpressure_*, group_by and window. Items arrive on one thread
while the consumer requests, cancels or subscribes on another: nothing lost, duplicated,
reordered, or signalled after a terminal event or beyond the demand. Run under both
Drain backends (``RXPY2_DRAIN=gil`` / ``lock``)."""

from __future__ import annotations

from functools import partial

import pytest

from rxpy2 import BackpressureStrategy
from rxpy2 import Flowable
from rxpy2.processors import PublishProcessor
from rxpy2.processors import ReplayProcessor
from rxpy2.processors import UnicastProcessor
from rxpy2.testing import TestSubscriber

N = 8


def emit(target, items, complete=True):
    for i in items:
        target.on_next(i)
    if complete:
        target.on_complete()


def request_each(ts, times):
    for _ in range(times):
        ts.request(1)


def emit_vs_requests(race_runner, source, *subscribers):
    """``source`` emits 0..N-1 and completes while, on another thread, each of
    ``subscribers`` in turn requests 1 item N times."""
    race_runner.race(partial(emit, source, range(N)),
                     lambda: [request_each(ts, N) for ts in subscribers])


def emit_vs_subscribe(race_runner, source, subscribe_to):
    """``source`` emits 0..N-1 and completes while, on another thread, a TestSubscriber
    subscribes to ``subscribe_to``: it must get every item, then the completion."""
    late: list[TestSubscriber] = []
    race_runner.race(partial(emit, source, range(N)), lambda: late.append(subscribe_to.test()))
    assert_all_items(late[0])


def assert_all_items(*subscribers):
    for ts in subscribers:
        ts.assert_result(*range(N)).assert_protocol_ok()


@pytest.fixture
def rounds(race_rounds):
    return max(race_rounds // 8, 20)


def test_publish_on_next_vs_request(race_runner, rounds):
    for _ in range(rounds):
        pp = PublishProcessor.create()
        cf = pp.publish(N)  # room for every item: the processor never lacks demand
        ts = cf.test(0)
        cf.connect()
        emit_vs_requests(race_runner, pp, ts)
        assert_all_items(ts)


def test_publish_on_next_vs_cancel(race_runner, rounds):
    for _ in range(rounds):
        pp = PublishProcessor.create()
        cf = pp.publish(N + 1)
        ts1 = cf.test(N)
        ts2 = cf.test(N)
        cf.connect()
        race_runner.race(partial(emit, pp, range(N), False), ts1.cancel)
        # the other subscriber is unaffected; the cancelled one got a prefix, in order
        ts2.assert_values(*range(N)).assert_not_terminated().assert_protocol_ok()
        assert ts1.values() == list(range(len(ts1.values())))
        ts1.assert_not_terminated().assert_protocol_ok()


@pytest.mark.parametrize("size", [None, 2])
def test_replay_on_next_vs_request(race_runner, rounds, size):
    for _ in range(rounds):
        pp = PublishProcessor.create()
        cf = pp.replay() if size is None else pp.replay(size)
        ts1 = cf.test(0)
        ts2 = cf.test()
        cf.connect()
        emit_vs_requests(race_runner, pp, ts1)
        # RxJava 2.2.21 FlowableReplay: the completion is replayed under demand too
        ts1.assert_values(*range(N)).assert_not_complete()
        ts1.request(1)
        assert_all_items(ts1, ts2)


def test_replay_on_next_vs_subscribe(race_runner, rounds):
    def one_round():
        pp = PublishProcessor.create()
        cf = pp.on_backpressure_buffer().replay()  # nobody requests before the subscriber
        cf.connect()
        emit_vs_subscribe(race_runner, pp, cf)

    for _ in range(rounds):
        one_round()


def test_cache_on_next_vs_request(race_runner, rounds):
    def one_round():
        pp = PublishProcessor.create()
        cached = pp.cache()
        ts1 = cached.test(0)
        ts2 = cached.test(0)
        emit_vs_requests(race_runner, pp, ts1, ts2)
        assert_all_items(ts1, ts2)

    for _ in range(rounds):
        one_round()


@pytest.mark.parametrize("factory", ["unbounded", "size", "time"])
def test_replay_processor_on_next_vs_request(race_runner, rounds, factory):
    def one_round():
        rp = {"unbounded": ReplayProcessor.create,
              "size": lambda: ReplayProcessor.create_with_size(2),
              "time": lambda: ReplayProcessor.create_with_time(3600.0)}[factory]()
        ts = rp.test(0)
        emit_vs_requests(race_runner, rp, ts)
        assert_all_items(ts)

    for _ in range(rounds):
        one_round()


def test_unicast_processor_on_next_vs_request(race_runner, rounds):
    for _ in range(rounds):
        up = UnicastProcessor.create()
        ts = up.test(0)
        emit_vs_requests(race_runner, up, ts)
        assert_all_items(ts)


def test_unicast_processor_on_next_vs_subscribe(race_runner, rounds):
    def one_round():
        up = UnicastProcessor.create()
        emit_vs_subscribe(race_runner, up, up)

    for _ in range(rounds):
        one_round()


def test_unicast_processor_on_next_vs_cancel(race_runner, rounds):
    for _ in range(rounds):
        up = UnicastProcessor.create()
        ts = up.test()
        race_runner.race(partial(emit, up, range(N)), ts.cancel)
        assert ts.values() == list(range(len(ts.values())))
        ts.assert_protocol_ok()
        assert not up.has_subscribers()


@pytest.mark.parametrize("mode", [BackpressureStrategy.BUFFER, BackpressureStrategy.LATEST])
def test_create_emitter_vs_request(race_runner, rounds, mode):
    for _ in range(rounds):
        holder = []
        ts = Flowable.create(holder.append, mode).test(0)
        emit_vs_requests(race_runner, holder[0], ts)
        ts.request(N)
        values = ts.values()
        if mode is BackpressureStrategy.BUFFER:
            assert values == list(range(N))
        else:  # LATEST keeps the last unrequested item: an increasing subsequence ending at N-1
            assert values == sorted(set(values)) and values[-1] == N - 1
        ts.assert_complete().assert_protocol_ok()


@pytest.mark.parametrize("op", ["buffer", "latest", "drop_oldest"])
def test_on_backpressure_on_next_vs_request(race_runner, rounds, op):
    from rxpy2.backpressure import BackpressureOverflowStrategy

    def one_round():
        pp = PublishProcessor.create()
        f = {"buffer": lambda: pp.on_backpressure_buffer(),
             "latest": lambda: pp.on_backpressure_latest(),
             "drop_oldest": lambda: pp.on_backpressure_buffer(
                 N, None, BackpressureOverflowStrategy.DROP_OLDEST)}[op]()
        ts = f.test(0)
        emit_vs_requests(race_runner, pp, ts)
        ts.request(N)
        values = ts.values()
        if op == "latest":
            assert values == sorted(set(values)) and values[-1] == N - 1
        else:
            assert values == list(range(N))
        ts.assert_complete().assert_protocol_ok()

    for _ in range(rounds):
        one_round()


def test_group_by_on_next_vs_request(race_runner, rounds):
    def one_round():
        pp = PublishProcessor.create()
        inner: list[TestSubscriber] = []
        # a group must be subscribed inside the outer's on_next (else it is abandoned)
        pp.group_by(lambda x: x % 2).subscribe(lambda g: inner.append(g.test(0)))
        pp.on_next(0)
        pp.on_next(1)
        race_runner.race(partial(emit, pp, range(2, 2 + 2 * N)),
                         lambda: [request_each(ts, N + 1) for ts in inner])
        inner[0].assert_result(*range(0, 2 + 2 * N, 2)).assert_protocol_ok()
        inner[1].assert_result(*range(1, 2 + 2 * N, 2)).assert_protocol_ok()

    for _ in range(rounds):
        one_round()


def test_window_overlap_on_next_vs_request(race_runner, rounds):
    for _ in range(rounds):
        pp = PublishProcessor.create()
        windows: list[TestSubscriber] = []
        outer = TestSubscriber(0)
        pp.on_backpressure_buffer().window(3, 1).subscribe(outer)
        emit_vs_requests(race_runner, pp, outer)
        outer.assert_complete().assert_protocol_ok()
        for w in outer.values():
            windows.append(w.test())
        assert len(windows) <= N
        for i, ts in enumerate(windows):  # a window keeps its items until subscribed
            ts.assert_result(*range(i, min(i + 3, N))).assert_protocol_ok()
