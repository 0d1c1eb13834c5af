"""Completable.cache: the cache of ``single_cache`` (RxJava 2's CompletableCache)."""

from __future__ import annotations

from rxpy2._internal.operators.single.single_cache import CacheSource
from rxpy2.completable import Completable

__all__ = ["CompletableCache"]


class CompletableCache(CacheSource, Completable):
    __slots__ = ()
