"""Maybe.timer (RxJava 2's MaybeTimer): Single's timer (``single_timer.py``) as a Maybe."""

from __future__ import annotations

from rxpy2._internal.operators.single.single_timer import TimerOp
from rxpy2.maybe import Maybe

__all__ = ["MaybeTimer"]


class MaybeTimer(TimerOp, Maybe[int]):
    __slots__ = ()
