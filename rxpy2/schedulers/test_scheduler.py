"""``TestScheduler``: virtual time for deterministic tests.

Time stands still until the test moves it: :meth:`TestScheduler.advance_time_by`
and :meth:`TestScheduler.advance_time_to` run, on the calling thread, every task
due up to the new time, each with ``now()`` set to its due time;
:meth:`TestScheduler.trigger_actions` runs those due at the current time.
Tasks are kept in a ``sortedcontainers.SortedList`` keyed by
``(due time, sequence)``, so tasks due at the same time run in the order they
were scheduled. Time is in seconds as floats. A task that raises an ``Exception``
is reported to ``plugins.on_error`` and the others still run; a fatal one
(``KeyboardInterrupt``, ``SystemExit``) propagates to the caller of
``advance_time_by``/``advance_time_to``/``trigger_actions``.
"""

from __future__ import annotations

import itertools
import threading
from contextvars import Context
from contextvars import copy_context

from sortedcontainers import SortedList

from rxpy2 import plugins
from rxpy2.disposables import Disposable
from rxpy2.plugins import flags as _flags
from rxpy2.schedulers.scheduler import DISPOSED_TASK
from rxpy2.schedulers.scheduler import Scheduler
from rxpy2.schedulers.scheduler import Task
from rxpy2.schedulers.scheduler import Worker
from rxpy2.schedulers.scheduler import check_time

__all__ = ["TestScheduler"]


class _TimedTask(Disposable):
    __slots__ = ("key", "fn", "ctx", "worker")

    def __init__(self, fn: Task, worker: _TestWorker) -> None:
        self.fn: Task | None = fn
        self.ctx: Context | None = copy_context() if _flags.propagate_context else None
        self.worker = worker
        self.key: tuple[float, int, _TimedTask] | None = None

    def dispose(self) -> None:
        if self.fn is not None:
            self.fn = None
            self.worker._remove(self)

    def is_disposed(self) -> bool:
        return self.fn is None


class _TestWorker(Worker):
    __slots__ = ("_scheduler", "_tasks", "_disposed")

    binds_context = True  # a _TimedTask keeps its context

    def __init__(self, scheduler: TestScheduler) -> None:
        self._scheduler = scheduler
        self._tasks: set[_TimedTask] = set()
        self._disposed = False

    def now(self) -> float:
        return self._scheduler.now()

    def schedule_actual(self, fn: Task, delay: float) -> Disposable:
        s = self._scheduler
        with s._lock:
            if self._disposed:
                return DISPOSED_TASK
            task = _TimedTask(fn, self)
            task.key = (s._time + max(delay, 0.0), next(s._seq), task)
            s._queue.add(task.key)
            self._tasks.add(task)
        return task

    def _remove(self, task: _TimedTask) -> None:
        s = self._scheduler
        with s._lock:
            self._tasks.discard(task)
            if task.key is not None:
                s._queue.discard(task.key)
                task.key = None

    def dispose(self) -> None:
        s = self._scheduler
        with s._lock:
            if self._disposed:
                return
            self._disposed = True
            tasks, self._tasks = self._tasks, set()
            for t in tasks:
                t.fn = None
                if t.key is not None:
                    s._queue.discard(t.key)
                    t.key = None

    def is_disposed(self) -> bool:
        return self._disposed


class TestScheduler(Scheduler):
    """A scheduler whose clock only moves when told to (see the module)."""

    __test__ = False  # not a pytest test class

    def __init__(self, initial_time: float = 0.0) -> None:
        self._time = check_time(initial_time, "initial_time")
        self._queue: SortedList = SortedList()
        self._seq = itertools.count()
        self._lock = threading.RLock()

    def now(self) -> float:
        """The virtual time in seconds."""
        return self._time

    def create_worker(self) -> Worker:
        return _TestWorker(self)

    def advance_time_by(self, delta: float) -> None:
        """Move the clock ``delta`` seconds ahead, running every task due meanwhile."""
        d = check_time(delta, "delta")
        if d < 0.0:
            raise ValueError(f"time can't go backwards: delta {d}")
        self._trigger(self._time + d)

    def advance_time_to(self, time: float) -> None:
        """Move the clock to ``time`` seconds, running every task due meanwhile."""
        t = check_time(time, "time")
        if t < self._time:
            raise ValueError(f"time can't go backwards: {t} < now {self._time}")
        self._trigger(t)

    def trigger_actions(self) -> None:
        """Run the tasks due now (and those they schedule for now), without moving time."""
        self._trigger(self._time)

    def _trigger(self, target: float) -> None:
        queue = self._queue
        lock = self._lock
        while True:
            with lock:
                if not queue or queue[0][0] > target:
                    break
                due, _, task = queue.pop(0)
                task.key = None
                task.worker._tasks.discard(task)
                fn = task.fn
                task.fn = None
                ctx = task.ctx
                task.ctx = None
                if due > self._time:
                    self._time = due
            if fn is not None:
                try:
                    if ctx is None:
                        fn()
                    else:
                        ctx.run(fn)
                except Exception as e:  # a fatal one propagates to the caller
                    plugins.on_error(e)
        with lock:
            if target > self._time:
                self._time = target

    def pending_count(self) -> int:
        """The number of tasks waiting (not yet run, not disposed)."""
        return len(self._queue)
