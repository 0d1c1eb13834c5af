"""Maybe.do_on_success / do_on_error / do_on_complete / do_on_subscribe / do_on_dispose.

Single's peek observer (``single_peek.py``) plus ``on_complete``: called before
an empty completion goes downstream; raising, its error goes downstream instead.
"""

from __future__ import annotations

from typing import Any
from typing import Generic
from typing import TypeVar

from rxpy2._internal.helpers.disposable_helper import DISPOSED
from rxpy2._internal.operators.single.single_peek import Fn
from rxpy2._internal.operators.single.single_peek import PeekObserver
from rxpy2.maybe import Maybe
from rxpy2.observers import CompletableObserver
from rxpy2.observers import MaybeObserver

__all__ = ["MaybePeek"]

T = TypeVar("T")


class MaybePeek(Maybe[T], Generic[T]):
    __slots__ = ("source", "on_subscribe_fn", "on_success_fn", "on_error_fn",
                 "on_complete_fn", "on_dispose_fn")

    def __init__(self, source: Maybe[T], on_subscribe: Fn, on_success: Fn, on_error: Fn,
                 on_complete: Fn, on_dispose: Fn) -> None:
        self.source = source
        self.on_subscribe_fn = on_subscribe
        self.on_success_fn = on_success
        self.on_error_fn = on_error
        self.on_complete_fn = on_complete
        self.on_dispose_fn = on_dispose

    def subscribe_actual(self, observer: MaybeObserver[T]) -> None:
        self.source._subscribe(MaybePeekObserver(
            observer, self.on_subscribe_fn, self.on_success_fn, self.on_error_fn,
            self.on_dispose_fn, self.on_complete_fn))


class MaybePeekObserver(PeekObserver[T], MaybeObserver[T], CompletableObserver, Generic[T]):
    __slots__ = ("on_complete_fn",)

    def __init__(self, downstream: Any, on_subscribe: Fn, on_success: Fn, on_error: Fn,
                 on_dispose: Fn, on_complete: Fn) -> None:
        super().__init__(downstream, on_subscribe, on_success, on_error, on_dispose)
        self.on_complete_fn = on_complete

    def on_complete(self) -> None:
        if self.upstream is DISPOSED:
            return
        f = self.on_complete_fn
        if f is not None:
            try:
                f()
            except Exception as e:
                self._error(e)
                return
        self.upstream = DISPOSED
        self.downstream.on_complete()
