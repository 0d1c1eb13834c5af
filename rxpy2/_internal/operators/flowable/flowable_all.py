"""Flowable.all: False as soon as an item fails the predicate (the upstream is then
cancelled), True when the stream completes without such an item; as a Single.
The implementation is shared with ``any`` (:mod:`.flowable_any`)."""

from __future__ import annotations

from typing import Generic
from typing import TypeVar

from rxpy2._internal.operators.flowable.flowable_any import FlowablePredicateStopSingle

__all__ = ["FlowableAllSingle"]

T = TypeVar("T")


class FlowableAllSingle(FlowablePredicateStopSingle[T], Generic[T]):
    __slots__ = ()

    stop_on = False
