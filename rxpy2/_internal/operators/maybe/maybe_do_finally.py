"""Maybe.do_finally: run an action once, after the terminal signal or on dispose
(Single's operator body, ``single_do_finally.py``)."""

from __future__ import annotations

from typing import Generic
from typing import TypeVar

from rxpy2._internal.operators.single.single_do_finally import DoFinallyOp
from rxpy2.maybe import Maybe

__all__ = ["MaybeDoFinally"]

T = TypeVar("T")


class MaybeDoFinally(DoFinallyOp[T], Maybe[T], Generic[T]):
    __slots__ = ()
