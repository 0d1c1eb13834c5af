"""Completable.do_finally: run an action once, after the terminal signal or on dispose
(Single's operator body, ``single_do_finally.py``)."""

from __future__ import annotations

from typing import Any

from rxpy2._internal.operators.single.single_do_finally import DoFinallyOp
from rxpy2.completable import Completable

__all__ = ["CompletableDoFinally"]


class CompletableDoFinally(DoFinallyOp[Any], Completable):
    __slots__ = ()
