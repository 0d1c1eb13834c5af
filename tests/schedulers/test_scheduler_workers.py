"""What every scheduler's workers guarantee: serial order, delays, periodic tasks,
disposal, errors, thread names. Run on every kind of scheduler."""

from __future__ import annotations

import re
import threading
import time
from functools import partial

import pytest
from sched_support import KINDS
from sched_support import NAME_PATTERNS
from sched_support import THREADED
from sched_support import make_scheduler
from sched_support import wait_until

from rxpy2.schedulers import Scheduler


@pytest.fixture(params=KINDS)
def kind(request: pytest.FixtureRequest) -> str:
    return request.param


@pytest.fixture
def scheduler(kind: str):
    with make_scheduler(kind) as s:
        yield s


@pytest.fixture(params=THREADED)
def threaded(request: pytest.FixtureRequest):
    with make_scheduler(request.param) as s:
        yield s


# ---------------------------------------------------------------- order

def test_tasks_from_two_threads_run_in_submission_order_never_concurrently(scheduler: Scheduler):
    w = scheduler.create_worker()
    per_thread = 500
    seen: dict[int, list[int]] = {0: [], 1: []}
    active = [0]
    overlaps: list[tuple[int, int]] = []

    def task(src: int, i: int) -> None:
        active[0] += 1
        if active[0] != 1:
            overlaps.append((src, i))
        if i % 25 == 0:
            time.sleep(0)  # invite another thread in: a second drain would overlap here
        seen[src].append(i)
        active[0] -= 1

    barrier = threading.Barrier(2)

    def submit(src: int) -> None:
        barrier.wait()
        for i in range(per_thread):
            w.schedule(partial(task, src, i))

    threads = [threading.Thread(target=submit, args=(src,)) for src in (0, 1)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(10)
    assert wait_until(lambda: len(seen[0]) + len(seen[1]) == 2 * per_thread)
    assert overlaps == []
    assert seen[0] == list(range(per_thread))
    assert seen[1] == list(range(per_thread))
    w.dispose()


def test_immediate_tasks_run_before_a_delayed_one_scheduled_earlier(threaded: Scheduler):
    w = threaded.create_worker()
    out: list[str] = []
    done = threading.Event()
    w.schedule(lambda: (out.append("late"), done.set()), 0.05)
    w.schedule(lambda: out.append("a"))
    w.schedule(lambda: out.append("b"))
    assert done.wait(5)
    assert out == ["a", "b", "late"]
    w.dispose()


# ---------------------------------------------------------------- time

def test_now_is_monotonic_seconds(scheduler: Scheduler):
    a = scheduler.now()
    w = scheduler.create_worker()
    b = w.now()
    assert isinstance(a, float) and a <= b <= time.monotonic()
    w.dispose()


def test_a_delayed_task_runs_not_before_its_delay(scheduler: Scheduler):
    w = scheduler.create_worker()
    got: list[float] = []
    done = threading.Event()
    t0 = scheduler.now()
    w.schedule(lambda: (got.append(scheduler.now()), done.set()), 0.03)
    assert done.wait(5)
    assert got[0] >= t0 + 0.03
    w.dispose()


def test_a_direct_delayed_task_runs_once_not_before_its_delay(scheduler: Scheduler):
    got: list[float] = []
    done = threading.Event()
    t0 = scheduler.now()
    d = scheduler.schedule_direct(lambda: (got.append(scheduler.now()), done.set()), 0.02)
    assert done.wait(5)
    assert got[0] >= t0 + 0.02
    assert wait_until(d.is_disposed)  # its worker is released once it ran
    assert len(got) == 1


def test_a_negative_delay_means_now(scheduler: Scheduler):
    w = scheduler.create_worker()
    done = threading.Event()
    w.schedule(done.set, -5)
    assert done.wait(5)
    w.dispose()


def test_bad_arguments(scheduler: Scheduler):
    w = scheduler.create_worker()
    with pytest.raises(TypeError):
        w.schedule(None)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        w.schedule(42)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        w.schedule(lambda: None, "1")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        w.schedule(lambda: None, float("nan"))
    with pytest.raises(ValueError):
        w.schedule_periodically(lambda: None, 0, -1)
    with pytest.raises(TypeError):
        scheduler.schedule_direct(None)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        scheduler.schedule_periodically_direct(lambda: None, 0, float("inf"))
    w.dispose()


# ---------------------------------------------------------------- periodic

def test_periodic_runs_at_absolute_times_until_disposed_from_inside(threaded: Scheduler):
    w = threaded.create_worker()
    initial, period = 0.01, 0.02
    times: list[float] = []
    holder: list = []
    t0 = threaded.now()

    def tick() -> None:
        times.append(threaded.now())
        if len(times) == 4:
            holder[0].dispose()

    holder.append(w.schedule_periodically(tick, initial, period))
    assert wait_until(lambda: len(times) >= 4)
    for k, t in enumerate(times):
        assert t >= t0 + initial + k * period
    time.sleep(5 * period)
    assert len(times) == 4 and holder[0].is_disposed()
    done = threading.Event()  # the worker itself goes on
    w.schedule(done.set)
    assert done.wait(5)
    w.dispose()


def test_periodic_disposed_from_outside_starts_no_new_run(threaded: Scheduler):
    w = threaded.create_worker()
    runs: list[float] = []
    d = w.schedule_periodically(lambda: runs.append(threaded.now()), 0, 0.01)
    assert wait_until(lambda: len(runs) >= 2)
    d.dispose()
    n = len(runs)
    time.sleep(0.06)
    assert len(runs) <= n + 1  # at most the run that was already under way
    w.dispose()


def test_periodic_on_trampoline_blocks_until_disposed_from_inside():
    with make_scheduler("trampoline") as s:
        w = s.create_worker()
        times: list[float] = []
        t0 = s.now()

        def tick() -> None:
            times.append(s.now())
            if len(times) == 3:
                w.dispose()

        w.schedule_periodically(tick, 0.01, 0.01)
        assert len(times) == 3
        for k, t in enumerate(times):
            assert t >= t0 + 0.01 + k * 0.01


def test_periodic_direct_until_disposed(threaded: Scheduler):
    runs: list[int] = []
    holder: list = []

    def tick() -> None:
        runs.append(1)
        if len(runs) == 3:
            holder[0].dispose()

    holder.append(threaded.schedule_periodically_direct(tick, 0.01, 0.01))
    assert wait_until(lambda: len(runs) >= 3)
    time.sleep(0.05)
    assert len(runs) == 3 and holder[0].is_disposed()


def test_a_raising_periodic_task_stops_and_is_reported(threaded: Scheduler, plugin_errors):
    w = threaded.create_worker()
    runs: list[int] = []
    err = RuntimeError("tick failed")

    def tick() -> None:
        runs.append(1)
        if len(runs) == 2:
            raise err

    d = w.schedule_periodically(tick, 0, 0.01)
    assert wait_until(lambda: len(plugin_errors) == 1)
    time.sleep(0.05)
    assert len(runs) == 2 and d.is_disposed()
    assert plugin_errors.causes() == [err]
    done = threading.Event()
    w.schedule(done.set)
    assert done.wait(5)
    w.dispose()


# ---------------------------------------------------------------- dispose

def test_dispose_cancels_pending_and_delayed_tasks(threaded: Scheduler):
    w = threaded.create_worker()
    gate, entered, finished = threading.Event(), threading.Event(), threading.Event()
    ran: list[object] = []

    def blocker() -> None:
        entered.set()
        gate.wait(5)
        finished.set()

    w.schedule(blocker)
    handles = [w.schedule(partial(ran.append, i)) for i in range(10)]
    delayed = w.schedule(lambda: ran.append("delayed"), 0.03)
    assert entered.wait(5)
    w.dispose()
    assert w.is_disposed()
    assert delayed.is_disposed()
    after = w.schedule(lambda: ran.append("after"))
    assert after.is_disposed()
    gate.set()
    assert finished.wait(5)  # the running task finishes
    time.sleep(0.06)  # past the delayed task's due time
    assert ran == []
    assert all(h.is_disposed() for h in handles)
    w.dispose()  # idempotent


def test_dispose_on_trampoline_drops_the_queued_tasks():
    with make_scheduler("trampoline") as s:
        w = s.create_worker()
        ran: list[object] = []

        def first() -> None:
            for i in range(5):
                w.schedule(partial(ran.append, i))  # queued: the worker is busy
            w.dispose()
            ran.append("first")

        w.schedule(first)
        assert ran == ["first"]
        assert w.schedule(lambda: ran.append("after")).is_disposed()
        assert ran == ["first"]


def test_disposing_one_task_cancels_only_that_one(scheduler: Scheduler):
    w = scheduler.create_worker()
    ran: list[str] = []
    done = threading.Event()

    def first() -> None:
        ran.append("a")
        handle_b = w.schedule(lambda: ran.append("b"))  # queued behind this task
        w.schedule(lambda: (ran.append("c"), done.set()))
        handle_b.dispose()
        assert handle_b.is_disposed()

    w.schedule(first)
    assert done.wait(5)
    assert ran == ["a", "c"]
    w.dispose()


def test_disposing_a_delayed_task_cancels_it(threaded: Scheduler):
    w = threaded.create_worker()
    ran: list[str] = []
    d = w.schedule(lambda: ran.append("x"), 0.02)
    d.dispose()
    done = threading.Event()
    w.schedule(done.set, 0.04)
    assert done.wait(5)
    assert ran == [] and d.is_disposed()
    w.dispose()


def test_a_direct_task_disposed_before_its_time_never_runs(threaded: Scheduler):
    ran: list[int] = []
    d = threaded.schedule_direct(lambda: ran.append(1), 0.02)
    d.dispose()
    assert d.is_disposed()
    time.sleep(0.05)
    assert ran == []


# ---------------------------------------------------------------- errors

def test_a_raising_task_is_reported_and_the_worker_goes_on(scheduler: Scheduler, plugin_errors):
    w = scheduler.create_worker()
    err = ValueError("task failed")
    ran: list[int] = []
    done = threading.Event()

    def boom() -> None:
        raise err

    w.schedule(boom)
    w.schedule(lambda: (ran.append(1), done.set()))
    assert done.wait(5)
    assert ran == [1]
    assert plugin_errors == [err]  # a ValueError is reported as it is
    w.dispose()


def test_a_raising_direct_task_is_reported(scheduler: Scheduler, plugin_errors):
    err = RuntimeError("direct failed")

    def boom() -> None:
        raise err

    d = scheduler.schedule_direct(boom)
    assert wait_until(lambda: len(plugin_errors) == 1)
    assert plugin_errors.causes() == [err]
    assert wait_until(d.is_disposed)


# ---------------------------------------------------------------- threads

def test_thread_names_and_daemon_threads(kind: str, scheduler: Scheduler):
    w = scheduler.create_worker()
    got: list[threading.Thread] = []
    done = threading.Event()
    w.schedule(lambda: (got.append(threading.current_thread()), done.set()))
    assert done.wait(5)
    t = got[0]
    if kind == "trampoline":
        assert t is threading.current_thread()
    else:
        assert re.fullmatch(NAME_PATTERNS[kind], t.name), t.name
        if kind != "from_executor":
            assert t.daemon
    w.dispose()


def test_delayed_tasks_wait_on_one_timer_thread(threaded: Scheduler):
    w = threaded.create_worker()
    before = set(threading.enumerate())
    handles = [w.schedule(lambda: None, 10 + i) for i in range(20)]
    new = [t for t in threading.enumerate() if t not in before]
    timers = [t for t in threading.enumerate() if t.name.startswith("rxpy2-timer-")]
    assert len(timers) >= 1 and all(t.daemon for t in timers)
    assert all(re.fullmatch(r"rxpy2-timer-\d+", t.name) for t in timers)
    assert len(new) <= 1  # 20 delayed tasks, at most one new (timer) thread
    for h in handles:
        h.dispose()
    w.dispose()
