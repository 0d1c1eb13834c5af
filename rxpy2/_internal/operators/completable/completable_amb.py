"""Completable.amb / amb_array / amb_with: the first source to terminate wins.

The race and the "once" pattern are Single's (``single_amb.py``). No sources: completes
at once, as RxJava 2's CompletableAmb does.
"""

from __future__ import annotations

from collections.abc import Iterable

from rxpy2._internal.operators.single.single_amb import subscribe_amb
from rxpy2.completable import Completable
from rxpy2.observers import CompletableObserver

__all__ = ["CompletableAmb"]


class CompletableAmb(Completable):
    __slots__ = ("sources",)

    def __init__(self, sources: Iterable[Completable]) -> None:
        self.sources = sources

    def subscribe_actual(self, observer: CompletableObserver) -> None:
        subscribe_amb(self.sources, observer, Completable, complete_if_empty=True)
