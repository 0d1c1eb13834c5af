"""Completable.cache: the cache of ``single_cache`` (RxJava 2's CompletableCache)."""

from __future__ import annotations

from rxpy2.completable import Completable
from rxpy2.internal.operators.single.single_cache import CacheSource

__all__ = ["CompletableCache"]


class CompletableCache(CacheSource, Completable):
    __slots__ = ()
