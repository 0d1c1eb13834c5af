"""Maybe.lift (RxJava 2's MaybeLift): Single's operator body (``single_lift.py``)."""

from __future__ import annotations

from typing import Generic
from typing import TypeVar

from rxpy2._internal.operators.single.single_lift import LiftOp
from rxpy2.maybe import Maybe

__all__ = ["MaybeLift"]

T = TypeVar("T")


class MaybeLift(LiftOp[T], Maybe[T], Generic[T]):
    __slots__ = ()
