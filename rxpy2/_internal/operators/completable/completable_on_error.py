"""Completable.on_error_complete and on_error_resume_next."""

from __future__ import annotations

from collections.abc import Callable

from rxpy2._internal.operators.maybe.maybe_on_error import OnErrorCompleteObserver
from rxpy2._internal.operators.single.single_on_error import ResumeNextObserver
from rxpy2._internal.zero_one import FunctionOp
from rxpy2.completable import Completable
from rxpy2.observers import CompletableObserver

__all__ = ["CompletableOnErrorComplete", "CompletableResumeNext"]


class CompletableOnErrorComplete(FunctionOp[object], Completable):
    __slots__ = ()

    observer_type = OnErrorCompleteObserver


class CompletableResumeNext(Completable):
    __slots__ = ("source", "fn")

    def __init__(self, source: Completable,
                 fn: Callable[[BaseException], Completable]) -> None:
        self.source = source
        self.fn = fn

    def subscribe_actual(self, observer: CompletableObserver) -> None:
        parent: ResumeNextObserver[object] = ResumeNextObserver(observer, self.fn, Completable)
        observer.on_subscribe(parent)
        self.source._subscribe(parent)
