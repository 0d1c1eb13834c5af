"""The executor worker's Drain: a drain round runs the tasks queued when it began, a task
queued during the round makes the drain hand a new run to the executor (the thread is
yielded), nothing is lost or run twice, and tasks never overlap. Both ``RXPY2_DRAIN``
backends."""

from __future__ import annotations

from functools import partial

from sched_support import ManualExecutor
from worker_races import Recorder
from worker_races import manual_executor_scheduler
from worker_races import worker_rounds

from rxpy2.schedulers import Schedulers


def test_one_run_drains_what_was_queued_before_it():
    ex = ManualExecutor()
    s = Schedulers.from_executor(ex)
    w = s.create_worker()
    log: list[int] = []
    for i in range(3):
        w.schedule(partial(log.append, i))
    assert ex.submitted == 1  # one drain run for the three tasks
    ex.tasks.popleft()()
    assert log == [0, 1, 2]
    assert not ex.tasks
    w.dispose()
    s.shutdown()


def test_a_task_queued_by_a_task_runs_in_a_new_executor_run():
    ex = ManualExecutor()
    s = Schedulers.from_executor(ex)
    w = s.create_worker()
    log: list[str] = []

    def first() -> None:
        log.append("first")
        w.schedule(lambda: log.append("second"))

    w.schedule(first)
    ex.tasks.popleft()()
    assert log == ["first"]  # the drain handed the rest back to the executor
    assert len(ex.tasks) == 1
    ex.run_all()
    assert log == ["first", "second"]
    w.schedule(lambda: log.append("third"))  # the drain was released
    ex.run_all()
    assert log == ["first", "second", "third"]
    w.dispose()
    s.shutdown()


def test_race_self_rescheduling_task_vs_schedule(race_runner, race_rounds):
    with manual_executor_scheduler() as (ex, s):
        for w in worker_rounds(s, race_rounds):
            rec = Recorder()

            def chain(n: int, w=w, rec=rec) -> None:
                rec.task(("chain", n))
                if n < 4:
                    w.schedule(partial(chain, n + 1))

            w.schedule(partial(chain, 0))
            race_runner.race(ex.run_all, partial(rec.schedule, w, [("out", i) for i in range(5)]))
            ex.run_all()
            assert [n for t, n in rec.started if t == "chain"] == list(range(5))  # type: ignore[misc]
            assert [n for t, n in rec.started if t == "out"] == list(range(5))  # type: ignore[misc]
            assert rec.overlaps == 0


def test_race_dispose_vs_hand_back(race_runner, race_rounds):
    with manual_executor_scheduler() as (ex, s):
        for w in worker_rounds(s, race_rounds):
            log: list[int] = []

            def again(n: int, w=w, log=log) -> None:
                log.append(n)
                w.schedule(partial(again, n + 1))

            w.schedule(partial(again, 0))

            def runner(ex=ex) -> None:
                for _ in range(20):
                    try:
                        fn = ex.tasks.popleft()
                    except IndexError:
                        return
                    fn()

            race_runner.race(runner, w.dispose)
            n = len(log)
            ex.run_all()
            assert len(log) <= n + 1  # at most the task under way when dispose returned
            assert log == list(range(len(log)))
