"""Maybe.log: Single's operator body and observer (``single_log.py``)."""

from __future__ import annotations

from typing import Generic
from typing import TypeVar

from rxpy2._internal.operators.single.single_log import LogOp
from rxpy2.maybe import Maybe

__all__ = ["MaybeLog"]

T = TypeVar("T")


class MaybeLog(LogOp[T], Maybe[T], Generic[T]):
    __slots__ = ()
