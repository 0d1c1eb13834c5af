"""Single.zip / zip_array / zip_with: combine the items of several Singles.

Several sources race to terminate, so the coordinator is the "once" pattern
over a counter: ``remaining`` starts at the number of sources; each item
decrements it and the one that reaches 0 calls the zipper. An error swaps the
counter to 0: only a swap that found it positive may signal ``on_error``
(and dispose the other sources); any later error goes to
:func:`rxpy2.plugins.on_error`. ``dispose()`` does the same swap.
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Sequence
from typing import Any
from typing import Generic
from typing import TypeVar

from rxpy2 import plugins
from rxpy2._internal.atomic import AtomicInteger
from rxpy2._internal.atomic import AtomicReference
from rxpy2._internal.helpers.disposable_helper import DISPOSED
from rxpy2._internal.helpers.disposable_helper import DisposableHelper
from rxpy2.disposables import Disposable
from rxpy2.observers import MaybeObserver
from rxpy2.observers import SingleObserver
from rxpy2.single import Single

__all__ = ["SingleZipArray", "ZipArrayOp", "ZipCoordinator"]

T = TypeVar("T")
R = TypeVar("R")


class ZipArrayOp(Generic[R]):
    """The operator body of Single's and Maybe's ``zip_array`` (a mixin)."""

    __slots__ = ("sources", "zipper")

    def __init__(self, sources: Sequence[Any], zipper: Callable[..., R]) -> None:
        self.sources = sources
        self.zipper = zipper

    def subscribe_actual(self, observer: Any) -> None:
        sources = self.sources
        parent: ZipCoordinator[R] = ZipCoordinator(observer, len(sources), self.zipper)
        observer.on_subscribe(parent)
        for i, s in enumerate(sources):
            if parent.is_disposed():
                return
            s._subscribe(parent.observers[i])


class SingleZipArray(ZipArrayOp[R], Single[R], Generic[R]):
    __slots__ = ()


class ZipCoordinator(Disposable, Generic[R]):
    """Shared by ``Single`` and ``Maybe`` zip (a Maybe's empty completion ends the zip)."""

    __slots__ = ("downstream", "zipper", "remaining", "values", "observers")

    def __init__(self, downstream: Any, n: int, zipper: Callable[..., R]) -> None:
        self.downstream = downstream
        self.zipper = zipper
        self.remaining = AtomicInteger(n)
        self.values: list[Any] = [None] * n
        self.observers = [ZipInnerObserver(self, i) for i in range(n)]

    def inner_success(self, index: int, item: Any) -> None:
        self.values[index] = item
        if self.remaining.decrement_and_get() == 0:
            values, self.values = self.values, []
            try:
                v = self.zipper(*values)
                if v is None:
                    raise TypeError("The zipper returned None")
            except Exception as e:
                self.downstream.on_error(e)
                return
            self.downstream.on_success(v)

    def inner_error(self, index: int, error: BaseException) -> None:
        if self.remaining.get_and_set(0) > 0:
            self._dispose_except(index)
            self.downstream.on_error(error)
        else:
            plugins.on_error(error)

    def inner_complete(self, index: int) -> None:
        if self.remaining.get_and_set(0) > 0:
            self._dispose_except(index)
            self.downstream.on_complete()

    def _dispose_except(self, index: int) -> None:
        for i, o in enumerate(self.observers):
            if i != index:
                o.dispose()

    def dispose(self) -> None:
        if self.remaining.get_and_set(0) > 0:
            for o in self.observers:
                o.dispose()

    def is_disposed(self) -> bool:
        return self.remaining.get() <= 0


class ZipInnerObserver(AtomicReference[Disposable], SingleObserver[Any], MaybeObserver[Any]):
    """Observes one source (Single or Maybe) of a zip."""

    __slots__ = ("parent", "index")

    def __init__(self, parent: ZipCoordinator[Any], index: int) -> None:
        super().__init__()
        self.parent = parent
        self.index = index

    def on_subscribe(self, d: Disposable) -> None:
        DisposableHelper.set_once(self, d)

    def on_success(self, item: Any) -> None:
        self.lazy_set(DISPOSED)
        self.parent.inner_success(self.index, item)

    def on_error(self, error: BaseException) -> None:
        self.lazy_set(DISPOSED)
        self.parent.inner_error(self.index, error)

    def on_complete(self) -> None:
        self.lazy_set(DISPOSED)
        self.parent.inner_complete(self.index)

    def dispose(self) -> None:
        DisposableHelper.dispose(self)
