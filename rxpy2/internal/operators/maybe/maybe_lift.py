"""Maybe.lift (RxJava 2's MaybeLift): as Single.lift (``single_lift.py``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, TypeVar

from rxpy2.internal.operators.single.single_lift import subscribe_lifted
from rxpy2.maybe import Maybe
from rxpy2.observers import MaybeObserver

__all__ = ["MaybeLift"]

T = TypeVar("T")
R = TypeVar("R")


class MaybeLift(Maybe[R], Generic[T, R]):
    __slots__ = ("source", "operator")

    def __init__(self, source: Maybe[T],
                 operator: Callable[[MaybeObserver[R]], MaybeObserver[T]]) -> None:
        self.source = source
        self.operator = operator

    def subscribe_actual(self, observer: MaybeObserver[R]) -> None:
        subscribe_lifted(self.source, self.operator, observer)
