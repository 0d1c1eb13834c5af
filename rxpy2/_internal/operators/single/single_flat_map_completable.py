"""Single.flat_map_completable / Maybe.flat_map_completable (RxJava 2's
SingleFlatMapCompletable, MaybeFlatMapCompletable): continue with the Completable
``mapper(item)`` returns; an empty Maybe completes.

One observer is subscribed to the source and then to the Completable; it is an
``AtomicReference`` of whichever Disposable is current, and what the downstream disposes.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic
from typing import TypeVar

from rxpy2._internal.atomic import AtomicReference
from rxpy2._internal.helpers.disposable_helper import DISPOSED
from rxpy2._internal.helpers.disposable_helper import DisposableHelper
from rxpy2._internal.operators.single.single_flat_map import apply_mapper
from rxpy2._internal.zero_one import ZeroOneBase
from rxpy2.completable import Completable
from rxpy2.disposables import Disposable
from rxpy2.observers import CompletableObserver
from rxpy2.observers import MaybeObserver
from rxpy2.observers import SingleObserver

__all__ = ["SingleFlatMapCompletable"]

T = TypeVar("T")


class SingleFlatMapCompletable(Completable, Generic[T]):
    """The source is a Single or a Maybe."""

    __slots__ = ("source", "mapper")

    def __init__(self, source: ZeroOneBase, mapper: Callable[[T], Completable]) -> None:
        self.source = source
        self.mapper = mapper

    def subscribe_actual(self, observer: CompletableObserver) -> None:
        parent: FlatMapCompletableObserver[T] = FlatMapCompletableObserver(observer, self.mapper)
        observer.on_subscribe(parent)
        self.source._subscribe(parent)


class FlatMapCompletableObserver(AtomicReference[Disposable], SingleObserver[T],
                                 MaybeObserver[T], CompletableObserver, Disposable, Generic[T]):
    __slots__ = ("downstream", "mapper")

    def __init__(self, downstream: CompletableObserver,
                 mapper: Callable[[T], Completable]) -> None:
        super().__init__()
        self.downstream = downstream
        self.mapper = mapper

    def on_subscribe(self, d: Disposable) -> None:
        DisposableHelper.replace(self, d)  # the source's, then the Completable's

    def on_success(self, item: T) -> None:
        try:
            inner = apply_mapper(self.mapper, item, Completable)
        except Exception as e:
            self.downstream.on_error(e)
            return
        if self.get() is not DISPOSED:
            inner._subscribe(self)

    def on_error(self, error: BaseException) -> None:
        self.downstream.on_error(error)

    def on_complete(self) -> None:
        self.downstream.on_complete()

    def dispose(self) -> None:
        DisposableHelper.dispose(self)

    def is_disposed(self) -> bool:
        return self.get() is DISPOSED
