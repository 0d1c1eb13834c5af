"""The default scheduler of the time operators (their durations are checked by
:func:`rxpy2._internal.arguments.require_duration`)."""

from __future__ import annotations

from rxpy2.schedulers.scheduler import Scheduler

__all__ = ["scheduler_or_computation"]


def scheduler_or_computation(scheduler: Scheduler | None) -> Scheduler:
    """``scheduler``, or ``Schedulers.computation()`` when it is ``None``."""
    if scheduler is None:
        from rxpy2.schedulers import Schedulers
        return Schedulers.computation()
    if not isinstance(scheduler, Scheduler):
        raise TypeError(f"scheduler must be a Scheduler, not {type(scheduler).__name__}")
    return scheduler
