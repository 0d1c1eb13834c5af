"""Completable.from_action / from_callable: run a function per subscriber, then complete.

A result of the function is ignored; what it raises is signalled (or, after
the subscriber disposed, reported to :func:`rxpy2.plugins.on_error`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rxpy2._internal.operators.single.single_from_callable import call_and_signal
from rxpy2.completable import Completable
from rxpy2.observers import CompletableObserver

__all__ = ["CompletableFromAction"]


class CompletableFromAction(Completable):
    __slots__ = ("action",)

    def __init__(self, action: Callable[[], Any]) -> None:
        self.action = action

    def subscribe_actual(self, observer: CompletableObserver) -> None:
        call_and_signal(observer, self.action, lambda _result: observer.on_complete())
