"""Completable.defer: calls a supplier per subscriber for the Completable to subscribe to."""

from __future__ import annotations

from collections.abc import Callable

from rxpy2.completable import Completable
from rxpy2.internal.observers.empty import EmptyDisposable
from rxpy2.observers import CompletableObserver

__all__ = ["CompletableDefer"]


class CompletableDefer(Completable):
    __slots__ = ("supplier",)

    def __init__(self, supplier: Callable[[], Completable]) -> None:
        self.supplier = supplier

    def subscribe_actual(self, observer: CompletableObserver) -> None:
        try:
            c = self.supplier()
            if not isinstance(c, Completable):
                raise TypeError("The supplier returned None" if c is None else
                                f"The supplier returned a {type(c).__name__}, "
                                "not a Completable")
        except Exception as e:
            EmptyDisposable.error(e, observer)
            return
        c._subscribe(observer)
