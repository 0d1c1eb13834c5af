"""Single.hide: hides the identity of the upstream and of its Disposable."""

from __future__ import annotations

from typing import Generic, TypeVar

from rxpy2.disposables import Disposable
from rxpy2.internal.helpers.disposable_helper import DisposableHelper
from rxpy2.observers import SingleObserver
from rxpy2.single import Single

__all__ = ["SingleHide"]

T = TypeVar("T")


class SingleHide(Single[T], Generic[T]):
    __slots__ = ("source",)

    def __init__(self, source: Single[T]) -> None:
        self.source = source

    def subscribe_actual(self, observer: SingleObserver[T]) -> None:
        self.source._subscribe(HideObserver(observer))


class HideObserver(SingleObserver[T], Disposable, Generic[T]):
    __slots__ = ("downstream", "upstream")

    def __init__(self, downstream: SingleObserver[T]) -> None:
        self.downstream = downstream
        self.upstream: Disposable | None = None

    def on_subscribe(self, d: Disposable) -> None:
        if DisposableHelper.validate(self.upstream, d):
            self.upstream = d
            self.downstream.on_subscribe(self)

    def on_success(self, item: T) -> None:
        self.downstream.on_success(item)

    def on_error(self, error: BaseException) -> None:
        self.downstream.on_error(error)

    def dispose(self) -> None:
        d = self.upstream
        if d is not None:
            d.dispose()

    def is_disposed(self) -> bool:
        d = self.upstream
        return d is not None and d.is_disposed()
