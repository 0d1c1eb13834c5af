"""``AsyncioScheduler(loop)``: a Scheduler whose workers run their tasks on an asyncio loop.

Every task runs on the loop's thread. A task without delay is handed over with
``loop.call_soon_threadsafe`` (FIFO, so a worker's tasks run in submission order, one
at a time: the loop runs one callback at a time); a delayed task with
``loop.call_later``, itself requested through ``call_soon_threadsafe`` so that it may be
scheduled from any thread. ``now()`` is ``loop.time()``. Disposing a task, or its
worker, cancels what has not started yet. A task that raises is reported to
:func:`rxpy2.plugins.on_error`. Scheduling on a closed loop does nothing (the result
is disposed). The scheduler does not own the loop: ``shutdown()`` disposes its workers
only.
"""

from __future__ import annotations

import asyncio
import threading
from typing import Any

from rxpy2 import plugins
from rxpy2._internal.helpers.disposable_helper import DISPOSED
from rxpy2.disposables import Disposable
from rxpy2.schedulers.scheduler import Scheduler
from rxpy2.schedulers.scheduler import Task
from rxpy2.schedulers.scheduler import Worker

__all__ = ["AsyncioScheduler"]


class AsyncioScheduler(Scheduler):
    """Runs tasks on ``loop`` (see the module docstring)."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        if loop is None:
            raise TypeError("loop is None")
        if not isinstance(loop, asyncio.AbstractEventLoop):
            raise TypeError(f"loop must be an asyncio event loop, not {type(loop).__name__}")
        self.loop = loop
        self._workers: set[AsyncioWorker] = set()
        self._lock = threading.Lock()

    def now(self) -> float:
        return self.loop.time()

    def create_worker(self) -> Worker:
        w = AsyncioWorker(self)
        with self._lock:
            self._workers.add(w)
        return w

    def _remove(self, w: AsyncioWorker) -> None:
        with self._lock:
            self._workers.discard(w)

    def shutdown(self) -> None:
        with self._lock:
            ws = list(self._workers)
            self._workers.clear()
        for w in ws:
            w.dispose()


class AsyncioWorker(Worker):
    """A worker of :class:`AsyncioScheduler`: its tasks run on the loop, in order."""

    __slots__ = ("_scheduler", "_tasks", "_lock", "_disposed")

    # asyncio itself runs a callback in a copy of the context current when
    # call_soon_threadsafe was called (here, in schedule_actual); call_later, called
    # from that callback, copies it on. Nothing to add (and rxpy2's switch does not
    # turn asyncio's own propagation off).
    binds_context = True

    def __init__(self, scheduler: AsyncioScheduler) -> None:
        self._scheduler = scheduler
        self._tasks: set[_LoopTask] = set()
        self._lock = threading.Lock()
        self._disposed = False

    def now(self) -> float:
        return self._scheduler.loop.time()

    def schedule_actual(self, fn: Task, delay: float) -> Disposable:
        task = _LoopTask(self, fn)
        with self._lock:
            if self._disposed:
                return DISPOSED
            self._tasks.add(task)
        loop = self._scheduler.loop
        try:
            if delay > 0.0:
                loop.call_soon_threadsafe(task.start_timer, delay)
            else:
                task.handle = loop.call_soon_threadsafe(task.run)
        except RuntimeError:  # the loop is closed
            task.dispose()
            return DISPOSED
        return task

    def _remove(self, task: _LoopTask) -> None:
        with self._lock:
            self._tasks.discard(task)

    def dispose(self) -> None:
        with self._lock:
            if self._disposed:
                return
            self._disposed = True
            tasks = list(self._tasks)
            self._tasks.clear()
        for t in tasks:
            t.dispose()
        self._scheduler._remove(self)

    def is_disposed(self) -> bool:
        return self._disposed


class _LoopTask(Disposable):
    """One scheduled task: ``run`` on the loop unless disposed first."""

    __slots__ = ("_worker", "_fn", "handle", "_disposed")

    def __init__(self, worker: AsyncioWorker, fn: Task) -> None:
        self._worker = worker
        self._fn: Task | None = fn
        self.handle: Any = None
        self._disposed = False

    def start_timer(self, delay: float) -> None:
        if not self._disposed:
            self.handle = self._worker._scheduler.loop.call_later(delay, self.run)

    def run(self) -> None:
        if self._disposed:
            return
        self._disposed = True
        fn = self._fn
        self._fn = None
        self._worker._remove(self)
        if fn is None:
            return
        try:
            fn()
        except Exception as e:  # a fatal one propagates: the loop re-raises it
            plugins.on_error(e)

    def dispose(self) -> None:
        if self._disposed:
            return
        self._disposed = True
        self._fn = None
        self._worker._remove(self)
        h = self.handle
        if h is not None:
            loop = self._worker._scheduler.loop
            try:
                loop.call_soon_threadsafe(h.cancel)
            except RuntimeError:  # the loop is closed: the handle never runs
                pass

    def is_disposed(self) -> bool:
        return self._disposed
