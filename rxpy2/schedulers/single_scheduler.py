"""``Schedulers.single()``: every worker on one thread, ``rxpy2-single-N``.

Tasks of all its workers run one at a time on that thread (each worker's in
submission order): a shared, strictly sequential event loop.
"""

from __future__ import annotations

import itertools

from rxpy2.schedulers.executor_scheduler import ExecutorWorker
from rxpy2.schedulers.executor_scheduler import SingleThreadExecutor
from rxpy2.schedulers.executor_scheduler import ThreadScheduler
from rxpy2.schedulers.scheduler import Worker

__all__ = ["SingleScheduler"]

_thread_ids = itertools.count(1)


class SingleScheduler(ThreadScheduler):
    """One thread for every worker (see the module)."""

    def __init__(self) -> None:
        super().__init__()
        self._executor: SingleThreadExecutor | None = None

    def _start_locked(self) -> None:
        self._executor = SingleThreadExecutor(f"rxpy2-single-{next(_thread_ids)}")

    def _stop_locked(self) -> list[SingleThreadExecutor]:
        ex, self._executor = self._executor, None
        return [] if ex is None else [ex]

    def create_worker(self) -> Worker:
        with self._lock:
            self._ensure_started_locked()
            assert self._executor is not None
            return self._new_worker_locked(self._executor.execute, self._worker_disposed)

    def _worker_disposed(self, w: ExecutorWorker) -> None:
        with self._lock:
            self._workers.discard(w)
