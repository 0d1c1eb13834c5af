"""Maybe.error: signals the error its supplier returns, per subscriber (Single's
operator body, ``single_error.py``)."""

from __future__ import annotations

from typing import Any

from rxpy2._internal.operators.single.single_error import ErrorOp
from rxpy2.maybe import Maybe

__all__ = ["MaybeError"]


class MaybeError(ErrorOp, Maybe[Any]):
    __slots__ = ()
