"""contextvars across scheduler hops: a task runs in a copy of the context that was
current when it was scheduled, on every scheduler, and so every callback of a chain
subscribed in a context sees it, however many hops the chain makes.

Each chain is subscribed inside a fresh ``contextvars.Context`` where ``REQUEST_ID`` is
set; the test's own context never has it, so a callback that ran in a thread's (or the
test's) context would read ``"unset"``.
"""

from __future__ import annotations

import asyncio
import contextvars
import threading
from collections.abc import Callable
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from rxpy2 import Flowable
from rxpy2 import plugins
from rxpy2.disposables import Disposable
from rxpy2.disposables import Disposables
from rxpy2.schedulers import Scheduler
from rxpy2.schedulers import Schedulers
from rxpy2.schedulers import TestScheduler
from rxpy2.schedulers import Worker
from rxpy2.schedulers.asyncio_scheduler import AsyncioScheduler
from rxpy2.testing import TestSubscriber
from tests.schedulers.sched_support import KINDS
from tests.schedulers.sched_support import make_scheduler
from tests.schedulers.sched_support import wait_until

REQUEST_ID: contextvars.ContextVar[str] = contextvars.ContextVar("request_id", default="unset")

ALL_KINDS = [*KINDS, "asyncio", "test"]

Records = list[tuple[str, str, str]]


@contextmanager
def any_scheduler(kind: str) -> Iterator[Scheduler]:
    if kind == "asyncio":
        loop = asyncio.new_event_loop()
        t = threading.Thread(target=loop.run_forever, name="ctx-test-loop", daemon=True)
        t.start()
        s = AsyncioScheduler(loop)
        try:
            yield s
        finally:
            s.shutdown()
            loop.call_soon_threadsafe(loop.stop)
            t.join(5)
            loop.close()
    elif kind == "test":
        yield TestScheduler()
    else:
        with make_scheduler(kind) as s:
            yield s


def in_context(value: str, fn: Callable[[], Any]) -> Any:
    """``fn()`` in a new, empty context where ``REQUEST_ID`` is ``value``."""
    def body() -> Any:
        REQUEST_ID.set(value)
        return fn()
    return contextvars.Context().run(body)


def recorder(records: Records, stage: str) -> Callable[..., None]:
    def record(*_: Any) -> None:
        records.append((stage, REQUEST_ID.get(), threading.current_thread().name))
    return record


def traced(source: Flowable[Any], records: Records, tag: str) -> Flowable[Any]:
    """``source`` with a callback of each kind after it, each recording what it reads."""
    return (source
            .map(lambda x: (recorder(records, f"{tag}map")(), x)[1])
            .filter(lambda x: (recorder(records, f"{tag}filter")(), True)[1])
            .do_on_next(recorder(records, f"{tag}do_on_next"))
            .do_on_complete(recorder(records, f"{tag}do_on_complete")))


def run_in_context(s: Scheduler, build: Callable[[], Flowable[Any]],
                   value: str = "req-1") -> TestSubscriber[Any]:
    ts: TestSubscriber[Any] = in_context(value, lambda: build().test())
    if isinstance(s, TestScheduler):
        # outside the context: only propagation can carry it; again while other
        # threads of the chain (its later hops) schedule more on the virtual clock
        for _ in range(500):
            s.advance_time_by(60.0)
            if ts.await_terminal_event(0.01):
                break
    ts.await_done(5.0)
    ts.assert_no_errors().assert_complete()
    return ts


def assert_all_saw(records: Records, value: str, stages: set[str]) -> None:
    assert records, "no callback ran"
    assert {stage for stage, _, _ in records} >= stages
    wrong = [r for r in records if r[1] != value]
    assert not wrong, f"callbacks that did not see {value!r}: {wrong[:5]}"


STAGES = {"map", "filter", "do_on_next", "do_on_complete"}


@pytest.mark.parametrize("kind", ALL_KINDS)
def test_after_subscribe_on(kind: str) -> None:
    records: Records = []
    with any_scheduler(kind) as s:
        ts = run_in_context(s, lambda: traced(
            Flowable.range(1, 5).do_on_request(recorder(records, "do_on_request"))
            .subscribe_on(s), records, ""))
    ts.assert_values(1, 2, 3, 4, 5)
    assert_all_saw(records, "req-1", STAGES | {"do_on_request"})


@pytest.mark.parametrize("kind", ALL_KINDS)
def test_after_observe_on(kind: str) -> None:
    records: Records = []
    with any_scheduler(kind) as s:
        # hide(): not fused, the items cross a queue and the drain is a scheduled task
        ts = run_in_context(s, lambda: traced(
            Flowable.range(1, 300).hide().observe_on(s, buffer_size=16), records, ""))
    assert ts.values() == list(range(1, 301))
    assert_all_saw(records, "req-1", STAGES)


@pytest.mark.parametrize("kind", ALL_KINDS)
def test_after_delay(kind: str) -> None:
    records: Records = []
    with any_scheduler(kind) as s:
        ts = run_in_context(s, lambda: traced(
            Flowable.range(1, 3).delay(0.01, scheduler=s), records, ""))
    ts.assert_values(1, 2, 3)
    assert_all_saw(records, "req-1", STAGES)


@pytest.mark.parametrize("kind", ALL_KINDS)
def test_after_interval_and_timer(kind: str) -> None:
    records: Records = []
    with any_scheduler(kind) as s:
        ts = run_in_context(s, lambda: traced(
            Flowable.interval(0.005, scheduler=s).take(3), records, "interval "))
        ts.assert_values(0, 1, 2)
        ts = run_in_context(s, lambda: traced(
            Flowable.timer(0.005, scheduler=s), records, "timer "))
        ts.assert_values(0)
    assert_all_saw(records, "req-1", {"interval map", "interval do_on_complete",
                                      "timer map", "timer do_on_complete"})


@pytest.mark.parametrize("kind", ALL_KINDS)
def test_two_hops_in_a_row(kind: str) -> None:
    records: Records = []
    with any_scheduler(kind) as s:
        ts = run_in_context(s, lambda: traced(traced(
            traced(Flowable.range(1, 200).subscribe_on(s), records, "first ")
            .observe_on(Schedulers.new_thread(), buffer_size=8), records, "second ")
            .observe_on(Schedulers.computation(), buffer_size=8), records, "third "))
    assert ts.values() == list(range(1, 201))
    assert_all_saw(records, "req-1", {"first map", "first do_on_complete",
                                      "second map", "second do_on_complete",
                                      "third map", "third do_on_complete"})
    if kind not in ("trampoline", "test"):
        assert len({thread for _, _, thread in records}) >= 2  # the chain did hop


@pytest.mark.parametrize("kind", ["single", "computation", "trampoline", "test"])
def test_a_value_set_in_one_chain_does_not_leak_into_another(kind: str) -> None:
    records: Records = []

    def build_a() -> Flowable[Any]:
        def set_it(x: int) -> int:
            REQUEST_ID.set("set-by-a")
            return x
        return Flowable.range(1, 3).subscribe_on(s).map(set_it)

    with any_scheduler(kind) as s:
        # single(): both chains run on the same thread, one after the other
        run_in_context(s, build_a, "a").assert_values(1, 2, 3)
        ts = run_in_context(s, lambda: traced(Flowable.range(1, 3).subscribe_on(s),
                                              records, ""), "b")
    ts.assert_values(1, 2, 3)
    assert_all_saw(records, "b", STAGES)
    assert REQUEST_ID.get() == "unset"  # nor into the test's own context


@pytest.mark.parametrize("kind", ["computation", "single", "from_executor", "asyncio",
                                  "trampoline", "test"])
def test_a_periodic_task_sees_its_schedule_time_context_each_run(kind: str) -> None:
    seen: list[str] = []
    done = threading.Event()

    def tick() -> None:
        seen.append(REQUEST_ID.get())
        REQUEST_ID.set(f"changed by run {len(seen)}")  # not seen by the next run
        if len(seen) == 4:
            done.set()

    with any_scheduler(kind) as s:
        w = s.create_worker()
        try:
            if kind == "trampoline":
                # a trampoline worker runs the periodic task in the caller, for as
                # long as it runs: it stops itself
                def stop_after_four() -> None:
                    tick()
                    if done.is_set():
                        w.dispose()
                in_context("p", lambda: w.schedule_periodically(stop_after_four, 0.0, 0.001))
            else:
                d = in_context("p", lambda: w.schedule_periodically(tick, 0.0, 0.005))
                if isinstance(s, TestScheduler):
                    s.advance_time_by(0.016)
                assert done.wait(5.0)
                d.dispose()
            # the direct form as well, on its own worker
            seen_direct: list[str] = []
            got = threading.Event()

            def direct_tick() -> None:
                seen_direct.append(REQUEST_ID.get())
                REQUEST_ID.set("changed")
                if len(seen_direct) == 3:
                    got.set()
            if kind != "trampoline":
                dd = in_context("q", lambda: s.schedule_periodically_direct(direct_tick, 0.0,
                                                                            0.005))
                if isinstance(s, TestScheduler):
                    s.advance_time_by(0.011)
                assert got.wait(5.0)
                dd.dispose()
                assert seen_direct[:3] == ["q", "q", "q"]
        finally:
            w.dispose()
    assert seen[:4] == ["p", "p", "p", "p"]


@pytest.mark.parametrize("kind", ALL_KINDS)
def test_worker_and_direct_tasks_run_in_their_scheduling_context(kind: str) -> None:
    seen: list[tuple[str, str]] = []
    with any_scheduler(kind) as s:
        w = s.create_worker()
        try:
            in_context("w0", lambda: w.schedule(lambda: seen.append(("w0", REQUEST_ID.get()))))
            in_context("w1", lambda: w.schedule(lambda: seen.append(("w1", REQUEST_ID.get())),
                                                0.002))
            in_context("d0", lambda: s.schedule_direct(
                lambda: seen.append(("d0", REQUEST_ID.get()))))
            in_context("d1", lambda: s.schedule_direct(
                lambda: seen.append(("d1", REQUEST_ID.get())), 0.002))
            if isinstance(s, TestScheduler):
                s.advance_time_by(1.0)
            assert wait_until(lambda: len(seen) == 4)
        finally:
            w.dispose()
    assert sorted(seen) == [("d0", "d0"), ("d1", "d1"), ("w0", "w0"), ("w1", "w1")]


def test_a_trampoline_task_queued_from_another_context_runs_in_that_context() -> None:
    # the trampoline runs a task at once in its caller, where the context is already
    # the right one; a task queued behind it (scheduled from inside a task, in another
    # context) is run later by the draining call, and must still see its own context
    w = Schedulers.trampoline().create_worker()
    seen: list[tuple[str, str]] = []

    def outer() -> None:
        seen.append(("outer", REQUEST_ID.get()))
        in_context("inner", lambda: w.schedule(lambda: seen.append(("inner",
                                                                     REQUEST_ID.get()))))
        REQUEST_ID.set("changed by outer")

    in_context("outer", lambda: w.schedule(outer))
    assert seen == [("outer", "outer"), ("inner", "inner")]
    assert REQUEST_ID.get() == "unset"


def test_the_schedule_handler_wrapper_runs_in_the_tasks_context() -> None:
    seen: list[str] = []

    def handler(task: Callable[[], object]) -> Callable[[], object]:
        def wrapped() -> object:
            seen.append(REQUEST_ID.get())
            return task()
        return wrapped

    plugins.set_schedule_handler(handler)
    try:
        with any_scheduler("single") as s:
            done = threading.Event()
            in_context("h", lambda: s.schedule_direct(done.set))
            assert done.wait(5.0)
    finally:
        plugins.reset()
    assert seen == ["h"]


def test_propagation_can_be_turned_off_and_reset_turns_it_on() -> None:
    assert plugins.is_context_propagation_enabled()
    seen: list[str] = []
    with any_scheduler("test") as s:
        plugins.set_context_propagation(False)
        try:
            assert not plugins.is_context_propagation_enabled()
            in_context("off", lambda: s.schedule_direct(lambda: seen.append(REQUEST_ID.get())))
            s.advance_time_by(1.0)
        finally:
            plugins.reset()
        assert plugins.is_context_propagation_enabled()
        in_context("on", lambda: s.schedule_direct(lambda: seen.append(REQUEST_ID.get())))
        s.advance_time_by(1.0)
    assert seen == ["unset", "on"]
    with pytest.raises(TypeError):
        plugins.set_context_propagation(1)  # type: ignore[arg-type]


class _ThreadPerTaskWorker(Worker):
    """A user's worker that knows nothing of contexts: each task on a thread of its own."""

    __slots__ = ("threads",)

    def __init__(self) -> None:
        self.threads: list[threading.Thread] = []

    def schedule_actual(self, fn: Callable[[], object], delay: float) -> Disposable:
        t = threading.Thread(target=fn, name="user-worker")
        self.threads.append(t)
        t.start()
        return Disposables.empty()

    def dispose(self) -> None:
        pass

    def join(self) -> None:
        for t in self.threads:
            t.join(5.0)

    def is_disposed(self) -> bool:
        return False


class _UserScheduler(Scheduler):
    def create_worker(self) -> Worker:
        return _ThreadPerTaskWorker()


def test_a_users_own_worker_gets_its_tasks_bound_by_schedule() -> None:
    s = _UserScheduler()
    w = s.create_worker()
    seen: list[tuple[str, str]] = []
    in_context("worker", lambda: w.schedule(lambda: seen.append(("worker", REQUEST_ID.get()))))
    in_context("direct", lambda: s.schedule_direct(
        lambda: seen.append(("direct", REQUEST_ID.get()))))
    records: Records = []
    ts = run_in_context(s, lambda: traced(Flowable.range(1, 3).subscribe_on(s), records, ""))
    ts.assert_values(1, 2, 3)
    assert_all_saw(records, "req-1", STAGES)
    assert wait_until(lambda: len(seen) == 2)
    assert isinstance(w, _ThreadPerTaskWorker)
    w.join()
    assert sorted(seen) == [("direct", "direct"), ("worker", "worker")]
