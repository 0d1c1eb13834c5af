"""Single.map: apply a function to the item."""

from __future__ import annotations

from typing import Generic
from typing import TypeVar

from rxpy2._internal.helpers.function_names import returned_none
from rxpy2._internal.zero_one import FunctionObserver
from rxpy2._internal.zero_one import FunctionOp
from rxpy2.observers import MaybeObserver
from rxpy2.observers import SingleObserver
from rxpy2.single import Single

__all__ = ["MapObserver", "SingleMap"]

T = TypeVar("T")
R = TypeVar("R")


class MapObserver(FunctionObserver[T], SingleObserver[T], MaybeObserver[T], Generic[T, R]):
    """The function runs after upstream ended (``FunctionObserver``); an empty Maybe
    stays empty (a Single never calls ``on_complete``)."""

    __slots__ = ()

    def on_success(self, item: T) -> None:
        try:
            v = self.fn(item)
            if v is None:
                raise returned_none("map", self.fn)  # §2.13
        except Exception as e:
            self.downstream.on_error(e)
            return
        self.downstream.on_success(v)

    def on_complete(self) -> None:
        self.downstream.on_complete()


class SingleMap(FunctionOp[T], Single[R], Generic[T, R]):
    __slots__ = ()

    observer_type = MapObserver
