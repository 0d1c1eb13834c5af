"""Maybe.do_on_event / do_on_terminate / do_after_success / do_after_terminate
(RxJava 2's MaybeDoOnEvent, MaybeDoOnTerminate, MaybeDoAfterSuccess, and MaybePeek's
after-terminate): Single's observers (``single_do_event.py``), which also handle
``on_complete``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, TypeVar

from rxpy2.internal.operators.single.single_do_event import DoAfterObserver, DoOnEventObserver
from rxpy2.maybe import Maybe
from rxpy2.observers import MaybeObserver

__all__ = ["MaybeDoAfter", "MaybeDoOnEvent"]

T = TypeVar("T")


class MaybeDoOnEvent(Maybe[T], Generic[T]):
    __slots__ = ("source", "on_event")

    def __init__(self, source: Maybe[T], on_event: Callable[[Any, Any], Any]) -> None:
        self.source = source
        self.on_event = on_event

    def subscribe_actual(self, observer: MaybeObserver[T]) -> None:
        self.source._subscribe(DoOnEventObserver(observer, self.on_event))


class MaybeDoAfter(Maybe[T], Generic[T]):
    __slots__ = ("source", "after_success", "after_terminate")

    def __init__(self, source: Maybe[T], after_success: Callable[[T], Any] | None,
                 after_terminate: Callable[[], Any] | None) -> None:
        self.source = source
        self.after_success = after_success
        self.after_terminate = after_terminate

    def subscribe_actual(self, observer: MaybeObserver[T]) -> None:
        self.source._subscribe(DoAfterObserver(observer, self.after_success,
                                               self.after_terminate))
