"""Single.flat_map_completable / Maybe.flat_map_completable (RxJava 2's
SingleFlatMapCompletable, MaybeFlatMapCompletable): continue with the Completable
``mapper(item)`` returns; an empty Maybe completes.

One observer is subscribed to the source and then to the Completable; it is an
``AtomicReference`` of whichever Disposable is current, and what the downstream disposes.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from typing import Generic
from typing import TypeVar

from rxpy2._internal.helpers.disposable_helper import DisposableHelper
from rxpy2._internal.operators.single.single_flat_map import FlatMapObserver
from rxpy2._internal.zero_one import ZeroOneBase
from rxpy2.completable import Completable
from rxpy2.disposables import Disposable
from rxpy2.observers import CompletableObserver

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


def _itself(parent: FlatMapCompletableObserver[Any], downstream: CompletableObserver
            ) -> FlatMapCompletableObserver[Any]:
    return parent


class FlatMapCompletableObserver(FlatMapObserver[T], CompletableObserver, Generic[T]):
    """Single.flat_map's observer that observes the Completable itself: its Disposable
    replaces the source's, its terminal signal goes downstream."""

    __slots__ = ()

    def __init__(self, downstream: CompletableObserver,
                 mapper: Callable[[T], Completable]) -> None:
        super().__init__(downstream, mapper, Completable, _itself)

    def on_subscribe(self, d: Disposable) -> None:
        DisposableHelper.replace(self, d)  # the source's, then the Completable's
