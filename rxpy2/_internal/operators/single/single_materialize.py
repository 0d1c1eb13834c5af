"""Single/Maybe/Completable.materialize and Single.dematerialize (RxJava 2's
SingleMaterialize, MaybeMaterialize, CompletableMaterialize, SingleDematerialize).

``materialize`` of any 0-1 source is a Single of a :class:`~rxpy2.notification.Notification`:
``on_next(item)`` for an item, ``on_complete`` for an empty completion, ``on_error(e)``
for an error. ``dematerialize(selector)`` turns ``selector(item)``, a Notification,
back into a Maybe's signal.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from typing import Generic
from typing import TypeVar

from rxpy2._internal.operators.single.single_hide import HideObserver
from rxpy2._internal.zero_one import ZeroOneBase
from rxpy2.maybe import Maybe
from rxpy2.notification import Notification
from rxpy2.observers import CompletableObserver
from rxpy2.observers import MaybeObserver
from rxpy2.observers import SingleObserver
from rxpy2.single import Single

__all__ = ["SingleDematerialize", "SingleMaterialize"]

T = TypeVar("T")
R = TypeVar("R")


class SingleMaterialize(Single[Notification[T]], Generic[T]):
    """Serves Single, Maybe and Completable: the source is any 0-1 type."""

    __slots__ = ("source",)

    def __init__(self, source: ZeroOneBase) -> None:
        self.source = source

    def subscribe_actual(self, observer: SingleObserver[Notification[T]]) -> None:
        self.source._subscribe(MaterializeObserver(observer))


class MaterializeObserver(HideObserver[T], MaybeObserver[T], CompletableObserver, Generic[T]):
    """Single.hide's observer (upstream kept, identity hidden), signals as items."""

    __slots__ = ()

    def on_success(self, item: T) -> None:
        self.downstream.on_success(Notification.create_on_next(item))

    def on_error(self, error: BaseException) -> None:
        self.downstream.on_success(Notification.create_on_error(error))

    def on_complete(self) -> None:
        self.downstream.on_success(Notification.create_on_complete())


class SingleDematerialize(Maybe[R], Generic[T, R]):
    __slots__ = ("source", "selector")

    def __init__(self, source: Single[T], selector: Callable[[T], Notification[R]]) -> None:
        self.source = source
        self.selector = selector

    def subscribe_actual(self, observer: MaybeObserver[R]) -> None:
        self.source._subscribe(DematerializeObserver(observer, self.selector))


class DematerializeObserver(HideObserver[T], Generic[T, R]):
    __slots__ = ("selector",)

    def __init__(self, downstream: Any, selector: Callable[[T], Notification[R]]) -> None:
        super().__init__(downstream)
        self.selector = selector

    def on_success(self, item: T) -> None:
        try:
            n = self.selector(item)
            if not isinstance(n, Notification):
                raise TypeError("The selector returned None" if n is None else
                                f"The selector returned a {type(n).__name__}, not a Notification")
        except Exception as e:
            self.downstream.on_error(e)
            return
        if n.is_on_next():
            self.downstream.on_success(n.value)
        elif n.is_on_complete():
            self.downstream.on_complete()
        else:
            self.downstream.on_error(n.error)

