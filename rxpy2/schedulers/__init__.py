"""Schedulers: where and when tasks run (RxJava 2's ``Scheduler`` family).

Time is in seconds as floats. See ``docs/schedulers.md`` for which scheduler
to use for what and which thread runs what.

``AsyncioScheduler`` and ``TestScheduler`` are imported on first use (module
``__getattr__``): they import ``asyncio`` (about 30 ms) and ``sortedcontainers``,
which ``import rxpy2`` does not pay for.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rxpy2._internal.lazy_import import lazy_package
from rxpy2.schedulers.scheduler import Scheduler
from rxpy2.schedulers.scheduler import Worker
from rxpy2.schedulers.schedulers import Schedulers

if TYPE_CHECKING:
    from rxpy2.schedulers.asyncio_scheduler import AsyncioScheduler
    from rxpy2.schedulers.test_scheduler import TestScheduler

__all__ = ["AsyncioScheduler", "Scheduler", "Schedulers", "TestScheduler", "Worker"]

if not TYPE_CHECKING:  # type checkers see the imports above, and no catch-all
    __getattr__, __dir__ = lazy_package(__name__, globals(), {
        "AsyncioScheduler": "rxpy2.schedulers.asyncio_scheduler",
        "TestScheduler": "rxpy2.schedulers.test_scheduler",
    })
