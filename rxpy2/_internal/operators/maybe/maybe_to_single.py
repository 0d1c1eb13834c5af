"""Maybe.to_single: the item as a Single; when empty, the default item or ``IndexError``."""

from __future__ import annotations

from typing import Any
from typing import Generic
from typing import TypeVar

from rxpy2.disposables import Disposable
from rxpy2.maybe import Maybe
from rxpy2.observers import MaybeObserver
from rxpy2.observers import SingleObserver
from rxpy2.single import Single

__all__ = ["MaybeToSingle"]

T = TypeVar("T")


class MaybeToSingle(Single[T], Generic[T]):
    __slots__ = ("source", "default")

    def __init__(self, source: Maybe[T], default: T | None) -> None:
        self.source = source
        self.default = default

    def subscribe_actual(self, observer: SingleObserver[T]) -> None:
        self.source._subscribe(_ToSingleObserver(observer, self.default))


class _ToSingleObserver(MaybeObserver[T], Generic[T]):
    __slots__ = ("downstream", "default")

    def __init__(self, downstream: Any, default: T | None) -> None:
        self.downstream = downstream
        self.default = default

    def on_subscribe(self, d: Disposable) -> None:
        self.downstream.on_subscribe(d)

    def on_success(self, item: T) -> None:
        self.downstream.on_success(item)

    def on_error(self, error: BaseException) -> None:
        self.downstream.on_error(error)

    def on_complete(self) -> None:
        v = self.default
        if v is None:
            self.downstream.on_error(IndexError("The Maybe completed without an item"))
        else:
            self.downstream.on_success(v)
