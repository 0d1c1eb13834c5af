"""observe_on: delivery on a worker, stable prefetch, bounded queue, fusion, races."""

from __future__ import annotations

import threading

import pytest
from _async_probes import CapturingSource
from _async_probes import SyncFusedProbe

from rxpy2 import BackpressureStrategy
from rxpy2 import Flowable
from rxpy2._internal.fuseable import ANY
from rxpy2._internal.fuseable import ASYNC
from rxpy2._internal.fuseable import BOUNDARY
from rxpy2._internal.fuseable import SYNC
from rxpy2.exceptions import MissingBackpressureException
from rxpy2.reactivestreams import LONG_MAX
from rxpy2.schedulers import Schedulers
from rxpy2.schedulers import TestScheduler
from rxpy2.testing import TestSubscriber

pytestmark = pytest.mark.usefixtures("shutdown_schedulers")


def requests_of(f: Flowable[int], log: list[int]) -> Flowable[int]:
    # do_on_request is a lifecycle stage: it is not a QueueSubscription, so fusion stops there
    return f.do_on_request(log.append)


# ---------------------------------------------------------------- real threads

def test_delivers_on_a_scheduler_thread():
    threads: set[str] = set()
    ts = (Flowable.range(1, 1000).observe_on(Schedulers.computation())
          .do_on_next(lambda _: threads.add(threading.current_thread().name)).test())
    ts.await_done(5).assert_value_sequence(list(range(1, 1001))).assert_complete()
    assert len(threads) == 1
    assert next(iter(threads)).startswith("rxpy2-")
    assert ts.last_thread.name.startswith("rxpy2-")


def test_unfused_source_on_single_with_small_buffer():
    ts = Flowable.range(0, 5000).hide().observe_on(Schedulers.single(), buffer_size=7).test()
    ts.await_done(5).assert_value_sequence(list(range(5000))).assert_complete()


def test_error_on_a_scheduler_thread():
    ts = Flowable.error(ValueError("x")).observe_on(Schedulers.io()).test()
    ts.await_done(5).assert_error(ValueError).assert_no_values()
    assert ts.last_thread.name.startswith("rxpy2-")


def test_slow_requester_on_real_thread():
    ts = Flowable.range(0, 300).hide().observe_on(Schedulers.computation(), buffer_size=8).test(0)
    for _ in range(300):
        ts.request(1)
    ts.await_done(5).assert_value_sequence(list(range(300))).assert_complete()


# ---------------------------------------------------------------- virtual time

def test_nothing_delivered_until_the_worker_runs():
    s = TestScheduler()
    ts = Flowable.range(1, 3).hide().observe_on(s).test()
    ts.assert_no_values().assert_not_complete()
    s.trigger_actions()
    ts.assert_result(1, 2, 3)
    assert s.pending_count() == 0


def test_stable_prefetch_request_pattern_unbounded_downstream():
    s = TestScheduler()
    log: list[int] = []
    ts = requests_of(Flowable.range(0, 1000), log).observe_on(s, buffer_size=16).test()
    s.trigger_actions()
    ts.assert_value_sequence(list(range(1000))).assert_complete()
    assert log == [16] + [12] * (1000 // 12)


def test_request_pattern_does_not_follow_downstream_demand():
    s = TestScheduler()
    log: list[int] = []
    ts = requests_of(Flowable.range(0, 100), log).observe_on(s, buffer_size=16).test(0)
    s.trigger_actions()
    assert log == [16]
    ts.assert_no_values()
    ts.request(5)
    s.trigger_actions()
    ts.assert_values(0, 1, 2, 3, 4)
    assert log == [16]
    ts.request(7)
    s.trigger_actions()
    ts.assert_value_count(12)
    assert log == [16, 12]
    ts.request(LONG_MAX)
    s.trigger_actions()
    ts.assert_value_sequence(list(range(100))).assert_complete()


def test_default_buffer_size_is_128_with_96_replenish():
    s = TestScheduler()
    log: list[int] = []
    requests_of(Flowable.range(0, 200), log).observe_on(s).test()
    s.trigger_actions()
    assert log == [128, 96, 96]


def test_error_overtakes_queued_items():
    s = TestScheduler()
    ts = Flowable.create(lambda e: (e.on_next(1), e.on_next(2), e.on_error(ValueError("x"))),
                         BackpressureStrategy.BUFFER).observe_on(s).test()
    s.trigger_actions()
    ts.assert_failure(ValueError)


def test_delay_error_delivers_queued_items_first():
    s = TestScheduler()
    ts = Flowable.create(lambda e: (e.on_next(1), e.on_next(2), e.on_error(ValueError("x"))),
                         BackpressureStrategy.BUFFER).observe_on(s, delay_error=True).test()
    s.trigger_actions()
    ts.assert_failure(ValueError, 1, 2)


def test_delay_error_waits_for_demand():
    s = TestScheduler()
    src = CapturingSource()
    ts = src.observe_on(s, delay_error=True).test(1)
    src.emit(1, 2)
    src.error(ValueError("x"))
    s.trigger_actions()
    ts.assert_values(1).assert_not_terminated()
    ts.request(1)
    s.trigger_actions()
    ts.assert_failure(ValueError, 1, 2)


def test_empty_completes():
    s = TestScheduler()
    ts = Flowable.empty().observe_on(s).test(0)
    s.trigger_actions()
    ts.assert_result()


def test_cancel_reaches_source_and_disposes_worker():
    s = TestScheduler()
    src = CapturingSource()
    ts = src.observe_on(s).test(0)
    src.emit(1, 2, 3)
    ts.cancel()
    assert src.cancelled == 1
    ts.request(5)
    s.trigger_actions()
    ts.assert_no_values().assert_not_terminated()
    assert s.pending_count() == 0


def test_cancel_inside_on_next_stops_delivery():
    s = TestScheduler()
    log: list[int] = []
    ts: TestSubscriber[int] = TestSubscriber()
    Flowable.range(0, 100).do_on_cancel(lambda: log.append(-1)).observe_on(s) \
        .do_on_next(lambda x: ts.cancel() if x == 2 else None).subscribe(ts)
    s.trigger_actions()
    ts.assert_values(0, 1, 2).assert_not_terminated()
    assert log == [-1]


def test_source_ignoring_demand_gets_missing_backpressure():
    s = TestScheduler()
    src = CapturingSource()
    ts = src.observe_on(s, buffer_size=16).test()
    assert src.requests == [16]
    src.emit(*range(17))  # one more than asked
    assert src.cancelled == 1
    src.emit(99)  # ignored after the failure
    s.trigger_actions()
    ts.assert_error(MissingBackpressureException).assert_no_values()


def test_source_ignoring_demand_delay_error_delivers_the_buffer_first():
    s = TestScheduler()
    src = CapturingSource()
    ts = src.observe_on(s, delay_error=True, buffer_size=10).test()
    src.emit(*range(11))  # buffer_size 10 is not a power of two: still only 10 held
    s.trigger_actions()
    ts.assert_failure(MissingBackpressureException, *range(10))


def test_create_missing_overflows():
    s = TestScheduler()
    ts = Flowable.create(lambda e: [e.on_next(i) for i in range(100)],
                         BackpressureStrategy.MISSING).observe_on(s, buffer_size=4).test()
    s.trigger_actions()
    ts.assert_error(MissingBackpressureException)


def test_late_error_goes_to_plugins(plugin_errors):
    s = TestScheduler()
    src = CapturingSource()
    ts = src.observe_on(s).test()
    src.complete()
    err = ValueError("late")
    src.error(err)
    s.trigger_actions()
    ts.assert_result()
    assert plugin_errors.causes() == [err]


def test_bad_arguments():
    s = TestScheduler()
    with pytest.raises(TypeError):
        Flowable.range(0, 1).observe_on(None)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        Flowable.range(0, 1).observe_on("computation")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        Flowable.range(0, 1).observe_on(s, buffer_size=0)
    with pytest.raises(TypeError):
        Flowable.range(0, 1).observe_on(s, buffer_size=1.5)  # type: ignore[arg-type]


def test_non_positive_request_is_reported(plugin_errors):
    s = TestScheduler()
    sub = Flowable.range(0, 3).observe_on(s).test(0)
    sub.request(0)
    s.trigger_actions()
    assert plugin_errors or sub.errors()


# ---------------------------------------------------------------- fusion

def test_sync_fused_source_gets_no_requests():
    s = TestScheduler()
    probe = SyncFusedProbe(1000)
    ts = probe.observe_on(s, buffer_size=16).test(0)
    assert probe.modes == [ANY | BOUNDARY]
    ts.request(10)
    s.trigger_actions()
    ts.assert_value_sequence(list(range(10)))
    ts.request(LONG_MAX)
    s.trigger_actions()
    ts.assert_value_sequence(list(range(1000))).assert_complete()
    assert probe.requests == []


def test_sync_fused_range_on_real_thread():
    ts = Flowable.range(0, 10_000).observe_on(Schedulers.single()).test()
    ts.await_done(5).assert_value_count(10_000).assert_complete()


def test_sync_fused_cancel_cancels_source():
    s = TestScheduler()
    probe = SyncFusedProbe(10)
    ts = probe.observe_on(s).test(3)
    s.trigger_actions()
    ts.cancel()
    assert probe.cancelled == 1
    ts.assert_values(0, 1, 2).assert_not_terminated()


def test_sync_fused_poll_error_cancels_source():
    s = TestScheduler()
    probe = SyncFusedProbe(5, fail_at=2)
    ts = probe.observe_on(s).test()
    s.trigger_actions()
    ts.assert_failure(ValueError, 0, 1)
    assert probe.cancelled == 1


def test_map_refuses_boundary_fusion_and_its_error_overtakes_items():
    s = TestScheduler()
    ts = Flowable.range(0, 5).map(lambda x: 1 // (x - 2)).observe_on(s).test()
    s.trigger_actions()
    ts.assert_failure(ZeroDivisionError)


def test_async_fused_upstream_is_another_observe_on():
    s1, s2 = TestScheduler(), TestScheduler()
    log: list[int] = []
    ts = requests_of(Flowable.range(0, 100), log).observe_on(s1, buffer_size=8) \
        .observe_on(s2, buffer_size=8).test()
    for _ in range(200):
        s1.trigger_actions()
        s2.trigger_actions()
    ts.assert_value_sequence(list(range(100))).assert_complete()
    assert log[0] == 8 and set(log[1:]) == {6}


def test_offers_async_fusion_downstream():
    s = TestScheduler()
    log: list[int] = []
    ts = TestSubscriber().with_fusion(ANY)
    requests_of(Flowable.range(0, 50), log).observe_on(s, buffer_size=8).subscribe(ts)
    ts.assert_fusion_mode(ASYNC)
    s.trigger_actions()
    ts.assert_value_sequence(list(range(50))).assert_complete()
    assert log[0] == 8 and set(log[1:]) == {6}


def test_refuses_sync_fusion_downstream():
    s = TestScheduler()
    ts = TestSubscriber().with_fusion(SYNC)
    Flowable.range(0, 3).observe_on(s).subscribe(ts)
    ts.assert_fusion_mode(0)
    s.trigger_actions()
    ts.assert_result(0, 1, 2)


def test_output_fused_real_thread():
    ts = TestSubscriber().with_fusion(ANY)
    Flowable.range(0, 2000).hide().observe_on(Schedulers.computation(), buffer_size=16).subscribe(ts)
    ts.await_done(5).assert_value_sequence(list(range(2000))).assert_complete()


# ---------------------------------------------------------------- never more than buffer_size

@pytest.mark.parametrize("buffer_size", [1, 5, 16, 128])
def test_never_holds_more_than_buffer_size(buffer_size):
    emitted = 0
    consumed = 0
    worst = 0

    def on_emit(_):
        nonlocal emitted, worst
        emitted += 1
        worst = max(worst, emitted - consumed)

    def on_consume(_):
        nonlocal consumed
        consumed += 1

    n = 20_000
    ts = (Flowable.range(0, n).do_on_next(on_emit).hide()
          .observe_on(Schedulers.computation(), buffer_size=buffer_size)
          .do_on_next(on_consume).test())
    ts.await_done(10).assert_value_count(n).assert_complete()
    assert 0 < worst <= buffer_size


def test_never_holds_more_than_buffer_size_slow_consumer():
    emitted = 0
    consumed = 0
    worst = 0
    lock = threading.Lock()

    def on_emit(_):
        nonlocal emitted, worst
        with lock:
            emitted += 1
            worst = max(worst, emitted - consumed)

    def on_consume(_):
        nonlocal consumed
        with lock:
            consumed += 1

    ts = (Flowable.range(0, 2000).do_on_next(on_emit).hide()
          .observe_on(Schedulers.computation(), buffer_size=10).do_on_next(on_consume).test(0))
    for _ in range(400):
        ts.request(5)
    ts.await_done(5).assert_value_count(2000).assert_complete()
    assert worst <= 10


# ---------------------------------------------------------------- races

def test_race_request_vs_on_next(race_runner, race_rounds):
    for _ in range(race_rounds):
        src = CapturingSource()
        ts = src.observe_on(Schedulers.trampoline(), buffer_size=16).test(0)

        def produce(src=src):
            src.emit(1, 2, 3, 4, 5)
            src.complete()

        def consume(ts=ts):
            for _ in range(5):
                ts.request(1)

        race_runner.race(produce, consume)
        ts.assert_result(1, 2, 3, 4, 5).assert_protocol_ok()


def test_race_on_next_vs_drain_exit_without_terminal(race_runner, race_rounds):
    # Items that arrive while a drain is running skip the wip increment; the drain's way
    # out must still see them. No completion follows, so no later signal could rescue an
    # item left behind: every item must arrive by the end of the round.
    for _ in range(race_rounds):
        src = CapturingSource()
        ts = src.observe_on(Schedulers.trampoline(), buffer_size=16).test(0)

        def produce(src=src):
            src.emit(*range(8))

        def consume(ts=ts):
            for _ in range(8):
                ts.request(1)

        race_runner.race(produce, consume)
        ts.assert_value_sequence(list(range(8))).assert_not_terminated()


def test_race_on_next_vs_drain_exit_unbounded(race_runner, race_rounds):
    for _ in range(race_rounds):
        src = CapturingSource()
        ts = src.observe_on(Schedulers.trampoline(), buffer_size=16).test(0)
        src.emit(0)

        def produce(src=src):
            src.emit(1, 2, 3)

        race_runner.race(produce, lambda ts=ts: ts.request(LONG_MAX))
        ts.assert_values(0, 1, 2, 3).assert_not_terminated()


def test_race_request_vs_on_next_real_worker(race_runner, race_rounds):
    for _ in range(race_rounds // 4):
        src = CapturingSource()
        ts = src.observe_on(Schedulers.single(), buffer_size=16).test(0)

        def produce(src=src):
            src.emit(1, 2, 3)
            src.complete()

        def consume(ts=ts):
            for _ in range(3):
                ts.request(1)

        race_runner.race(produce, consume)
        ts.await_done(5).assert_result(1, 2, 3).assert_protocol_ok()


def test_race_cancel_vs_drain(race_runner, race_rounds):
    for _ in range(race_rounds):
        src = CapturingSource()
        ts = src.observe_on(Schedulers.trampoline(), buffer_size=16).test(0)
        parent = src.subscriber
        src.emit(*range(10))
        race_runner.race(ts.cancel, lambda ts=ts: ts.request(10))
        assert src.cancelled == 1
        n = ts.value_count()
        ts.assert_value_sequence(list(range(n))).assert_not_terminated()
        assert parent.queue.is_empty()  # type: ignore[union-attr]
        assert parent.worker.is_disposed()  # type: ignore[union-attr]
        ts.request(10)
        assert ts.value_count() == n  # nothing after the cancel


def test_race_cancel_vs_on_next(race_runner, race_rounds):
    for _ in range(race_rounds):
        src = CapturingSource()
        ts = src.observe_on(Schedulers.trampoline(), buffer_size=16).test()
        parent = src.subscriber

        def produce(src=src):
            src.emit(*range(5))
            src.complete()

        race_runner.race(produce, ts.cancel)
        n = ts.value_count()
        ts.assert_value_sequence(list(range(n))).assert_no_errors()
        if ts.completions():
            # the completion was on its way before the cancel took effect (the cancel ran
            # after it, or raced its last steps): a terminal signal may race a cancel
            assert n == 5
        else:
            assert src.cancelled == 1
            src.emit(7)  # a source that has not seen the cancel yet: nothing more arrives
            assert ts.value_count() == n
            ts.assert_not_complete()
        assert parent.worker.is_disposed()  # type: ignore[union-attr]


# ---- a chain of hops: O(1) passes per stage and signal


@pytest.mark.parametrize("scheduler,per_stage", [
    (Schedulers.trampoline, 3), (Schedulers.single, 3), (Schedulers.computation, 3)],
    ids=["trampoline", "single", "computation"])
def test_a_chain_of_observe_on_schedules_a_bounded_number_of_tasks_per_stage(
        scheduler, per_stage, monkeypatch):
    """Stacked observe_on stages fuse (ASYNC): each "poll me" starts the next stage's pass.
    A request that finds nothing new says nothing downstream, so subscribing n stages is
    not n² passes (200 stages, 10 items: 40,000 tasks on trampoline(), 45,150 on single()).
    Nor does a pass ask the stage above whether it is empty: that question runs up every
    fused stage above it (n²/2 calls per wake-up: 20 s for 1,000 trampoline stages); a
    stage knows whether a "poll me" came since a poll last found nothing."""
    from rxpy2 import plugins
    from rxpy2._internal.operators.flowable.flowable_observe_on import ObserveOnSubscriber

    tasks = [0]
    queries = [0]  # the stages' poll and is_empty, each of which runs up the stages above

    def count(fn):
        tasks[0] += 1
        return fn

    for name in ("poll", "is_empty"):
        def counted(self, _original=getattr(ObserveOnSubscriber, name)):
            queries[0] += 1
            return _original(self)
        monkeypatch.setattr(ObserveOnSubscriber, name, counted)
    plugins.set_schedule_handler(count)
    n, items = 200, 10
    f = Flowable.range(0, items)
    for _ in range(n):
        f = f.observe_on(scheduler())
    f.test().await_done(30).assert_result(*range(items))
    # at most: one pass per item and one for the end at each stage, and the requests'
    assert tasks[0] <= per_stage * n, tasks[0]
    # each item polled through each stage, and a poll that finds nothing per wake-up
    assert queries[0] <= (items + 5) * n, queries[0]
