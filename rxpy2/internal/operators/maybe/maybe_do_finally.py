"""Maybe.do_finally: run an action once, after the terminal signal or on dispose."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, TypeVar

from rxpy2.internal.observers.do_finally import DoFinallyObserver
from rxpy2.maybe import Maybe
from rxpy2.observers import MaybeObserver

__all__ = ["MaybeDoFinally"]

T = TypeVar("T")


class MaybeDoFinally(Maybe[T], Generic[T]):
    __slots__ = ("source", "action")

    def __init__(self, source: Maybe[T], action: Callable[[], Any]) -> None:
        self.source = source
        self.action = action

    def subscribe_actual(self, observer: MaybeObserver[T]) -> None:
        self.source._subscribe(DoFinallyObserver(observer, self.action))
