"""MulticastProcessor: lockstep emission, bounded prefetch, ref_count, late subscribers, offer,
start/start_unbounded, fusion, errors, bad input, races (RxJava 2.2.21's MulticastProcessor)."""

from __future__ import annotations

import gc
import weakref
from functools import partial

import pytest
from probes import Boom
from probes import ManualSource
from probes import SyncFusedProbe
from processor_probes import SerialChecker
from processor_probes import emit
from processor_probes import race
from processor_probes import request_each

from rxpy2 import Flowable
from rxpy2 import FlowableProcessor
from rxpy2 import MissingBackpressureException
from rxpy2 import MulticastProcessor
from rxpy2 import ProtocolViolationException
from rxpy2 import UnicastProcessor
from rxpy2._internal.fuseable import ANY
from rxpy2.flowable import BUFFER_SIZE
from rxpy2.reactivestreams import LONG_MAX
from rxpy2.reactivestreams import Processor
from rxpy2.testing import TestSubscriber


def started(buffer_size: int = BUFFER_SIZE, ref_count: bool = False) -> MulticastProcessor[int]:
    mp: MulticastProcessor[int] = MulticastProcessor.create(buffer_size, ref_count=ref_count)
    mp.start()
    return mp


# ---------------------------------------------------------------------------- basics


def test_is_a_flowable_processor():
    mp = MulticastProcessor.create()
    assert isinstance(mp, FlowableProcessor) and isinstance(mp, Flowable) and isinstance(mp, Processor)


def test_rxjava_javadoc_examples():
    mp = Flowable.range(1, 10).subscribe_with(MulticastProcessor.create())
    mp.test().assert_result(*range(1, 11))

    mp2 = MulticastProcessor.create(4)
    mp2.start()
    assert [mp2.offer(i) for i in (1, 2, 3, 4)] == [True] * 4
    assert not mp2.offer(5)
    mp2.on_complete()
    mp2.test().assert_result(1, 2, 3, 4)


def test_items_wait_for_a_subscriber():
    mp = started()
    mp.on_next(1)
    mp.on_next(2)
    assert not mp.has_subscribers()
    ts = mp.test()
    assert mp.has_subscribers()
    ts.assert_values(1, 2).assert_not_terminated()
    mp.on_next(3)
    mp.on_complete()
    ts.assert_result(1, 2, 3).assert_protocol_ok()
    assert not mp.has_subscribers()


# ---------------------------------------------------------------------------- lockstep


def test_pace_of_the_slowest_subscriber():
    mp = started()
    ts1 = mp.test(0)
    ts2 = mp.test(0)
    for i in range(5):
        mp.on_next(i)
    ts1.request(3)
    ts1.assert_no_values()  # ts2 has no demand: nothing goes out
    ts2.request(1)
    ts1.assert_values(0)
    ts2.assert_values(0)
    ts2.request(10)
    ts1.assert_values(0, 1, 2)
    ts2.assert_values(0, 1, 2)
    ts1.request(10)
    ts1.assert_values(0, 1, 2, 3, 4)
    ts2.assert_values(0, 1, 2, 3, 4)
    mp.on_complete()
    ts1.assert_result(0, 1, 2, 3, 4).assert_protocol_ok()
    ts2.assert_result(0, 1, 2, 3, 4).assert_protocol_ok()


def test_a_cancelled_subscriber_no_longer_holds_the_others_back():
    # departure: RxJava 2 runs no drain on cancel, so ts1 would wait for another signal
    mp = started()
    ts1 = mp.test(0)
    ts2 = mp.test(0)
    mp.on_next(1)
    mp.on_next(2)
    ts1.request(2)
    ts1.assert_no_values()
    ts2.cancel()
    ts1.assert_values(1, 2)
    ts2.assert_no_values()
    assert mp.has_subscribers()


def test_cancel_lets_a_waiting_subscriber_finish():
    # departure (see above): everything is requested and the upstream is done; only the
    # subscriber without demand holds the items back, then it leaves
    mp = started()
    ts1 = mp.test()
    ts2 = mp.test(0)
    emit(mp, range(3), complete=True)
    ts1.assert_no_values()
    ts2.cancel()
    ts1.assert_result(0, 1, 2)


def test_a_new_subscriber_joins_the_lockstep():
    mp = started()
    ts1 = mp.test()
    mp.on_next(1)
    ts2 = mp.test(0)
    mp.on_next(2)
    ts1.assert_values(1)  # waits for ts2
    ts2.request(1)
    ts1.assert_values(1, 2)
    ts2.assert_values(2)


def test_completion_waits_until_the_queue_is_drained():
    mp = started()
    ts = mp.test(0)
    mp.on_next(1)
    mp.on_complete()
    assert mp.has_complete()
    ts.assert_no_values().assert_not_terminated()
    ts.request(1)
    ts.assert_result(1)


def test_completion_without_demand_when_empty():
    mp = started()
    ts = mp.test(0)
    mp.on_complete()
    ts.assert_result()


# ---------------------------------------------------------------------------- prefetch


def test_prefetch_and_replenish_amounts():
    src = ManualSource()
    mp: MulticastProcessor[int] = MulticastProcessor.create(8)
    src.subscribe(mp)
    assert src.requests == [8]  # limit = 8 - 8 // 4 = 6
    ts = mp.test(0)
    src.emit(*range(8))
    assert src.requests == [8]
    ts.request(5)
    assert src.requests == [8]
    ts.request(1)
    assert src.requests == [8, 6]
    ts.request(100)
    src.emit(*range(8, 12))
    assert src.requests == [8, 6, 6]
    ts.assert_values(*range(12))


def test_default_prefetch_is_buffer_size():
    src = ManualSource()
    src.subscribe(MulticastProcessor.create())
    assert src.requests == [BUFFER_SIZE]


def test_buffer_size_one_requests_one_at_a_time():
    src = ManualSource()
    mp: MulticastProcessor[int] = MulticastProcessor.create(1)
    src.subscribe(mp)
    ts = mp.test()
    src.emit(1)
    src.emit(2)
    assert src.requests == [1, 1, 1]
    ts.assert_values(1, 2)


def test_overflowing_upstream_fails_with_missing_backpressure():
    src = ManualSource()
    mp: MulticastProcessor[int] = MulticastProcessor.create(4)
    src.subscribe(mp)
    ts = mp.test(0)
    src.emit(1, 2, 3, 4, 5)
    assert src.cancelled
    assert mp.has_throwable() and isinstance(mp.get_throwable(), MissingBackpressureException)
    ts.assert_no_values().assert_not_terminated()  # the error waits behind the queued items
    ts.request(4)
    ts.assert_failure(MissingBackpressureException, 1, 2, 3, 4)


def test_second_upstream_is_cancelled_and_reported(plugin_errors):
    mp: MulticastProcessor[int] = MulticastProcessor.create()
    a, b = ManualSource(), ManualSource()
    a.subscribe(mp)
    b.subscribe(mp)
    assert b.cancelled and not a.cancelled and b.requests == []
    assert len(plugin_errors) == 1 and "§2.5" in str(plugin_errors[0])


def test_start_after_upstream_is_a_no_op_and_upstream_after_start_is_cancelled(plugin_errors):
    src = ManualSource()
    mp: MulticastProcessor[int] = MulticastProcessor.create()
    src.subscribe(mp)
    mp.start()
    mp.start_unbounded()
    mp2 = started()
    src2 = ManualSource()
    src2.subscribe(mp2)
    assert src2.cancelled and src2.requests == [] and not src.cancelled
    assert src.requests == [BUFFER_SIZE]
    # as RxJava 2, each of the three "already set" cases is reported
    assert [type(e) for e in plugin_errors.causes()] == [ProtocolViolationException] * 3


# ---------------------------------------------------------------------------- offer / start


def test_offer_fails_when_full_then_succeeds_after_drain():
    mp = started(2)
    ts = mp.test(0)
    assert mp.offer(1) and mp.offer(2)
    assert not mp.offer(3)
    ts.request(1)
    assert mp.offer(3)
    ts.request(5)
    ts.assert_values(1, 2, 3)


def test_offer_after_termination_is_false():
    mp = started()
    mp.on_complete()
    assert not mp.offer(1)
    mp2 = started()
    mp2.on_error(Boom())
    assert not mp2.offer(1)


def test_start_unbounded_never_refuses():
    mp: MulticastProcessor[int] = MulticastProcessor.create(2)
    mp.start_unbounded()
    assert all(mp.offer(i) for i in range(1000))
    for i in range(1000, 1100):
        mp.on_next(i)
    mp.on_complete()
    mp.test().assert_result(*range(1100))


def test_on_next_overflowing_a_started_queue_fails():
    mp = started(2)
    ts = mp.test(0)
    mp.on_next(1)
    mp.on_next(2)
    mp.on_next(3)  # no room: MissingBackpressureException
    assert mp.has_throwable()
    ts.request(10)
    ts.assert_failure(MissingBackpressureException, 1, 2)


def test_offer_is_refused_in_fused_mode():
    mp: MulticastProcessor[int] = MulticastProcessor.create()
    up: UnicastProcessor[int] = UnicastProcessor.create()
    up.subscribe(mp)  # ASYNC fused
    assert not mp.offer(1)
    ts = mp.test()
    up.on_next(2)
    ts.assert_values(2)


# ---------------------------------------------------------------------------- ref_count


def test_ref_count_cancels_upstream_when_the_last_subscriber_leaves():
    src = ManualSource()
    mp: MulticastProcessor[int] = MulticastProcessor.create(ref_count=True)
    src.subscribe(mp)
    ts1, ts2 = mp.test(), mp.test()
    src.emit(1)
    ts1.cancel()
    assert not src.cancelled
    ts2.cancel()
    assert src.cancelled
    assert mp.has_complete() and not mp.has_subscribers()
    mp.test().assert_result()  # terminated: a late subscriber completes at once
    assert not mp.offer(2)


def test_ref_count_subscriber_cancelling_in_on_subscribe_ends_it():
    src = ManualSource()
    mp: MulticastProcessor[int] = MulticastProcessor.create(ref_count=True)
    src.subscribe(mp)
    ts: TestSubscriber[int] = TestSubscriber()
    ts.cancel()
    mp.subscribe(ts)
    assert src.cancelled and mp.has_complete()


def test_without_ref_count_upstream_stays_when_subscribers_leave():
    src = ManualSource()
    mp: MulticastProcessor[int] = MulticastProcessor.create()
    src.subscribe(mp)
    ts = mp.test()
    src.emit(1)
    ts.cancel()
    assert not src.cancelled and not mp.has_subscribers()
    src.emit(2)
    mp.test().assert_values(2)


def test_ref_count_drops_queued_items():
    src = ManualSource()
    mp: MulticastProcessor[int] = MulticastProcessor.create(ref_count=True)
    src.subscribe(mp)
    ts1 = mp.test(0)
    ts2 = mp.test(1)
    src.emit(1, 2)
    ts1.request(1)  # ts1 and ts2 take 1
    ts1.cancel()
    ts2.cancel()
    src.emit(3)  # ignored: terminated
    ts1.assert_values(1)
    ts2.assert_values(1)
    assert mp._queue.is_empty()  # the pass after the last cancel dropped item 2


# ---------------------------------------------------------------------------- late subscribers / errors


def test_late_subscriber_gets_the_error():
    mp = started()
    e = Boom()
    mp.on_error(e)
    mp.test().assert_failure(e)  # the first one terminates it
    mp.test().assert_failure(e)  # later ones see TERMINATED
    assert mp.has_throwable() and not mp.has_complete() and mp.get_throwable() is e


def test_late_subscriber_gets_completion():
    mp = started()
    mp.on_next(1)
    mp.on_complete()
    mp.test().assert_result(1)
    mp.test().assert_result()
    assert mp.has_complete() and not mp.has_throwable() and mp.get_throwable() is None


def test_error_reaches_all_subscribers_once_the_queue_is_drained():
    mp = started()
    ts1, ts2 = mp.test(), mp.test(0)
    mp.on_next(1)
    e = Boom()
    mp.on_error(e)
    ts1.assert_no_errors()
    ts2.request(1)
    ts1.assert_failure(e, 1)
    ts2.assert_failure(e, 1)


def test_error_without_items_needs_no_demand():
    mp = started()
    ts = mp.test(0)
    e = Boom()
    mp.on_error(e)
    ts.assert_failure(e)


def test_second_terminal_signals(plugin_errors):
    mp = started()
    ts = mp.test()
    mp.on_complete()
    e = Boom()
    mp.on_error(e)
    mp.on_complete()
    mp.on_next(1)
    ts.assert_result()
    assert plugin_errors.causes() == [e]


def test_unstarted_processor_holds_signals_until_it_has_a_queue():
    # as in RxJava 2: without start() or an upstream there is no queue to drain
    mp: MulticastProcessor[int] = MulticastProcessor.create()
    mp.on_complete()
    assert mp.has_complete()
    ts = mp.test()
    ts.assert_not_terminated()


def test_state_before_termination():
    mp = started()
    assert not mp.has_complete() and not mp.has_throwable() and mp.get_throwable() is None


# ---------------------------------------------------------------------------- fusion


def test_sync_fused_upstream_is_polled_under_demand():
    src = SyncFusedProbe(5)
    mp: MulticastProcessor[int] = MulticastProcessor.create(2)
    src.subscribe(mp)
    assert src.modes == [ANY]
    assert src.requests == []  # SYNC: nothing is requested
    ts1 = mp.test(0)
    ts2 = mp.test(0)
    ts1.request(3)
    ts2.request(2)
    ts1.assert_values(0, 1)
    ts2.assert_values(0, 1)
    ts2.request(10)
    ts1.request(10)
    ts1.assert_result(0, 1, 2, 3, 4)
    ts2.assert_result(0, 1, 2, 3, 4)
    assert src.requests == []


def test_sync_fused_range():
    mp = Flowable.range(1, 300).subscribe_with(MulticastProcessor.create(16))
    ts1 = mp.test(0)
    ts2 = mp.test(7)
    ts1.request(LONG_MAX)
    ts1.assert_values(*range(1, 8))
    ts2.request(LONG_MAX)
    ts1.assert_result(*range(1, 301))
    ts2.assert_result(*range(1, 301))


def test_sync_fused_poll_failure_cancels_and_fails_everyone():
    src = SyncFusedProbe(5, fail_at=2)
    mp: MulticastProcessor[int] = MulticastProcessor.create()
    src.subscribe(mp)
    ts1, ts2 = mp.test(0), mp.test(0)
    ts1.request(10)
    ts2.request(10)
    ts1.assert_failure(ValueError, 0, 1)
    ts2.assert_failure(ValueError, 0, 1)
    assert src.cancelled == 1
    mp.test().assert_failure(ValueError)


def test_sync_fused_mapper_failure():
    e = Boom()

    def f(x: int) -> int:
        if x == 3:
            raise e
        return x

    mp = Flowable.range(1, 5).map(f).subscribe_with(MulticastProcessor.create())
    mp.test().assert_failure(e, 1, 2)


def test_async_fused_upstream():
    up: UnicastProcessor[int] = UnicastProcessor.create()
    mp: MulticastProcessor[int] = MulticastProcessor.create(4)
    up.subscribe(mp)
    ts1, ts2 = mp.test(0), mp.test(0)
    for i in range(4):
        up.on_next(i)
    ts1.request(2)
    ts2.request(3)
    ts1.assert_values(0, 1)
    ts2.assert_values(0, 1)
    ts1.request(10)
    ts2.request(10)
    for i in range(4, 10):
        up.on_next(i)
    up.on_complete()
    ts1.assert_result(*range(10))
    ts2.assert_result(*range(10))


def test_async_fused_error_after_items():
    up: UnicastProcessor[int] = UnicastProcessor.create()
    mp: MulticastProcessor[int] = MulticastProcessor.create()
    up.subscribe(mp)
    ts = mp.test(0)
    up.on_next(1)
    e = Boom()
    up.on_error(e)
    ts.assert_no_errors()
    ts.request(1)
    ts.assert_failure(e, 1)


def test_fused_sync_completion_state_is_rxjava_2s():
    # RxJava 2 sets no terminal state for a SYNC-fused upstream's end: has_complete stays False
    mp = Flowable.just(1).subscribe_with(MulticastProcessor.create())
    mp.test().assert_result(1)
    assert not mp.has_complete()
    mp.test().assert_result()


# ---------------------------------------------------------------------------- bad input


def test_none_item_raises():
    mp = started()
    with pytest.raises(TypeError, match="2.13"):
        mp.on_next(None)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        mp.offer(None)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="2.13"):
        mp.on_error(None)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="2.13"):
        mp.on_subscribe(None)  # type: ignore[arg-type]
    assert not mp.has_complete() and not mp.has_throwable()


@pytest.mark.parametrize("size", [0, -1])
def test_buffer_size_must_be_positive(size):
    with pytest.raises(ValueError, match="buffer_size"):
        MulticastProcessor.create(size)


@pytest.mark.parametrize("size", [True, 1.5, "8", None])
def test_buffer_size_must_be_an_int(size):
    with pytest.raises(TypeError, match="buffer_size"):
        MulticastProcessor.create(size)


def test_bad_request_is_reported_and_ignored(plugin_errors):
    mp = started()
    ts = mp.test(0)
    mp.on_next(1)
    ts.request(0)
    ts.assert_no_values()
    assert len(plugin_errors) == 1 and isinstance(plugin_errors[0], ValueError)


def test_cancel_drops_the_reference():
    mp = started()
    ts = mp.test()
    ref = weakref.ref(ts)
    ts.cancel()
    del ts
    gc.collect()
    assert ref() is None


# ---------------------------------------------------------------------------- stack safety


def test_request_in_on_next_does_not_recurse():
    mp: MulticastProcessor[int] = MulticastProcessor.create()
    mp.start_unbounded()
    for i in range(100_000):
        mp.offer(i)
    mp.on_complete()

    class OneByOne(SerialChecker):
        def on_next(self, item):
            super().on_next(item)
            self.subscription.request(1)

    s = OneByOne(1)
    mp.subscribe(s)
    assert len(s.values) == 100_000 and s.completions == 1 and not s.problems


# ---------------------------------------------------------------------------- races


def test_race_subscribe_vs_on_next(race_runner, race_rounds):
    for _ in range(race_rounds // 2):
        mp = started()
        ts: TestSubscriber[int] = TestSubscriber()
        race(race_runner, partial(mp.subscribe, ts), partial(emit, mp, range(3), True))
        ts.assert_result(0, 1, 2).assert_protocol_ok()


def two_checkers(mp: MulticastProcessor[int], first: int = 0,
                 second: int = 0) -> tuple[SerialChecker, SerialChecker]:
    """Two SerialCheckers subscribed to ``mp`` with these initial requests."""
    s1, s2 = SerialChecker(first), SerialChecker(second)
    mp.subscribe(s1)
    mp.subscribe(s2)
    return s1, s2


def assert_both_got(s1: SerialChecker, s2: SerialChecker, n: int) -> None:
    assert s1.values == s2.values == list(range(n))
    assert s1.completions == s2.completions == 1
    assert not s1.problems and not s2.problems


def test_race_two_subscribers_requesting_on_two_threads(race_runner, race_rounds):
    for _ in range(race_rounds // 4):
        mp = started()
        s1, s2 = two_checkers(mp)
        emit(mp, range(4), True)
        race(race_runner, partial(request_each, s1.subscription, 4),
             partial(request_each, s2.subscription, 4))
        assert_both_got(s1, s2, 4)


def test_race_request_vs_on_next(race_runner, race_rounds):
    for _ in range(race_rounds // 4):
        mp = started()
        s1, s2 = two_checkers(mp, 0, LONG_MAX)
        race(race_runner, partial(emit, mp, range(4), True),
             partial(request_each, s1.subscription, 4))
        assert_both_got(s1, s2, 4)


def test_race_cancel_vs_drain(race_runner, race_rounds):
    for _ in range(race_rounds // 2):
        mp = started()
        s1, s2 = two_checkers(mp, LONG_MAX, LONG_MAX)
        race(race_runner, s1.subscription.cancel, partial(emit, mp, range(3), True))
        assert s2.values == [0, 1, 2] and s2.completions == 1
        assert s1.values == [0, 1, 2][:len(s1.values)]  # a prefix: nothing after the cancel
        assert s1.completions in (0, 1) and not s1.errors
        assert not s1.problems and not s2.problems


def test_race_ref_count_cancel_vs_on_next(race_runner, race_rounds):
    for _ in range(race_rounds // 2):
        src = ManualSource()
        mp: MulticastProcessor[int] = MulticastProcessor.create(ref_count=True)
        src.subscribe(mp)
        s = SerialChecker()
        mp.subscribe(s)
        race(race_runner, s.subscription.cancel, partial(src.emit, 0, 1, 2))
        assert src.cancels == 1
        assert s.values == [0, 1, 2][:len(s.values)] and not s.errors and not s.completions
        assert not s.problems and mp.has_complete()


def test_race_two_subscribers_with_an_upstream(race_runner, race_rounds):
    for _ in range(race_rounds // 8):
        src = ManualSource()
        mp: MulticastProcessor[int] = MulticastProcessor.create(4)
        src.subscribe(mp)
        s1, s2 = two_checkers(mp)
        src.emit(0, 1, 2, 3)
        race(race_runner, partial(request_each, s1.subscription, 6),
             partial(request_each, s2.subscription, 6))
        assert src.requests == [4, 3]  # 3 handed out: replenished once
        src.emit(4, 5)
        src.complete()
        assert_both_got(s1, s2, 6)


def test_feeding_before_start_is_a_clear_error():
    mp: MulticastProcessor[int] = MulticastProcessor.create()
    with pytest.raises(RuntimeError, match="start"):
        mp.offer(1)
    with pytest.raises(RuntimeError, match="start"):
        mp.on_next(1)
