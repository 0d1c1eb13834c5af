"""Single.from_callable: calls a function per subscriber and signals its result.

:func:`call_and_signal` is the subscribe body of the three "call a function per
subscriber" sources (Maybe's ``from_callable``, Completable's ``from_action`` too).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from typing import Generic
from typing import TypeVar

from rxpy2 import plugins
from rxpy2._internal.fuseable import Callable as CallableSource
from rxpy2.disposables import Disposables
from rxpy2.observers import SingleObserver
from rxpy2.single import Single

__all__ = ["SingleFromCallable", "call_and_signal"]

T = TypeVar("T")


def call_and_signal(observer: Any, fn: Callable[[], T], on_result: Callable[[T], Any]) -> None:
    """Give ``observer`` a Disposable, then (unless disposed) call ``fn()``: its result
    goes to ``on_result``, what it raises to ``observer.on_error``; after a dispose,
    nothing, or the error to :func:`rxpy2.plugins.on_error`."""
    d = Disposables.empty()
    observer.on_subscribe(d)
    if d.is_disposed():
        return
    try:
        v = fn()
    except Exception as e:
        if not d.is_disposed():
            observer.on_error(e)
        else:
            plugins.on_error(e)
        return
    if not d.is_disposed():
        on_result(v)


class SingleFromCallable(Single[T], CallableSource[T], Generic[T]):
    """``None`` from the function is a ``TypeError`` (a Single must have an item)."""

    __slots__ = ("supplier",)

    def __init__(self, supplier: Callable[[], T]) -> None:
        self.supplier = supplier

    def subscribe_actual(self, observer: SingleObserver[T]) -> None:
        call_and_signal(observer, self.call, observer.on_success)

    def call(self) -> T:
        v = self.supplier()
        if v is None:
            raise TypeError("The callable returned None")
        return v
