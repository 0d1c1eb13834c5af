"""BlockingMultiObserver: waits on a ``threading.Event`` for the terminal signal.

Behind ``Single.blocking_get``, ``Maybe.blocking_get`` and
``Completable.blocking_await``: the only places where the 0-1 types block a
thread, as their names say.
"""

from __future__ import annotations

import threading
from typing import Any, Generic, TypeVar

from rxpy2.disposables import Disposable
from rxpy2.internal.atomic import AtomicReference
from rxpy2.internal.helpers.disposable_helper import DisposableHelper
from rxpy2.observers import CompletableObserver, MaybeObserver, SingleObserver

__all__ = ["BlockingMultiObserver"]

T = TypeVar("T")


class BlockingMultiObserver(SingleObserver[T], MaybeObserver[T], CompletableObserver,
                            Disposable, Generic[T]):
    """Records the terminal signal; :meth:`blocking_get` waits for it."""

    def __init__(self) -> None:
        self._upstream: AtomicReference[Disposable] = AtomicReference()
        self._event = threading.Event()
        self.value: T | None = None
        self.error: BaseException | None = None

    def on_subscribe(self, d: Disposable) -> None:
        DisposableHelper.set_once(self._upstream, d)

    def on_success(self, item: T) -> None:
        self.value = item
        self._event.set()

    def on_error(self, error: BaseException) -> None:
        self.error = error
        self._event.set()

    def on_complete(self) -> None:
        self._event.set()

    def dispose(self) -> None:
        DisposableHelper.dispose(self._upstream)

    def is_disposed(self) -> bool:
        return DisposableHelper.is_disposed(self._upstream.get())

    def blocking_get(self, timeout: float | None = None) -> Any:
        """Wait for the terminal signal: the value (``None`` after ``on_complete``), or raise
        the error. ``TimeoutError`` after ``timeout`` seconds; a timeout or an interrupt
        (``KeyboardInterrupt``) disposes the upstream first."""
        ev = self._event
        if not ev.is_set():
            try:
                ok = ev.wait(timeout)
            except BaseException:
                self.dispose()
                raise
            if not ok:
                self.dispose()
                raise TimeoutError(f"no terminal signal within {timeout} seconds")
        e = self.error
        if e is not None:
            raise e
        return self.value
