"""Completable.complete(): completes at once."""

from __future__ import annotations

from rxpy2._internal.observers.empty import EmptyDisposable
from rxpy2.completable import Completable
from rxpy2.observers import CompletableObserver

__all__ = ["CompletableEmpty"]


class CompletableEmpty(Completable):
    __slots__ = ()

    INSTANCE: CompletableEmpty

    def subscribe_actual(self, observer: CompletableObserver) -> None:
        EmptyDisposable.complete(observer)


CompletableEmpty.INSTANCE = CompletableEmpty()
