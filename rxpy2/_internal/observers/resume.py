"""Observers that carry a stream on in a second source, reusing the first one's slot.

The parent operator passes itself (an ``AtomicReference`` of the current upstream
Disposable) downstream; when it subscribes the next source with one of these,
the next source's Disposable replaces the finished one (``DisposableHelper.replace``),
so a ``dispose()`` from downstream reaches whichever source is running.
Signals go straight to ``downstream``.
"""

from __future__ import annotations

from typing import Any
from typing import Generic
from typing import TypeVar

from rxpy2._internal.atomic import AtomicReference
from rxpy2._internal.helpers.disposable_helper import DisposableHelper
from rxpy2.disposables import Disposable
from rxpy2.observers import CompletableObserver
from rxpy2.observers import MaybeObserver
from rxpy2.observers import SingleObserver

__all__ = ["ResumeCompletableObserver", "ResumeMaybeObserver", "ResumeSingleObserver"]

T = TypeVar("T")


class _Resume:
    """The slot-reusing subscription and the error of every resume observer."""

    __slots__ = ("parent", "downstream")

    def __init__(self, parent: AtomicReference[Disposable], downstream: Any) -> None:
        self.parent = parent
        self.downstream = downstream

    def on_subscribe(self, d: Disposable) -> None:
        DisposableHelper.replace(self.parent, d)

    def on_error(self, error: BaseException) -> None:
        self.downstream.on_error(error)


class ResumeSingleObserver(_Resume, SingleObserver[T], Generic[T]):
    __slots__ = ()

    def on_success(self, item: T) -> None:
        self.downstream.on_success(item)


class ResumeMaybeObserver(ResumeSingleObserver[T], MaybeObserver[T], Generic[T]):
    __slots__ = ()

    def on_complete(self) -> None:
        self.downstream.on_complete()


class ResumeCompletableObserver(_Resume, CompletableObserver):
    __slots__ = ()

    def on_complete(self) -> None:
        self.downstream.on_complete()
