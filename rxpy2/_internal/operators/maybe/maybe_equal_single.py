"""Maybe.sequence_equal (RxJava 2's MaybeEqualSingle): whether two Maybes signal the same.

Both are subscribed, ``first`` then ``second``. When both have ended, the result is
``is_equal(a, b)`` (``==`` by default) if both had an item, True if both were empty,
False if one was; an error of either is signalled at once and disposes the other
(a second error goes to :func:`rxpy2.plugins.on_error`). ``left`` counts the Maybes
still running; an error sets it to 0, so only one of them ends the Single.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rxpy2 import plugins
from rxpy2._internal.atomic import AtomicInteger
from rxpy2._internal.atomic import AtomicReference
from rxpy2._internal.helpers.disposable_helper import DISPOSED
from rxpy2._internal.helpers.disposable_helper import DisposableHelper
from rxpy2.disposables import Disposable
from rxpy2.maybe import Maybe
from rxpy2.observers import MaybeObserver
from rxpy2.observers import SingleObserver
from rxpy2.single import Single

__all__ = ["MaybeSequenceEqualSingle"]


def _equals(a: Any, b: Any) -> bool:
    return bool(a == b)


class MaybeSequenceEqualSingle(Single[bool]):
    __slots__ = ("first", "second", "is_equal")

    def __init__(self, first: Maybe[Any], second: Maybe[Any],
                 is_equal: Callable[[Any, Any], bool] | None) -> None:
        self.first = first
        self.second = second
        self.is_equal = is_equal

    def subscribe_actual(self, observer: SingleObserver[bool]) -> None:
        parent = EqualCoordinator(observer, self.is_equal or _equals)
        observer.on_subscribe(parent)
        self.first._subscribe(parent.observer1)
        self.second._subscribe(parent.observer2)


class EqualCoordinator(Disposable):
    __slots__ = ("downstream", "is_equal", "left", "observer1", "observer2")

    def __init__(self, downstream: SingleObserver[bool],
                 is_equal: Callable[[Any, Any], bool]) -> None:
        self.downstream = downstream
        self.is_equal = is_equal
        self.left = AtomicInteger(2)
        self.observer1 = EqualObserver(self)
        self.observer2 = EqualObserver(self)

    def done(self) -> None:
        if self.left.decrement_and_get() != 0:
            return
        a, b = self.observer1.value, self.observer2.value
        if a is not None and b is not None:
            try:
                result = bool(self.is_equal(a, b))
            except Exception as e:
                self.downstream.on_error(e)
                return
            self.downstream.on_success(result)
        else:
            self.downstream.on_success(a is None and b is None)

    def error(self, sender: EqualObserver, error: BaseException) -> None:
        if self.left.get_and_set(0) > 0:
            (self.observer2 if sender is self.observer1 else self.observer1).dispose()
            self.downstream.on_error(error)
        else:
            plugins.on_error(error)

    def dispose(self) -> None:
        self.observer1.dispose()
        self.observer2.dispose()

    def is_disposed(self) -> bool:
        return self.observer1.get() is DISPOSED


class EqualObserver(AtomicReference[Disposable], MaybeObserver[Any]):
    __slots__ = ("parent", "value")

    def __init__(self, parent: EqualCoordinator) -> None:
        super().__init__()
        self.parent = parent
        self.value: Any = None

    def on_subscribe(self, d: Disposable) -> None:
        DisposableHelper.set_once(self, d)

    def on_success(self, item: Any) -> None:
        self.value = item
        self.parent.done()

    def on_complete(self) -> None:
        self.parent.done()

    def on_error(self, error: BaseException) -> None:
        self.parent.error(self, error)

    def dispose(self) -> None:
        DisposableHelper.dispose(self)
