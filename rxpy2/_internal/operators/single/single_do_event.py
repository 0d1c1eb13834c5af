"""Single.do_on_event / do_on_terminate (before the signal) and do_after_success /
do_after_terminate (after it); the observers serve Maybe and Completable too
(``maybe_do_event.py``, ``completable_do_event.py``).

* Before: ``on_event(item, None)`` or ``on_event(None, error)`` runs first; raising
  turns an item into that error, and joins an error as ``CompositeException``.
* After: the callback runs once the signal went downstream; raising goes to
  :func:`rxpy2.plugins.on_error`. Nothing runs on dispose.
* ``on_complete`` (Maybe, Completable): ``on_event(None, None)`` first, raising
  turns the completion into that error; ``after_terminate`` runs after it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from typing import Generic
from typing import TypeVar

from rxpy2._internal.helpers.exception_helper import call_reporting
from rxpy2._internal.operators.single.single_hide import HideObserver
from rxpy2._internal.zero_one import ZeroOneBase
from rxpy2.disposables import Disposable
from rxpy2.exceptions import CompositeException
from rxpy2.observers import CompletableObserver
from rxpy2.observers import MaybeObserver
from rxpy2.observers import SingleObserver
from rxpy2.single import Single

__all__ = ["DoAfterObserver", "DoAfterOp", "DoOnEventObserver", "DoOnEventOp", "SingleDoAfter",
           "SingleDoOnEvent"]

T = TypeVar("T")


class DoOnEventOp(Generic[T]):
    """The operator body of the three ``do_on_event`` classes (a mixin)."""

    __slots__ = ("source", "on_event")

    def __init__(self, source: ZeroOneBase, on_event: Callable[[Any, Any], Any]) -> None:
        self.source = source
        self.on_event = on_event

    def subscribe_actual(self, observer: Any) -> None:
        self.source._subscribe(DoOnEventObserver(observer, self.on_event))


class SingleDoOnEvent(DoOnEventOp[T], Single[T], Generic[T]):
    __slots__ = ()


class DoOnEventObserver(SingleObserver[T], MaybeObserver[T], CompletableObserver, Generic[T]):
    """Passes the upstream Disposable on as it is (nothing to add to dispose)."""

    __slots__ = ("downstream", "on_event")

    def __init__(self, downstream: Any, on_event: Callable[[Any, Any], Any]) -> None:
        self.downstream = downstream
        self.on_event = on_event

    def on_subscribe(self, d: Disposable) -> None:
        self.downstream.on_subscribe(d)

    def on_success(self, item: T) -> None:
        try:
            self.on_event(item, None)
        except Exception as e:
            self.downstream.on_error(e)
            return
        self.downstream.on_success(item)

    def on_error(self, error: BaseException) -> None:
        try:
            self.on_event(None, error)
        except Exception as e:
            error = CompositeException(error, e)
        self.downstream.on_error(error)

    def on_complete(self) -> None:
        try:
            self.on_event(None, None)
        except Exception as e:
            self.downstream.on_error(e)
            return
        self.downstream.on_complete()


class DoAfterOp(Generic[T]):
    """The operator body of the three ``do_after_*`` classes (a mixin)."""

    __slots__ = ("source", "after_success", "after_terminate")

    def __init__(self, source: ZeroOneBase, after_success: Callable[[T], Any] | None,
                 after_terminate: Callable[[], Any] | None) -> None:
        self.source = source
        self.after_success = after_success
        self.after_terminate = after_terminate

    def subscribe_actual(self, observer: Any) -> None:
        self.source._subscribe(DoAfterObserver(observer, self.after_success,
                                               self.after_terminate))


class SingleDoAfter(DoAfterOp[T], Single[T], Generic[T]):
    __slots__ = ()


class DoAfterObserver(HideObserver[T]):
    """Hide's observer (its own Disposable before the upstream's) plus the callbacks."""

    __slots__ = ("after_success", "after_terminate")

    def __init__(self, downstream: Any, after_success: Callable[[T], Any] | None,
                 after_terminate: Callable[[], Any] | None) -> None:
        super().__init__(downstream)
        self.after_success = after_success
        self.after_terminate = after_terminate

    def on_success(self, item: T) -> None:
        self.downstream.on_success(item)
        call_reporting(self.after_success, item)
        self._terminated()

    def on_error(self, error: BaseException) -> None:
        self.downstream.on_error(error)
        self._terminated()

    def on_complete(self) -> None:
        self.downstream.on_complete()
        self._terminated()

    def _terminated(self) -> None:
        call_reporting(self.after_terminate)
