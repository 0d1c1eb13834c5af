"""Maybe.empty(): completes at once; a ScalarCallable whose ``call()`` is ``None``."""

from __future__ import annotations

from typing import Any

from rxpy2._internal.fuseable import ScalarCallable
from rxpy2._internal.observers.empty import EmptyDisposable
from rxpy2.maybe import Maybe
from rxpy2.observers import MaybeObserver

__all__ = ["MaybeEmpty"]


class MaybeEmpty(Maybe[Any], ScalarCallable[Any]):
    __slots__ = ()

    INSTANCE: MaybeEmpty

    def subscribe_actual(self, observer: MaybeObserver[Any]) -> None:
        EmptyDisposable.complete(observer)

    def call(self) -> None:
        return None


MaybeEmpty.INSTANCE = MaybeEmpty()
