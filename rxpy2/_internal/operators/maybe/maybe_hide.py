"""Maybe.hide and Maybe.on_terminate_detach (RxJava 2's MaybeHide, MaybeDetach):
Single's operator bodies and observers (``single_hide.py``), which also pass
``on_complete`` on."""

from __future__ import annotations

from typing import Generic
from typing import TypeVar

from rxpy2._internal.operators.single.single_hide import DetachOp
from rxpy2._internal.operators.single.single_hide import HideOp
from rxpy2.maybe import Maybe

__all__ = ["MaybeDetach", "MaybeHide"]

T = TypeVar("T")


class MaybeHide(HideOp[T], Maybe[T], Generic[T]):
    __slots__ = ()


class MaybeDetach(DetachOp[T], Maybe[T], Generic[T]):
    __slots__ = ()
