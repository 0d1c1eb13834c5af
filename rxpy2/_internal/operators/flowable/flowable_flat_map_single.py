"""Flowable.flat_map_single: map each item to a Single and merge their successes.

The same operator as ``flat_map_maybe`` (see flowable_flat_map_maybe.py: the
request pattern, the fast path, error delaying), with ``mapper`` returning a
Single: each inner source ends with a success or an error.
"""

from __future__ import annotations

from typing import ClassVar
from typing import Generic
from typing import TypeVar

from rxpy2._internal.operators.flowable.flowable_flat_map_maybe import FlowableFlatMapMaybe
from rxpy2.single import Single

__all__ = ["FlowableFlatMapSingle"]

T = TypeVar("T")
R = TypeVar("R")


class FlowableFlatMapSingle(FlowableFlatMapMaybe[T, R], Generic[T, R]):
    __slots__ = ()

    KIND: ClassVar[type] = Single
