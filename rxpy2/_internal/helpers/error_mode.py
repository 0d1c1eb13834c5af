"""When a concat-like operator delivers an error of its main source or of an inner one."""

from __future__ import annotations

from enum import IntEnum

__all__ = ["ErrorMode"]


class ErrorMode(IntEnum):
    """``IMMEDIATE``: at once, dropping what waits; ``BOUNDARY``: once the current inner
    source ended; ``END``: once every source ended (all errors together)."""

    IMMEDIATE = 0
    BOUNDARY = 1
    END = 2
