"""Maybe.hide and Maybe.on_terminate_detach (RxJava 2's MaybeHide, MaybeDetach):
Single's observers (``single_hide.py``), which also pass ``on_complete`` on."""

from __future__ import annotations

from typing import Generic, TypeVar

from rxpy2.internal.operators.single.single_hide import DetachObserver, HideObserver
from rxpy2.maybe import Maybe
from rxpy2.observers import MaybeObserver

__all__ = ["MaybeDetach", "MaybeHide"]

T = TypeVar("T")


class MaybeHide(Maybe[T], Generic[T]):
    __slots__ = ("source",)

    def __init__(self, source: Maybe[T]) -> None:
        self.source = source

    def subscribe_actual(self, observer: MaybeObserver[T]) -> None:
        self.source._subscribe(HideObserver(observer))


class MaybeDetach(Maybe[T], Generic[T]):
    __slots__ = ("source",)

    def __init__(self, source: Maybe[T]) -> None:
        self.source = source

    def subscribe_actual(self, observer: MaybeObserver[T]) -> None:
        self.source._subscribe(DetachObserver(observer))
