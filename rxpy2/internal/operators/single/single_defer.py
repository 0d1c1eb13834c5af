"""Single.defer: calls a supplier per subscriber for the Single to subscribe to."""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, TypeVar

from rxpy2.internal.observers.empty import EmptyDisposable
from rxpy2.observers import SingleObserver
from rxpy2.single import Single

__all__ = ["SingleDefer"]

T = TypeVar("T")


class SingleDefer(Single[T], Generic[T]):
    __slots__ = ("supplier",)

    def __init__(self, supplier: Callable[[], Single[T]]) -> None:
        self.supplier = supplier

    def subscribe_actual(self, observer: SingleObserver[T]) -> None:
        try:
            s = self.supplier()
            if not isinstance(s, Single):
                raise TypeError("The supplier returned None" if s is None else
                                f"The supplier returned a {type(s).__name__}, not a Single")
        except Exception as e:
            EmptyDisposable.error(e, observer)
            return
        s._subscribe(observer)
