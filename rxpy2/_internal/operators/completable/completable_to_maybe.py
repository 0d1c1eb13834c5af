"""Completable.to_maybe: a Maybe that completes empty, or fails, with the Completable."""

from __future__ import annotations

from typing import Any

from rxpy2.completable import Completable
from rxpy2.maybe import Maybe
from rxpy2.observers import MaybeObserver

__all__ = ["CompletableToMaybe"]


class CompletableToMaybe(Maybe[Any]):
    __slots__ = ("source",)

    def __init__(self, source: Completable) -> None:
        self.source = source

    def subscribe_actual(self, observer: MaybeObserver[Any]) -> None:
        self.source._subscribe(observer)  # a MaybeObserver is one
