"""rxpy2.plugins scheduler hooks: the schedule wrapper and the scheduler handlers."""

from __future__ import annotations

import threading

import pytest
from sched_support import KINDS
from sched_support import make_scheduler

from rxpy2 import plugins
from rxpy2.schedulers import Schedulers
from rxpy2.schedulers import TestScheduler


@pytest.mark.parametrize("kind", KINDS)
def test_schedule_handler_wraps_every_task(kind: str):
    wrapped: list[object] = []
    ran: list[str] = []

    def handler(task):
        wrapped.append(task)

        def wrapper():
            ran.append("wrapper")
            task()

        return wrapper

    plugins.set_schedule_handler(handler)
    with make_scheduler(kind) as s:
        w = s.create_worker()
        done = threading.Event()
        w.schedule(done.set)
        assert done.wait(5)
        assert len(wrapped) == 1 and ran == ["wrapper"]
        direct = threading.Event()
        s.schedule_direct(direct.set)
        assert direct.wait(5)
        assert len(wrapped) == 2
        w.dispose()


def test_schedule_handler_wraps_a_periodic_task_once():
    wrapped: list[object] = []
    plugins.set_schedule_handler(lambda task: wrapped.append(task) or task)
    ts = TestScheduler()
    runs: list[float] = []
    d = ts.create_worker().schedule_periodically(lambda: runs.append(ts.now()), 0, 1)
    ts.advance_time_by(3)
    assert runs == [0.0, 1.0, 2.0, 3.0]
    assert len(wrapped) == 1
    d.dispose()


def test_schedule_handler_returning_none_is_a_type_error():
    plugins.set_schedule_handler(lambda task: None)
    w = TestScheduler().create_worker()
    with pytest.raises(TypeError):
        w.schedule(lambda: None)


@pytest.mark.parametrize("name, setter", [
    ("computation", plugins.set_computation_scheduler_handler),
    ("io", plugins.set_io_scheduler_handler),
    ("single", plugins.set_single_scheduler_handler),
    ("new_thread", plugins.set_new_thread_scheduler_handler),
])
def test_scheduler_handlers_replace_the_standard_schedulers(name, setter):
    factory = getattr(Schedulers, name)
    original = factory()
    seen: list[object] = []
    replacement = TestScheduler()
    setter(lambda s: seen.append(s) or replacement)
    assert factory() is replacement
    assert seen == [original]
    setter(None)
    assert factory() is original
    setter(lambda s: replacement)
    plugins.reset()
    assert factory() is original
    setter(lambda s: None)
    with pytest.raises(TypeError):
        factory()


def test_scheduler_hooks_respect_lockdown():
    plugins.lockdown()
    with pytest.raises(RuntimeError):
        plugins.set_schedule_handler(lambda t: t)
    with pytest.raises(RuntimeError):
        plugins.set_computation_scheduler_handler(lambda s: s)
    with pytest.raises(RuntimeError):
        plugins.set_io_scheduler_handler(None)
    plugins._unlock_for_tests()
