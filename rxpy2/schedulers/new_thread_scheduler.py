"""``Schedulers.new_thread()``: a new thread per worker, ``rxpy2-newthread-N``.

The thread ends when its worker is disposed (after the task running at that
moment, if any, returns).
"""

from __future__ import annotations

import itertools

from rxpy2.schedulers.executor_scheduler import ExecutorWorker
from rxpy2.schedulers.executor_scheduler import SingleThreadExecutor
from rxpy2.schedulers.executor_scheduler import ThreadScheduler
from rxpy2.schedulers.scheduler import Worker

__all__ = ["NewThreadScheduler"]

_thread_ids = itertools.count(1)


class NewThreadScheduler(ThreadScheduler):
    """A thread per worker (see the module)."""

    def __init__(self) -> None:
        super().__init__()
        self._executors: dict[ExecutorWorker, SingleThreadExecutor] = {}

    def _stop_locked(self) -> list[SingleThreadExecutor]:
        executors = list(self._executors.values())
        self._executors = {}
        return executors

    def create_worker(self) -> Worker:
        with self._lock:
            self._ensure_started_locked()
            ex = SingleThreadExecutor(f"rxpy2-newthread-{next(_thread_ids)}")
            w = self._new_worker_locked(ex.execute, self._worker_disposed)
            self._executors[w] = ex
            return w

    def _worker_disposed(self, w: ExecutorWorker) -> None:
        with self._lock:
            self._workers.discard(w)
            ex = self._executors.pop(w, None)
        if ex is not None:
            ex.shutdown(wait=False)  # the thread ends after the drain that is queued
