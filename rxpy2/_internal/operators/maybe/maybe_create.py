"""Maybe.create: a function given a :class:`~rxpy2.emitter.MaybeEmitter` per subscriber;
Maybe.unsafe_create / Maybe.wrap (RxJava 2's MaybeUnsafeCreate).

Single's operator bodies (``single_create.py``); the emitter, ``CreateEmitter``,
also signals ``on_complete``.
"""

from __future__ import annotations

from typing import Generic
from typing import TypeVar

from rxpy2._internal.operators.single.single_create import CreateOp
from rxpy2._internal.operators.single.single_create import UnsafeCreateOp
from rxpy2.maybe import Maybe

__all__ = ["MaybeCreate", "MaybeUnsafeCreate"]

T = TypeVar("T")


class MaybeCreate(CreateOp[T], Maybe[T], Generic[T]):
    __slots__ = ()


class MaybeUnsafeCreate(UnsafeCreateOp[T], Maybe[T], Generic[T]):
    __slots__ = ()
