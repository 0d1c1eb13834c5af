"""Maybe.just(x): signals a constant item; a ScalarCallable for assembly-time fusion."""

from __future__ import annotations

from typing import Generic, TypeVar

from rxpy2.internal.fuseable import ScalarCallable
from rxpy2.internal.observers.empty import EmptyDisposable
from rxpy2.maybe import Maybe
from rxpy2.observers import MaybeObserver

__all__ = ["MaybeJust"]

T = TypeVar("T")


class MaybeJust(Maybe[T], ScalarCallable[T], Generic[T]):
    __slots__ = ("value",)

    def __init__(self, value: T) -> None:
        self.value = value

    def subscribe_actual(self, observer: MaybeObserver[T]) -> None:
        observer.on_subscribe(EmptyDisposable.INSTANCE)
        observer.on_success(self.value)

    def call(self) -> T:
        return self.value
