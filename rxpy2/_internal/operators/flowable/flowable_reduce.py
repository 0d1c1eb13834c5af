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
from typing import Any
from typing import Generic
from typing import TypeVar

from rxpy2._internal.fuseable import HasUpstreamPublisher
from rxpy2._internal.helpers.function_names import returned_none
from rxpy2._internal.helpers.fused_stage import FusedFold
from rxpy2._internal.helpers.fused_stage import declare_fold
from rxpy2._internal.helpers.subscribe_loop import subscribe_tail
from rxpy2._internal.subscribers.to_observer import ItemOrMissingSubscriber
from rxpy2._internal.subscribers.to_observer import ToObserverSubscriber
from rxpy2._internal.subscribers.to_observer import initial_value
from rxpy2.maybe import Maybe
from rxpy2.observers import MaybeObserver
from rxpy2.observers import SingleObserver
from rxpy2.operator_kit import null_or_late_item
from rxpy2.reactivestreams import Publisher
from rxpy2.single import Single

__all__ = ["FlowableReduceMaybe", "FlowableReduceSeedSingle"]

T = TypeVar("T")
R = TypeVar("R")


def _none_result(reducer: Any) -> TypeError:
    return returned_none("reduce", reducer, "reducer function")  # §2.13


class FlowableReduceMaybe(Maybe[T], HasUpstreamPublisher[T], Generic[T]):
    __slots__ = ("source", "reducer")

    def __init__(self, source: Publisher[T], reducer: Callable[[T, T], T]) -> None:
        self.source = source
        self.reducer = reducer

    def subscribe_actual(self, observer: MaybeObserver[T]) -> None:
        subscribe_tail(self.source, ReduceSubscriber(observer, self.reducer))


class ReduceSubscriber(ItemOrMissingSubscriber[T], Generic[T]):
    """No seed: the first item is the initial accumulator; no item → empty."""

    __slots__ = ("reducer",)

    def __init__(self, downstream: MaybeObserver[T], reducer: Callable[[T, T], T]) -> None:
        super().__init__(downstream, None, True)
        self.reducer = reducer

    def fold_function(self) -> Any:
        return self.reducer  # the fold's g (a fused chain folding into it)

    def on_next(self, item: T) -> None:
        if item is None or self.done:
            null_or_late_item(item)  # §2.13
            return
        v = self.value
        if v is None:
            self.value = item
            return
        try:
            v = self.reducer(v, item)
        except Exception as e:
            self.fail(e)
            return
        if v is None:
            self.fail(_none_result(self.reducer))
            return
        self.value = v


class FlowableReduceSeedSingle(Single[R], HasUpstreamPublisher[T], Generic[T, R]):
    __slots__ = ("source", "seed_supplier", "reducer")

    def __init__(self, source: Publisher[T], seed_supplier: Callable[[], R],
                 reducer: Callable[[R, T], R]) -> None:
        self.source = source
        self.seed_supplier = seed_supplier
        self.reducer = reducer

    def subscribe_actual(self, observer: SingleObserver[R]) -> None:
        seed = initial_value(self.seed_supplier, "seed_supplier", observer)
        if seed is not None:
            subscribe_tail(self.source, ReduceSeedSubscriber(observer, self.reducer, seed))


class ReduceSeedSubscriber(ToObserverSubscriber[T], Generic[T, R]):
    """Folds from a seed; always succeeds with the accumulator on completion."""

    __slots__ = ("reducer",)

    def __init__(self, downstream: SingleObserver[R], reducer: Callable[[R, T], R],
                 seed: R) -> None:
        super().__init__(downstream, seed)
        self.reducer = reducer

    def fold_function(self) -> Any:
        return self.reducer  # the fold's g (a fused chain folding into it)

    def on_next(self, item: T) -> None:
        if item is None or self.done:
            null_or_late_item(item)  # §2.13
            return
        try:
            v: Any = self.reducer(self.value, item)
        except Exception as e:
            self.fail(e)
            return
        if v is None:
            self.fail(_none_result(self.reducer))
            return
        self.value = v


#: a fused chain into reduce: as ``on_next`` (no seed: the first item starts the fold)
declare_fold(ReduceSubscriber, FusedFold(
    "reduce", ["if acc is None:", "    acc = x", "else:", "    acc = g(acc, x)",
               "    if acc is None:", "        raise reduce_none(g)"],
    {"reduce_none": _none_result}))
#: ... into reduce with a seed
declare_fold(ReduceSeedSubscriber, FusedFold(
    "reduce_seed", ["acc = g(acc, x)", "if acc is None:", "    raise reduce_none(g)"],
    {"reduce_none": _none_result}))
