"""Maybe.from_callable: calls a function per subscriber; ``None`` means empty."""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, TypeVar

from rxpy2 import plugins
from rxpy2.disposables import Disposables
from rxpy2.internal.fuseable import Callable as CallableSource
from rxpy2.maybe import Maybe
from rxpy2.observers import MaybeObserver

__all__ = ["MaybeFromCallable"]

T = TypeVar("T")


class MaybeFromCallable(Maybe[T], CallableSource[T], Generic[T]):
    __slots__ = ("supplier",)

    def __init__(self, supplier: Callable[[], T | None]) -> None:
        self.supplier = supplier

    def subscribe_actual(self, observer: MaybeObserver[T]) -> None:
        d = Disposables.empty()
        observer.on_subscribe(d)
        if d.is_disposed():
            return
        try:
            v = self.supplier()
        except Exception as e:
            if not d.is_disposed():
                observer.on_error(e)
            else:
                plugins.on_error(e)
            return
        if not d.is_disposed():
            if v is None:
                observer.on_complete()
            else:
                observer.on_success(v)

    def call(self) -> T | None:
        return self.supplier()
