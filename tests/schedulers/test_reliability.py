"""Regression tests of scheduler faults that stopped a scheduler for good or broke a
documented guarantee (each test failed, or hung, on the code before the fix):

* a huge or infinite delay killed the timer thread (``OverflowError`` in
  ``Condition.wait``): every later timer of that scheduler never fired;
* an ``int`` beyond float range was an ``OverflowError`` instead of a ``ValueError``;
* a fatal exception of a timer action was swallowed (reported to ``plugins.on_error``);
* ``io()`` handed the thread of a disposed worker, still inside a blocking task, to
  the next worker;
* a periodic task with period 0 kept its drain, and its computation thread, for ever;
  ``interval`` clamped a negative period to 0;
* ``SystemExit``/``KeyboardInterrupt`` in a task were reported as undeliverable
  errors (trampoline, pool threads, virtual time, asyncio) instead of propagating;
* a trampoline task could start after another thread's ``dispose()`` had returned.

The exit, Ctrl-C and fork cases run in subprocesses: ``tests/test_lifecycle_schedulers.py``.
"""

from __future__ import annotations

import asyncio
import threading
import time
from functools import partial

import pytest
from sched_support import wait_until

from rxpy2 import Flowable
from rxpy2.schedulers import AsyncioScheduler
from rxpy2.schedulers import Schedulers
from rxpy2.schedulers import TestScheduler
from rxpy2.schedulers.computation_scheduler import ComputationScheduler
from rxpy2.schedulers.io_scheduler import IoScheduler
from rxpy2.schedulers.timer import TimerQueue

INF = float("inf")


def _fires(scheduler, delay: float = 0.01, timeout: float = 5.0) -> bool:
    """A short timer of ``scheduler`` fires (within ``timeout``)."""
    done = threading.Event()
    w = scheduler.create_worker()
    try:
        w.schedule(done.set, delay)
        return done.wait(timeout)
    finally:
        w.dispose()


# ---------------------------------------------------------------- 1. huge delays

@pytest.mark.parametrize("delay", [INF, 1e10, 1e300, 2**70])
def test_a_huge_delay_never_fires_and_the_timer_keeps_working(delay):
    s = ComputationScheduler(threads=1)
    try:
        w = s.create_worker()
        ran = []
        w.schedule(lambda: ran.append(1), delay)
        time.sleep(0.05)  # let the timer thread reach its wait on the huge entry
        assert _fires(s), "a later timer of the same scheduler never fired"
        assert ran == []
        w.dispose()
    finally:
        s.shutdown()


@pytest.mark.parametrize("make", [
    lambda: Flowable.timer(1e10),
    lambda: Flowable.timer(INF),
    lambda: Flowable.interval(1e300),
    lambda: Flowable.never().timeout(INF),
    lambda: Flowable.just(1).delay(INF),
], ids=["timer-1e10", "timer-inf", "interval-1e300", "timeout-inf", "delay-inf"])
def test_huge_delays_in_operators_leave_the_computation_timer_alive(make):
    ts = make().test()
    time.sleep(0.05)
    assert Flowable.timer(0.01).to_future().result(timeout=5) == 0
    ts.assert_no_values().assert_not_terminated()
    ts.cancel()


def test_an_int_beyond_float_range_is_a_value_error():
    with pytest.raises(ValueError):
        Flowable.timer(10**400)
    with pytest.raises(ValueError):
        Flowable.interval(1, 10**400)
    w = Schedulers.computation().create_worker()
    try:
        with pytest.raises(ValueError):
            w.schedule(lambda: None, 10**400)
        with pytest.raises(ValueError):
            w.schedule(lambda: None, -(10**400))
    finally:
        w.dispose()


def test_a_trampoline_infinite_delay_is_slept_in_bounded_steps(monkeypatch):
    """``time.sleep(inf)`` raises OverflowError: the trampoline sleeps in bounded steps
    (the sleep is replaced by a recorder that ends the wait after three steps)."""
    import rxpy2.schedulers.trampoline_scheduler as tramp

    class Stop(Exception):
        pass

    slept: list[float] = []

    def fake_sleep(seconds: float) -> None:
        slept.append(seconds)
        if len(slept) == 3:
            raise Stop

    monkeypatch.setattr(tramp, "_sleep", fake_sleep)
    w = Schedulers.trampoline().create_worker()
    ran = []
    with pytest.raises(Stop):
        w.schedule(lambda: ran.append(1), INF)
    assert ran == []
    assert len(slept) == 3 and all(t <= threading.TIMEOUT_MAX for t in slept)
    w.dispose()


# ---------------------------------------------------------------- 1 and 10. the timer thread survives

#: pytest reports an exception ending a thread (even a SystemExit) as a warning
_THREAD_EXIT = pytest.mark.filterwarnings("ignore::pytest.PytestUnhandledThreadExceptionWarning")


@_THREAD_EXIT
def test_the_timer_thread_survives_a_fatal_action_and_does_not_report_it(plugin_errors):
    q = TimerQueue(keep_alive=1.0)
    try:
        def fatal() -> None:
            raise SystemExit(7)  # ends the thread quietly (threading ignores SystemExit)

        first = q.thread()
        assert first is None
        q.schedule_at(time.monotonic(), fatal)
        done = threading.Event()
        q.schedule_at(time.monotonic() + 0.05, done.set)
        assert done.wait(5), "the timer died with the fatal action"
        assert plugin_errors == []  # fatal: not an undeliverable error
    finally:
        q.shutdown(5)


@_THREAD_EXIT
def test_an_action_error_is_reported_and_the_timer_goes_on(plugin_errors):
    q = TimerQueue(keep_alive=1.0)
    try:
        q.schedule_at(time.monotonic(), partial(_raise, ValueError("boom")))
        q.schedule_at(time.monotonic(), partial(_raise, SystemExit(1)))
        done = threading.Event()
        q.schedule_at(time.monotonic() + 0.02, done.set)
        assert done.wait(5)
        assert [type(e) for e in plugin_errors] == [ValueError]
    finally:
        q.shutdown(5)


def _raise(e: BaseException) -> None:
    raise e


# ---------------------------------------------------------------- 2. io hands out idle threads only

def test_io_never_hands_a_busy_thread_to_the_next_worker():
    s = IoScheduler()
    release = threading.Event()
    entered = threading.Event()
    try:
        a = s.create_worker()
        a.schedule(lambda: (entered.set(), release.wait(10)))
        assert entered.wait(5)
        a.dispose()  # its task is still blocked
        ran = threading.Event()
        b = s.create_worker()
        b.schedule(ran.set)
        assert ran.wait(3), "the next worker got the thread of the blocked task"
        release.set()
        b.dispose()
        # once the blocked task returned, its thread is cached for reuse
        assert wait_until(lambda: s.idle_count == 2)
    finally:
        release.set()
        s.shutdown()


def test_io_subscribe_on_with_timeout_does_not_delay_the_next_io_task():
    release = threading.Event()
    entered = threading.Event()

    def blocking_call() -> int:
        entered.set()
        release.wait(10)
        return 1

    try:
        ts = (Flowable.from_callable(blocking_call).subscribe_on(Schedulers.io())
              .timeout(0.1).test())
        assert entered.wait(5)
        ts.await_done(5).assert_error(TimeoutError)
        ran = threading.Event()
        Schedulers.io().schedule_direct(ran.set)
        assert ran.wait(3), "the next io task waited for the blocked call"
    finally:
        release.set()


# ---------------------------------------------------------------- 5. zero and negative periods

def test_a_zero_period_task_yields_its_thread_to_the_other_workers():
    s = ComputationScheduler(threads=1)
    try:
        a, b = s.create_worker(), s.create_worker()
        runs = [0]

        def tick() -> None:
            runs[0] += 1

        a.schedule_periodically(tick, 0, 0)
        ran = threading.Event()
        b.schedule(ran.set)
        assert ran.wait(3), "a zero-period task starved the other worker of its thread"
        a.dispose()
        assert runs[0] > 0
        b.dispose()
    finally:
        s.shutdown()


def test_interval_zero_shares_its_thread():
    s = ComputationScheduler(threads=1)
    try:
        ts = Flowable.interval(0, scheduler=s).on_backpressure_drop().test()
        ran = threading.Event()
        s.schedule_direct(ran.set)
        assert ran.wait(3)
        ts.await_count(10, 5)
        ts.cancel()
    finally:
        s.shutdown()


def test_a_negative_period_is_a_value_error_at_assembly():
    with pytest.raises(ValueError):
        Flowable.interval(-1)
    with pytest.raises(ValueError):
        Flowable.interval(-0.5, 0)
    with pytest.raises(ValueError):
        Flowable.interval_range(0, 3, 0, -1)
    with pytest.raises(ValueError):
        Flowable.interval(INF, 0)
    s = Schedulers.computation()
    with pytest.raises(ValueError):
        s.schedule_periodically_direct(lambda: None, 0, -1)
    w = s.create_worker()
    with pytest.raises(ValueError):
        w.schedule_periodically(lambda: None, 0, -0.001)
    w.dispose()


# ---------------------------------------------------------------- 10. fatal exceptions propagate

def test_keyboard_interrupt_in_a_trampoline_task_reaches_the_caller(plugin_errors):
    t = Schedulers.trampoline()

    def interrupted() -> None:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        t.schedule_direct(interrupted)
    assert plugin_errors == []
    ran = []
    t.schedule_direct(lambda: ran.append(1))  # this thread's trampoline is not wedged
    assert ran == [1]

    w = t.create_worker()
    log: list[int] = []

    def first() -> None:
        w.schedule(lambda: log.append(2))  # queued behind the failing task
        raise SystemExit(3)

    with pytest.raises(SystemExit):
        w.schedule(first)
    w.schedule(lambda: log.append(3))  # the worker drains again, the queued task first
    assert log == [2, 3]
    w.dispose()


def test_an_exception_in_a_trampoline_task_is_still_reported(plugin_errors):
    t = Schedulers.trampoline()
    t.schedule_direct(partial(_raise, ValueError("x")))
    assert [type(e) for e in plugin_errors] == [ValueError]
    with pytest.raises(SystemExit):
        t.schedule_direct(partial(_raise, SystemExit(0)))
    assert len(plugin_errors) == 1


@_THREAD_EXIT
def test_a_fatal_error_on_a_pool_thread_is_not_reported_and_the_workers_go_on(plugin_errors):
    s = ComputationScheduler(threads=1)
    try:
        a, b = s.create_worker(), s.create_worker()
        log: list[str] = []
        done = threading.Event()
        a.schedule(partial(_raise, SystemExit(2)))  # ends that thread's run, quietly
        a.schedule(lambda: log.append("a"))
        b.schedule(lambda: (log.append("b"), done.set()))
        assert done.wait(5)
        assert wait_until(lambda: "a" in log)
        assert sorted(log) == ["a", "b"]
        assert plugin_errors == []
        assert _fires(s)
        a.dispose()
        b.dispose()
    finally:
        s.shutdown()


def test_a_fatal_error_in_virtual_time_reaches_the_caller(plugin_errors):
    ts = TestScheduler()
    w = ts.create_worker()
    log = []
    w.schedule(partial(_raise, KeyboardInterrupt()), 1)
    w.schedule(lambda: log.append(2), 2)
    with pytest.raises(KeyboardInterrupt):
        ts.advance_time_by(5)
    assert plugin_errors == []
    ts.advance_time_by(5)
    assert log == [2]


def test_a_fatal_error_in_an_asyncio_task_reaches_the_loop(plugin_errors):
    loop = asyncio.new_event_loop()
    try:
        s = AsyncioScheduler(loop)
        w = s.create_worker()
        w.schedule(partial(_raise, SystemExit(4)))
        loop.call_later(5, loop.stop)  # bounded, should the error be swallowed
        with pytest.raises(SystemExit):
            loop.run_forever()  # the task's SystemExit stops the loop
        assert plugin_errors == []
        w.dispose()
    finally:
        loop.close()


# ---------------------------------------------------------------- 12. trampoline dispose vs drain

#: tasks per round: each one is a window in which the old drain could be preempted
#: between its "disposed?" check and the task's start (about 1 round in 60 failed)
TASKS = 30


def test_no_trampoline_task_starts_after_dispose_returned(race_runner, race_rounds):
    """A task whose handle was not yet started (``is_disposed()`` is False) when
    ``dispose()`` returned must never run. The task under way at that moment has
    been marked started (its handle says disposed), so it is excluded, as the
    worker's guarantee allows."""
    t = Schedulers.trampoline()
    bad = 0
    for _ in range(race_rounds // 2):
        w = t.create_worker()
        handles: list = []
        ran: list[int] = []
        pending_at_dispose: list[int] = []

        def drain(w=w, handles=handles, ran=ran) -> None:
            def outer() -> None:
                for i in range(TASKS):
                    handles.append(w.schedule(partial(ran.append, i)))
            w.schedule(outer)  # the tasks run in this drain, after outer

        def dispose(w=w, handles=handles, pending=pending_at_dispose) -> None:
            # dispose while the drain runs the queued tasks, not before it began
            while len(handles) < TASKS and not w.is_disposed():
                time.sleep(0)
            w.dispose()
            pending.extend(i for i, h in enumerate(list(handles)) if not h.is_disposed())

        race_runner.race(drain, dispose)
        if set(ran) & set(pending_at_dispose):
            bad += 1
    assert bad == 0, f"{bad} rounds started a task after dispose() had returned"


# ---------------------------------------------------------------- a delayed task firing at once

def test_a_delayed_task_due_before_schedule_returns_still_runs(monkeypatch):
    """The timer thread may fire a short delay before ``schedule`` has looked at the
    timer entry: a fired entry must not be mistaken for a cancelled one (the task
    was queued by then, and marking it done lost it)."""
    s = ComputationScheduler(threads=1)
    try:
        real = s._timer.schedule_at

        def fires_at_once(due, action):
            entry = real(due, action)
            fn, entry.action = entry.action, None  # as the timer thread does when due
            assert fn is not None
            fn()
            return entry

        monkeypatch.setattr(s._timer, "schedule_at", fires_at_once)
        w = s.create_worker()
        done = threading.Event()
        w.schedule(done.set, 1e-6)
        assert done.wait(3), "the task was lost"
        w.dispose()
    finally:
        s.shutdown()


# ---------------------------------------------------------------- 3. thread starts that fail

def _failing_start(monkeypatch, name_prefix: str, times: int = 1) -> list[str]:
    """Make the next ``times`` starts of a thread named ``name_prefix...`` fail as at
    thread exhaustion; returns the names of the failed starts."""
    real = threading.Thread.start
    failed: list[str] = []

    def start(self: threading.Thread) -> None:
        if self.name.startswith(name_prefix) and len(failed) < times:
            failed.append(self.name)
            raise RuntimeError("can't start new thread")
        real(self)

    monkeypatch.setattr(threading.Thread, "start", start)
    return failed


def test_a_timer_thread_that_failed_to_start_is_started_by_the_next_timer(monkeypatch):
    s = ComputationScheduler(threads=1)
    try:
        w = s.create_worker()
        failed = _failing_start(monkeypatch, "rxpy2-timer-")
        with pytest.raises(RuntimeError):
            w.schedule(lambda: None, 0.01)
        assert failed
        assert _fires(s), "the timer believed a thread ran that never started"
        w.dispose()
    finally:
        s.shutdown()


def test_a_pool_that_failed_to_start_starts_on_next_use(monkeypatch):
    s = ComputationScheduler(threads=2)
    try:
        failed = _failing_start(monkeypatch, "rxpy2-computation-")
        with pytest.raises(RuntimeError):
            s.create_worker()
        assert failed
        assert _fires(s)
        assert s.size == 2
    finally:
        s.shutdown()


def test_nothing_starts_a_thread_while_the_interpreter_is_finalizing(monkeypatch):
    """Simulated: at exit a new thread can never run (3.11's Thread.start waits for
    ever for it), so a disposal during module teardown must not start one."""
    import sys
    s = IoScheduler()
    try:
        w = s.create_worker()
        assert _fires(s)  # the worker's thread, and the timer, run
        s._timer.shutdown(5)  # the timer thread is gone, as at exit after idling
        s._timer.start()
        before = set(threading.enumerate())
        monkeypatch.setattr(sys, "is_finalizing", lambda: True)
        w.dispose()  # caches the thread: the keep-alive timer would start a thread
        entry = s._timer.schedule_at(time.monotonic() + 1, lambda: None)
        w2 = s.create_worker()  # takes the cached thread: nothing new
        w3 = s.create_worker()  # needs a new thread: not started
        w2.dispose()
        w3.dispose()
        started = [t for t in set(threading.enumerate()) - before if t.is_alive()]
        assert started == []
        assert entry.dropped and entry.action is None
    finally:
        monkeypatch.undo()
        s.shutdown()
