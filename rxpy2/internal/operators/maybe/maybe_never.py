"""Maybe.never: signals nothing but ``on_subscribe``."""

from __future__ import annotations

from typing import Any

from rxpy2.internal.observers.empty import EmptyDisposable
from rxpy2.maybe import Maybe
from rxpy2.observers import MaybeObserver

__all__ = ["MaybeNever"]


class MaybeNever(Maybe[Any]):
    __slots__ = ()

    INSTANCE: MaybeNever

    def subscribe_actual(self, observer: MaybeObserver[Any]) -> None:
        observer.on_subscribe(EmptyDisposable.NEVER)


MaybeNever.INSTANCE = MaybeNever()
