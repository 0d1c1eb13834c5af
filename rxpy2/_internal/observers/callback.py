"""The observers behind the callback forms of ``subscribe`` on Single, Maybe and Completable.

Each is a Disposable (the value ``subscribe`` returns). The first terminal
signal swaps the upstream slot to ``DISPOSED``, so exactly one callback runs;
a signal after that, or after ``dispose()``, is dropped (an error goes to
:func:`rxpy2.plugins.on_error`). A callback that raises reports to
``plugins.on_error`` (there is nobody downstream). Without ``on_error`` an
error goes there as :class:`OnErrorNotImplementedException`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from typing import Generic
from typing import TypeVar

from rxpy2 import plugins
from rxpy2._internal.atomic import AtomicReference
from rxpy2._internal.helpers.disposable_helper import DISPOSED
from rxpy2._internal.helpers.disposable_helper import DisposableHelper
from rxpy2._internal.helpers.exception_helper import call_on_error
from rxpy2._internal.helpers.exception_helper import call_reporting
from rxpy2.disposables import Disposable
from rxpy2.exceptions import OnErrorNotImplementedException
from rxpy2.observers import CompletableObserver
from rxpy2.observers import MaybeObserver
from rxpy2.observers import SingleObserver

__all__ = ["CallbackCompletableObserver", "CallbackMaybeObserver", "ConsumerSingleObserver"]

T = TypeVar("T")


def missing_on_error(e: BaseException) -> None:
    """The ``on_error`` used when the caller gave none."""
    plugins.on_error(OnErrorNotImplementedException(e))


class _CallbackBase(Disposable):
    __slots__ = ("_upstream", "_on_error")

    def __init__(self, on_error: Callable[[BaseException], Any] | None) -> None:
        self._upstream: AtomicReference[Disposable] = AtomicReference()
        self._on_error = on_error if on_error is not None else missing_on_error

    def on_subscribe(self, d: Disposable) -> None:
        DisposableHelper.set_once(self._upstream, d)

    def _terminate(self) -> bool:
        """True for the first terminal signal, unless disposed before it."""
        ref = self._upstream
        return ref.get() is not DISPOSED and ref.get_and_set(DISPOSED) is not DISPOSED

    def on_error(self, error: BaseException) -> None:
        if self._terminate():
            call_on_error(self._on_error, error)
        else:
            plugins.on_error(error)

    def dispose(self) -> None:
        DisposableHelper.dispose(self._upstream)

    def is_disposed(self) -> bool:
        return self._upstream.get() is DISPOSED

    def has_custom_on_error(self) -> bool:
        return self._on_error is not missing_on_error




class ConsumerSingleObserver(_CallbackBase, SingleObserver[T], Generic[T]):
    """``Single.subscribe(on_success, on_error)``."""

    __slots__ = ("_on_success",)

    def __init__(self, on_success: Callable[[T], Any] | None,
                 on_error: Callable[[BaseException], Any] | None) -> None:
        super().__init__(on_error)
        self._on_success = on_success

    def on_success(self, item: T) -> None:
        if self._terminate():
            call_reporting(self._on_success, item)


class CallbackMaybeObserver(_CallbackBase, MaybeObserver[T], Generic[T]):
    """``Maybe.subscribe(on_success, on_error, on_complete)``."""

    __slots__ = ("_on_success", "_on_complete")

    def __init__(self, on_success: Callable[[T], Any] | None,
                 on_error: Callable[[BaseException], Any] | None,
                 on_complete: Callable[[], Any] | None) -> None:
        super().__init__(on_error)
        self._on_success = on_success
        self._on_complete = on_complete

    def on_success(self, item: T) -> None:
        if self._terminate():
            call_reporting(self._on_success, item)

    def on_complete(self) -> None:
        if self._terminate():
            call_reporting(self._on_complete)


class CallbackCompletableObserver(_CallbackBase, CompletableObserver):
    """``Completable.subscribe(on_complete, on_error)``."""

    __slots__ = ("_on_complete",)

    def __init__(self, on_complete: Callable[[], Any] | None,
                 on_error: Callable[[BaseException], Any] | None) -> None:
        super().__init__(on_error)
        self._on_complete = on_complete

    def on_complete(self) -> None:
        if self._terminate():
            call_reporting(self._on_complete)
