"""ParallelFlowable.run_on: a worker per rail, bounded queue, 75% replenish, workers disposed."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

import pytest
from probes import ManualSource
from probes import Recorded

from rxpy2 import Flowable
from rxpy2 import ParallelFlowable
from rxpy2.exceptions import MissingBackpressureException
from rxpy2.observers import FlowableSubscriber
from rxpy2.reactivestreams import LONG_MAX
from rxpy2.reactivestreams import Subscription
from rxpy2.schedulers import Scheduler
from rxpy2.schedulers import Schedulers
from rxpy2.schedulers import TestScheduler
from rxpy2.schedulers.computation_scheduler import computation_threads
from rxpy2.schedulers.scheduler import Worker
from rxpy2.testing import TestSubscriber

pytestmark = pytest.mark.usefixtures("shutdown_schedulers")


def add(a: int, b: int) -> int:
    return a + b


def even(x: int) -> bool:
    return x % 2 == 0


class WorkerRecording(Scheduler):
    """Keeps every worker the wrapped scheduler creates."""

    def __init__(self, scheduler: Scheduler) -> None:
        self.scheduler = scheduler
        self.workers: list[Worker] = []

    def create_worker(self) -> Worker:
        w = self.scheduler.create_worker()
        self.workers.append(w)
        return w

    def all_disposed(self) -> bool:
        return all(w.is_disposed() for w in self.workers)


def wait_until(condition: Callable[[], bool], timeout: float = 5.0) -> bool:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.001)
    return True


class ThreadRail(FlowableSubscriber[Any]):
    """Records the items and the names of the threads its signals arrive on."""

    def __init__(self) -> None:
        self.values: list[Any] = []
        self.threads: set[str] = set()
        self.done = threading.Event()
        self.error: BaseException | None = None

    def on_subscribe(self, s: Subscription) -> None:
        s.request(LONG_MAX)

    def on_next(self, item: Any) -> None:
        self.threads.add(threading.current_thread().name)
        self.values.append(item)

    def on_error(self, error: BaseException) -> None:
        self.error = error
        self.done.set()

    def on_complete(self) -> None:
        self.threads.add(threading.current_thread().name)
        self.done.set()


# ---------------------------------------------------------------- real threads


def test_rails_run_on_computation_threads():
    rails = [ThreadRail() for _ in range(4)]
    Flowable.range(0, 1000).parallel(4).run_on(Schedulers.computation()).subscribe(rails)
    for r in rails:
        assert r.done.wait(5)
        assert r.error is None
        assert len(r.threads) == 1  # a rail stays on its worker's thread
    names = set().union(*(r.threads for r in rails))
    assert all(n.startswith("rxpy2-computation") for n in names)
    # the workers are handed out round-robin over the pool's threads
    assert len(names) == min(4, computation_threads())
    assert sorted(v for r in rails for v in r.values) == list(range(1000))


def test_rails_run_on_new_threads_one_thread_per_rail():
    rails = [ThreadRail() for _ in range(3)]
    Flowable.range(0, 300).parallel(3).run_on(Schedulers.new_thread()).subscribe(rails)
    for r in rails:
        assert r.done.wait(5)
        assert len(r.threads) == 1
    names = set().union(*(r.threads for r in rails))
    assert len(names) == 3
    assert threading.current_thread().name not in names


def test_sum_of_100_000_items_on_computation():
    n = 100_000
    ts = (Flowable.range(0, n).parallel(4).run_on(Schedulers.computation())
          .map(lambda x: x * 2).sequential().test())
    ts.await_done(60).assert_complete().assert_no_errors()
    assert ts.value_count() == n
    assert sum(ts.values()) == n * (n - 1)


def test_reduce_of_100_000_items_on_computation():
    n = 100_000
    ts = Flowable.range(0, n).parallel(3).run_on(Schedulers.computation()).reduce(add).test()
    ts.await_done(60).assert_result(n * (n - 1) // 2)


def test_sorted_on_computation():
    ts = (Flowable.range(0, 5000).map(lambda x: (x * 7919) % 5000).parallel(4)
          .run_on(Schedulers.computation()).sorted().test())
    ts.await_done(30).assert_value_sequence(list(range(5000))).assert_complete()


def test_slow_downstream_on_real_threads():
    ts = (Flowable.range(0, 500).parallel(2, prefetch=8).run_on(Schedulers.computation(), 4)
          .sequential(prefetch=2).test(0))
    for _ in range(500):
        ts.request(1)
    ts.await_done(10).assert_complete().assert_no_errors()
    assert sorted(ts.values()) == list(range(500))


def test_workers_disposed_after_completion_on_real_threads():
    sched = WorkerRecording(Schedulers.computation())
    ts = Flowable.range(0, 1000).parallel(3).run_on(sched).sequential().test()
    ts.await_done(10).assert_complete()
    assert len(sched.workers) == 3
    assert wait_until(sched.all_disposed)


def test_workers_disposed_after_cancel_on_real_threads():
    sched = WorkerRecording(Schedulers.computation())
    ts = Flowable.range(0, 1_000_000).parallel(2).run_on(sched).sequential().test(0)
    ts.request(10)
    ts.await_count(10, 5)
    ts.cancel()
    assert wait_until(sched.all_disposed)


# ---------------------------------------------------------------- virtual time


def test_nothing_is_delivered_until_the_workers_run(sched):
    ts = Flowable.range(0, 10).parallel(2).run_on(sched).sequential().test()
    ts.assert_no_values().assert_not_complete()
    sched.trigger_actions()
    ts.assert_complete()
    assert sorted(ts.values()) == list(range(10))


def test_each_rail_requests_prefetch_then_75_percent(sched):
    recs = [Recorded(0, 100), Recorded(100, 100)]
    ts = (ParallelFlowable.from_publishers(recs[0].flowable, recs[1].flowable)
          .run_on(sched, prefetch=16).sequential().test())
    sched.trigger_actions()
    ts.assert_complete()
    assert ts.value_count() == 200
    for rec in recs:
        assert rec.requests == [16] + [12] * (100 // 12)


def test_rail_request_pattern_does_not_follow_downstream_demand(sched):
    rec = Recorded(0, 100)
    subs = [TestSubscriber(0)]
    ParallelFlowable.from_publishers(rec.flowable).run_on(sched, prefetch=16).subscribe(subs)
    sched.trigger_actions()
    assert rec.requests == [16]
    subs[0].request(5)
    sched.trigger_actions()
    subs[0].assert_values(0, 1, 2, 3, 4)
    assert rec.requests == [16]
    subs[0].request(7)
    sched.trigger_actions()
    assert subs[0].value_count() == 12
    assert rec.requests == [16, 12]


def test_conditional_rail_drops_cost_no_extra_requests(sched):
    rec = Recorded(0, 100)
    ts = (ParallelFlowable.from_publishers(rec.flowable).run_on(sched, prefetch=16)
          .filter(even).sequential().test())
    sched.trigger_actions()
    ts.assert_value_sequence(list(range(0, 100, 2))).assert_complete()
    assert rec.requests == [16] + [12] * (100 // 12)  # no request(1) per dropped item


def test_conditional_rail_counts_only_kept_items_against_demand(sched):
    subs = [TestSubscriber(0)]
    Flowable.range(0, 20).parallel(1).run_on(sched).filter(even).subscribe(subs)
    subs[0].request(3)
    sched.trigger_actions()
    subs[0].assert_values(0, 2, 4).assert_not_complete()
    subs[0].request(LONG_MAX)
    sched.trigger_actions()
    subs[0].assert_value_sequence(list(range(0, 20, 2))).assert_complete()


def test_error_overtakes_the_queued_items_and_disposes_the_worker():
    sched = WorkerRecording(TestScheduler())
    src = ManualSource()
    subs = [TestSubscriber(0)]
    ParallelFlowable.from_publishers(src).run_on(sched).subscribe(subs)
    src.emit(1, 2, 3)
    src.error(ValueError("up"))
    sched.scheduler.trigger_actions()
    subs[0].assert_failure(ValueError)
    assert sched.all_disposed()


def test_completion_waits_for_demand_then_disposes_the_worker():
    sched = WorkerRecording(TestScheduler())
    src = ManualSource()
    subs = [TestSubscriber(0)]
    ParallelFlowable.from_publishers(src).run_on(sched).subscribe(subs)
    src.emit(1, 2)
    src.complete()
    sched.scheduler.trigger_actions()
    subs[0].assert_not_complete()
    assert not sched.all_disposed()
    subs[0].request(2)
    sched.scheduler.trigger_actions()
    subs[0].assert_result(1, 2)
    assert sched.all_disposed()


def test_cancel_cancels_upstream_clears_queue_and_disposes_worker():
    sched = WorkerRecording(TestScheduler())
    src = ManualSource()
    ts = ParallelFlowable.from_publishers(src).run_on(sched).sequential().test(0)
    src.emit(1, 2, 3)
    sched.scheduler.trigger_actions()
    ts.cancel()
    assert src.cancelled
    assert sched.all_disposed()
    ts.request(5)
    sched.scheduler.trigger_actions()
    ts.assert_no_values()


def test_cancel_while_a_drain_is_scheduled_leaves_the_cleanup_to_it():
    sched = WorkerRecording(TestScheduler())
    src = ManualSource()
    subs = [TestSubscriber()]
    ParallelFlowable.from_publishers(src).run_on(sched).subscribe(subs)
    src.emit(1)  # a drain is scheduled, not run
    subs[0].cancel()
    assert src.cancelled
    assert not sched.all_disposed()
    sched.scheduler.trigger_actions()
    subs[0].assert_no_values()
    assert sched.all_disposed()


def test_missing_backpressure(sched):
    src = ManualSource()
    subs = [TestSubscriber(0)]
    ParallelFlowable.from_publishers(src).run_on(sched, prefetch=2).subscribe(subs)
    src.emit(1, 2, 3)
    assert src.cancelled
    sched.trigger_actions()
    subs[0].assert_failure(MissingBackpressureException)


def test_workers_are_created_only_for_subscribed_rails():
    sched = WorkerRecording(TestScheduler())
    subs = [TestSubscriber(), TestSubscriber()]
    Flowable.range(0, 3).parallel(3).run_on(sched).subscribe(subs)  # wrong count
    for ts in subs:
        ts.assert_error(ValueError)
    assert sched.workers == []


def test_every_rail_gets_its_own_worker(sched):
    rec = WorkerRecording(sched)
    ts = Flowable.range(0, 10).parallel(5).run_on(rec).sequential().test()
    sched.trigger_actions()
    ts.assert_complete()
    assert len(rec.workers) == 5
    assert len({id(w) for w in rec.workers}) == 5
    assert rec.all_disposed()
