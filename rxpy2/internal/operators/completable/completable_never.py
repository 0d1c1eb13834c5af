"""Completable.never: signals nothing but ``on_subscribe``."""

from __future__ import annotations

from rxpy2.completable import Completable
from rxpy2.internal.observers.empty import EmptyDisposable
from rxpy2.observers import CompletableObserver

__all__ = ["CompletableNever"]


class CompletableNever(Completable):
    __slots__ = ()

    INSTANCE: CompletableNever

    def subscribe_actual(self, observer: CompletableObserver) -> None:
        observer.on_subscribe(EmptyDisposable.NEVER)


CompletableNever.INSTANCE = CompletableNever()
