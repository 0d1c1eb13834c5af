"""Race tests of the workers: dispose vs drain, dispose vs schedule, schedule vs schedule,
schedule vs drain. Nothing lost, nothing run twice, no task started after dispose returned
(the one task already under way at that moment may still start its first line)."""

from __future__ import annotations

import threading
from functools import partial

from sched_support import ManualExecutor, wait_until

from rxpy2.schedulers import Schedulers, TestScheduler
from rxpy2.schedulers.computation_scheduler import ComputationScheduler


class Recorder:
    """Records which task started and whether dispose() had already returned then."""

    def __init__(self) -> None:
        self.started: list[object] = []
        self.late: list[object] = []
        self.disposed_returned = False
        self.active = 0
        self.overlaps = 0

    def task(self, tag: object) -> None:
        self.active += 1
        if self.active != 1:
            self.overlaps += 1
        if self.disposed_returned:
            self.late.append(tag)
        self.started.append(tag)
        self.active -= 1

    def dispose(self, w) -> None:
        w.dispose()
        self.disposed_returned = True


def test_dispose_vs_drain(race_runner, race_rounds):
    ex = ManualExecutor()
    s = Schedulers.from_executor(ex)
    for _ in range(race_rounds):
        w = s.create_worker()
        rec = Recorder()
        for i in range(5):
            w.schedule(partial(rec.task, i))
        race_runner.race(partial(rec.dispose, w), ex.run_all)
        ex.run_all()
        assert len(rec.late) <= 1, rec.late
        assert rec.started == list(range(len(rec.started)))  # a prefix, in order, once each
        assert rec.overlaps == 0
    s.shutdown()


def test_dispose_vs_schedule(race_runner, race_rounds):
    ex = ManualExecutor()
    s = Schedulers.from_executor(ex)
    for _ in range(race_rounds):
        w = s.create_worker()
        rec = Recorder()
        handles: list[tuple[int, object]] = []

        def schedule_some(w=w, rec=rec, handles=handles) -> None:
            for i in range(5):
                handles.append((i, w.schedule(partial(rec.task, i))))

        race_runner.race(partial(rec.dispose, w), schedule_some)
        ex.run_all()  # any drain handed to the executor runs after the dispose
        assert rec.started == []
        assert w.is_disposed()
        assert all(h.is_disposed() for _, h in handles)  # type: ignore[attr-defined]
    s.shutdown()


def test_schedule_vs_schedule(race_runner, race_rounds):
    ex = ManualExecutor()
    s = Schedulers.from_executor(ex)
    for _ in range(race_rounds):
        w = s.create_worker()
        rec = Recorder()

        def side(tag: str, w=w, rec=rec) -> None:
            for i in range(5):
                w.schedule(partial(rec.task, (tag, i)))

        race_runner.race(partial(side, "a"), partial(side, "b"))
        ex.run_all()
        assert sorted(rec.started) == sorted([("a", i) for i in range(5)] +
                                             [("b", i) for i in range(5)])
        assert [i for t, i in rec.started if t == "a"] == list(range(5))
        assert [i for t, i in rec.started if t == "b"] == list(range(5))
        w.dispose()
    s.shutdown()


def test_schedule_vs_drain_loses_nothing(race_runner, race_rounds):
    ex = ManualExecutor()
    s = Schedulers.from_executor(ex)
    for _ in range(race_rounds):
        w = s.create_worker()
        rec = Recorder()
        w.schedule(partial(rec.task, -1))

        def schedule_some(w=w, rec=rec) -> None:
            for i in range(5):
                w.schedule(partial(rec.task, i))

        race_runner.race(schedule_some, ex.run_all)
        ex.run_all()
        assert rec.started == list(range(-1, 5))
        assert rec.overlaps == 0
        assert not ex.tasks
        w.dispose()
    s.shutdown()


def test_task_dispose_vs_drain(race_runner, race_rounds):
    ex = ManualExecutor()
    s = Schedulers.from_executor(ex)
    for _ in range(race_rounds):
        w = s.create_worker()
        rec = Recorder()
        handles = [w.schedule(partial(rec.task, i)) for i in range(3)]
        flag = [False]

        def dispose_middle(h=handles[1], flag=flag) -> None:
            h.dispose()
            flag[0] = True

        race_runner.race(dispose_middle, ex.run_all)
        ex.run_all()
        assert rec.started in ([0, 2], [0, 1, 2])
        assert handles[1].is_disposed()
        w.dispose()
    s.shutdown()


def test_delayed_task_due_vs_worker_dispose(race_runner, race_rounds):
    ex = ManualExecutor()
    s = Schedulers.from_executor(ex)
    for _ in range(race_rounds):
        w = s.create_worker()
        rec = Recorder()
        task = w.schedule(partial(rec.task, "delayed"), 1000)

        def timer_fires(entry=task.entry) -> None:  # type: ignore[attr-defined]
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
    s.shutdown()


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
    s = Schedulers.trampoline()
    for _ in range(race_rounds // 2):
        w = s.create_worker()
        rec = Recorder()

        def side(tag: str, w=w, rec=rec) -> None:
            for i in range(3):
                w.schedule(partial(rec.task, (tag, i)))

        race_runner.race(partial(side, "a"), partial(side, "b"))
        assert len(rec.started) == 6 and rec.overlaps == 0
        assert [i for t, i in rec.started if t == "a"] == [0, 1, 2]
        assert [i for t, i in rec.started if t == "b"] == [0, 1, 2]
        w.dispose()


def test_real_thread_dispose_vs_schedule(race_runner, race_rounds):
    """On a real computation thread: the drain runs on the scheduler's own thread."""
    s = ComputationScheduler(threads=1)
    try:
        for _ in range(race_rounds // 4):
            w = s.create_worker()
            rec = Recorder()
            for i in range(3):
                w.schedule(partial(rec.task, i))

            def schedule_more(w=w, rec=rec) -> None:
                for i in range(3, 6):
                    w.schedule(partial(rec.task, i))

            race_runner.race(partial(rec.dispose, w), schedule_more)
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
