"""Completable.timeout (RxJava 2's CompletableTimeout): Single's timeout
(``single_timeout.py``); the fallback is a Completable."""

from __future__ import annotations

from typing import Any

from rxpy2._internal.operators.single.single_timeout import TimeoutOp
from rxpy2.completable import Completable

__all__ = ["CompletableTimeout"]


class CompletableTimeout(TimeoutOp[Any], Completable):
    __slots__ = ()
