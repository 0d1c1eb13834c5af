"""Maybe.map: apply a function to the item (an empty Maybe stays empty)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic
from typing import TypeVar

from rxpy2._internal.operators.single.single_map import MapSingleObserver
from rxpy2.maybe import Maybe
from rxpy2.observers import MaybeObserver

__all__ = ["MaybeMap"]

T = TypeVar("T")
R = TypeVar("R")


class MaybeMap(Maybe[R], Generic[T, R]):
    __slots__ = ("source", "mapper")

    def __init__(self, source: Maybe[T], mapper: Callable[[T], R]) -> None:
        self.source = source
        self.mapper = mapper

    def subscribe_actual(self, observer: MaybeObserver[R]) -> None:
        self.source._subscribe(MapMaybeObserver(observer, self.mapper))


class MapMaybeObserver(MapSingleObserver[T, R], MaybeObserver[T], Generic[T, R]):
    __slots__ = ()

    def on_complete(self) -> None:
        self.downstream.on_complete()
