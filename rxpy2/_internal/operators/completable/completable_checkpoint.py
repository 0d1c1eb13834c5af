"""Completable.checkpoint: Single's operator body and observer (``single_checkpoint.py``)."""

from __future__ import annotations

from typing import Any

from rxpy2._internal.operators.single.single_checkpoint import CheckpointOp
from rxpy2.completable import Completable

__all__ = ["CompletableCheckpoint"]


class CompletableCheckpoint(CheckpointOp[Any], Completable):
    __slots__ = ()
