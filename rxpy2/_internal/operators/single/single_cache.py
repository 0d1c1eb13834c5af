"""Single.cache, and the cache shared with Maybe.cache and Completable.cache.

RxJava 2's SingleCache/MaybeCache/CompletableCache: the first subscriber
connects the upstream (once, ever); the terminal signal is kept and replayed to
every observer, those waiting and those that come later. The waiting observers
are a copy-on-write tuple in an ``AtomicReference`` (add/remove by compare-and-set,
the terminal signal swaps in ``_TERMINATED``), so observers may come and go on
any thread while the signal arrives; nothing is signalled under a lock. A
disposed observer leaves the tuple and gets nothing. The upstream is never
disposed (the cache keeps it running for the subscribers to come).
"""

from __future__ import annotations

from typing import Any
from typing import ClassVar
from typing import Generic
from typing import TypeVar

from rxpy2 import plugins
from rxpy2._internal.atomic import AtomicBoolean
from rxpy2._internal.atomic import AtomicReference
from rxpy2.disposables import Disposable
from rxpy2.observers import CompletableObserver
from rxpy2.observers import MaybeObserver
from rxpy2.observers import SingleObserver
from rxpy2.single import Single

__all__ = ["CacheSource", "SingleCache"]

T = TypeVar("T")

_Observers = tuple["CacheDisposable", ...]


class _Terminated(tuple[Any, ...]):
    """The observers' value after the terminal signal: empty, and unlike ``()`` unique."""

    __slots__ = ()


_EMPTY: _Observers = ()
_TERMINATED: _Observers = _Terminated()


class CacheSource(SingleObserver[Any], MaybeObserver[Any], CompletableObserver):
    """The cache itself, mixed into SingleCache/MaybeCache/CompletableCache before the type.

    It is the observer of the upstream (one for the three types: a Single never
    calls ``on_complete``, a Completable never ``on_success``). ``signal`` is the
    terminal signal as ``(method name, arguments)``, written before the observers'
    reference becomes ``_TERMINATED``, so whoever sees ``_TERMINATED`` finds it.
    ``connected``: the upstream was subscribed (once, by the first subscriber).
    """

    __slots__ = ("source", "_observers", "_signal", "_connected")

    #: RxJava 2's MaybeCache: an observer disposed during ``on_subscribe`` neither
    #: connects the upstream nor gets the replay; SingleCache and CompletableCache
    #: connect and replay regardless.
    _SKIP_DISPOSED: ClassVar[bool] = False

    def __init__(self, source: Any) -> None:
        self.source = source
        self._observers: AtomicReference[_Observers] = AtomicReference(_EMPTY)
        self._signal: tuple[str, tuple[Any, ...]] = ("on_complete", ())
        self._connected = AtomicBoolean()

    def subscribe_actual(self, observer: Any) -> None:
        inner = CacheDisposable(observer, self)
        observer.on_subscribe(inner)
        if self._add(inner):
            if inner.is_disposed():
                self._remove(inner)
                if self._SKIP_DISPOSED:
                    return
            if not self._connected.get() and self._connected.compare_and_set(False, True):
                self.source._subscribe(self)
            return
        if self._SKIP_DISPOSED and inner.is_disposed():
            return
        name, args = self._signal
        getattr(observer, name)(*args)

    def _add(self, inner: CacheDisposable) -> bool:
        ref = self._observers
        while True:
            a = ref.get()
            if a is _TERMINATED:
                return False
            assert a is not None
            if ref.compare_and_set(a, (*a, inner)):
                return True

    def _remove(self, inner: CacheDisposable) -> None:
        ref = self._observers
        while True:
            a = ref.get()
            if a is _TERMINATED or not a or inner not in a:
                return
            b = tuple(x for x in a if x is not inner)
            if ref.compare_and_set(a, b):
                return

    def _terminate(self, name: str, *args: Any) -> None:
        if self._observers.get() is _TERMINATED:  # a second terminal signal: a broken upstream
            if name == "on_error":
                plugins.on_error(args[0])
            return
        self._signal = (name, args)
        for inner in self._observers.get_and_set(_TERMINATED) or ():
            if not inner.is_disposed():
                getattr(inner.downstream, name)(*args)

    # the upstream observer

    def on_subscribe(self, d: Disposable) -> None:
        pass  # the cache never disposes its upstream

    def on_success(self, item: Any) -> None:
        self._terminate("on_success", item)

    def on_error(self, error: BaseException) -> None:
        self._terminate("on_error", error)

    def on_complete(self) -> None:
        self._terminate("on_complete")


class CacheDisposable(Disposable):
    """One observer's handle: disposing it takes the observer out of the cache."""

    __slots__ = ("downstream", "parent", "disposed")

    def __init__(self, downstream: Any, parent: CacheSource) -> None:
        self.downstream = downstream
        self.parent = parent
        self.disposed = AtomicBoolean()

    def dispose(self) -> None:
        if not self.disposed.get() and self.disposed.compare_and_set(False, True):
            self.parent._remove(self)

    def is_disposed(self) -> bool:
        return self.disposed.get()


class SingleCache(CacheSource, Single[T], Generic[T]):
    __slots__ = ()
