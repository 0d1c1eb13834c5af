"""``Timed``: an item with a time in seconds (emitted by ``timestamp`` and ``time_interval``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Generic
from typing import TypeVar

__all__ = ["Timed"]

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Timed(Generic[T]):
    """``value`` with ``time``: a scheduler's ``now()`` (``timestamp``) or the seconds
    elapsed since the previous item or the subscription (``time_interval``)."""

    value: T
    time: float
