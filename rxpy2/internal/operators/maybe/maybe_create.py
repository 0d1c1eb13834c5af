"""Maybe.create: a function given a :class:`~rxpy2.emitter.MaybeEmitter` per subscriber;
Maybe.unsafe_create / Maybe.wrap (RxJava 2's MaybeUnsafeCreate).

The emitter is Single.create's (``single_create.CreateEmitter``), which also
signals ``on_complete``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, TypeVar

from rxpy2.emitter import MaybeEmitter
from rxpy2.internal.operators.single.single_create import subscribe_create
from rxpy2.maybe import Maybe
from rxpy2.observers import MaybeObserver

__all__ = ["MaybeCreate", "MaybeUnsafeCreate"]

T = TypeVar("T")


class MaybeCreate(Maybe[T], Generic[T]):
    __slots__ = ("source",)

    def __init__(self, source: Callable[[MaybeEmitter[T]], Any]) -> None:
        self.source = source

    def subscribe_actual(self, observer: MaybeObserver[T]) -> None:
        subscribe_create(self.source, observer)


class MaybeUnsafeCreate(Maybe[T], Generic[T]):
    """Maybe.unsafe_create / Maybe.wrap: ``source(observer)`` with the observer itself."""

    __slots__ = ("source",)

    def __init__(self, source: Callable[[MaybeObserver[T]], Any]) -> None:
        self.source = source

    def subscribe_actual(self, observer: MaybeObserver[T]) -> None:
        self.source(observer)
