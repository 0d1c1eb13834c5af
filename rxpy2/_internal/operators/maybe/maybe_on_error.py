"""Maybe.on_error_return(_item), on_error_resume_next, on_exception_resume_next and
on_error_complete."""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic
from typing import TypeVar

from rxpy2._internal.operators.single.single_on_error import OnErrorReturnObserver
from rxpy2._internal.operators.single.single_on_error import ResumeNextObserver
from rxpy2._internal.zero_one import FunctionObserver
from rxpy2._internal.zero_one import FunctionOp
from rxpy2.exceptions import CompositeException
from rxpy2.maybe import Maybe
from rxpy2.observers import CompletableObserver
from rxpy2.observers import MaybeObserver

__all__ = ["MaybeOnErrorComplete", "MaybeOnErrorReturn", "MaybeOnExceptionResumeNext",
           "MaybeResumeNext"]

T = TypeVar("T")


class MaybeOnErrorReturn(FunctionOp[T], Maybe[T], Generic[T]):
    __slots__ = ()

    observer_type = OnErrorReturnObserver


class MaybeResumeNext(Maybe[T], Generic[T]):
    __slots__ = ("source", "fn")

    def __init__(self, source: Maybe[T], fn: Callable[[BaseException], Maybe[T]]) -> None:
        self.source = source
        self.fn = fn

    def subscribe_actual(self, observer: MaybeObserver[T]) -> None:
        parent: ResumeNextObserver[T] = ResumeNextObserver(observer, self.fn, Maybe)
        observer.on_subscribe(parent)
        self.source._subscribe(parent)


class MaybeOnExceptionResumeNext(Maybe[T], Generic[T]):
    """RxJava 2's MaybeOnErrorNext with ``allowFatal=false``: resumes with ``fallback`` on
    an ``Exception``; any other ``BaseException`` goes downstream as it is."""

    __slots__ = ("source", "fallback")

    def __init__(self, source: Maybe[T], fallback: Maybe[T]) -> None:
        self.source = source
        self.fallback = fallback

    def subscribe_actual(self, observer: MaybeObserver[T]) -> None:
        fallback = self.fallback
        parent: ResumeNextObserver[T] = _ExceptionResumeNextObserver(
            observer, lambda _e: fallback, Maybe)
        observer.on_subscribe(parent)
        self.source._subscribe(parent)


class _ExceptionResumeNextObserver(ResumeNextObserver[T], Generic[T]):
    __slots__ = ()

    def on_error(self, error: BaseException) -> None:
        if isinstance(error, Exception):
            super().on_error(error)
        else:
            self.downstream.on_error(error)


class OnErrorCompleteObserver(FunctionObserver[T], MaybeObserver[T], CompletableObserver, Generic[T]):
    """``fn``: the predicate, or None (every error completes)."""

    __slots__ = ()

    def on_success(self, item: T) -> None:
        self.downstream.on_success(item)

    def on_complete(self) -> None:
        self.downstream.on_complete()

    def on_error(self, error: BaseException) -> None:
        p = self.fn
        if p is not None:
            try:
                b = p(error)
            except Exception as e:
                self.downstream.on_error(CompositeException(error, e))
                return
            if not b:
                self.downstream.on_error(error)
                return
        self.downstream.on_complete()


class MaybeOnErrorComplete(FunctionOp[T], Maybe[T], Generic[T]):
    """Also behind ``Completable.on_error_complete`` (its observer has no ``on_success``)."""

    __slots__ = ()

    observer_type = OnErrorCompleteObserver
