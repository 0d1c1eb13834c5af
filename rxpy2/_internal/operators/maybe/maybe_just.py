"""Maybe.just(x): signals a constant item; a ScalarCallable for assembly-time fusion
(Single's operator body, ``single_just.py``)."""

from __future__ import annotations

from typing import Generic
from typing import TypeVar

from rxpy2._internal.fuseable import ScalarCallable
from rxpy2._internal.operators.single.single_just import JustOp
from rxpy2.maybe import Maybe

__all__ = ["MaybeJust"]

T = TypeVar("T")


class MaybeJust(JustOp[T], Maybe[T], ScalarCallable[T], Generic[T]):
    __slots__ = ()
