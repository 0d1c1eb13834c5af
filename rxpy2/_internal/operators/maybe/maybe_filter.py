"""Maybe.filter and Single.filter: the item if the predicate holds, else empty."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from typing import Generic
from typing import TypeVar

from rxpy2.disposables import Disposable
from rxpy2.maybe import Maybe
from rxpy2.observers import MaybeObserver
from rxpy2.observers import SingleObserver
from rxpy2.single import Single

__all__ = ["MaybeFilter", "MaybeFilterSingle"]

T = TypeVar("T")


class MaybeFilter(Maybe[T], Generic[T]):
    __slots__ = ("source", "predicate")

    def __init__(self, source: Maybe[T], predicate: Callable[[T], bool]) -> None:
        self.source = source
        self.predicate = predicate

    def subscribe_actual(self, observer: MaybeObserver[T]) -> None:
        self.source._subscribe(FilterObserver(observer, self.predicate))


class MaybeFilterSingle(Maybe[T], Generic[T]):
    """``Single.filter``: a Single source, a Maybe result."""

    __slots__ = ("source", "predicate")

    def __init__(self, source: Single[T], predicate: Callable[[T], bool]) -> None:
        self.source = source
        self.predicate = predicate

    def subscribe_actual(self, observer: MaybeObserver[T]) -> None:
        self.source._subscribe(FilterObserver(observer, self.predicate))


class FilterObserver(SingleObserver[T], MaybeObserver[T], Generic[T]):
    """Passes the upstream Disposable through: the predicate runs after upstream ended."""

    __slots__ = ("downstream", "predicate")

    def __init__(self, downstream: Any, predicate: Callable[[T], bool]) -> None:
        self.downstream = downstream
        self.predicate = predicate

    def on_subscribe(self, d: Disposable) -> None:
        self.downstream.on_subscribe(d)

    def on_success(self, item: T) -> None:
        try:
            b = self.predicate(item)
        except Exception as e:
            self.downstream.on_error(e)
            return
        if b:
            self.downstream.on_success(item)
        else:
            self.downstream.on_complete()

    def on_error(self, error: BaseException) -> None:
        self.downstream.on_error(error)

    def on_complete(self) -> None:
        self.downstream.on_complete()
