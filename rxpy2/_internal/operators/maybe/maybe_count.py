"""Maybe.count: a Single of 1 (an item) or 0 (empty) (RxJava 2's MaybeCount)."""

from __future__ import annotations

from typing import Any

from rxpy2._internal.operators.single.single_contains import ElementObserver
from rxpy2.maybe import Maybe
from rxpy2.observers import SingleObserver
from rxpy2.single import Single

__all__ = ["MaybeCount"]


def _one(_item: Any) -> int:
    return 1


class MaybeCount(Single[int]):
    __slots__ = ("source",)

    def __init__(self, source: Maybe[Any]) -> None:
        self.source = source

    def subscribe_actual(self, observer: SingleObserver[int]) -> None:
        self.source._subscribe(ElementObserver(observer, _one, 0))
