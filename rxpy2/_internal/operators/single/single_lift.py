"""Single.lift (RxJava 2's SingleLift): a custom operator given as a function of the
downstream observer that returns the observer to subscribe upstream.

:class:`LiftOp` (a mixin) is the operator body of Maybe.lift and Completable.lift too.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from typing import Generic
from typing import TypeVar

from rxpy2._internal.observers.empty import EmptyDisposable
from rxpy2._internal.zero_one import ZeroOneBase
from rxpy2.single import Single

__all__ = ["LiftOp", "SingleLift"]

T = TypeVar("T")


class LiftOp(Generic[T]):
    """Subscribes ``operator(observer)`` to ``source``; ``operator`` raising or returning
    ``None`` signals that error to ``observer`` (after ``on_subscribe``, §1.9) and leaves
    ``source`` unsubscribed."""

    __slots__ = ("source", "operator")

    def __init__(self, source: ZeroOneBase, operator: Callable[[Any], Any]) -> None:
        self.source = source
        self.operator = operator

    def subscribe_actual(self, observer: Any) -> None:
        operator = self.operator
        try:
            lifted = operator(observer)
            if lifted is None:
                raise TypeError(f"the lift operator {operator!r} returned None "
                                "instead of an observer")
        except Exception as e:
            EmptyDisposable.error(e, observer)
            return
        self.source._subscribe(lifted)


class SingleLift(LiftOp[T], Single[T], Generic[T]):
    __slots__ = ()
