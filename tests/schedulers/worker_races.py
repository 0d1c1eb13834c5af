"""Helpers of the worker race tests (``from worker_races import ...``).

* :class:`Recorder`: the tasks of a race; records which started, whether two ran at once,
  and which started after ``dispose()`` had returned.
* :func:`manual_executor_scheduler`: a ``from_executor`` scheduler whose executor the test
  runs by hand (:class:`sched_support.ManualExecutor`), shut down afterwards.
* :func:`worker_rounds`: a fresh worker per race round, disposed after the round.
"""

from __future__ import annotations

from collections.abc import Iterable
from collections.abc import Iterator
from contextlib import contextmanager
from functools import partial
from typing import Any

from sched_support import ManualExecutor

from rxpy2.schedulers import Scheduler
from rxpy2.schedulers import Schedulers


class Recorder:
    """Records which task started and whether dispose() had already returned then."""

    def __init__(self) -> None:
        self.started: list[object] = []
        self.late: list[object] = []
        self.disposed_returned = False
        self.active = 0
        self.overlaps = 0

    def task(self, tag: object) -> None:
        self.active += 1
        if self.active != 1:
            self.overlaps += 1
        if self.disposed_returned:
            self.late.append(tag)
        self.started.append(tag)
        self.active -= 1

    def schedule(self, w: Any, tags: Iterable[object]) -> list[Any]:
        """``w.schedule`` a task per tag, in order; their handles."""
        return [w.schedule(partial(self.task, tag)) for tag in tags]

    def dispose(self, w: Any) -> None:
        w.dispose()
        self.disposed_returned = True


@contextmanager
def manual_executor_scheduler() -> Iterator[tuple[ManualExecutor, Scheduler]]:
    ex = ManualExecutor()
    s = Schedulers.from_executor(ex)
    yield ex, s
    s.shutdown()


def worker_rounds(s: Scheduler, rounds: int) -> Iterator[Any]:
    """A new worker of ``s`` for each of ``rounds`` rounds, disposed when the round ends."""
    for _ in range(rounds):
        w = s.create_worker()
        yield w
        w.dispose()
