"""``Schedulers``: the standard schedulers, as RxJava's ``Schedulers`` class.

``computation()``, ``io()``, ``single()`` and ``new_thread()`` return shared
instances (passed through the matching ``rxpy2.plugins`` scheduler handler);
their threads start on first use. ``shutdown()`` stops them all (and the
schedulers made by ``from_executor``, whose executors stay the caller's) and
waits for their threads to end; they start again by themselves on next use,
or at once with ``start()``.

The thread schedulers' modules are imported on first use: they import
``concurrent.futures``, and it ``logging`` (7 ms that ``import rxpy2`` does not pay).
"""

from __future__ import annotations

import os
import threading
import weakref
from typing import TYPE_CHECKING

from rxpy2 import plugins
from rxpy2.schedulers.scheduler import Scheduler
from rxpy2.schedulers.trampoline_scheduler import TrampolineScheduler

if TYPE_CHECKING:
    from concurrent.futures import Executor

    from rxpy2.schedulers.computation_scheduler import ComputationScheduler
    from rxpy2.schedulers.executor_scheduler import ExecutorScheduler
    from rxpy2.schedulers.io_scheduler import IoScheduler
    from rxpy2.schedulers.new_thread_scheduler import NewThreadScheduler
    from rxpy2.schedulers.single_scheduler import SingleScheduler

__all__ = ["Schedulers"]

_lock = threading.Lock()
_computation: ComputationScheduler | None = None
_io: IoScheduler | None = None
_single: SingleScheduler | None = None
_new_thread: NewThreadScheduler | None = None
_trampoline = TrampolineScheduler()
_from_executor: weakref.WeakSet[ExecutorScheduler] = weakref.WeakSet()


def _reset_lock_after_fork() -> None:
    # the forking thread may not be the one that held the lock: it would stay held
    global _lock
    _lock = threading.Lock()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_reset_lock_after_fork)


def _standard() -> tuple[ComputationScheduler, IoScheduler, SingleScheduler, NewThreadScheduler]:
    global _computation, _io, _single, _new_thread
    if _computation is None:
        with _lock:
            if _computation is None:
                from rxpy2.schedulers.computation_scheduler import ComputationScheduler
                from rxpy2.schedulers.io_scheduler import IoScheduler
                from rxpy2.schedulers.new_thread_scheduler import NewThreadScheduler
                from rxpy2.schedulers.single_scheduler import SingleScheduler

                _io = IoScheduler()
                _single = SingleScheduler()
                _new_thread = NewThreadScheduler()
                _computation = ComputationScheduler()
    assert _io is not None and _single is not None and _new_thread is not None
    return _computation, _io, _single, _new_thread


class Schedulers:
    """Factories of the standard schedulers (static methods only)."""

    __slots__ = ()

    @staticmethod
    def computation() -> Scheduler:
        """CPU-bound work: one thread per core, workers round-robin."""
        return plugins.on_scheduler("computation", _standard()[0])

    @staticmethod
    def io() -> Scheduler:
        """Blocking work: a cached thread per worker, grows on demand, idle threads expire."""
        return plugins.on_scheduler("io", _standard()[1])

    @staticmethod
    def single() -> Scheduler:
        """One thread shared by every worker: strictly sequential."""
        return plugins.on_scheduler("single", _standard()[2])

    @staticmethod
    def new_thread() -> Scheduler:
        """A new thread per worker, ended when the worker is disposed."""
        return plugins.on_scheduler("new_thread", _standard()[3])

    @staticmethod
    def trampoline() -> Scheduler:
        """The calling thread; re-entrant tasks are queued, not nested."""
        return _trampoline

    @staticmethod
    def from_executor(executor: Executor) -> Scheduler:
        """A scheduler on any ``concurrent.futures.Executor``; each worker stays serial."""
        from rxpy2.schedulers.executor_scheduler import ExecutorScheduler

        s = ExecutorScheduler(executor)
        with _lock:
            _from_executor.add(s)
        return s

    @staticmethod
    def start() -> None:
        """Start the standard schedulers' threads now (they also start on first use)."""
        for s in _standard():
            s.start()

    @staticmethod
    def shutdown() -> None:
        """Stop every standard and ``from_executor`` scheduler and wait for their threads."""
        with _lock:
            others = list(_from_executor)
        for s in (*_standard(), *others):
            s.shutdown()
