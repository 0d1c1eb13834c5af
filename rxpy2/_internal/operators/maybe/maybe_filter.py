"""Maybe.filter and Single.filter: the item if the predicate holds, else empty."""

from __future__ import annotations

from typing import Generic
from typing import TypeVar

from rxpy2._internal.zero_one import FunctionObserver
from rxpy2._internal.zero_one import FunctionOp
from rxpy2.maybe import Maybe
from rxpy2.observers import MaybeObserver
from rxpy2.observers import SingleObserver

__all__ = ["MaybeFilter", "MaybeFilterSingle"]

T = TypeVar("T")


class FilterObserver(FunctionObserver[T], SingleObserver[T], MaybeObserver[T], Generic[T]):
    """The predicate runs after upstream ended (``FunctionObserver``)."""

    __slots__ = ()

    def on_success(self, item: T) -> None:
        try:
            b = self.fn(item)
        except Exception as e:
            self.downstream.on_error(e)
            return
        if b:
            self.downstream.on_success(item)
        else:
            self.downstream.on_complete()

    def on_complete(self) -> None:
        self.downstream.on_complete()


class MaybeFilter(FunctionOp[T], Maybe[T], Generic[T]):
    __slots__ = ()

    observer_type = FilterObserver


class MaybeFilterSingle(MaybeFilter[T], Generic[T]):
    """``Single.filter``: a Single source, a Maybe result."""

    __slots__ = ()
