"""Maybe.never: signals nothing but ``on_subscribe`` (Single's operator body,
``single_never.py``)."""

from __future__ import annotations

from typing import Any

from rxpy2._internal.operators.single.single_never import NeverOp
from rxpy2.maybe import Maybe

__all__ = ["MaybeNever"]


class MaybeNever(NeverOp, Maybe[Any]):
    __slots__ = ()

    INSTANCE: MaybeNever


MaybeNever.INSTANCE = MaybeNever()
