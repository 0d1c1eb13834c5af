"""Single.retry(bi_predicate=...): resubscribe while ``bi_predicate(attempt, error)`` holds.

``attempt`` counts the errors so far (1 at the first). A predicate that raises ends
the Single with ``CompositeException(error, raised)``. Resubscription runs in a
loop guarded by a counter, so a synchronous source failing again and again never
nests the calls. (The ``times``/``predicate`` forms are built on Flowable.retry,
as RxJava 2 builds them.)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, TypeVar

from rxpy2.disposables import Disposable
from rxpy2.exceptions import CompositeException
from rxpy2.internal.atomic import AtomicLong, AtomicReference
from rxpy2.internal.helpers.disposable_helper import DISPOSED, DisposableHelper
from rxpy2.observers import SingleObserver
from rxpy2.single import Single

__all__ = ["SingleRetryBiPredicate"]

T = TypeVar("T")


class SingleRetryBiPredicate(Single[T], Generic[T]):
    __slots__ = ("source", "predicate")

    def __init__(self, source: Single[T],
                 predicate: Callable[[int, BaseException], bool]) -> None:
        self.source = source
        self.predicate = predicate

    def subscribe_actual(self, observer: SingleObserver[T]) -> None:
        parent: RetryObserver[T] = RetryObserver(observer, self.source, self.predicate)
        observer.on_subscribe(parent)
        parent.subscribe_next()


class RetryObserver(SingleObserver[T], Disposable, Generic[T]):
    __slots__ = ("downstream", "source", "predicate", "main", "wip", "attempts")

    def __init__(self, downstream: SingleObserver[T], source: Single[T],
                 predicate: Callable[[int, BaseException], bool]) -> None:
        self.downstream = downstream
        self.source = source
        self.predicate = predicate
        self.main: AtomicReference[Disposable] = AtomicReference()
        self.wip = AtomicLong(0)
        self.attempts = 0

    def subscribe_next(self) -> None:
        if self.wip.get_and_increment() != 0:
            return
        while True:
            if self.main.get() is DISPOSED:
                return
            self.source._subscribe(self)
            if self.wip.decrement_and_get() == 0:
                return

    def on_subscribe(self, d: Disposable) -> None:
        DisposableHelper.replace(self.main, d)

    def on_success(self, item: T) -> None:
        self.downstream.on_success(item)

    def on_error(self, error: BaseException) -> None:
        self.attempts += 1
        try:
            again = self.predicate(self.attempts, error)
        except Exception as e:
            self.downstream.on_error(CompositeException(error, e))
            return
        if again:
            self.subscribe_next()
        else:
            self.downstream.on_error(error)

    def dispose(self) -> None:
        DisposableHelper.dispose(self.main)

    def is_disposed(self) -> bool:
        return self.main.get() is DISPOSED
