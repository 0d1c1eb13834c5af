"""Completable.timer (RxJava 2's CompletableTimer): Single's timer (``single_timer.py``),
completing instead of signalling ``0``."""

from __future__ import annotations

from rxpy2._internal.operators.single.single_timer import TimerOp
from rxpy2.completable import Completable

__all__ = ["CompletableTimer"]


class CompletableTimer(TimerOp, Completable):
    __slots__ = ()

    _COMPLETES = True
