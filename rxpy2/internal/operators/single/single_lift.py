"""Single.lift (RxJava 2's SingleLift): a custom operator given as a function of the
downstream observer that returns the observer to subscribe upstream.

:func:`subscribe_lifted` is the body of Maybe.lift and Completable.lift too.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, TypeVar

from rxpy2.internal.observers.empty import EmptyDisposable
from rxpy2.internal.zero_one import ZeroOneBase
from rxpy2.observers import SingleObserver
from rxpy2.single import Single

__all__ = ["SingleLift", "subscribe_lifted"]

T = TypeVar("T")
R = TypeVar("R")


class SingleLift(Single[R], Generic[T, R]):
    __slots__ = ("source", "operator")

    def __init__(self, source: Single[T],
                 operator: Callable[[SingleObserver[R]], SingleObserver[T]]) -> None:
        self.source = source
        self.operator = operator

    def subscribe_actual(self, observer: SingleObserver[R]) -> None:
        subscribe_lifted(self.source, self.operator, observer)


def subscribe_lifted(source: ZeroOneBase, operator: Callable[[Any], Any], observer: Any) -> None:
    """Subscribe ``operator(observer)`` to ``source``; ``operator`` raising or returning
    ``None`` signals that error to ``observer`` (after ``on_subscribe``, §1.9) and leaves
    ``source`` unsubscribed."""
    try:
        lifted = operator(observer)
        if lifted is None:
            raise TypeError(f"the lift operator {operator!r} returned None instead of an observer")
    except Exception as e:
        EmptyDisposable.error(e, observer)
        return
    source._subscribe(lifted)
