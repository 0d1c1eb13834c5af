"""Maybe.defer: calls a supplier per subscriber for the Maybe to subscribe to
(Single's operator body, ``single_defer.py``)."""

from __future__ import annotations

from typing import Generic
from typing import TypeVar

from rxpy2._internal.operators.single.single_defer import DeferOp
from rxpy2.maybe import Maybe

__all__ = ["MaybeDefer"]

T = TypeVar("T")


class MaybeDefer(DeferOp[T], Maybe[T], Generic[T]):
    __slots__ = ()
