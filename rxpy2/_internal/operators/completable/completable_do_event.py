"""Completable.do_on_event / do_on_terminate / do_after_terminate (RxJava 2's
CompletableDoOnEvent and CompletablePeek's on-terminate/after-terminate): Single's
operator bodies and observers (``single_do_event.py``); a Completable source never
calls ``on_success``, so ``on_event`` gets ``(None, error)`` or ``(None, None)``."""

from __future__ import annotations

from typing import Any

from rxpy2._internal.operators.single.single_do_event import DoAfterOp
from rxpy2._internal.operators.single.single_do_event import DoOnEventOp
from rxpy2.completable import Completable

__all__ = ["CompletableDoAfter", "CompletableDoOnEvent"]


class CompletableDoOnEvent(DoOnEventOp[Any], Completable):
    __slots__ = ()


class CompletableDoAfter(DoAfterOp[Any], Completable):
    __slots__ = ()
