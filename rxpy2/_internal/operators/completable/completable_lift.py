"""Completable.lift (RxJava 2's CompletableLift): Single's operator body (``single_lift.py``).

RxJava 2 reports an operator that raises to ``RxJavaPlugins.onError`` and leaves
the observer without any signal; here the observer gets the error, as with
Single.lift and Maybe.lift.
"""

from __future__ import annotations

from typing import Any

from rxpy2._internal.operators.single.single_lift import LiftOp
from rxpy2.completable import Completable

__all__ = ["CompletableLift"]


class CompletableLift(LiftOp[Any], Completable):
    __slots__ = ()
