"""Completable.create: a function given a :class:`~rxpy2.emitter.CompletableEmitter` per
subscriber; Completable.unsafe_create / Completable.wrap (RxJava 2's
CompletableFromUnsafeSource).

Single's operator bodies (``single_create.py``).
"""

from __future__ import annotations

from typing import Any

from rxpy2._internal.operators.single.single_create import CreateOp
from rxpy2._internal.operators.single.single_create import UnsafeCreateOp
from rxpy2.completable import Completable

__all__ = ["CompletableCreate", "CompletableUnsafeCreate"]


class CompletableCreate(CreateOp[Any], Completable):
    __slots__ = ()


class CompletableUnsafeCreate(UnsafeCreateOp[Any], Completable):
    __slots__ = ()
