"""Completable.defer: calls a supplier per subscriber for the Completable to subscribe
to (Single's operator body, ``single_defer.py``)."""

from __future__ import annotations

from typing import Any

from rxpy2._internal.operators.single.single_defer import DeferOp
from rxpy2.completable import Completable

__all__ = ["CompletableDefer"]


class CompletableDefer(DeferOp[Any], Completable):
    __slots__ = ()
