"""Completable.using: the ``using`` of ``single_using`` (RxJava 2's CompletableUsing)."""

from __future__ import annotations

from rxpy2._internal.operators.single.single_using import UsingSource
from rxpy2.completable import Completable

__all__ = ["CompletableUsing"]


class CompletableUsing(UsingSource, Completable):
    __slots__ = ()

    _KIND = Completable
