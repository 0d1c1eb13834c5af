"""Single.from_callable: calls a function per subscriber and signals its result."""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, TypeVar

from rxpy2 import plugins
from rxpy2.disposables import Disposables
from rxpy2.internal.fuseable import Callable as CallableSource
from rxpy2.observers import SingleObserver
from rxpy2.single import Single

__all__ = ["SingleFromCallable"]

T = TypeVar("T")


class SingleFromCallable(Single[T], CallableSource[T], Generic[T]):
    """``None`` from the function is a ``TypeError`` (a Single must have an item)."""

    __slots__ = ("supplier",)

    def __init__(self, supplier: Callable[[], T]) -> None:
        self.supplier = supplier

    def subscribe_actual(self, observer: SingleObserver[T]) -> None:
        d = Disposables.empty()
        observer.on_subscribe(d)
        if d.is_disposed():
            return
        try:
            v = self.supplier()
            if v is None:
                raise TypeError("The callable returned None")
        except Exception as e:
            if not d.is_disposed():
                observer.on_error(e)
            else:
                plugins.on_error(e)
            return
        if not d.is_disposed():
            observer.on_success(v)

    def call(self) -> T:
        v = self.supplier()
        if v is None:
            raise TypeError("The callable returned None")
        return v
