"""Completable.take_until: the ``take_until`` of ``single_take_until`` (RxJava 2's
CompletableTakeUntilCompletable): the trigger completes the Completable."""

from __future__ import annotations

from rxpy2._internal.operators.single.single_take_until import TakeUntilSource
from rxpy2.completable import Completable

__all__ = ["CompletableTakeUntil"]


class CompletableTakeUntil(TakeUntilSource, Completable):
    __slots__ = ()
