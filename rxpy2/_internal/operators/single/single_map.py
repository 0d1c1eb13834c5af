"""Single.map: apply a function to the item."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from typing import Generic
from typing import TypeVar

from rxpy2._internal.helpers.function_names import returned_none
from rxpy2.disposables import Disposable
from rxpy2.observers import SingleObserver
from rxpy2.single import Single

__all__ = ["SingleMap"]

T = TypeVar("T")
R = TypeVar("R")


class SingleMap(Single[R], Generic[T, R]):
    __slots__ = ("source", "mapper")

    def __init__(self, source: Single[T], mapper: Callable[[T], R]) -> None:
        self.source = source
        self.mapper = mapper

    def subscribe_actual(self, observer: SingleObserver[R]) -> None:
        self.source._subscribe(MapSingleObserver(observer, self.mapper))


class MapSingleObserver(SingleObserver[T], Generic[T, R]):
    """Passes the upstream Disposable through: the function runs after upstream ended."""

    __slots__ = ("downstream", "mapper")

    def __init__(self, downstream: Any, mapper: Callable[[T], R]) -> None:
        self.downstream = downstream
        self.mapper = mapper

    def on_subscribe(self, d: Disposable) -> None:
        self.downstream.on_subscribe(d)

    def on_success(self, item: T) -> None:
        try:
            v = self.mapper(item)
            if v is None:
                raise returned_none("map", self.mapper)  # §2.13
        except Exception as e:
            self.downstream.on_error(e)
            return
        self.downstream.on_success(v)

    def on_error(self, error: BaseException) -> None:
        self.downstream.on_error(error)
