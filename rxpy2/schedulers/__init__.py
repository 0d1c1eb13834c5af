"""Schedulers: where and when tasks run (RxJava 2's ``Scheduler`` family).

Time is in seconds as floats. See ``docs/schedulers.md`` for which scheduler
to use for what and which thread runs what.
"""

from rxpy2.schedulers.asyncio_scheduler import AsyncioScheduler
from rxpy2.schedulers.scheduler import Scheduler, Worker
from rxpy2.schedulers.schedulers import Schedulers
from rxpy2.schedulers.test_scheduler import TestScheduler

__all__ = ["AsyncioScheduler", "Scheduler", "Schedulers", "TestScheduler", "Worker"]
