"""Race tests of the workers: dispose vs drain, dispose vs schedule, schedule vs schedule,
schedule vs drain. Nothing lost, nothing run twice, no task started after dispose returned
(the one task already under way at that moment may still start its first line)."""

from __future__ import annotations

import threading
from functools import partial

from sched_support import wait_until
from worker_races import Recorder
from worker_races import manual_executor_scheduler
from worker_races import worker_rounds

from rxpy2.schedulers import Schedulers
from rxpy2.schedulers import TestScheduler
from rxpy2.schedulers.computation_scheduler import ComputationScheduler


def test_dispose_vs_drain(race_runner, race_rounds):
    with manual_executor_scheduler() as (ex, s):
        for w in worker_rounds(s, race_rounds):
            rec = Recorder()
            rec.schedule(w, range(5))
            race_runner.race(partial(rec.dispose, w), ex.run_all)
            ex.run_all()
            assert len(rec.late) <= 1, rec.late
            assert rec.started == list(range(len(rec.started)))  # a prefix, in order, once each
            assert rec.overlaps == 0


def test_dispose_vs_schedule(race_runner, race_rounds):
    with manual_executor_scheduler() as (ex, s):
        for w in worker_rounds(s, race_rounds):
            rec = Recorder()
            handles: list[object] = []
            race_runner.race(partial(rec.dispose, w),
                             lambda w=w, rec=rec, hs=handles: hs.extend(rec.schedule(w, range(5))))
            ex.run_all()  # any drain handed to the executor runs after the dispose
            assert rec.started == []
            assert w.is_disposed()
            assert all(h.is_disposed() for h in handles)  # type: ignore[attr-defined]


def _tagged(tag: str, n: int) -> list[tuple[str, int]]:
    return [(tag, i) for i in range(n)]


def test_schedule_vs_schedule(race_runner, race_rounds):
    with manual_executor_scheduler() as (ex, s):
        for w in worker_rounds(s, race_rounds):
            rec = Recorder()
            race_runner.race(partial(rec.schedule, w, _tagged("a", 5)),
                             partial(rec.schedule, w, _tagged("b", 5)))
            ex.run_all()
            assert sorted(rec.started) == sorted(_tagged("a", 5) + _tagged("b", 5))
            assert [i for t, i in rec.started if t == "a"] == list(range(5))
            assert [i for t, i in rec.started if t == "b"] == list(range(5))


def test_schedule_vs_drain_loses_nothing(race_runner, race_rounds):
    with manual_executor_scheduler() as (ex, s):
        for w in worker_rounds(s, race_rounds):
            rec = Recorder()
            rec.schedule(w, [-1])
            race_runner.race(partial(rec.schedule, w, range(5)), ex.run_all)
            ex.run_all()
            assert rec.started == list(range(-1, 5))
            assert rec.overlaps == 0
            assert not ex.tasks


def test_task_dispose_vs_drain(race_runner, race_rounds):
    with manual_executor_scheduler() as (ex, s):
        for w in worker_rounds(s, race_rounds):
            rec = Recorder()
            handles = rec.schedule(w, range(3))
            race_runner.race(handles[1].dispose, ex.run_all)
            ex.run_all()
            assert rec.started in ([0, 2], [0, 1, 2])
            assert handles[1].is_disposed()


def test_delayed_task_due_vs_worker_dispose(race_runner, race_rounds):
    with manual_executor_scheduler() as (ex, s):
        for w in worker_rounds(s, race_rounds):
            rec = Recorder()
            task = w.schedule(partial(rec.task, "delayed"), 1000)

            def timer_fires(entry=task.entry, ex=ex) -> None:  # type: ignore[attr-defined]
                action = entry.action  # what the timer thread does when the entry is due
                entry.action = None
                if action is not None:
                    action()
                ex.run_all()

            race_runner.race(partial(rec.dispose, w), timer_fires)
            ex.run_all()
            assert len(rec.late) <= 1 and len(rec.started) <= 1
            assert task.is_disposed()
        assert len(s._timer) == 0  # every timer entry was cancelled or fired


def test_virtual_time_advance_vs_worker_dispose(race_runner, race_rounds):
    for _ in range(race_rounds // 2):
        ts = TestScheduler()
        w = ts.create_worker()
        rec = Recorder()
        for i in range(5):
            w.schedule(partial(rec.task, i), i)
        race_runner.race(partial(rec.dispose, w), partial(ts.advance_time_by, 10))
        assert len(rec.late) <= 1
        assert rec.started == list(range(len(rec.started)))
        assert ts.pending_count() == 0


def test_trampoline_schedule_from_two_threads(race_runner, race_rounds):
    for w in worker_rounds(Schedulers.trampoline(), race_rounds // 2):
        rec = Recorder()
        race_runner.race(partial(rec.schedule, w, _tagged("a", 3)),
                         partial(rec.schedule, w, _tagged("b", 3)))
        assert len(rec.started) == 6 and rec.overlaps == 0
        assert [i for t, i in rec.started if t == "a"] == [0, 1, 2]
        assert [i for t, i in rec.started if t == "b"] == [0, 1, 2]


def test_real_thread_dispose_vs_schedule(race_runner, race_rounds):
    """On a real computation thread: the drain runs on the scheduler's own thread."""
    s = ComputationScheduler(threads=1)
    try:
        for _ in range(race_rounds // 4):
            w = s.create_worker()
            rec = Recorder()
            rec.schedule(w, range(3))
            race_runner.race(partial(rec.dispose, w), partial(rec.schedule, w, range(3, 6)))
            quiet = threading.Event()
            probe = s.create_worker()  # same single thread: runs after w's drain
            probe.schedule(quiet.set)
            assert quiet.wait(5)
            probe.dispose()
            assert len(rec.late) <= 1, rec.late
            assert rec.started == list(range(len(rec.started)))
            assert rec.overlaps == 0
    finally:
        s.shutdown()
    assert wait_until(lambda: s.size == 0)
