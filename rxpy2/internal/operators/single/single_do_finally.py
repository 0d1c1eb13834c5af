"""Single.do_finally: run an action once, after the terminal signal or on dispose."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, TypeVar

from rxpy2.internal.observers.do_finally import DoFinallyObserver
from rxpy2.observers import SingleObserver
from rxpy2.single import Single

__all__ = ["SingleDoFinally"]

T = TypeVar("T")


class SingleDoFinally(Single[T], Generic[T]):
    __slots__ = ("source", "action")

    def __init__(self, source: Single[T], action: Callable[[], Any]) -> None:
        self.source = source
        self.action = action

    def subscribe_actual(self, observer: SingleObserver[T]) -> None:
        self.source._subscribe(DoFinallyObserver(observer, self.action))
