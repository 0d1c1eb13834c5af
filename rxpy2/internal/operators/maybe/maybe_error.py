"""Maybe.error: signals the error its supplier returns, per subscriber."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rxpy2.internal.observers.empty import EmptyDisposable
from rxpy2.internal.operators.single.single_error import supply_error
from rxpy2.maybe import Maybe
from rxpy2.observers import MaybeObserver

__all__ = ["MaybeError"]


class MaybeError(Maybe[Any]):
    __slots__ = ("supplier",)

    def __init__(self, supplier: Callable[[], BaseException]) -> None:
        self.supplier = supplier

    def subscribe_actual(self, observer: MaybeObserver[Any]) -> None:
        EmptyDisposable.error(supply_error(self.supplier), observer)
