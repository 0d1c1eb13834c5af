"""Completable.log: Single's operator body and observer (``single_log.py``)."""

from __future__ import annotations

from typing import Any

from rxpy2._internal.operators.single.single_log import LogOp
from rxpy2.completable import Completable

__all__ = ["CompletableLog"]


class CompletableLog(LogOp[Any], Completable):
    __slots__ = ()
