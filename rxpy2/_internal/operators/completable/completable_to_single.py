"""Completable.to_single / to_single_default: an item, supplied on completion."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from typing import Generic
from typing import TypeVar

from rxpy2.completable import Completable
from rxpy2.disposables import Disposable
from rxpy2.observers import CompletableObserver
from rxpy2.observers import SingleObserver
from rxpy2.single import Single

__all__ = ["CompletableToSingle"]

T = TypeVar("T")


class CompletableToSingle(Single[T], Generic[T]):
    __slots__ = ("source", "supplier")

    def __init__(self, source: Completable, supplier: Callable[[], T]) -> None:
        self.source = source
        self.supplier = supplier

    def subscribe_actual(self, observer: SingleObserver[T]) -> None:
        self.source._subscribe(_ToSingleObserver(observer, self.supplier))


class _ToSingleObserver(CompletableObserver, Generic[T]):
    __slots__ = ("downstream", "supplier")

    def __init__(self, downstream: Any, supplier: Callable[[], T]) -> None:
        self.downstream = downstream
        self.supplier = supplier

    def on_subscribe(self, d: Disposable) -> None:
        self.downstream.on_subscribe(d)

    def on_error(self, error: BaseException) -> None:
        self.downstream.on_error(error)

    def on_complete(self) -> None:
        try:
            v = self.supplier()
            if v is None:
                raise TypeError("The supplier returned None")
        except Exception as e:
            self.downstream.on_error(e)
            return
        self.downstream.on_success(v)
