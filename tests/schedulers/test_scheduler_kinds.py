"""What each kind of scheduler adds: the computation pool's round-robin, io's cache,
new_thread's thread per worker, single's one thread, the trampoline's queue,
from_executor on a user's executor, the timer, and Schedulers.shutdown/start."""

from __future__ import annotations

import os
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from functools import partial

import pytest
from conftest import scheduler_threads
from sched_support import thread_of
from sched_support import wait_until

from rxpy2.schedulers import Schedulers
from rxpy2.schedulers.computation_scheduler import ComputationScheduler
from rxpy2.schedulers.io_scheduler import IoScheduler
from rxpy2.schedulers.timer import TimerQueue

# ---------------------------------------------------------------- computation


def test_computation_workers_are_handed_out_round_robin():
    s = ComputationScheduler(threads=3)
    try:
        workers = [s.create_worker() for _ in range(7)]
        threads = [thread_of(w) for w in workers]
        assert len({t.ident for t in threads[:3]}) == 3
        for i in range(4):
            assert threads[i] is threads[i + 3]
        assert all(t.name.startswith("rxpy2-computation-") for t in threads)
        for w in workers:
            w.dispose()
    finally:
        s.shutdown()
    assert not any(t.is_alive() for t in threads)


def test_standard_computation_has_one_thread_per_core_round_robin():
    s = Schedulers.computation()
    s.start()
    n = s.size  # type: ignore[attr-defined]
    assert n == (os.cpu_count() or 1)
    workers = [s.create_worker() for _ in range(2 * n)]
    threads = [thread_of(w) for w in workers]
    assert len({t.ident for t in threads}) == n
    for i in range(n):
        assert threads[i] is threads[i + n]
    for w in workers:
        w.dispose()


def test_computation_threads_from_the_environment(monkeypatch):
    monkeypatch.setenv("RXPY2_COMPUTATION_THREADS", "3")
    s = ComputationScheduler()
    s.start()
    try:
        assert s.size == 3
    finally:
        s.shutdown()
    assert s.size == 0
    monkeypatch.setenv("RXPY2_COMPUTATION_THREADS", "zero")
    with pytest.raises(ValueError):
        ComputationScheduler().start()
    monkeypatch.setenv("RXPY2_COMPUTATION_THREADS", "0")
    with pytest.raises(ValueError):
        ComputationScheduler().start()
    with pytest.raises(ValueError):
        ComputationScheduler(threads=0)


def test_a_worker_blocked_in_a_task_delays_only_the_workers_of_its_thread():
    s = ComputationScheduler(threads=2)
    try:
        a, b = s.create_worker(), s.create_worker()
        gate = threading.Event()
        a.schedule(lambda: gate.wait(5))
        done = threading.Event()
        b.schedule(done.set)  # b runs on the other thread
        assert done.wait(5)
        gate.set()
    finally:
        s.shutdown()


# ---------------------------------------------------------------- io

def test_io_reuses_the_thread_of_a_disposed_worker():
    s = Schedulers.io()
    w1 = s.create_worker()
    t1 = thread_of(w1)
    w1.dispose()
    w2 = s.create_worker()
    assert thread_of(w2) is t1
    assert t1.name.startswith("rxpy2-io-")
    w2.dispose()


def test_io_grows_on_demand():
    s = Schedulers.io()
    workers = [s.create_worker() for _ in range(3)]
    threads = [thread_of(w) for w in workers]
    assert len({t.ident for t in threads}) == 3
    for w in workers:
        w.dispose()
    assert s.idle_count == 3  # type: ignore[attr-defined]


def test_io_threads_expire_after_idling_keep_alive():
    s = IoScheduler(keep_alive=0.05)
    try:
        w = s.create_worker()
        t = thread_of(w)
        w.dispose()
        assert s.idle_count == 1
        t.join(5)
        assert not t.is_alive()
        assert s.idle_count == 0
        w2 = s.create_worker()  # a new thread after the expiry
        t2 = thread_of(w2)
        assert t2 is not t and t2.is_alive()
        w2.dispose()
    finally:
        s.shutdown()


def test_io_keep_alive_from_the_environment(monkeypatch):
    monkeypatch.setenv("RXPY2_IO_KEEP_ALIVE", "2.5")
    assert IoScheduler().keep_alive == 2.5
    monkeypatch.setenv("RXPY2_IO_KEEP_ALIVE", "-1")
    with pytest.raises(ValueError):
        IoScheduler()
    with pytest.raises(ValueError):
        IoScheduler(keep_alive=0)


def test_io_worker_disposed_from_its_own_task_returns_its_thread():
    s = Schedulers.io()
    w = s.create_worker()
    t = thread_of(w)
    done = threading.Event()
    w.schedule(lambda: (w.dispose(), done.set()))
    assert done.wait(5)
    w2 = s.create_worker()
    assert thread_of(w2) is t
    w2.dispose()


# ---------------------------------------------------------------- new_thread and single

def test_new_thread_worker_thread_ends_on_dispose():
    s = Schedulers.new_thread()
    w1, w2 = s.create_worker(), s.create_worker()
    t1, t2 = thread_of(w1), thread_of(w2)
    assert t1 is not t2
    assert t1.name.startswith("rxpy2-newthread-") and t1.daemon
    w1.dispose()
    t1.join(5)
    assert not t1.is_alive()
    assert t2.is_alive()
    done = threading.Event()
    w2.schedule(lambda: (w2.dispose(), done.set()))  # dispose from its own task
    assert done.wait(5)
    t2.join(5)
    assert not t2.is_alive()


def test_new_thread_direct_task_thread_ends_after_the_task():
    got: list[threading.Thread] = []
    Schedulers.new_thread().schedule_direct(lambda: got.append(threading.current_thread()))
    assert wait_until(lambda: len(got) == 1)
    got[0].join(5)
    assert not got[0].is_alive()


def test_single_runs_every_worker_on_one_thread():
    s = Schedulers.single()
    workers = [s.create_worker() for _ in range(3)]
    threads = [thread_of(w) for w in workers]
    assert threads[0] is threads[1] is threads[2]
    assert threads[0].name.startswith("rxpy2-single-")
    for w in workers:
        w.dispose()


# ---------------------------------------------------------------- trampoline

def _depth() -> int:
    f, n = sys._getframe(1), 0
    while f is not None:
        f, n = f.f_back, n + 1
    return n


def test_trampoline_queues_reentrant_tasks_without_recursion():
    w = Schedulers.trampoline().create_worker()
    n = 10_000
    count = [0]
    depths: list[int] = []

    def step() -> None:
        count[0] += 1
        if count[0] in (1, n):
            depths.append(_depth())
        if count[0] < n:
            w.schedule(step)

    w.schedule(step)
    assert count[0] == n  # all ran before schedule returned
    assert depths[0] == depths[1]  # the 10 000th task runs at the depth of the first
    w.dispose()


def test_trampoline_schedule_direct_queues_reentrant_tasks_without_recursion():
    s = Schedulers.trampoline()
    n = 10_000
    count = [0]

    def step() -> None:
        count[0] += 1
        if count[0] < n:
            s.schedule_direct(step)

    s.schedule_direct(step)
    assert count[0] == n


def test_trampoline_runs_queued_tasks_after_the_current_one_in_order():
    w = Schedulers.trampoline().create_worker()
    out: list[str] = []

    def a() -> None:
        out.append("a start")
        w.schedule(b)
        w.schedule(lambda: out.append("c"))
        out.append("a end")

    def b() -> None:
        out.append("b")
        w.schedule(lambda: out.append("d"))

    w.schedule(a)
    assert out == ["a start", "a end", "b", "c", "d"]
    w.dispose()


def test_trampoline_delays_by_sleeping_on_the_calling_thread():
    s = Schedulers.trampoline()
    w = s.create_worker()
    got: list[tuple[float, threading.Thread]] = []
    t0 = s.now()
    w.schedule(lambda: got.append((s.now(), threading.current_thread())), 0.02)
    assert len(got) == 1  # schedule returned after the task ran
    assert got[0][0] >= t0 + 0.02 and got[0][1] is threading.current_thread()
    out: list[str] = []

    def first() -> None:  # queued tasks run by due time, ties in submission order
        w.schedule(lambda: out.append("late"), 0.02)
        w.schedule(lambda: out.append("x"))
        w.schedule(lambda: out.append("y"))

    w.schedule(first)
    assert out == ["x", "y", "late"]
    w.dispose()


def test_trampoline_task_from_another_thread_runs_on_the_draining_thread():
    w = Schedulers.trampoline().create_worker()
    entered, release = threading.Event(), threading.Event()
    ran_on: list[threading.Thread] = []

    def long_task() -> None:
        entered.set()
        release.wait(5)

    t = threading.Thread(target=w.schedule, args=(long_task,))
    t.start()
    assert entered.wait(5)
    w.schedule(lambda: ran_on.append(threading.current_thread()))
    assert ran_on == []  # queued behind the running task
    release.set()
    t.join(5)
    assert ran_on == [t]
    w.dispose()


# ---------------------------------------------------------------- from_executor

def test_from_executor_uses_the_executor_and_leaves_it_to_the_caller():
    pool = ThreadPoolExecutor(max_workers=2, thread_name_prefix="mine")
    try:
        s = Schedulers.from_executor(pool)
        w1, w2 = s.create_worker(), s.create_worker()
        assert thread_of(w1).name.startswith("mine")
        gate = threading.Event()
        w1.schedule(lambda: gate.wait(5))
        done = threading.Event()
        w2.schedule(done.set)  # another worker runs in parallel on the pool
        assert done.wait(5)
        gate.set()
        s.shutdown()
        assert w1.is_disposed() and w2.is_disposed()
        assert pool.submit(lambda: 7).result(5) == 7  # not shut down by the scheduler
    finally:
        pool.shutdown(wait=True)


def test_from_executor_rejection_disposes_the_worker_and_reports(plugin_errors):
    pool = ThreadPoolExecutor(max_workers=1)
    pool.shutdown(wait=True)
    s = Schedulers.from_executor(pool)
    w = s.create_worker()
    ran: list[int] = []
    d = w.schedule(lambda: ran.append(1))
    assert w.is_disposed() and d.is_disposed() and ran == []
    assert len(plugin_errors) == 1 and isinstance(plugin_errors.causes()[0], RuntimeError)
    s.shutdown()


def test_from_executor_needs_an_executor():
    with pytest.raises(TypeError):
        Schedulers.from_executor(object())  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        Schedulers.from_executor(None)  # type: ignore[arg-type]


# ---------------------------------------------------------------- timer

def test_timer_fires_by_due_time_then_sequence():
    timer = TimerQueue()
    try:
        out: list[str] = []
        now = time.monotonic()
        gate = threading.Event()
        timer.schedule_at(now - 1, lambda: gate.wait(5))  # holds the timer thread
        for name, due in (("c", now + 0.02), ("a", now), ("b1", now + 0.01),
                          ("b2", now + 0.01), ("b3", now + 0.01)):
            timer.schedule_at(due, partial(out.append, name))
        cancelled = timer.schedule_at(now, lambda: out.append("cancelled"))
        cancelled.cancel()
        gate.set()
        assert wait_until(lambda: len(out) == 5)
        assert out == ["a", "b1", "b2", "b3", "c"]
        assert len(timer) == 0
    finally:
        timer.shutdown()


def test_timer_thread_ends_when_idle_and_restarts():
    timer = TimerQueue(keep_alive=0.02)
    try:
        fired = threading.Event()
        timer.schedule_at(time.monotonic(), fired.set)
        assert fired.wait(5)
        t = timer.thread()
        assert t is not None
        t.join(5)
        assert not t.is_alive() and timer.thread() is None
        fired.clear()
        timer.schedule_at(time.monotonic(), fired.set)
        assert fired.wait(5)
    finally:
        timer.shutdown()


def test_timer_purges_cancelled_entries():
    timer = TimerQueue()
    try:
        entries = [timer.schedule_at(time.monotonic() + 100, lambda: None) for _ in range(200)]
        for e in entries[:150]:
            e.cancel()
        assert len(timer._heap) < 200  # purged, not only skipped when due
        assert len(timer) == 50
    finally:
        timer.shutdown()
    assert timer.schedule_at(0, lambda: None).action is None  # shut down: refused


# ---------------------------------------------------------------- Schedulers.shutdown/start

def test_schedulers_shutdown_leaves_no_rxpy2_thread_alive():
    pool = ThreadPoolExecutor(max_workers=1)
    try:
        ran: list[str] = []
        workers = []
        for name in ("computation", "io", "single", "new_thread"):
            w = getattr(Schedulers, name)().create_worker()
            workers.append(w)
            thread_of(w)
            w.schedule(partial(ran.append, name), 30)  # starts each timer thread
        fe = Schedulers.from_executor(pool).create_worker()
        fe.schedule(partial(ran.append, "from_executor"), 30)
        names = {t.name.rsplit("-", 1)[0] for t in threading.enumerate()}
        assert {"rxpy2-computation", "rxpy2-io", "rxpy2-single", "rxpy2-newthread",
                "rxpy2-timer"} <= names
        Schedulers.shutdown()
        assert [t for t in threading.enumerate() if t.name.startswith("rxpy2-")] == []
        assert all(w.is_disposed() for w in workers) and fe.is_disposed()
        assert ran == []
    finally:
        pool.shutdown(wait=True)
    assert scheduler_threads() == []


def test_schedulers_come_back_after_shutdown():
    Schedulers.shutdown()
    w = Schedulers.computation().create_worker()  # restarts on use
    assert thread_of(w).is_alive()
    done = threading.Event()
    w.schedule(done.set, 0.01)
    assert done.wait(5)
    Schedulers.shutdown()
    assert w.is_disposed()
    Schedulers.start()
    names = [t.name for t in threading.enumerate()]
    assert any(n.startswith("rxpy2-computation-") for n in names)
    assert any(n.startswith("rxpy2-single-") for n in names)
    Schedulers.shutdown()
    assert scheduler_threads() == []


def test_shutdown_from_a_scheduler_thread_does_not_deadlock():
    s = ComputationScheduler(threads=1)
    w = s.create_worker()
    done = threading.Event()
    w.schedule(lambda: (s.shutdown(), done.set()))
    assert done.wait(10)
    assert w.is_disposed()
    s.shutdown()
