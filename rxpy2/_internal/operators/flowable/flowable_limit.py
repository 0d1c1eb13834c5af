"""Flowable.limit: RxJava's name for :class:`FlowableTake`'s contract (the first ``n`` items,
at most ``n`` requested upstream in total); one implementation serves both."""

from __future__ import annotations

from typing import Generic
from typing import TypeVar

from rxpy2._internal.operators.flowable.flowable_take import FlowableTake

__all__ = ["FlowableLimit"]

T = TypeVar("T")


class FlowableLimit(FlowableTake[T], Generic[T]):
    __slots__ = ()
