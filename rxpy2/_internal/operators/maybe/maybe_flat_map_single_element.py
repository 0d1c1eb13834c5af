"""Maybe.flat_map_single_element (RxJava 2's MaybeFlatMapSingleElement): a Maybe that
continues with the Single ``mapper(item)`` returns; an empty Maybe stays empty.

Single.flat_map's observer plus ``on_complete``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic
from typing import TypeVar

from rxpy2._internal.observers.resume import ResumeMaybeObserver
from rxpy2._internal.operators.single.single_flat_map import FlatMapObserver
from rxpy2.maybe import Maybe
from rxpy2.observers import MaybeObserver
from rxpy2.single import Single

__all__ = ["MaybeFlatMapSingleElement"]

T = TypeVar("T")
R = TypeVar("R")


class MaybeFlatMapSingleElement(Maybe[R], Generic[T, R]):
    __slots__ = ("source", "mapper")

    def __init__(self, source: Maybe[T], mapper: Callable[[T], Single[R]]) -> None:
        self.source = source
        self.mapper = mapper

    def subscribe_actual(self, observer: MaybeObserver[R]) -> None:
        self.source._subscribe(FlatMapElementObserver(observer, self.mapper, Single,
                                                      ResumeMaybeObserver))


class FlatMapElementObserver(FlatMapObserver[T], MaybeObserver[T], Generic[T]):
    __slots__ = ()

    def on_complete(self) -> None:
        self.downstream.on_complete()
