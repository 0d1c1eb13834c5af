"""Single.never: signals nothing but ``on_subscribe``."""

from __future__ import annotations

from typing import Any

from rxpy2.internal.observers.empty import EmptyDisposable
from rxpy2.observers import SingleObserver
from rxpy2.single import Single

__all__ = ["SingleNever"]


class SingleNever(Single[Any]):
    __slots__ = ()

    INSTANCE: SingleNever

    def subscribe_actual(self, observer: SingleObserver[Any]) -> None:
        observer.on_subscribe(EmptyDisposable.NEVER)


SingleNever.INSTANCE = SingleNever()
