"""Single.ignore_element / Maybe.ignore_element / Completable.from_single / from_maybe
(RxJava 2's CompletableFromSingle, MaybeIgnoreElementCompletable): completes when the
source succeeds or completes, and fails with its error."""

from __future__ import annotations

from typing import Any
from typing import Generic
from typing import TypeVar

from rxpy2._internal.operators.single.single_hide import HideObserver
from rxpy2._internal.zero_one import ZeroOneBase
from rxpy2.completable import Completable
from rxpy2.observers import CompletableObserver
from rxpy2.observers import MaybeObserver

__all__ = ["CompletableIgnoreElement"]

T = TypeVar("T")


class CompletableIgnoreElement(Completable):
    """The source is a Single or a Maybe."""

    __slots__ = ("source",)

    def __init__(self, source: ZeroOneBase) -> None:
        self.source = source

    def subscribe_actual(self, observer: CompletableObserver) -> None:
        self.source._subscribe(IgnoreElementObserver(observer))


class IgnoreElementObserver(HideObserver[T], MaybeObserver[T], Generic[T]):
    __slots__ = ()

    def on_success(self, item: Any) -> None:
        self.downstream.on_complete()

    def on_complete(self) -> None:
        self.downstream.on_complete()
