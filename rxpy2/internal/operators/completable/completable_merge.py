"""Completable.merge / merge_array / merge_with: all sources at once.

Completes when every source did (``active`` counts the sources plus one for
the subscribing loop, each change one atomic operation; nothing is drained or
serialized here, so no :class:`~rxpy2.operators.Drain`). Several sources race
to terminate, so the terminal signal
uses the "once" pattern: the first error (or the final completion) wins
``once.compare_and_set(False, True)`` and disposes the rest; a later error
goes to :func:`rxpy2.plugins.on_error`.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from rxpy2 import plugins
from rxpy2.completable import Completable
from rxpy2.disposables import CompositeDisposable, Disposable
from rxpy2.observers import CompletableObserver
from rxpy2.operators import AtomicBoolean, AtomicInteger

__all__ = ["CompletableMerge"]

_END: Any = object()


class CompletableMerge(Completable):
    __slots__ = ("sources",)

    def __init__(self, sources: Iterable[Completable]) -> None:
        self.sources = sources

    def subscribe_actual(self, observer: CompletableObserver) -> None:
        parent = _MergeObserver(observer)
        observer.on_subscribe(parent.set)
        try:
            it = iter(self.sources)
        except Exception as e:
            parent.on_error(e)
            return
        active = parent.active
        while not parent.set.is_disposed():
            try:
                c = next(it, _END)
                if c is _END:
                    break
                if not isinstance(c, Completable):
                    raise TypeError(f"merge() source is a {type(c).__name__}, "
                                    "not a Completable")
            except Exception as e:
                parent.on_error(e)
                return
            active.get_and_increment()
            c._subscribe(parent)
        parent.on_complete()  # the subscribing loop's share


class _MergeObserver(CompletableObserver):
    __slots__ = ("downstream", "set", "active", "once")

    def __init__(self, downstream: CompletableObserver) -> None:
        self.downstream = downstream
        self.set = CompositeDisposable()
        self.active = AtomicInteger(1)  # sources not terminated, plus the subscribing loop
        self.once = AtomicBoolean(False)

    def on_subscribe(self, d: Disposable) -> None:
        self.set.add(d)

    def on_error(self, error: BaseException) -> None:
        self.set.dispose()
        if self.once.compare_and_set(False, True):
            self.downstream.on_error(error)
        else:
            plugins.on_error(error)

    def on_complete(self) -> None:
        if self.active.decrement_and_get() == 0 and self.once.compare_and_set(False, True):
            self.downstream.on_complete()
