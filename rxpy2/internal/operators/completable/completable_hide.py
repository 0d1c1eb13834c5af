"""Completable.hide and Completable.on_terminate_detach (RxJava 2's CompletableHide,
CompletableDetach): Single's observers (``single_hide.py``)."""

from __future__ import annotations

from rxpy2.completable import Completable
from rxpy2.internal.operators.single.single_hide import DetachObserver, HideObserver
from rxpy2.observers import CompletableObserver

__all__ = ["CompletableDetach", "CompletableHide"]


class CompletableHide(Completable):
    __slots__ = ("source",)

    def __init__(self, source: Completable) -> None:
        self.source = source

    def subscribe_actual(self, observer: CompletableObserver) -> None:
        self.source._subscribe(HideObserver[object](observer))


class CompletableDetach(Completable):
    __slots__ = ("source",)

    def __init__(self, source: Completable) -> None:
        self.source = source

    def subscribe_actual(self, observer: CompletableObserver) -> None:
        self.source._subscribe(DetachObserver[object](observer))
