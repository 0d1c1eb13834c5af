"""Maybe.defer: calls a supplier per subscriber for the Maybe to subscribe to."""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, TypeVar

from rxpy2.internal.observers.empty import EmptyDisposable
from rxpy2.maybe import Maybe
from rxpy2.observers import MaybeObserver

__all__ = ["MaybeDefer"]

T = TypeVar("T")


class MaybeDefer(Maybe[T], Generic[T]):
    __slots__ = ("supplier",)

    def __init__(self, supplier: Callable[[], Maybe[T]]) -> None:
        self.supplier = supplier

    def subscribe_actual(self, observer: MaybeObserver[T]) -> None:
        try:
            m = self.supplier()
            if not isinstance(m, Maybe):
                raise TypeError("The supplier returned None" if m is None else
                                f"The supplier returned a {type(m).__name__}, not a Maybe")
        except Exception as e:
            EmptyDisposable.error(e, observer)
            return
        m._subscribe(observer)
