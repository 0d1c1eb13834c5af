"""Flowable.to_list: all items in a new list per subscriber, as a Single (requests everything).

A :class:`~.flowable_collect.FlowableCollectSingle` with ``list`` and ``list.append``.
"""

from __future__ import annotations

from typing import Generic
from typing import TypeVar

from rxpy2._internal.operators.flowable.flowable_collect import FlowableCollectSingle
from rxpy2.reactivestreams import Publisher

__all__ = ["FlowableToListSingle"]

T = TypeVar("T")


class FlowableToListSingle(FlowableCollectSingle[T, list[T]], Generic[T]):
    __slots__ = ()

    def __init__(self, source: Publisher[T]) -> None:
        super().__init__(source, list, list.append)
