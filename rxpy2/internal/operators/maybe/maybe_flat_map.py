"""Maybe.flat_map / flat_map_single: continue with the source ``mapper(item)`` returns.

Same structure as ``Single.flat_map`` (see ``single_flat_map.py``); an empty
Maybe completes (``flat_map``) or fails with ``IndexError`` (``flat_map_single``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic
from typing import TypeVar

from rxpy2.internal.observers.resume import ResumeMaybeObserver
from rxpy2.internal.observers.resume import ResumeSingleObserver
from rxpy2.internal.operators.single.single_flat_map import FlatMapObserver
from rxpy2.maybe import Maybe
from rxpy2.observers import MaybeObserver
from rxpy2.observers import SingleObserver
from rxpy2.single import Single

__all__ = ["MaybeFlatMap", "MaybeFlatMapSingle"]

T = TypeVar("T")
R = TypeVar("R")


class MaybeFlatMap(Maybe[R], Generic[T, R]):
    __slots__ = ("source", "mapper")

    def __init__(self, source: Maybe[T], mapper: Callable[[T], Maybe[R]]) -> None:
        self.source = source
        self.mapper = mapper

    def subscribe_actual(self, observer: MaybeObserver[R]) -> None:
        self.source._subscribe(_MaybeFlatMapObserver(observer, self.mapper, Maybe,
                                                     ResumeMaybeObserver))


class MaybeFlatMapSingle(Single[R], Generic[T, R]):
    __slots__ = ("source", "mapper")

    def __init__(self, source: Maybe[T], mapper: Callable[[T], Single[R]]) -> None:
        self.source = source
        self.mapper = mapper

    def subscribe_actual(self, observer: SingleObserver[R]) -> None:
        self.source._subscribe(_FlatMapSingleObserver(observer, self.mapper, Single,
                                                      ResumeSingleObserver))


class _MaybeFlatMapObserver(FlatMapObserver[T], MaybeObserver[T], Generic[T]):
    __slots__ = ()

    def on_complete(self) -> None:
        self.downstream.on_complete()


class _FlatMapSingleObserver(FlatMapObserver[T], MaybeObserver[T], Generic[T]):
    __slots__ = ()

    def on_complete(self) -> None:
        self.downstream.on_error(IndexError("The Maybe completed without an item"))
