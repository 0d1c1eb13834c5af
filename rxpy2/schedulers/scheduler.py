"""``Scheduler`` and ``Worker``: where and when a task runs.

Time is in seconds as floats (Python's convention: ``time.monotonic()``,
``time.sleep``): ``now()`` returns seconds, and every ``delay``, ``initial_delay``
and ``period`` is a number of seconds (``0.25`` is 250 ms).

A :class:`Worker` is a serial event loop: its tasks run one at a time, in the
order they were submitted (delayed ones when due), never two at once, even when
submitted from several threads. Disposing a worker cancels its pending and
delayed tasks; a task that is already running finishes, no other one starts.
A task that raises an ``Exception`` is reported to :func:`rxpy2.plugins.on_error`;
the worker goes on with the next task. A fatal exception (``KeyboardInterrupt``,
``SystemExit``: a ``BaseException`` that is not an ``Exception``) is never caught:
it ends the run of the thread that ran the task (on a trampoline, the caller's
call), and the worker stays usable.

A delay may be huge or ``inf``: the task then never runs (as a JDK timer with
``Long.MAX_VALUE``), and the scheduler's other tasks are not affected. NaN is a
``ValueError``, as is an ``int`` too large for a float. A period must be finite and
``>= 0``; a period of 0 runs the task again as soon as the worker's thread has
run the work that was waiting for it.

Every task runs in a copy of the ``contextvars`` context that was current when it
was scheduled (as asyncio runs its callbacks). The built-in workers
(``binds_context``) take the copy in ``schedule_actual``, keep it on their task
record and run the task with ``ctx.run(fn)``; for any other worker :func:`bind_task`
wraps the task in ``schedule()`` itself. A periodic task runs each time in a fresh
copy of the context captured when it was first scheduled.
See docs/schedulers.md, "Context propagation".
"""

from __future__ import annotations

import math
import time
from abc import ABC
from abc import abstractmethod
from collections.abc import Callable
from contextvars import Context
from contextvars import copy_context
from functools import partial
from numbers import Real
from typing import ClassVar

from rxpy2 import plugins
from rxpy2._internal.helpers.disposable_helper import DISPOSED
from rxpy2.disposables import Disposable
from rxpy2.disposables import SerialDisposable
from rxpy2.plugins import flags as _flags

__all__ = ["Scheduler", "Worker"]

Task = Callable[[], object]


def task_context() -> Context | None:
    """The context a built-in worker keeps for a task given to its ``schedule_actual``
    (they inline this expression): a fresh copy of the current one, or ``None`` when
    context propagation is off in :mod:`rxpy2.plugins`. A fresh copy per task,
    because a Context can't be entered twice at once and a task's ``ContextVar.set``
    must stay in its own copy; ``copy_context()`` is O(1) (the variables live in an
    immutable map)."""
    return copy_context() if _flags.propagate_context else None


def bind_task(fn: Task, worker: Worker) -> Task:
    """``fn`` as ``worker.schedule_actual`` receives it: wrapped by the plugin schedule
    handler and, for a worker that does not keep the context itself (not
    ``binds_context``), bound to a fresh copy of the current context
    (:meth:`Worker.schedule` inlines this)."""
    task = plugins.on_schedule(fn)
    if not worker.binds_context and _flags.propagate_context:
        return partial(copy_context().run, task)
    return task


def check_task(fn: object) -> None:
    """``TypeError`` unless ``fn`` is a callable."""
    if fn is None:
        raise TypeError("the task is None")
    if not callable(fn):
        raise TypeError(f"the task must be callable, not {type(fn).__name__}")


def check_time(value: object, name: str) -> float:
    """``value`` as seconds (a float); ``TypeError`` for a non-number, ``ValueError`` for
    NaN or a number too large for a float (``inf`` itself is accepted: never)."""
    if type(value) is float and value == value:  # the common case, without the ABC check
        return value
    if isinstance(value, bool) or not isinstance(value, Real):
        raise TypeError(f"{name} must be a number of seconds, not {type(value).__name__}")
    try:
        v = float(value)
    except OverflowError:  # an int beyond float range, e.g. 10**400
        raise ValueError(f"{name} is too large for a float; use float('inf')") from None
    if math.isnan(v):
        raise ValueError(f"{name} is NaN")
    return v


def check_period(period: object) -> float:
    p = check_time(period, "period")
    if p < 0.0 or math.isinf(p):
        raise ValueError(f"period must be >= 0 and finite, not {p}")
    return p


class Worker(Disposable):
    """A serial event loop on a :class:`Scheduler` (see the module docstring).

    Subclasses implement :meth:`schedule_actual` (the task it receives is already
    wrapped by the plugin schedule handler), :meth:`dispose` and :meth:`is_disposed`.
    A subclass that runs each task in a copy of the context current at its
    ``schedule_actual`` call (see :func:`task_context`) says so with
    ``binds_context = True``; for any other, :meth:`schedule` binds the task to its
    context before handing it over (:func:`bind_task`).
    """

    __slots__ = ()

    #: ``schedule_actual`` keeps the caller's context for the task (the built-in workers)
    binds_context: ClassVar[bool] = False

    def now(self) -> float:
        """The current time in seconds, as this worker's scheduler sees it."""
        return time.monotonic()

    def schedule(self, fn: Task, delay: float = 0.0) -> Disposable:
        """Run ``fn()`` on this worker after ``delay`` seconds (at once if ``delay <= 0``).

        Returns a Disposable that cancels the task if it has not started yet;
        on a disposed worker nothing is scheduled and the result is disposed.
        """
        check_task(fn)
        d = check_time(delay, "delay")
        task = plugins.on_schedule(fn)
        if not self.binds_context and _flags.propagate_context:  # bind_task, inlined
            task = partial(copy_context().run, task)
        return self.schedule_actual(task, d)

    @abstractmethod
    def schedule_actual(self, fn: Task, delay: float) -> Disposable:
        """Schedule ``fn`` (already checked and wrapped) after ``delay`` seconds."""

    def schedule_periodically(self, fn: Task, initial_delay: float,
                              period: float) -> Disposable:
        """Run ``fn()`` after ``initial_delay`` seconds, then every ``period`` seconds.

        Runs are planned at absolute times ``start + initial_delay + k * period``
        so they do not drift; a run that starts late (a slow task before it)
        does not shift the ones after it. A run that raises stops the periodic
        task (the error goes to ``plugins.on_error``). Dispose the result to stop it.
        """
        check_task(fn)
        d = check_time(initial_delay, "initial_delay")
        p = check_period(period)
        return PeriodicTask.start(self, plugins.on_schedule(fn), d, p, None,
                                  task_context())


class Scheduler(ABC):
    """Creates :class:`Worker` s and runs tasks directly.

    Time is in seconds as floats; :meth:`now` is ``time.monotonic()`` unless a
    subclass says otherwise (:class:`~rxpy2.schedulers.TestScheduler` has virtual time).
    """

    def now(self) -> float:
        """The current time in seconds (``time.monotonic()``)."""
        return time.monotonic()

    @abstractmethod
    def create_worker(self) -> Worker:
        """A new Worker; the caller disposes it when done with it."""

    def schedule_direct(self, fn: Task, delay: float = 0.0) -> Disposable:
        """Run ``fn()`` once, after ``delay`` seconds, on a worker of its own.

        Tasks scheduled directly are not ordered with respect to each other.
        """
        check_task(fn)
        d = check_time(delay, "delay")
        w = self.create_worker()
        w.schedule_actual(DirectTask(bind_task(fn, w), w), d)
        return WorkerHandle(w)

    def schedule_periodically_direct(self, fn: Task, initial_delay: float,
                                     period: float) -> Disposable:
        """As :meth:`Worker.schedule_periodically`, on a worker of its own."""
        check_task(fn)
        d = check_time(initial_delay, "initial_delay")
        p = check_period(period)
        w = self.create_worker()
        PeriodicTask.start(w, plugins.on_schedule(fn), d, p, w, task_context())
        return WorkerHandle(w)

    def start(self) -> None:  # noqa: B027 - optional hook
        """Start (or restart after :meth:`shutdown`) the scheduler's resources."""

    def shutdown(self) -> None:  # noqa: B027 - optional hook
        """Dispose every worker, stop the scheduler's threads and wait for them to end."""


class WorkerHandle(Disposable):
    """The Disposable of a direct task: disposing it disposes the task's own worker."""

    __slots__ = ("_worker",)

    def __init__(self, worker: Worker) -> None:
        self._worker = worker

    def dispose(self) -> None:
        self._worker.dispose()

    def is_disposed(self) -> bool:
        return self._worker.is_disposed()


class DirectTask:
    """Runs a direct task, then disposes the worker it ran on."""

    __slots__ = ("_fn", "_worker")

    def __init__(self, fn: Task, worker: Worker) -> None:
        self._fn = fn
        self._worker = worker

    def __call__(self) -> None:
        try:
            self._fn()
        finally:
            self._worker.dispose()


class PeriodicTask(Disposable):
    """Reschedules itself on its worker at absolute times ``first + k * period``.

    Each run is in a fresh copy of ``ctx`` (the context at schedule time), so a
    variable one run sets is not seen by the next; ``None``: no context of its own.
    Its reschedules go straight to ``schedule_actual``: they are never bound again.
    """

    __slots__ = ("_fn", "_ctx", "_worker", "_period", "_first_due", "_count", "_sd",
                 "_owned")

    def __init__(self, worker: Worker, fn: Task, first_due: float, period: float,
                 owned: Worker | None, ctx: Context | None = None) -> None:
        self._fn = fn
        self._ctx = ctx
        self._worker = worker
        self._period = period
        self._first_due = first_due
        self._count = 0
        self._sd = SerialDisposable()
        self._owned = owned  # a direct task's worker, disposed when the task stops

    @staticmethod
    def start(worker: Worker, fn: Task, initial_delay: float, period: float,
              owned: Worker | None, ctx: Context | None = None) -> PeriodicTask:
        first_due = worker.now() + max(initial_delay, 0.0)
        task = PeriodicTask(worker, fn, first_due, period, owned, ctx)
        # The first run may reschedule (replacing the content of _sd) before
        # schedule_actual returns here: the first handle goes into a holder of
        # its own, so it can never overwrite a later one.
        first = SerialDisposable()
        task._sd.replace(first)
        first.replace(worker.schedule_actual(task, initial_delay))
        return task

    def __call__(self) -> None:
        sd = self._sd
        if sd.is_disposed():
            return
        ctx = self._ctx
        try:
            if ctx is None:
                self._fn()
            else:
                ctx.copy().run(self._fn)
        except BaseException:
            # any error stops the periodic task; the worker reports an Exception and
            # lets a fatal one propagate (nothing is swallowed here)
            self.dispose()
            raise
        if sd.is_disposed():
            return
        self._count += 1
        w = self._worker
        due = self._first_due + self._count * self._period
        sd.replace(w.schedule_actual(self, due - w.now()))

    def dispose(self) -> None:
        self._sd.dispose()
        owned = self._owned
        if owned is not None:
            owned.dispose()

    def is_disposed(self) -> bool:
        return self._sd.is_disposed()


#: The result of scheduling on a disposed worker.
DISPOSED_TASK: Disposable = DISPOSED
