"""Single.retry(bi_predicate=...): resubscribe while ``bi_predicate(attempt, error)`` holds.

``attempt`` counts the errors so far (1 at the first). A predicate that raises ends
the Single with ``CompositeException(error, raised)``. Resubscription runs in a
loop (:class:`Resubscriber`, on a :class:`~rxpy2.operators.Drain`), so a synchronous
source failing again and again never nests the calls. (The ``times``/``predicate`` forms are built on Flowable.retry,
as RxJava 2 builds them.)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, TypeVar

from rxpy2.disposables import Disposable
from rxpy2.exceptions import CompositeException
from rxpy2.internal.atomic import AtomicReference
from rxpy2.internal.helpers.disposable_helper import DISPOSED, DisposableHelper
from rxpy2.observers import SingleObserver
from rxpy2.operators import Drain
from rxpy2.single import Single

__all__ = ["Resubscriber", "SingleRetryBiPredicate"]

T = TypeVar("T")


class Resubscriber:
    """The resubscription loop of retry/retry_when/repeat_when: :meth:`subscribe_next`
    subscribes ``source`` again; a call made while a subscription runs (a synchronous
    source ending at once) is counted by ``resubscribe`` and served by the running loop,
    never nested. Once ``main`` is disposed the drain stays owned: no more subscriptions."""

    __slots__ = ()
    source: Single[Any]
    main: AtomicReference[Disposable]
    resubscribe: Drain

    def subscribe_next(self) -> None:
        gate = self.resubscribe
        if not gate.enter():
            return
        while True:
            if self.main.get() is DISPOSED:
                return
            self.source._subscribe(self)  # type: ignore[arg-type]
            if not gate.leave():
                return


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


class RetryObserver(Resubscriber, SingleObserver[T], Disposable, Generic[T]):
    __slots__ = ("downstream", "source", "predicate", "main", "resubscribe", "attempts")

    def __init__(self, downstream: SingleObserver[T], source: Single[T],
                 predicate: Callable[[int, BaseException], bool]) -> None:
        self.downstream = downstream
        self.source = source
        self.predicate = predicate
        self.main: AtomicReference[Disposable] = AtomicReference()
        self.resubscribe = Drain()
        self.attempts = 0

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
