"""Completable.never: signals nothing but ``on_subscribe`` (Single's operator body,
``single_never.py``)."""

from __future__ import annotations

from rxpy2._internal.operators.single.single_never import NeverOp
from rxpy2.completable import Completable

__all__ = ["CompletableNever"]


class CompletableNever(NeverOp, Completable):
    __slots__ = ()

    INSTANCE: CompletableNever


CompletableNever.INSTANCE = CompletableNever()
