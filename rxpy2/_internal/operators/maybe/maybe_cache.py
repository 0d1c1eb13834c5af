"""Maybe.cache: the cache of ``single_cache`` (RxJava 2's MaybeCache)."""

from __future__ import annotations

from typing import Generic
from typing import TypeVar

from rxpy2._internal.operators.single.single_cache import CacheSource
from rxpy2.maybe import Maybe

__all__ = ["MaybeCache"]

T = TypeVar("T")


class MaybeCache(CacheSource, Maybe[T], Generic[T]):
    __slots__ = ()

    _SKIP_DISPOSED = True
