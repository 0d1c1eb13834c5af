"""Single.do_finally: run an action once, after the terminal signal or on dispose.

The operator body (:class:`DoFinallyOp`, a mixin) serves Maybe and Completable too
(``maybe_do_finally.py``, ``completable_do_finally.py``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from typing import Generic
from typing import TypeVar

from rxpy2._internal.observers.do_finally import DoFinallyObserver
from rxpy2._internal.zero_one import ZeroOneBase
from rxpy2.single import Single

__all__ = ["DoFinallyOp", "SingleDoFinally"]

T = TypeVar("T")


class DoFinallyOp(Generic[T]):
    """The operator body of the three ``do_finally`` classes."""

    __slots__ = ("source", "action")

    def __init__(self, source: ZeroOneBase, action: Callable[[], Any]) -> None:
        self.source = source
        self.action = action

    def subscribe_actual(self, observer: Any) -> None:
        self.source._subscribe(DoFinallyObserver(observer, self.action))


class SingleDoFinally(DoFinallyOp[T], Single[T], Generic[T]):
    __slots__ = ()
