"""Completable.lift (RxJava 2's CompletableLift): as Single.lift (``single_lift.py``).

RxJava 2 reports an operator that raises to ``RxJavaPlugins.onError`` and leaves
the observer without any signal; here the observer gets the error, as with
Single.lift and Maybe.lift.
"""

from __future__ import annotations

from collections.abc import Callable

from rxpy2.completable import Completable
from rxpy2.internal.operators.single.single_lift import subscribe_lifted
from rxpy2.observers import CompletableObserver

__all__ = ["CompletableLift"]


class CompletableLift(Completable):
    __slots__ = ("source", "operator")

    def __init__(self, source: Completable,
                 operator: Callable[[CompletableObserver], CompletableObserver]) -> None:
        self.source = source
        self.operator = operator

    def subscribe_actual(self, observer: CompletableObserver) -> None:
        subscribe_lifted(self.source, self.operator, observer)
