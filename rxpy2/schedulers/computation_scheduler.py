"""``Schedulers.computation()``: a fixed pool of single-threaded executors.

One :class:`~rxpy2.schedulers.executor_scheduler.SingleThreadExecutor` per core
(``os.cpu_count()``, or the environment variable ``RXPY2_COMPUTATION_THREADS``),
threads named ``rxpy2-computation-N``. Workers are handed out round-robin: the
k-th worker created runs on executor ``k mod n``, so a worker always runs on
the same thread, and several workers share a thread.
"""

from __future__ import annotations

import itertools
import os

from rxpy2.schedulers.executor_scheduler import ExecutorWorker
from rxpy2.schedulers.executor_scheduler import SingleThreadExecutor
from rxpy2.schedulers.executor_scheduler import ThreadScheduler
from rxpy2.schedulers.scheduler import Worker

__all__ = ["ComputationScheduler", "computation_threads"]

_thread_ids = itertools.count(1)


def computation_threads() -> int:
    """``RXPY2_COMPUTATION_THREADS`` if set (a positive integer), else ``os.cpu_count()``."""
    env = os.environ.get("RXPY2_COMPUTATION_THREADS", "").strip()
    if env:
        try:
            n = int(env)
        except ValueError:
            raise ValueError(f"RXPY2_COMPUTATION_THREADS must be an integer, not {env!r}") from None
        if n < 1:
            raise ValueError(f"RXPY2_COMPUTATION_THREADS must be >= 1, not {n}")
        return n
    return os.cpu_count() or 1


class ComputationScheduler(ThreadScheduler):
    """Fixed pool, round-robin workers (see the module). ``threads=None`` reads
    :func:`computation_threads` when the pool starts."""

    def __init__(self, threads: int | None = None) -> None:
        if threads is not None and (isinstance(threads, bool) or not isinstance(threads, int)
                                    or threads < 1):
            raise ValueError(f"threads must be a positive integer, not {threads!r}")
        super().__init__()
        self._threads = threads
        self._executors: list[SingleThreadExecutor] = []
        self._next = 0

    def _start_locked(self) -> None:
        n = self._threads or computation_threads()
        executors: list[SingleThreadExecutor] = []
        try:
            for _ in range(n):
                executors.append(SingleThreadExecutor(f"rxpy2-computation-{next(_thread_ids)}"))
        except BaseException:
            # a thread could not start: stop the ones that did, stay not started
            for ex in executors:
                ex.shutdown(wait=False)
            raise
        self._executors = executors
        self._next = 0

    def _stop_locked(self) -> list[SingleThreadExecutor]:
        executors, self._executors = self._executors, []
        return executors

    @property
    def size(self) -> int:
        """The number of threads of the running pool (0 when not started)."""
        return len(self._executors)

    def create_worker(self) -> Worker:
        with self._lock:
            self._ensure_started_locked()
            executors = self._executors
            ex = executors[self._next % len(executors)]
            self._next += 1
            return self._new_worker_locked(ex.execute, self._worker_disposed)

    def _worker_disposed(self, w: ExecutorWorker) -> None:
        with self._lock:
            self._workers.discard(w)
