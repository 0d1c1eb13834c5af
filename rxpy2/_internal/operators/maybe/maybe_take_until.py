"""Maybe.take_until: the ``take_until`` of ``single_take_until`` (RxJava 2's
MaybeTakeUntilPublisher and MaybeTakeUntilMaybe): the trigger completes the Maybe."""

from __future__ import annotations

from typing import Generic
from typing import TypeVar

from rxpy2._internal.operators.single.single_take_until import TakeUntilSource
from rxpy2.maybe import Maybe

__all__ = ["MaybeTakeUntil"]

T = TypeVar("T")


class MaybeTakeUntil(TakeUntilSource, Maybe[T], Generic[T]):
    __slots__ = ()
