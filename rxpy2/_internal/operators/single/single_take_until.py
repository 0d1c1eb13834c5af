"""Single.take_until, and the ``take_until`` shared with Maybe and Completable.

RxJava 2's SingleTakeUntil, MaybeTakeUntilPublisher/MaybeTakeUntilMaybe and
CompletableTakeUntilCompletable: ``other`` (a Publisher, or a 0-1 source through its
``to_flowable``) is subscribed first, requested unbounded, then the main source.
The first item or the completion of ``other`` ends the main source: a Single then
signals ``concurrent.futures.CancelledError`` (RxJava's ``CancellationException``),
a Maybe or a Completable completes. An error of ``other`` is signalled. Whichever
comes first wins the ``main`` reference (swapped to DISPOSED); a later error goes
to :func:`rxpy2.plugins.on_error`.
"""

from __future__ import annotations

import concurrent.futures
from typing import Any
from typing import ClassVar
from typing import Generic
from typing import TypeVar

from rxpy2 import plugins
from rxpy2._internal.atomic import AtomicReference
from rxpy2._internal.helpers.disposable_helper import DISPOSED
from rxpy2._internal.helpers.disposable_helper import DisposableHelper
from rxpy2._internal.subscribers.other_trigger import OtherTriggerSubscriber
from rxpy2._internal.zero_one import as_publisher
from rxpy2.disposables import Disposable
from rxpy2.observers import CompletableObserver
from rxpy2.observers import MaybeObserver
from rxpy2.observers import SingleObserver
from rxpy2.reactivestreams import Publisher
from rxpy2.single import Single

__all__ = ["SingleTakeUntil", "TakeUntilSource", "take_until_other"]

T = TypeVar("T")


class TakeUntilSource:
    """``take_until`` itself, mixed into SingleTakeUntil/MaybeTakeUntil/CompletableTakeUntil
    before the type; ``_CANCEL``: the trigger signals ``CancelledError`` (Single) rather
    than completion (Maybe, Completable)."""

    __slots__ = ("source", "other")

    _CANCEL: ClassVar[bool] = False

    def __init__(self, source: Any, other: Publisher[Any]) -> None:
        self.source = source
        self.other = other

    def subscribe_actual(self, observer: Any) -> None:
        parent = TakeUntilMainObserver(observer, self._CANCEL)
        observer.on_subscribe(parent)
        self.other.subscribe(parent.other)
        self.source._subscribe(parent)


class TakeUntilMainObserver(AtomicReference[Disposable], SingleObserver[Any],
                            MaybeObserver[Any], CompletableObserver, Disposable):
    """The main source's observer; the reference holds its Disposable, DISPOSED once a
    signal went downstream or the downstream disposed."""

    __slots__ = ("downstream", "other", "cancel")

    def __init__(self, downstream: Any, cancel: bool) -> None:
        super().__init__()
        self.downstream = downstream
        self.cancel = cancel
        self.other = OtherTriggerSubscriber(self)

    def on_subscribe(self, d: Disposable) -> None:
        DisposableHelper.set_once(self, d)

    def _win(self) -> bool:
        """Take the right to signal downstream (once)."""
        return self.get() is not DISPOSED and self.get_and_set(DISPOSED) is not DISPOSED

    def on_success(self, item: Any) -> None:
        self.other.dispose()
        if self._win():
            self.downstream.on_success(item)

    def on_complete(self) -> None:
        self.other.dispose()
        if self._win():
            self.downstream.on_complete()

    def on_error(self, error: BaseException) -> None:
        self.other.dispose()
        if self._win():
            self.downstream.on_error(error)
        else:
            plugins.on_error(error)

    def other_error(self, error: BaseException) -> None:
        if DisposableHelper.dispose(self):
            self.downstream.on_error(error)
        else:
            plugins.on_error(error)

    def other_trigger(self) -> None:
        if self.cancel:
            self.other_error(concurrent.futures.CancelledError(
                "take_until: the other source signalled before the Single"))
        elif DisposableHelper.dispose(self):
            self.downstream.on_complete()

    def dispose(self) -> None:
        DisposableHelper.dispose(self)
        self.other.dispose()

    def is_disposed(self) -> bool:
        return self.get() is DISPOSED


class SingleTakeUntil(TakeUntilSource, Single[T], Generic[T]):
    __slots__ = ()

    _CANCEL = True


def take_until_other(other: Any) -> Publisher[Any]:
    """The argument check of ``take_until`` (at assembly): ``other`` as a Publisher (a
    Single, Maybe or Completable through its ``to_flowable``); ``TypeError`` otherwise."""
    if other is None:
        raise TypeError("other is None")
    p = as_publisher(other)
    if p is None:
        raise TypeError("other must be a Publisher, Single, Maybe or Completable, "
                        f"not {type(other).__name__}")
    return p
