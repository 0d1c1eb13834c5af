"""Completable.do_on_complete / do_on_error / do_on_subscribe / do_on_dispose.

Uses Maybe's peek observer (``maybe_peek.py``); a Completable never calls ``on_success``.
"""

from __future__ import annotations

from rxpy2._internal.operators.maybe.maybe_peek import MaybePeekObserver
from rxpy2._internal.operators.single.single_peek import Fn
from rxpy2.completable import Completable
from rxpy2.observers import CompletableObserver

__all__ = ["CompletablePeek"]


class CompletablePeek(Completable):
    __slots__ = ("source", "on_subscribe_fn", "on_error_fn", "on_complete_fn", "on_dispose_fn")

    def __init__(self, source: Completable, on_subscribe: Fn, on_error: Fn, on_complete: Fn,
                 on_dispose: Fn) -> None:
        self.source = source
        self.on_subscribe_fn = on_subscribe
        self.on_error_fn = on_error
        self.on_complete_fn = on_complete
        self.on_dispose_fn = on_dispose

    def subscribe_actual(self, observer: CompletableObserver) -> None:
        self.source._subscribe(MaybePeekObserver[object](
            observer, self.on_subscribe_fn, None, self.on_error_fn, self.on_dispose_fn,
            self.on_complete_fn))
