"""Argument checks shared by the time operators: durations in seconds, default scheduler."""

from __future__ import annotations

import math
from typing import Any

from rxpy2.schedulers.scheduler import Scheduler

__all__ = ["check_duration", "scheduler_or_computation"]


def check_duration(value: Any, name: str) -> float:
    """``value`` as a float number of seconds >= 0 (``TypeError``/``ValueError`` otherwise)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"{name} must be a number of seconds, not {type(value).__name__}")
    v = float(value)
    if math.isnan(v) or v < 0.0:
        raise ValueError(f"{name} >= 0 required but it was {value}")
    return v


def scheduler_or_computation(scheduler: Scheduler | None) -> Scheduler:
    """``scheduler``, or ``Schedulers.computation()`` when it is ``None``."""
    if scheduler is None:
        from rxpy2.schedulers import Schedulers
        return Schedulers.computation()
    if not isinstance(scheduler, Scheduler):
        raise TypeError(f"scheduler must be a Scheduler, not {type(scheduler).__name__}")
    return scheduler
