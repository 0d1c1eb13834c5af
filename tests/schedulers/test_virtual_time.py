"""TestScheduler: virtual time, ties in submission order, periodic tasks, disposal."""

from __future__ import annotations

from functools import partial

import pytest

from rxpy2.schedulers import Scheduler
from rxpy2.schedulers import TestScheduler


def test_time_stands_still_until_advanced():
    ts = TestScheduler()
    assert ts.now() == 0.0
    assert isinstance(ts, Scheduler)
    out: list[float] = []
    w = ts.create_worker()
    w.schedule(lambda: out.append(ts.now()), 1.5)
    assert out == []
    ts.advance_time_by(1.0)
    assert out == [] and ts.now() == 1.0
    ts.advance_time_by(0.5)
    assert out == [1.5] and ts.now() == 1.5
    assert TestScheduler(initial_time=10).now() == 10.0


def test_tasks_run_at_their_due_time_in_order():
    ts = TestScheduler()
    w = ts.create_worker()
    out: list[tuple[str, float]] = []
    for name, delay in (("c", 3), ("a", 1), ("b", 2)):
        w.schedule(lambda name=name: out.append((name, ts.now())), delay)
    ts.advance_time_to(2.5)
    assert out == [("a", 1.0), ("b", 2.0)]
    assert ts.now() == 2.5
    ts.advance_time_to(10)
    assert out[-1] == ("c", 3.0) and ts.now() == 10.0
    assert w.now() == 10.0


def test_ties_run_in_submission_order_across_workers():
    ts = TestScheduler()
    w1, w2 = ts.create_worker(), ts.create_worker()
    out: list[int] = []
    for i in range(10):
        (w1 if i % 2 else w2).schedule(partial(out.append, i), 1)
    ts.schedule_direct(partial(out.append, 10), 1)
    ts.advance_time_by(1)
    assert out == list(range(11))


def test_trigger_actions_runs_what_is_due_now_without_moving_time():
    ts = TestScheduler()
    w = ts.create_worker()
    out: list[str] = []

    def first() -> None:
        out.append("first")
        w.schedule(lambda: out.append("same time"))  # due now: runs in this trigger
        w.schedule(lambda: out.append("later"), 1)

    w.schedule(first)
    w.schedule(lambda: out.append("second"))
    assert out == []
    ts.trigger_actions()
    assert out == ["first", "second", "same time"]
    assert ts.now() == 0.0
    ts.advance_time_by(1)
    assert out[-1] == "later"


def test_time_never_goes_backwards():
    ts = TestScheduler(5)
    with pytest.raises(ValueError):
        ts.advance_time_by(-1)
    with pytest.raises(ValueError):
        ts.advance_time_to(4)
    with pytest.raises(TypeError):
        ts.advance_time_by("1")  # type: ignore[arg-type]
    ts.advance_time_to(5)
    assert ts.now() == 5.0


def test_periodic_runs_at_initial_delay_plus_k_periods():
    ts = TestScheduler()
    w = ts.create_worker()
    times: list[float] = []
    d = w.schedule_periodically(lambda: times.append(ts.now()), 1, 2)
    ts.advance_time_by(7)
    assert times == [1.0, 3.0, 5.0, 7.0]
    d.dispose()
    assert d.is_disposed()
    ts.advance_time_by(10)
    assert times == [1.0, 3.0, 5.0, 7.0]
    assert ts.pending_count() == 0


def test_periodic_direct_and_fractional_seconds():
    ts = TestScheduler()
    times: list[float] = []
    d = ts.schedule_periodically_direct(lambda: times.append(ts.now()), 0.25, 0.5)
    ts.advance_time_by(1.3)
    assert times == [0.25, 0.75, 1.25]
    d.dispose()
    ts.advance_time_by(5)
    assert len(times) == 3


def test_periodic_disposed_from_inside():
    ts = TestScheduler()
    w = ts.create_worker()
    runs: list[float] = []
    holder: list = []

    def tick() -> None:
        runs.append(ts.now())
        if len(runs) == 3:
            holder[0].dispose()

    holder.append(w.schedule_periodically(tick, 0, 1))
    ts.advance_time_by(100)
    assert runs == [0.0, 1.0, 2.0]
    assert ts.pending_count() == 0


def test_disposing_a_task_removes_it():
    ts = TestScheduler()
    w = ts.create_worker()
    out: list[int] = []
    d1 = w.schedule(partial(out.append, 1), 1)
    w.schedule(partial(out.append, 2), 1)
    assert ts.pending_count() == 2
    d1.dispose()
    assert d1.is_disposed() and ts.pending_count() == 1
    ts.advance_time_by(1)
    assert out == [2]


def test_disposing_a_worker_removes_its_tasks_only():
    ts = TestScheduler()
    w1, w2 = ts.create_worker(), ts.create_worker()
    out: list[str] = []
    w1.schedule(lambda: out.append("w1"), 1)
    w1.schedule_periodically(lambda: out.append("w1 periodic"), 1, 1)
    w2.schedule(lambda: out.append("w2"), 1)
    w1.dispose()
    assert w1.is_disposed() and ts.pending_count() == 1
    assert w1.schedule(lambda: out.append("late")).is_disposed()
    ts.advance_time_by(5)
    assert out == ["w2"]


def test_a_worker_disposed_by_its_own_task_runs_nothing_more():
    ts = TestScheduler()
    w = ts.create_worker()
    out: list[str] = []
    w.schedule(lambda: (out.append("a"), w.dispose()), 1)
    w.schedule(lambda: out.append("b"), 1)
    ts.advance_time_by(1)
    assert out == ["a"]


def test_a_direct_task_can_be_disposed():
    ts = TestScheduler()
    out: list[int] = []
    d = ts.schedule_direct(partial(out.append, 1), 2)
    d.dispose()
    ts.advance_time_by(3)
    assert out == [] and d.is_disposed()


def test_a_raising_task_is_reported_and_the_others_run(plugin_errors):
    ts = TestScheduler()
    w = ts.create_worker()
    err = RuntimeError("virtual failure")
    out: list[int] = []

    def boom() -> None:
        raise err

    w.schedule(boom, 1)
    w.schedule(partial(out.append, 1), 1)
    ts.advance_time_by(1)
    assert out == [1]
    assert plugin_errors.causes() == [err]
