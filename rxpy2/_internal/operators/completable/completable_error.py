"""Completable.error: signals the error its supplier returns, per subscriber (Single's
operator body, ``single_error.py``)."""

from __future__ import annotations

from rxpy2._internal.operators.single.single_error import ErrorOp
from rxpy2.completable import Completable

__all__ = ["CompletableError"]


class CompletableError(ErrorOp, Completable):
    __slots__ = ()
