"""EmptyDisposable: the Disposable of sources that have nothing to stop.

``INSTANCE`` reports itself disposed (a source that terminates at once, as
``Single.just``); ``NEVER`` does not (``never()``, which stays subscribed).
Both are stateless singletons; ``dispose`` does nothing. The static helpers
signal ``on_subscribe`` first and then the terminal event.
"""

from __future__ import annotations

from typing import Any

from rxpy2.disposables import Disposable

__all__ = ["EmptyDisposable"]


class EmptyDisposable(Disposable):
    __slots__ = ("_disposed",)

    INSTANCE: EmptyDisposable
    NEVER: EmptyDisposable

    def __init__(self, disposed: bool) -> None:
        self._disposed = disposed

    def dispose(self) -> None:
        pass

    def is_disposed(self) -> bool:
        return self._disposed

    @staticmethod
    def error(error: BaseException, observer: Any) -> None:
        """``on_subscribe(INSTANCE)`` then ``on_error(error)`` (any of the three observer types)."""
        observer.on_subscribe(EmptyDisposable.INSTANCE)
        observer.on_error(error)

    @staticmethod
    def complete(observer: Any) -> None:
        """``on_subscribe(INSTANCE)`` then ``on_complete()`` (Maybe and Completable observers)."""
        observer.on_subscribe(EmptyDisposable.INSTANCE)
        observer.on_complete()

    def __repr__(self) -> str:
        return "EmptyDisposable" if self._disposed else "EmptyDisposable.NEVER"


EmptyDisposable.INSTANCE = EmptyDisposable(True)
EmptyDisposable.NEVER = EmptyDisposable(False)
