"""``Schedulers.trampoline()``: tasks run on the calling thread.

Scheduling on an idle trampoline worker runs the task at once, on the thread
that schedules it, and returns when the worker's queue is empty again. A task
scheduled while the worker is already running one (from inside a task, or from
another thread) is queued and run after it by the thread that is draining (the
one that entered the worker's :class:`~rxpy2.operator_kit.Drain`): no recursion, however long a chain of tasks scheduling tasks. A delayed task
waits by sleeping on the draining thread. Queued tasks run by due time, ties in
submission order. ``schedule_direct`` uses one such queue per thread.
There are no threads to start or shut down.

No task starts once ``dispose()`` has returned: the drain checks "disposed" and
takes the task under the worker's lock, which ``dispose`` takes too (the task
itself runs outside the lock). A task's ``Exception`` goes to
``plugins.on_error``; a fatal one (``KeyboardInterrupt``, ``SystemExit``) is never
swallowed: it propagates to the caller whose call is draining, which releases
the drain first, so the worker stays usable (the tasks queued behind it run when it is next scheduled on).
An infinite delay sleeps for ever, in bounded steps.
"""

from __future__ import annotations

import heapq
import itertools
import threading
import time
from contextvars import Context
from contextvars import copy_context

from rxpy2 import plugins
from rxpy2._internal.drain import Drain
from rxpy2.disposables import Disposable
from rxpy2.plugins import flags as _flags
from rxpy2.schedulers.scheduler import DISPOSED_TASK
from rxpy2.schedulers.scheduler import Scheduler
from rxpy2.schedulers.scheduler import Task
from rxpy2.schedulers.scheduler import Worker
from rxpy2.schedulers.scheduler import bind_task
from rxpy2.schedulers.scheduler import check_task
from rxpy2.schedulers.scheduler import check_time
from rxpy2.schedulers.timer import MAX_WAIT

__all__ = ["TrampolineScheduler", "TrampolineWorker"]

_sleep = time.sleep


class _TrampolineTask(Disposable):
    __slots__ = ("fn", "ctx")

    def __init__(self, fn: Task) -> None:
        self.fn: Task | None = fn
        # a copy even when the task runs at once on this thread: a task queued behind
        # another, or from another thread, runs on the draining call, in its own context
        self.ctx: Context | None = copy_context() if _flags.propagate_context else None

    def dispose(self) -> None:
        self.fn = None

    def is_disposed(self) -> bool:
        return self.fn is None


class TrampolineWorker(Worker):
    """A queue drained by whichever thread finds the worker idle (see the module)."""

    __slots__ = ("_scheduler", "_heap", "_lock", "_seq", "_gate", "_disposed")

    binds_context = True  # a _TrampolineTask keeps its context

    def __init__(self, scheduler: Scheduler) -> None:
        self._scheduler = scheduler
        self._heap: list[tuple[float, int, _TrampolineTask]] = []
        self._lock = threading.Lock()
        self._seq = itertools.count()
        self._gate = Drain()
        self._disposed = False

    def now(self) -> float:
        return self._scheduler.now()

    def schedule_actual(self, fn: Task, delay: float) -> Disposable:
        if self._disposed:
            return DISPOSED_TASK
        task = _TrampolineTask(fn)
        due = self._scheduler.now() + max(delay, 0.0)
        with self._lock:
            heapq.heappush(self._heap, (due, next(self._seq), task))
        if self._gate.enter():
            if delay <= 0.0:
                with self._lock:
                    if self._heap and self._heap[0][2] is task:
                        # this call drains and runs it first, at once: in the caller's own
                        # context, the one it was scheduled in, and without a Context.run
                        # (a C frame per nested trampoline hop: CPython 3.12 counts those
                        # against its C recursion limit, and a deep subscribe_on chain
                        # nests one per stage)
                        task.ctx = None
            self._drain()
        return task

    def _drain(self) -> None:
        try:
            self._drain_loop()
        except BaseException:
            # Only a fatal exception gets here (a task's Exception is reported): it
            # goes to the caller. No drain runs any more, so the drain is released
            # (its pending signals dropped: the next schedule drains what is queued)
            # or the worker (this thread's direct worker too) would queue tasks for ever.
            if not self._disposed:
                leave = self._gate.leave
                while leave():
                    pass
            raise

    def _drain_loop(self) -> None:
        heap = self._heap
        lock = self._lock
        now = self._scheduler.now
        leave = self._gate.leave
        while True:
            while True:
                with lock:
                    if self._disposed:
                        heap.clear()
                        return  # the drain stays owned: a disposed worker never drains again
                    item = heapq.heappop(heap) if heap else None
                if item is None:
                    break
                due, _, task = item
                if task.fn is None:
                    continue
                wait = due - now()
                while wait > 0.0:
                    _sleep(min(wait, MAX_WAIT))  # sleep() overflows beyond TIMEOUT_MAX
                    wait = due - now()
                # "not disposed" and "started" in one step under the lock dispose()
                # takes: once dispose() returned, no task starts
                with lock:
                    if self._disposed:
                        heap.clear()
                        return
                    fn = task.fn
                    task.fn = None
                if fn is None:
                    continue
                ctx = task.ctx
                task.ctx = None
                try:
                    if ctx is None:
                        fn()
                    else:
                        ctx.run(fn)
                except Exception as e:
                    plugins.on_error(e)
            if not leave():
                return

    def dispose(self) -> None:
        """Stop the worker: queued tasks are dropped and none starts once this returns (it waits
        for a drain that is taking a task); idempotent."""
        with self._lock:  # waits for a drain that is taking a task (see _drain_loop)
            self._disposed = True
        if self._gate.enter():  # nobody drains: the queue is ours to clear (kept for good)
            with self._lock:
                self._heap.clear()

    def is_disposed(self) -> bool:
        """Return True once :meth:`dispose` was called."""
        return self._disposed


class TrampolineScheduler(Scheduler):
    """Runs tasks on the calling thread (see the module)."""

    def __init__(self) -> None:
        self._local = threading.local()

    def create_worker(self) -> Worker:
        return TrampolineWorker(self)

    def _thread_worker(self) -> TrampolineWorker:
        w: TrampolineWorker | None = getattr(self._local, "worker", None)
        if w is None:
            w = TrampolineWorker(self)
            self._local.worker = w
        return w

    def schedule_direct(self, fn: Task, delay: float = 0.0) -> Disposable:
        """Run ``fn`` on this thread now (after sleeping ``delay``), or after the
        task this thread is running if called from one (queued, no recursion)."""
        check_task(fn)
        d = check_time(delay, "delay")
        w = self._thread_worker()
        return w.schedule_actual(bind_task(fn, w), d)
