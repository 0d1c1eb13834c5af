"""Single.contains / Maybe.contains (RxJava 2's SingleContains, MaybeContains): a Single
of whether the item equals a value; an empty Maybe is False.

``ElementObserver`` (Single.hide's observer, signalling ``fn(item)`` for an item and a
fixed value for an empty completion) is shared with Maybe.count.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from typing import Generic
from typing import TypeVar

from rxpy2._internal.operators.single.single_hide import HideObserver
from rxpy2._internal.zero_one import ZeroOneBase
from rxpy2.observers import MaybeObserver
from rxpy2.observers import SingleObserver
from rxpy2.single import Single

__all__ = ["ElementObserver", "SingleContains"]

T = TypeVar("T")
R = TypeVar("R")


class SingleContains(Single[bool], Generic[T]):
    """The source is a Single or a Maybe."""

    __slots__ = ("source", "item", "comparer")

    def __init__(self, source: ZeroOneBase, item: Any,
                 comparer: Callable[[T, Any], bool]) -> None:
        self.source = source
        self.item = item
        self.comparer = comparer

    def subscribe_actual(self, observer: SingleObserver[bool]) -> None:
        comparer, item = self.comparer, self.item
        self.source._subscribe(ElementObserver(observer, lambda v: bool(comparer(v, item)),
                                               False))


class ElementObserver(HideObserver[T], MaybeObserver[T], Generic[T, R]):
    """``fn(item)`` for an item (raising → ``on_error``), ``empty`` for no item."""

    __slots__ = ("fn", "empty")

    def __init__(self, downstream: SingleObserver[R], fn: Callable[[T], R], empty: R) -> None:
        super().__init__(downstream)
        self.fn = fn
        self.empty = empty

    def on_success(self, item: T) -> None:
        try:
            v = self.fn(item)
        except Exception as e:
            self.downstream.on_error(e)
            return
        self.downstream.on_success(v)

    def on_complete(self) -> None:
        self.downstream.on_success(self.empty)
