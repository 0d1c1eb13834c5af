"""Completable.error: signals the error its supplier returns, per subscriber."""

from __future__ import annotations

from collections.abc import Callable

from rxpy2.completable import Completable
from rxpy2.internal.observers.empty import EmptyDisposable
from rxpy2.internal.operators.single.single_error import supply_error
from rxpy2.observers import CompletableObserver

__all__ = ["CompletableError"]


class CompletableError(Completable):
    __slots__ = ("supplier",)

    def __init__(self, supplier: Callable[[], BaseException]) -> None:
        self.supplier = supplier

    def subscribe_actual(self, observer: CompletableObserver) -> None:
        EmptyDisposable.error(supply_error(self.supplier), observer)
