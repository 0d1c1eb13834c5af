"""Maybe.checkpoint: Single's operator body and observer (``single_checkpoint.py``)."""

from __future__ import annotations

from typing import Generic
from typing import TypeVar

from rxpy2._internal.operators.single.single_checkpoint import CheckpointOp
from rxpy2.maybe import Maybe

__all__ = ["MaybeCheckpoint"]

T = TypeVar("T")


class MaybeCheckpoint(CheckpointOp[T], Maybe[T], Generic[T]):
    __slots__ = ()
