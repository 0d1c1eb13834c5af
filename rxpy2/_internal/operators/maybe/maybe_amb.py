"""Maybe.amb / amb_array / amb_with (RxJava 2's MaybeAmb): the first source to signal
wins (its item, completion or error); the rest are disposed.

The race and the "once" pattern are Single's (``single_amb.py``); no sources
completes at once, as in RxJava 2.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Generic
from typing import TypeVar

from rxpy2._internal.operators.single.single_amb import subscribe_amb
from rxpy2.maybe import Maybe
from rxpy2.observers import MaybeObserver

__all__ = ["MaybeAmb"]

T = TypeVar("T")


class MaybeAmb(Maybe[T], Generic[T]):
    __slots__ = ("sources",)

    def __init__(self, sources: Iterable[Maybe[T]]) -> None:
        self.sources = sources

    def subscribe_actual(self, observer: MaybeObserver[T]) -> None:
        subscribe_amb(self.sources, observer, Maybe, complete_if_empty=True)
