"""Maybe.using: the ``using`` of ``single_using`` (RxJava 2's MaybeUsing)."""

from __future__ import annotations

from typing import Generic
from typing import TypeVar

from rxpy2._internal.operators.single.single_using import UsingSource
from rxpy2.maybe import Maybe

__all__ = ["MaybeUsing"]

T = TypeVar("T")


class MaybeUsing(UsingSource, Maybe[T], Generic[T]):
    __slots__ = ()

    _KIND = Maybe
