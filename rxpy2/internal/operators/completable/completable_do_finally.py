"""Completable.do_finally: run an action once, after the terminal signal or on dispose."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rxpy2.completable import Completable
from rxpy2.internal.observers.do_finally import DoFinallyObserver
from rxpy2.observers import CompletableObserver

__all__ = ["CompletableDoFinally"]


class CompletableDoFinally(Completable):
    __slots__ = ("source", "action")

    def __init__(self, source: Completable, action: Callable[[], Any]) -> None:
        self.source = source
        self.action = action

    def subscribe_actual(self, observer: CompletableObserver) -> None:
        self.source._subscribe(DoFinallyObserver(observer, self.action))
