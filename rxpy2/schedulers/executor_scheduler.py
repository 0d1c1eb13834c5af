"""Workers that drain a task queue on an executor, and ``Schedulers.from_executor``.

:class:`ExecutorWorker` is the worker of every thread-based scheduler: tasks go into an
MPSC queue and one drain run at a time (a :class:`~rxpy2.operator_kit.Drain`) runs them on
the executor, so a worker's tasks are serialized even on a many-threaded executor.
Delayed tasks wait on the :class:`~rxpy2.schedulers.timer.TimerQueue`. A round runs only
the tasks queued when it began (no starvation); a fatal exception is never swallowed.
:class:`SingleThreadExecutor`: an ``Executor`` on one named daemon thread.

How: docs/schedulers.md, "ExecutorWorker and from_executor".
"""

from __future__ import annotations

import os
import queue
import threading
import time
import weakref
from collections.abc import Callable
from concurrent.futures import Executor
from concurrent.futures import Future
from contextvars import Context
from contextvars import copy_context
from typing import Any

from rxpy2 import plugins
from rxpy2._internal.drain import Drain
from rxpy2._internal.queues import MpscLinkedQueue
from rxpy2.disposables import Disposable
from rxpy2.plugins import flags as _flags
from rxpy2.schedulers.scheduler import DISPOSED_TASK
from rxpy2.schedulers.scheduler import Scheduler
from rxpy2.schedulers.scheduler import Task
from rxpy2.schedulers.scheduler import Worker
from rxpy2.schedulers.timer import TimerEntry
from rxpy2.schedulers.timer import TimerQueue
from rxpy2.schedulers.timer import start_daemon_thread

__all__ = ["ExecutorScheduler", "ExecutorWorker", "SingleThreadExecutor", "ThreadScheduler"]

_monotonic = time.monotonic
#: How long ``shutdown()`` waits for one thread to finish its running task.
JOIN_TIMEOUT = 5.0

_STOP = object()


class SingleThreadExecutor(Executor):
    """A ``concurrent.futures.Executor`` running everything on one daemon thread, in order.

    ``execute(fn)`` is the lean entry the workers use (no Future); ``submit`` is
    the standard one. After ``shutdown`` both raise ``RuntimeError``; the thread
    ends once the tasks submitted before ``shutdown`` have run. Created while the
    interpreter is finalizing, it has no thread (``thread`` is ``None``): nothing
    could run any more.
    """

    def __init__(self, name: str) -> None:
        self._queue: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self._lock = threading.Lock()
        self._shutdown = False
        self._name = name
        self.thread: threading.Thread | None = start_daemon_thread(self._run, name)

    def _run(self) -> None:
        get = self._queue.get
        while True:
            fn = get()
            if fn is _STOP:
                return
            try:
                fn()
            except Exception as e:  # the worker's drain reports its own errors
                plugins.on_error(e)
            except BaseException:
                # fatal: never swallowed, it ends this thread; a new one serves the
                # queue, or every worker on this executor would wait forever
                self.thread = start_daemon_thread(self._run, self._name)
                raise
            fn = None  # drop the reference while waiting for the next task

    def execute(self, fn: Callable[[], object]) -> None:
        """Queue ``fn`` to run on the executor's thread after the tasks queued before it, with no
        Future; raise ``RuntimeError`` after :meth:`shutdown`.

        An ``Exception`` that ``fn`` raises goes to :func:`rxpy2.plugins.on_error`.
        """
        with self._lock:
            if self._shutdown:
                raise RuntimeError("cannot run a task after shutdown")
            self._queue.put(fn)

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        f: Future[Any] = Future()

        def run() -> None:
            if not f.set_running_or_notify_cancel():
                return
            try:
                r = fn(*args, **kwargs)
            except BaseException as e:
                f.set_exception(e)  # the Future's waiter sees it
                if not isinstance(e, Exception):
                    raise  # and a fatal one is not swallowed
            else:
                f.set_result(r)

        self.execute(run)
        return f

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        with self._lock:
            if not self._shutdown:
                self._shutdown = True
                self._queue.put(_STOP)
        if wait:
            self.join(None)

    def join(self, timeout: float | None = JOIN_TIMEOUT) -> None:
        """Wait for the thread to end (never from the thread itself)."""
        t = self.thread
        if t is not None and t is not threading.current_thread():
            t.join(timeout)


class WorkerTask(Disposable):
    """One task of an :class:`ExecutorWorker`; ``fn`` is ``None`` once done or disposed.
    ``ctx``: the context it runs in (taken when it was scheduled), ``None`` for none."""

    __slots__ = ("fn", "ctx", "worker", "entry")

    def __init__(self, fn: Task, worker: ExecutorWorker) -> None:
        self.fn: Task | None = fn
        self.ctx: Context | None = copy_context() if _flags.propagate_context else None
        self.worker: ExecutorWorker = worker
        self.entry: TimerEntry | None = None

    def fire(self) -> None:
        """The timer's action: the task is due, queue it on its worker."""
        w = self.worker
        w._delayed_done(self)
        if self.fn is not None:
            w._enqueue(self)

    def dispose(self) -> None:
        if self.fn is not None:
            self.fn = None
            e = self.entry
            if e is not None:
                e.cancel()
                self.worker._delayed_done(self)

    def is_disposed(self) -> bool:
        return self.fn is None


class ExecutorWorker(Worker):
    """The queue-drain worker (see the module docstring).

    ``execute(fn)`` hands a drain run to the executor; it may raise (a shut-down
    executor): the worker then disposes itself and reports the error to
    ``plugins.on_error``. ``on_dispose(worker)`` is called once, on dispose.
    """

    __slots__ = ("_execute", "_timer", "_scheduler", "_on_dispose", "_queue", "_gate",
                 "_disposed", "_lock", "_delayed", "drain_pending", "__weakref__")

    binds_context = True  # a WorkerTask keeps its context

    def __init__(self, execute: Callable[[Callable[[], object]], object], timer: TimerQueue,
                 scheduler: Scheduler,
                 on_dispose: Callable[[ExecutorWorker], object] | None = None) -> None:
        self._execute = execute
        self._timer = timer
        self._scheduler = scheduler
        self._on_dispose = on_dispose
        self._queue: MpscLinkedQueue[WorkerTask] = MpscLinkedQueue()
        self._gate = Drain()
        self._disposed = False
        self._lock = threading.Lock()
        self._delayed: set[WorkerTask] | None = set()
        #: set by ``dispose`` when a drain run was running or queued at that moment
        self.drain_pending: bool = False

    def now(self) -> float:
        return self._scheduler.now()

    def schedule_actual(self, fn: Task, delay: float) -> Disposable:
        if self._disposed:
            return DISPOSED_TASK
        task = WorkerTask(fn, self)
        if delay > 0.0:
            with self._lock:
                delayed = self._delayed
                if delayed is None:
                    return DISPOSED_TASK
                delayed.add(task)
            try:
                entry = self._timer.schedule_at(_monotonic() + delay, task.fire)
            except BaseException:  # no timer thread could start: nothing was scheduled
                task.fn = None
                self._delayed_done(task)
                raise
            task.entry = entry
            # not ``entry.action is None``: a short delay may have fired already (the
            # task is queued then), which is not a cancellation
            if task.fn is None or entry.dropped:
                # disposed before the entry was known, or the timer is shut down
                task.fn = None
                entry.cancel()
                self._delayed_done(task)
        else:
            self._enqueue(task)
        return task

    def _delayed_done(self, task: WorkerTask) -> None:
        with self._lock:
            delayed = self._delayed
            if delayed is not None:
                delayed.discard(task)

    def _enqueue(self, task: WorkerTask) -> None:
        if self._disposed:
            task.fn = None
            return
        self._queue.offer(task)
        if self._gate.enter():
            try:
                self._execute(self._drain)
            except Exception as e:  # rejected: this worker can't run anything
                self._reject(e)
        elif self._disposed:
            # disposed meanwhile, and its queue may already be cleared: the task
            # will never run, so its handle says so
            task.fn = None

    def _reject(self, error: BaseException) -> None:
        # the drain stays owned: this thread is the queue's consumer now
        self._disposed = True
        self._clear()
        self.dispose()
        plugins.on_error(error)

    def _clear(self) -> None:
        poll = self._queue.poll
        while True:
            t = poll()
            if t is None:
                return
            t.fn = None

    def _drain(self) -> None:
        """A drain run: the caller owns the drain (also after :meth:`_hand_back`)."""
        self._drain_rounds()

    def _hand_back(self) -> None:
        """Continue draining in a new executor run, behind what the executor has queued
        (the drain stays owned: the new run continues this one)."""
        if self._disposed:
            self._clear()
            return  # nothing to run (and a shut-down executor would reject the run)
        try:
            self._execute(self._drain)
        except Exception as e:  # rejected: this worker can't run anything
            if self._disposed:
                self._clear()  # disposed meanwhile (a shutdown): not an error
            else:
                self._reject(e)

    def _drain_rounds(self) -> None:
        q = self._queue
        poll = q.poll
        leave = self._gate.leave
        while True:
            # A round runs at most the tasks queued when it began (see the module):
            # a task re-queued by the task itself waits for the next round.
            budget = len(q)
            while True:
                if self._disposed:
                    self._clear()
                    return  # the drain stays owned: nothing drains a disposed worker again
                if budget == 0:
                    break
                task = poll()
                if task is None:
                    break
                budget -= 1
                fn = task.fn
                if fn is not None:
                    task.fn = None
                    ctx = task.ctx
                    task.ctx = None  # the handle may outlive the run: not its context
                    try:
                        if ctx is None:
                            fn()
                        else:
                            ctx.run(fn)
                    except Exception as e:
                        plugins.on_error(e)
                    except BaseException:
                        # fatal: not reported, not swallowed; the worker is not wedged
                        # (owned with no drain running), its other tasks run in a new run
                        self._hand_back()
                        raise
            if not leave():
                return
            if len(q) != 0:
                # tasks came during the round: yield the thread to the executor's other work
                self._hand_back()
                return
            # signalled, but what was signalled already ran: another (empty) round

    def dispose(self) -> None:
        """Drop every task not yet started (delayed ones included) and call
        ``on_dispose(worker)``, once; a task already running finishes. Idempotent."""
        if self._disposed and self._delayed is None:
            return
        with self._lock:
            delayed = self._delayed
            if delayed is None:
                return
            self._disposed = True
            self._delayed = None
        for t in delayed:
            t.fn = None
            e = t.entry
            if e is not None:
                e.cancel()
        if self._gate.enter():
            self._clear()  # no drain runs: this thread owns the queue now (kept for good)
        else:
            self.drain_pending = True
        on_dispose = self._on_dispose
        if on_dispose is not None:
            self._on_dispose = None
            on_dispose(self)

    def is_disposed(self) -> bool:
        """Return True once :meth:`dispose` ran (also after the worker disposed itself because
        its executor refused a run)."""
        return self._disposed


class ThreadScheduler(Scheduler):
    """Common state of the thread-based schedulers: a lock, the live workers, a timer,
    lazy (re)start and :meth:`shutdown`. Subclasses create their executors in
    ``_start_locked`` and give them up in ``_stop_locked``.

    After ``os.fork()`` every instance is reset in the child (see
    :meth:`_after_fork_in_child`): the parent's threads do not exist there.
    """

    def __init__(self, timer_keep_alive: float = 10.0) -> None:
        self._lock = threading.RLock()
        self._workers: weakref.WeakSet[ExecutorWorker] = weakref.WeakSet()
        self._timer = TimerQueue(timer_keep_alive)
        self._started = False
        _instances.add(self)

    def _ensure_started_locked(self) -> None:
        if not self._started:
            self._timer.start()
            # marked started only once the executors exist: a start that failed
            # (no thread could be started) is tried again by the next caller
            self._start_locked()
            self._started = True

    def _start_locked(self) -> None:
        pass

    def _stop_locked(self) -> list[SingleThreadExecutor]:
        return []

    def _new_worker_locked(self, execute: Callable[[Callable[[], object]], object],
                           on_dispose: Callable[[ExecutorWorker], object] | None = None
                           ) -> ExecutorWorker:
        w = ExecutorWorker(execute, self._timer, self, on_dispose)
        self._workers.add(w)
        return w

    def start(self) -> None:
        with self._lock:
            self._ensure_started_locked()

    def shutdown(self) -> None:
        with self._lock:
            self._started = False
            workers = list(self._workers)
            self._workers = weakref.WeakSet()
            executors = self._stop_locked()
        # joins happen outside the lock: a task may be calling into this scheduler
        for w in workers:
            w.dispose()
        self._timer.shutdown(JOIN_TIMEOUT)
        for ex in executors:
            ex.shutdown(wait=False)
        deadline = _monotonic() + JOIN_TIMEOUT
        for ex in executors:
            ex.join(max(0.0, deadline - _monotonic()))

    def _after_fork_in_child(self) -> None:
        """Forget the parent's threads: the next use starts fresh ones.

        Only the forking thread exists in the child, so the executors' threads are
        gone and a lock may be held for good by a thread that is not there. The
        parent's workers are marked disposed without any callback (a task
        scheduled in the parent never runs in the child); the executors are
        dropped, not shut down (their own locks may be held). The timer queue is
        reset by :mod:`rxpy2.schedulers.timer` itself.
        """
        self._lock = threading.RLock()
        for w in list(self._workers):
            w._disposed = True
            w._delayed = None
            w._on_dispose = None
        self._workers = weakref.WeakSet()
        self._started = False
        self._stop_locked()


_instances: weakref.WeakSet[ThreadScheduler] = weakref.WeakSet()


def _reset_after_fork() -> None:
    for s in list(_instances):
        s._after_fork_in_child()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_reset_after_fork)


def _submitter(executor: Executor) -> Callable[[Callable[[], object]], object]:
    submit = executor.submit

    def execute(fn: Callable[[], object]) -> None:
        submit(fn)

    return execute


class ExecutorScheduler(ThreadScheduler):
    """A scheduler on any ``concurrent.futures.Executor`` (``Schedulers.from_executor``).

    Each worker's tasks stay serialized (one drain run at a time on the
    executor), while different workers may run in parallel on a multi-threaded
    executor. The executor belongs to the caller: :meth:`shutdown` disposes the
    workers and stops the timer thread but does not shut the executor down.
    A task that the executor rejects (it was shut down) disposes its worker
    and the error goes to ``plugins.on_error``.
    """

    def __init__(self, executor: Executor) -> None:
        submit = getattr(executor, "submit", None)
        if submit is None or not callable(submit):
            raise TypeError("from_executor needs a concurrent.futures.Executor (with submit)")
        super().__init__()
        self.executor = executor
        self._execute = _submitter(executor)

    def create_worker(self) -> Worker:
        with self._lock:
            self._ensure_started_locked()
            return self._new_worker_locked(self._execute, self._worker_disposed)

    def _worker_disposed(self, w: ExecutorWorker) -> None:
        with self._lock:
            self._workers.discard(w)
