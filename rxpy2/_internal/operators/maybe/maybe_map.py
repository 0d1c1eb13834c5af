"""Maybe.map: apply a function to the item (an empty Maybe stays empty)."""

from __future__ import annotations

from typing import Generic
from typing import TypeVar

from rxpy2._internal.operators.single.single_map import MapObserver
from rxpy2._internal.zero_one import FunctionOp
from rxpy2.maybe import Maybe

__all__ = ["MaybeMap"]

T = TypeVar("T")
R = TypeVar("R")


class MaybeMap(FunctionOp[T], Maybe[R], Generic[T, R]):
    __slots__ = ()

    observer_type = MapObserver
