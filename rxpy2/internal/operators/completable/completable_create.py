"""Completable.create: a function given a :class:`~rxpy2.emitter.CompletableEmitter` per
subscriber;
Completable.unsafe_create / Completable.wrap (RxJava 2's CompletableFromUnsafeSource).

The emitter is Single.create's (``single_create.CreateEmitter``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rxpy2.completable import Completable
from rxpy2.emitter import CompletableEmitter
from rxpy2.internal.operators.single.single_create import subscribe_create
from rxpy2.observers import CompletableObserver

__all__ = ["CompletableCreate", "CompletableUnsafeCreate"]


class CompletableCreate(Completable):
    __slots__ = ("source",)

    def __init__(self, source: Callable[[CompletableEmitter], Any]) -> None:
        self.source = source

    def subscribe_actual(self, observer: CompletableObserver) -> None:
        subscribe_create(self.source, observer)


class CompletableUnsafeCreate(Completable):
    """Completable.unsafe_create / Completable.wrap: ``source(observer)`` with the observer
    itself."""

    __slots__ = ("source",)

    def __init__(self, source: Callable[[CompletableObserver], Any]) -> None:
        self.source = source

    def subscribe_actual(self, observer: CompletableObserver) -> None:
        self.source(observer)
