"""Single.amb / amb_array / amb_with: the first source to signal wins (Maybe's and
Completable's amb run the same race, ``maybe_amb.py``, ``completable_amb.py``).

The "once" pattern: every source shares one observer; the first terminal
signal that wins ``once.compare_and_set(False, True)`` disposes the rest and
goes downstream; a losing error goes to :func:`rxpy2.plugins.on_error`.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any
from typing import Generic
from typing import TypeVar

from rxpy2 import plugins
from rxpy2._internal.atomic import AtomicBoolean
from rxpy2._internal.observers.empty import EmptyDisposable
from rxpy2.disposables import CompositeDisposable
from rxpy2.disposables import Disposable
from rxpy2.observers import CompletableObserver
from rxpy2.observers import MaybeObserver
from rxpy2.observers import SingleObserver
from rxpy2.single import Single

__all__ = ["AmbObserver", "SingleAmb", "subscribe_amb"]

T = TypeVar("T")

_END: Any = object()


class SingleAmb(Single[T], Generic[T]):
    __slots__ = ("sources",)

    def __init__(self, sources: Iterable[Single[T]]) -> None:
        self.sources = sources

    def subscribe_actual(self, observer: SingleObserver[T]) -> None:
        subscribe_amb(self.sources, observer, Single)


def subscribe_amb(sources: Iterable[Any], observer: Any, kind: type,
                  complete_if_empty: bool = False) -> None:
    """Subscribe ``observer`` to the race of ``sources`` (each must be a ``kind``).

    No sources: ``on_complete`` if ``complete_if_empty`` (Maybe, Completable: as RxJava 2), else
    ``IndexError`` (RxJava 2's Single would never signal)."""
    try:
        it = iter(sources)
    except Exception as e:
        EmptyDisposable.error(e, observer)
        return
    parent: AmbObserver[Any] = AmbObserver(observer)
    observer.on_subscribe(parent.set)
    count = 0
    while not parent.set.is_disposed():
        try:
            s: Any = next(it, _END)
            if s is _END:
                if count == 0:
                    if complete_if_empty:
                        parent.on_complete()
                        return
                    raise IndexError("amb() of no sources")
                return
            if not isinstance(s, kind):
                raise TypeError(f"amb() source {count} is a {type(s).__name__}, "
                                f"not a {kind.__name__}")
        except Exception as e:
            parent.on_error(e)
            return
        count += 1
        source: Any = s
        source._subscribe(parent)


class AmbObserver(SingleObserver[T], MaybeObserver[T], CompletableObserver, Generic[T]):
    """Observes every source of an amb (Single, Maybe or Completable)."""

    __slots__ = ("downstream", "set", "once")

    def __init__(self, downstream: Any) -> None:
        self.downstream = downstream
        self.set = CompositeDisposable()
        self.once = AtomicBoolean(False)

    def on_subscribe(self, d: Disposable) -> None:
        self.set.add(d)

    def on_success(self, item: T) -> None:
        if self.once.compare_and_set(False, True):
            self.set.dispose()
            self.downstream.on_success(item)

    def on_error(self, error: BaseException) -> None:
        if self.once.compare_and_set(False, True):
            self.set.dispose()
            self.downstream.on_error(error)
        else:
            plugins.on_error(error)

    def on_complete(self) -> None:
        if self.once.compare_and_set(False, True):
            self.set.dispose()
            self.downstream.on_complete()
