"""Helpers of the scheduler tests."""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable
from collections.abc import Iterator
from concurrent.futures import Executor
from concurrent.futures import Future
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from typing import Any

from rxpy2.schedulers import Scheduler
from rxpy2.schedulers import Schedulers

#: every kind of scheduler the per-scheduler tests run on
KINDS = ["computation", "io", "single", "new_thread", "from_executor", "trampoline"]
THREADED = [k for k in KINDS if k != "trampoline"]
OWN_THREADS = ["computation", "io", "single", "new_thread"]

NAME_PATTERNS = {
    "computation": r"rxpy2-computation-\d+",
    "io": r"rxpy2-io-\d+",
    "single": r"rxpy2-single-\d+",
    "new_thread": r"rxpy2-newthread-\d+",
    "from_executor": r"user-pool_\d+",
}


@contextmanager
def make_scheduler(kind: str) -> Iterator[Scheduler]:
    if kind == "from_executor":
        pool = ThreadPoolExecutor(max_workers=4, thread_name_prefix="user-pool")
        s = Schedulers.from_executor(pool)
        try:
            yield s
        finally:
            s.shutdown()
            pool.shutdown(wait=True)
    else:
        yield getattr(Schedulers, kind)()


def wait_until(cond: Callable[[], bool], timeout: float = 5.0) -> bool:
    deadline = time.monotonic() + timeout
    while not cond():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.001)
    return True


def thread_of(worker: Any) -> threading.Thread:
    """The thread that runs ``worker``'s tasks (for threaded schedulers)."""
    got: list[threading.Thread] = []
    ev = threading.Event()

    def probe() -> None:
        got.append(threading.current_thread())
        ev.set()

    worker.schedule(probe)
    assert ev.wait(5), "the worker did not run the probe"
    return got[0]


class ManualExecutor(Executor):
    """An Executor that only queues; the test runs the queued calls (on any thread)."""

    def __init__(self) -> None:
        self.tasks: deque[Callable[[], Any]] = deque()
        self.submitted = 0

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        self.submitted += 1
        self.tasks.append(lambda: fn(*args, **kwargs))
        return Future()

    def run_all(self) -> None:
        while True:
            try:
                fn = self.tasks.popleft()
            except IndexError:
                return
            fn()
