"""BlockingMultiObserver: waits on a :class:`~rxpy2._internal.helpers.parker.Parker` for the
terminal signal (not on a ``threading.Event``, whose wait can turn a Ctrl-C into
``RuntimeError``: see the Parker's module).

Behind ``Single.blocking_get``, ``Maybe.blocking_get`` and
``Completable.blocking_await``: the only places where the 0-1 types block a
thread, as their names say.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any
from typing import Generic
from typing import TypeVar

from rxpy2._internal.atomic import AtomicReference
from rxpy2._internal.helpers.disposable_helper import DisposableHelper
from rxpy2._internal.helpers.parker import Parker
from rxpy2.disposables import Disposable
from rxpy2.observers import CompletableObserver
from rxpy2.observers import MaybeObserver
from rxpy2.observers import SingleObserver

__all__ = ["BlockingMultiObserver"]

T = TypeVar("T")


class BlockingMultiObserver(SingleObserver[T], MaybeObserver[T], CompletableObserver,
                            Disposable, Generic[T]):
    """Records the terminal signal; :meth:`blocking_get` waits for it."""

    def __init__(self) -> None:
        self._upstream: AtomicReference[Disposable] = AtomicReference()
        self._done = False  # set before the permit is given: the waiter's condition
        self._parker = Parker()
        self.value: T | None = None
        self.error: BaseException | None = None

    def on_subscribe(self, d: Disposable) -> None:
        DisposableHelper.set_once(self._upstream, d)

    def on_success(self, item: T) -> None:
        self.value = item
        self._done = True
        self._parker.unpark()

    def on_error(self, error: BaseException) -> None:
        self.error = error
        self._done = True
        self._parker.unpark()

    def on_complete(self) -> None:
        self._done = True
        self._parker.unpark()

    def dispose(self) -> None:
        DisposableHelper.dispose(self._upstream)

    def is_disposed(self) -> bool:
        return DisposableHelper.is_disposed(self._upstream.get())

    def blocking_get(self, subscribe: Callable[[Any], None], timeout: float | None = None) -> Any:
        """Subscribe (``subscribe(self)``) and wait for the terminal signal: the value
        (``None`` after ``on_complete``), or raise the error. ``TimeoutError`` after
        ``timeout`` seconds; a timeout or an interrupt (``KeyboardInterrupt``, also one
        that lands just after the subscription) disposes the upstream first."""
        parker = self._parker
        try:
            subscribe(self)
            if timeout is None:
                while not self._done:
                    parker.park()
            else:
                deadline = time.monotonic() + timeout
                while not self._done:
                    left = deadline - time.monotonic()
                    if left <= 0.0:
                        break
                    parker.park(left)
        except BaseException:
            self.dispose()
            raise
        if not self._done:
            self.dispose()
            raise TimeoutError(f"no terminal signal within {timeout} seconds")
        e = self.error
        if e is not None:
            raise e
        return self.value
