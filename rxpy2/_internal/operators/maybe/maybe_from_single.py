"""Maybe.from_single / Single.to_maybe (RxJava 2's MaybeFromSingle): the Single's item or
error. A Single never signals ``on_complete``, so the MaybeObserver is subscribed as it is."""

from __future__ import annotations

from typing import Generic
from typing import TypeVar

from rxpy2.maybe import Maybe
from rxpy2.observers import MaybeObserver
from rxpy2.single import Single

__all__ = ["MaybeFromSingle"]

T = TypeVar("T")


class MaybeFromSingle(Maybe[T], Generic[T]):
    __slots__ = ("source",)

    def __init__(self, source: Single[T]) -> None:
        self.source = source

    def subscribe_actual(self, observer: MaybeObserver[T]) -> None:
        self.source._subscribe(observer)
