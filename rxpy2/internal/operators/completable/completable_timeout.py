"""Completable.timeout (RxJava 2's CompletableTimeout): Single's timeout
(``single_timeout.py``); the fallback is a Completable."""

from __future__ import annotations

from typing import Any

from rxpy2.completable import Completable
from rxpy2.internal.operators.single.single_timeout import TimeoutOp

__all__ = ["CompletableTimeout"]


class CompletableTimeout(TimeoutOp[Any], Completable):
    __slots__ = ()
