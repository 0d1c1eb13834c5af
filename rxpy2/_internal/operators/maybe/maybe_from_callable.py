"""Maybe.from_callable: calls a function per subscriber; ``None`` means empty."""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic
from typing import TypeVar

from rxpy2._internal.fuseable import Callable as CallableSource
from rxpy2._internal.operators.single.single_from_callable import call_and_signal
from rxpy2.maybe import Maybe
from rxpy2.observers import MaybeObserver

__all__ = ["MaybeFromCallable"]

T = TypeVar("T")


class MaybeFromCallable(Maybe[T], CallableSource[T], Generic[T]):
    __slots__ = ("supplier",)

    def __init__(self, supplier: Callable[[], T | None]) -> None:
        self.supplier = supplier

    def subscribe_actual(self, observer: MaybeObserver[T]) -> None:
        def on_result(v: T | None) -> None:
            if v is None:
                observer.on_complete()
            else:
                observer.on_success(v)
        call_and_signal(observer, self.supplier, on_result)

    def call(self) -> T | None:
        return self.supplier()
