"""Maybe.is_empty: a Single of True (completed empty) or False (had an item)."""

from __future__ import annotations

from typing import Any

from rxpy2.disposables import Disposable
from rxpy2.maybe import Maybe
from rxpy2.observers import MaybeObserver
from rxpy2.observers import SingleObserver
from rxpy2.single import Single

__all__ = ["MaybeIsEmptySingle"]


class MaybeIsEmptySingle(Single[bool]):
    __slots__ = ("source",)

    def __init__(self, source: Maybe[Any]) -> None:
        self.source = source

    def subscribe_actual(self, observer: SingleObserver[bool]) -> None:
        self.source._subscribe(_IsEmptyObserver(observer))


class _IsEmptyObserver(MaybeObserver[Any]):
    __slots__ = ("downstream",)

    def __init__(self, downstream: SingleObserver[bool]) -> None:
        self.downstream = downstream

    def on_subscribe(self, d: Disposable) -> None:
        self.downstream.on_subscribe(d)

    def on_success(self, item: Any) -> None:
        self.downstream.on_success(False)

    def on_error(self, error: BaseException) -> None:
        self.downstream.on_error(error)

    def on_complete(self) -> None:
        self.downstream.on_success(True)
