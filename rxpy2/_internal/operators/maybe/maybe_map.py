"""Maybe.map: apply a function to the item (an empty Maybe stays empty)."""

from __future__ import annotations

from typing import Generic
from typing import TypeVar

from rxpy2._internal.operators.single.single_map import MapSingleObserver
from rxpy2._internal.zero_one import FunctionOp
from rxpy2.maybe import Maybe
from rxpy2.observers import MaybeObserver

__all__ = ["MaybeMap"]

T = TypeVar("T")
R = TypeVar("R")


class MapMaybeObserver(MapSingleObserver[T, R], MaybeObserver[T], Generic[T, R]):
    __slots__ = ()

    def on_complete(self) -> None:
        self.downstream.on_complete()


class MaybeMap(FunctionOp[T], Maybe[R], Generic[T, R]):
    __slots__ = ()

    observer_type = MapMaybeObserver
