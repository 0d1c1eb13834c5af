"""Maybe.flat_map_single_element (RxJava 2's MaybeFlatMapSingleElement): a Maybe that
continues with the Single ``mapper(item)`` returns; an empty Maybe stays empty.

Maybe.flat_map's observer, which completes on an empty Maybe.
"""

from __future__ import annotations

from typing import Generic
from typing import TypeVar

from rxpy2._internal.observers.resume import ResumeMaybeObserver
from rxpy2._internal.operators.maybe.maybe_flat_map import MaybeFlatMapObserver
from rxpy2._internal.operators.single.single_flat_map import FlatMapSource
from rxpy2.maybe import Maybe
from rxpy2.single import Single

__all__ = ["MaybeFlatMapSingleElement"]

T = TypeVar("T")
R = TypeVar("R")


class MaybeFlatMapSingleElement(FlatMapSource[T], Maybe[R], Generic[T, R]):
    __slots__ = ()

    observer_type = MaybeFlatMapObserver
    kind = Single
    resume = ResumeMaybeObserver
