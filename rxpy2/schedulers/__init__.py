"""Schedulers: where and when tasks run (RxJava 2's ``Scheduler`` family).

Time is in seconds as floats. See ``docs/schedulers.md`` for which scheduler
to use for what and which thread runs what.

``AsyncioScheduler`` and ``TestScheduler`` are imported on first use (module
``__getattr__``): they import ``asyncio`` (about 30 ms) and ``sortedcontainers``,
which ``import rxpy2`` does not pay for.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from rxpy2.schedulers.scheduler import Scheduler, Worker
from rxpy2.schedulers.schedulers import Schedulers

if TYPE_CHECKING:
    from rxpy2.schedulers.asyncio_scheduler import AsyncioScheduler
    from rxpy2.schedulers.test_scheduler import TestScheduler

__all__ = ["AsyncioScheduler", "Scheduler", "Schedulers", "TestScheduler", "Worker"]

_LAZY = {
    "AsyncioScheduler": "rxpy2.schedulers.asyncio_scheduler",
    "TestScheduler": "rxpy2.schedulers.test_scheduler",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value  # later lookups skip __getattr__
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
