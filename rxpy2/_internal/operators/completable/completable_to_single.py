"""Completable.to_single / to_single_default: an item, supplied on completion."""

from __future__ import annotations

from typing import Generic
from typing import TypeVar

from rxpy2._internal.zero_one import FunctionObserver
from rxpy2._internal.zero_one import FunctionOp
from rxpy2.observers import CompletableObserver
from rxpy2.single import Single

__all__ = ["CompletableToSingle"]

T = TypeVar("T")


class _ToSingleObserver(FunctionObserver[T], CompletableObserver, Generic[T]):
    """``fn``: the supplier of the item."""

    __slots__ = ()

    def on_complete(self) -> None:
        try:
            v = self.fn()
            if v is None:
                raise TypeError("The supplier returned None")
        except Exception as e:
            self.downstream.on_error(e)
            return
        self.downstream.on_success(v)


class CompletableToSingle(FunctionOp[T], Single[T], Generic[T]):
    __slots__ = ()

    observer_type = _ToSingleObserver
