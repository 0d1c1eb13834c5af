"""Maybe.flat_map / flat_map_single / flat_map_single_element: continue with the source
``mapper(item)`` returns.

Same structure as ``Single.flat_map`` (see ``single_flat_map.py``); an empty
Maybe completes (``flat_map``, ``flat_map_single_element``: RxJava 2's
MaybeFlatMapSingleElement, a Maybe that continues with a Single) or fails with
``IndexError`` (``flat_map_single``).
``MaybeFlatMapNotification``: the source's error and completion are mapped to the
Maybe to continue with too.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from typing import Generic
from typing import TypeVar

from rxpy2._internal.helpers.disposable_helper import DISPOSED
from rxpy2._internal.observers.resume import ResumeMaybeObserver
from rxpy2._internal.observers.resume import ResumeSingleObserver
from rxpy2._internal.operators.single.single_flat_map import FlatMapObserver
from rxpy2._internal.operators.single.single_flat_map import FlatMapOp
from rxpy2._internal.operators.single.single_flat_map import apply_mapper
from rxpy2.exceptions import CompositeException
from rxpy2.maybe import Maybe
from rxpy2.observers import MaybeObserver
from rxpy2.single import Single

__all__ = ["MaybeFlatMap", "MaybeFlatMapNotification", "MaybeFlatMapSingle",
           "MaybeFlatMapSingleElement"]

T = TypeVar("T")
R = TypeVar("R")


class _FlatMapSingleObserver(FlatMapObserver[T], Generic[T]):
    __slots__ = ()

    def on_complete(self) -> None:
        self.downstream.on_error(IndexError("The Maybe completed without an item"))


class MaybeFlatMap(FlatMapOp[T], Maybe[R], Generic[T, R]):
    __slots__ = ()

    kind = Maybe
    resume = ResumeMaybeObserver


class MaybeFlatMapSingle(FlatMapOp[T], Single[R], Generic[T, R]):
    __slots__ = ()

    observer_type = _FlatMapSingleObserver
    kind = Single
    resume = ResumeSingleObserver


class MaybeFlatMapSingleElement(FlatMapOp[T], Maybe[R], Generic[T, R]):
    __slots__ = ()

    kind = Single
    resume = ResumeMaybeObserver


class MaybeFlatMapNotification(Maybe[R], Generic[T, R]):
    """``flat_map(on_success_mapper, on_error_mapper, on_complete_supplier)``: each signal
    of the source picks the Maybe to continue with (RxJava 2's ``MaybeFlatMapNotification``)."""

    __slots__ = ("source", "on_success_mapper", "on_error_mapper", "on_complete_supplier")

    def __init__(self, source: Maybe[T], on_success_mapper: Callable[[T], Maybe[R]],
                 on_error_mapper: Callable[[BaseException], Maybe[R]],
                 on_complete_supplier: Callable[[], Maybe[R]]) -> None:
        self.source = source
        self.on_success_mapper = on_success_mapper
        self.on_error_mapper = on_error_mapper
        self.on_complete_supplier = on_complete_supplier

    def subscribe_actual(self, observer: MaybeObserver[R]) -> None:
        self.source._subscribe(_FlatMapNotificationObserver(
            observer, self.on_success_mapper, self.on_error_mapper, self.on_complete_supplier))


class _FlatMapNotificationObserver(FlatMapObserver[T], MaybeObserver[T], Generic[T]):
    """A mapper that raises (or returns no Maybe) ends it with its error; the error
    mapper's together with the source's error (a ``CompositeException``)."""

    __slots__ = ("on_error_mapper", "on_complete_supplier")

    def __init__(self, downstream: Any, on_success_mapper: Callable[[T], Any],
                 on_error_mapper: Callable[[BaseException], Any],
                 on_complete_supplier: Callable[[], Any]) -> None:
        super().__init__(downstream, on_success_mapper, Maybe, ResumeMaybeObserver)
        self.on_error_mapper = on_error_mapper
        self.on_complete_supplier = on_complete_supplier

    def on_error(self, error: BaseException) -> None:
        try:
            inner = apply_mapper(self.on_error_mapper, error, Maybe)
        except Exception as e:
            self.downstream.on_error(CompositeException(error, e))
            return
        self._continue_with(inner)

    def on_complete(self) -> None:
        try:
            inner = apply_mapper(lambda _: self.on_complete_supplier(), None, Maybe)
        except Exception as e:
            self.downstream.on_error(e)
            return
        self._continue_with(inner)

    def _continue_with(self, inner: Maybe[Any]) -> None:
        if self.get() is not DISPOSED:
            inner._subscribe(ResumeMaybeObserver(self, self.downstream))
