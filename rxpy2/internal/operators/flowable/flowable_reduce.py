"""Flowable.reduce: fold the items with a reducer.

* :class:`FlowableReduceMaybe` (no seed): the first item starts the fold; an
  empty stream gives an empty Maybe.
* :class:`FlowableReduceSeedSingle`: the fold starts from ``seed_supplier()``
  (called per subscriber) and always gives a value, as a Single.

Both request everything upstream. A reducer that raises, or returns ``None``
(``TypeError``), cancels the upstream and signals the error.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, TypeVar

from rxpy2 import plugins
from rxpy2.disposables import Disposable, Disposables
from rxpy2.internal.fuseable import HasUpstreamPublisher
from rxpy2.internal.helpers.subscription_helper import CANCELLED, SubscriptionHelper
from rxpy2.maybe import Maybe
from rxpy2.observers import FlowableSubscriber, MaybeObserver, SingleObserver
from rxpy2.reactivestreams import LONG_MAX, Publisher, Subscription
from rxpy2.single import Single

__all__ = ["FlowableReduceMaybe", "FlowableReduceSeedSingle"]

T = TypeVar("T")
R = TypeVar("R")


def _none_result() -> TypeError:
    return TypeError("The reducer returned None")


class FlowableReduceMaybe(Maybe[T], HasUpstreamPublisher[T], Generic[T]):
    __slots__ = ("source", "reducer")

    def __init__(self, source: Publisher[T], reducer: Callable[[T, T], T]) -> None:
        self.source = source
        self.reducer = reducer

    def subscribe_actual(self, observer: MaybeObserver[T]) -> None:
        self.source.subscribe(ReduceSubscriber(observer, self.reducer))


class _ReduceBase(FlowableSubscriber[Any], Disposable):
    """Shared by both forms: upstream handling, error path and disposal."""

    __slots__ = ("downstream", "reducer", "upstream", "value", "done")

    def __init__(self, downstream: Any, reducer: Callable[[Any, Any], Any],
                 value: Any) -> None:
        self.downstream = downstream
        self.reducer = reducer
        self.upstream: Subscription | None = None
        self.value = value
        self.done = False

    def on_subscribe(self, s: Subscription) -> None:
        if SubscriptionHelper.validate(self.upstream, s):
            self.upstream = s
            self.downstream.on_subscribe(self)
            s.request(LONG_MAX)

    def _fail(self, error: BaseException) -> None:
        self.upstream.cancel()  # type: ignore[union-attr]
        self.on_error(error)

    def on_error(self, error: BaseException) -> None:
        if self.done:
            plugins.on_error(error)
            return
        self.done = True
        self.value = None
        self.upstream = CANCELLED
        self.downstream.on_error(error)

    def dispose(self) -> None:
        self.upstream.cancel()  # type: ignore[union-attr]
        self.upstream = CANCELLED

    def is_disposed(self) -> bool:
        return self.upstream is CANCELLED


class ReduceSubscriber(_ReduceBase, Generic[T]):
    """No seed: the first item is the initial accumulator."""

    __slots__ = ()

    def __init__(self, downstream: MaybeObserver[T], reducer: Callable[[T, T], T]) -> None:
        super().__init__(downstream, reducer, None)

    def on_next(self, item: T) -> None:
        if self.done:
            return
        v = self.value
        if v is None:
            self.value = item
            return
        try:
            v = self.reducer(v, item)
        except Exception as e:
            self._fail(e)
            return
        if v is None:
            self._fail(_none_result())
            return
        self.value = v

    def on_complete(self) -> None:
        if self.done:
            return
        self.done = True
        self.upstream = CANCELLED
        v = self.value
        self.value = None
        if v is not None:
            self.downstream.on_success(v)
        else:
            self.downstream.on_complete()


class FlowableReduceSeedSingle(Single[R], HasUpstreamPublisher[T], Generic[T, R]):
    __slots__ = ("source", "seed_supplier", "reducer")

    def __init__(self, source: Publisher[T], seed_supplier: Callable[[], R],
                 reducer: Callable[[R, T], R]) -> None:
        self.source = source
        self.seed_supplier = seed_supplier
        self.reducer = reducer

    def subscribe_actual(self, observer: SingleObserver[R]) -> None:
        try:
            seed = self.seed_supplier()
            if seed is None:
                raise TypeError("The seed_supplier returned None")
        except Exception as e:
            observer.on_subscribe(Disposables.disposed())
            observer.on_error(e)
            return
        self.source.subscribe(ReduceSeedSubscriber(observer, self.reducer, seed))


class ReduceSeedSubscriber(_ReduceBase, Generic[T, R]):
    """Folds from a seed; always succeeds with the accumulator on completion."""

    __slots__ = ()

    def __init__(self, downstream: SingleObserver[R], reducer: Callable[[R, T], R],
                 seed: R) -> None:
        super().__init__(downstream, reducer, seed)

    def on_next(self, item: T) -> None:
        if self.done:
            return
        try:
            v = self.reducer(self.value, item)
        except Exception as e:
            self._fail(e)
            return
        if v is None:
            self._fail(_none_result())
            return
        self.value = v

    def on_complete(self) -> None:
        if self.done:
            return
        self.done = True
        self.upstream = CANCELLED
        v = self.value
        self.value = None
        self.downstream.on_success(v)
