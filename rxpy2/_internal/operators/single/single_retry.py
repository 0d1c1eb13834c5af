"""retry(bi_predicate=...) of Single, Maybe and Completable: resubscribe while
``bi_predicate(attempt, error)`` holds.

``attempt`` counts the errors so far (1 at the first). A predicate that raises ends
the stream with ``CompositeException(error, raised)``. A success or a completion
goes downstream as it is. Resubscription runs in a loop (:class:`Resubscriber`, on
a :class:`~rxpy2.operator_kit.Drain`), so a synchronous source failing again and again
never nests the calls. (The ``times``/``predicate`` forms are built on
Flowable.retry, as RxJava 2 builds them.)

One observer serves the three types (a Single source never completes, a
Completable source never succeeds); the operator classes share
:class:`RetryBiPredicateOp`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from typing import Generic
from typing import TypeVar

from rxpy2._internal.atomic import AtomicReference
from rxpy2._internal.helpers.disposable_helper import DISPOSED
from rxpy2._internal.helpers.disposable_helper import DisposableHelper
from rxpy2._internal.operators.flowable.flowable_retry import retry_if
from rxpy2.disposables import Disposable
from rxpy2.observers import CompletableObserver
from rxpy2.observers import MaybeObserver
from rxpy2.observers import SingleObserver
from rxpy2.operator_kit import Drain
from rxpy2.operator_kit import require_callable
from rxpy2.operator_kit import require_non_negative
from rxpy2.reactivestreams import LONG_MAX
from rxpy2.single import Single

__all__ = ["Resubscriber", "RetryBiPredicateOp", "SingleRetryBiPredicate", "check_retry",
           "check_times"]

T = TypeVar("T")

BiPredicate = Callable[[int, BaseException], Any]


def check_times(times: int | None) -> int:
    """The ``times`` of retry/repeat checked at assembly: ``LONG_MAX`` (no limit) for None."""
    n = LONG_MAX if times is None else times
    require_non_negative(n, "times")
    return n


def check_retry(times: int | None, predicate: Callable[[BaseException], Any] | None,
                bi_predicate: BiPredicate | None) -> int:
    """The arguments of Single/Maybe/Completable.retry checked at assembly: the times
    (see :func:`check_times`); ``bi_predicate`` goes alone."""
    if bi_predicate is not None:
        require_callable(bi_predicate, "bi_predicate")
        if times is not None or predicate is not None:
            raise TypeError("bi_predicate goes alone, without times or predicate")
        return LONG_MAX
    n = check_times(times)
    if predicate is not None:
        require_callable(predicate, "predicate")
    return n


class Resubscriber:
    """The resubscription loop of retry/retry_when/repeat_when: :meth:`subscribe_next`
    subscribes ``source`` (a Single, Maybe or Completable) again; a call made while a
    subscription runs (a synchronous source ending at once) is counted by
    ``resubscribe`` and served by the running loop, never nested. Once ``main`` is
    disposed the drain stays owned: no more subscriptions."""

    __slots__ = ()
    source: Any
    main: AtomicReference[Disposable]
    resubscribe: Drain

    def subscribe_next(self) -> None:
        gate = self.resubscribe
        if not gate.enter():
            return
        while True:
            if self.main.get() is DISPOSED:
                return
            self.source._subscribe(self)
            if not gate.leave():
                return


class RetryBiPredicateOp:
    """The operator part shared by Single/Maybe/CompletableRetryBiPredicate (a mixin:
    the concrete class declares the slots)."""

    __slots__ = ()
    source: Any
    predicate: BiPredicate

    def __init__(self, source: Any, predicate: BiPredicate) -> None:
        self.source = source
        self.predicate = predicate

    def subscribe_actual(self, observer: Any) -> None:
        parent: RetryObserver[Any] = RetryObserver(observer, self.source, self.predicate)
        observer.on_subscribe(parent)
        parent.subscribe_next()


class SingleRetryBiPredicate(RetryBiPredicateOp, Single[T], Generic[T]):
    __slots__ = ("source", "predicate")


class RetryObserver(Resubscriber, SingleObserver[T], MaybeObserver[T], CompletableObserver,
                    Disposable, Generic[T]):
    __slots__ = ("downstream", "source", "predicate", "main", "resubscribe", "attempts")

    def __init__(self, downstream: Any, source: Any, predicate: BiPredicate) -> None:
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

    def on_complete(self) -> None:
        self.downstream.on_complete()

    def on_error(self, error: BaseException) -> None:
        self.attempts += 1
        retry_if(self.downstream, self.subscribe_next, error, self.predicate, self.attempts, error)

    def dispose(self) -> None:
        DisposableHelper.dispose(self.main)

    def is_disposed(self) -> bool:
        return self.main.get() is DISPOSED
