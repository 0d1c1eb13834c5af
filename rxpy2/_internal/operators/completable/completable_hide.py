"""Completable.hide and Completable.on_terminate_detach (RxJava 2's CompletableHide,
CompletableDetach): Single's operator bodies and observers (``single_hide.py``)."""

from __future__ import annotations

from typing import Any

from rxpy2._internal.operators.single.single_hide import DetachOp
from rxpy2._internal.operators.single.single_hide import HideOp
from rxpy2.completable import Completable

__all__ = ["CompletableDetach", "CompletableHide"]


class CompletableHide(HideOp[Any], Completable):
    __slots__ = ()


class CompletableDetach(DetachOp[Any], Completable):
    __slots__ = ()
