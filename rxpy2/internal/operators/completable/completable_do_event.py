"""Completable.do_on_event / do_on_terminate / do_after_terminate (RxJava 2's
CompletableDoOnEvent and CompletablePeek's on-terminate/after-terminate): Single's
observers (``single_do_event.py``); a Completable source never calls ``on_success``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rxpy2.completable import Completable
from rxpy2.internal.operators.single.single_do_event import DoAfterObserver, DoOnEventObserver
from rxpy2.observers import CompletableObserver

__all__ = ["CompletableDoAfter", "CompletableDoOnEvent"]


class CompletableDoOnEvent(Completable):
    """``on_event(item, error)`` of the shared observer: the item is always ``None``."""

    __slots__ = ("source", "on_event")

    def __init__(self, source: Completable, on_event: Callable[[Any, Any], Any]) -> None:
        self.source = source
        self.on_event = on_event

    def subscribe_actual(self, observer: CompletableObserver) -> None:
        self.source._subscribe(DoOnEventObserver[object](observer, self.on_event))


class CompletableDoAfter(Completable):
    __slots__ = ("source", "after_terminate")

    def __init__(self, source: Completable, after_terminate: Callable[[], Any]) -> None:
        self.source = source
        self.after_terminate = after_terminate

    def subscribe_actual(self, observer: CompletableObserver) -> None:
        self.source._subscribe(DoAfterObserver[object](observer, None, self.after_terminate))
