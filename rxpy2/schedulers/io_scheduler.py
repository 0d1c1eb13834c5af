"""``Schedulers.io()``: cached threads for blocking work, ``rxpy2-io-N``.

Each worker gets a thread of its own: an idle one from the cache if there is
one (the most recently released first), else a new one, so the pool grows on
demand. Disposing a worker returns its thread to the cache once the thread is
idle: disposal queues a *release* on the worker's executor, behind the drain
that may still be running (a task inside a blocking call when its worker was
disposed, say by a ``timeout``), so the next worker never gets a busy thread.
A thread idle for ``keep_alive`` seconds (60 by default, or the environment
variable ``RXPY2_IO_KEEP_ALIVE``) ends. Expiry runs on the scheduler's timer thread.
"""

from __future__ import annotations

import itertools
import os
import threading
import time

from rxpy2.schedulers.executor_scheduler import ExecutorWorker
from rxpy2.schedulers.executor_scheduler import SingleThreadExecutor
from rxpy2.schedulers.executor_scheduler import ThreadScheduler
from rxpy2.schedulers.scheduler import Worker
from rxpy2.schedulers.scheduler import check_time
from rxpy2.schedulers.timer import TimerEntry

__all__ = ["IoScheduler", "io_keep_alive"]

_thread_ids = itertools.count(1)
_monotonic = time.monotonic


def io_keep_alive() -> float:
    """``RXPY2_IO_KEEP_ALIVE`` (seconds) if set, else 60."""
    env = os.environ.get("RXPY2_IO_KEEP_ALIVE", "").strip()
    if env:
        try:
            v = float(env)
        except ValueError:
            raise ValueError(f"RXPY2_IO_KEEP_ALIVE must be a number, not {env!r}") from None
        if not v > 0.0:
            raise ValueError(f"RXPY2_IO_KEEP_ALIVE must be > 0, not {v}")
        return v
    return 60.0


class IoScheduler(ThreadScheduler):
    """Cached workers (see the module)."""

    def __init__(self, keep_alive: float | None = None) -> None:
        if keep_alive is None:
            keep_alive = io_keep_alive()
        k = check_time(keep_alive, "keep_alive")
        if not k > 0.0:
            raise ValueError(f"keep_alive must be > 0, not {k}")
        super().__init__()
        self.keep_alive = k
        #: idle threads as (expiry time, executor), the most recently released last
        self._idle: list[tuple[float, SingleThreadExecutor]] = []
        #: executors of the live workers, and of the disposed ones until their release ran
        self._busy: dict[ExecutorWorker, SingleThreadExecutor] = {}
        self._evictor: TimerEntry | None = None

    def _stop_locked(self) -> list[SingleThreadExecutor]:
        executors = [ex for _, ex in self._idle] + list(self._busy.values())
        self._idle = []
        self._busy = {}
        if self._evictor is not None:
            self._evictor.cancel()
            self._evictor = None
        return executors

    @property
    def idle_count(self) -> int:
        """The number of cached idle threads."""
        return len(self._idle)

    def create_worker(self) -> Worker:
        with self._lock:
            self._ensure_started_locked()
            if self._idle:
                ex = self._idle.pop()[1]
            else:
                ex = SingleThreadExecutor(f"rxpy2-io-{next(_thread_ids)}")
            w = self._new_worker_locked(ex.execute, self._worker_disposed)
            self._busy[w] = ex
            return w

    def _worker_disposed(self, w: ExecutorWorker) -> None:
        with self._lock:
            self._workers.discard(w)
            ex = self._busy.get(w)
        if ex is None:
            return  # shut down meanwhile
        if not w.drain_pending or ex.thread is threading.current_thread():
            # idle, or disposed by its own task, whose drain ends with that task
            self._release(w)
            return
        try:
            # runs after the drain under way: the thread is idle by then
            ex.execute(lambda: self._release(w))
        except RuntimeError:
            pass  # the executor was shut down meanwhile: nothing to cache

    def _release(self, w: ExecutorWorker) -> None:
        """The worker's thread, now idle, back to the cache."""
        with self._lock:
            ex = self._busy.pop(w, None)
            if ex is None:
                return  # shut down meanwhile
            self._idle.append((_monotonic() + self.keep_alive, ex))
            if self._evictor is None:
                self._evictor = self._timer.schedule_at(self._idle[0][0], self._evict)

    def _evict(self) -> None:
        """On the timer thread: end the threads idle for longer than keep_alive."""
        with self._lock:
            self._evictor = None
            now = _monotonic()
            expired = [ex for t, ex in self._idle if t <= now]
            self._idle = [(t, ex) for t, ex in self._idle if t > now]
            if self._idle:
                self._evictor = self._timer.schedule_at(self._idle[0][0], self._evict)
        for ex in expired:
            ex.shutdown(wait=False)
