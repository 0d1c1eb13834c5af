"""Maybe.flat_map_publisher: the items of the Publisher ``mapper(item)`` returns.

An empty Maybe completes the Flowable. Requests made before the Publisher is
subscribed are kept and handed over (``SingleFlatMapPublisher``, whose
``SourceObserver`` completes on an empty Maybe).
"""

from __future__ import annotations

from typing import Generic
from typing import TypeVar

from rxpy2._internal.operators.single.single_flat_map_publisher import SingleFlatMapPublisher

__all__ = ["MaybeFlatMapPublisher"]

T = TypeVar("T")
R = TypeVar("R")


class MaybeFlatMapPublisher(SingleFlatMapPublisher[T, R], Generic[T, R]):
    __slots__ = ()
