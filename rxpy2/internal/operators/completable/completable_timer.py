"""Completable.timer (RxJava 2's CompletableTimer): Single's timer (``single_timer.py``),
completing instead of signalling ``0``."""

from __future__ import annotations

from rxpy2.completable import Completable
from rxpy2.internal.operators.single.single_timer import TimerOp

__all__ = ["CompletableTimer"]


class CompletableTimer(TimerOp, Completable):
    __slots__ = ()

    _COMPLETES = True
