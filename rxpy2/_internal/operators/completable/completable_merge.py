"""Completable.merge / merge_array / merge_with, and merge_delay_error /
merge_array_delay_error (RxJava 2's CompletableMergeIterable, CompletableMergeArray,
CompletableMergeDelayErrorIterable, CompletableMergeDelayErrorArray): all sources at once.

Completes when every source did (``active`` counts the sources plus one for
the subscribing loop, each change one atomic operation; nothing is drained or
serialized here, so no :class:`~rxpy2.operator_kit.Drain`).

Errors at once: several sources race to terminate, so the terminal signal uses
the "once" pattern: the first error (or the final completion) wins
``once.compare_and_set(False, True)`` and disposes the rest; a later error goes
to :func:`rxpy2.plugins.on_error`.

Errors delayed (``delay_errors``): an error counts as the end of its source and
is kept (an ``AtomicThrowable``); whoever ends the last source signals the
completion or the errors (several as a ``CompositeException``). A failing
iterable, or an element that is no Completable, is kept the same way and ends
the subscribing loop (RxJava 2: the sources already subscribed still run).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from rxpy2 import plugins
from rxpy2.completable import Completable
from rxpy2.disposables import CompositeDisposable
from rxpy2.disposables import Disposable
from rxpy2.observers import CompletableObserver
from rxpy2.operator_kit import AtomicBoolean
from rxpy2.operator_kit import AtomicInteger
from rxpy2.operator_kit import AtomicThrowable

__all__ = ["CompletableMerge"]

_END: Any = object()


class CompletableMerge(Completable):
    __slots__ = ("sources", "delay_errors")

    def __init__(self, sources: Iterable[Completable], delay_errors: bool = False) -> None:
        self.sources = sources
        self.delay_errors = delay_errors

    def subscribe_actual(self, observer: CompletableObserver) -> None:
        parent = (_MergeDelayErrorObserver(observer) if self.delay_errors
                  else _MergeObserver(observer))
        observer.on_subscribe(parent.set)
        try:
            it = iter(self.sources)
        except Exception as e:
            parent.loop_failed(e)
            return
        active = parent.active
        disposed = parent.set.is_disposed
        while True:
            if disposed():
                return  # no signal after a dispose
            try:
                c = next(it, _END)
                if c is _END:
                    break
                if not isinstance(c, Completable):
                    raise TypeError(f"merge() source is a {type(c).__name__}, "
                                    "not a Completable")
            except Exception as e:
                parent.loop_failed(e)
                return
            active.get_and_increment()
            c._subscribe(parent)
        parent.on_complete()  # the subscribing loop's share


class _MergeObserver(CompletableObserver):
    """Errors at once: the first terminal signal wins ``once``."""

    __slots__ = ("downstream", "set", "active", "once", "errors")

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

    def loop_failed(self, error: BaseException) -> None:
        """The sources' iterable failed (or gave a non-Completable): as a source's error."""
        self.on_error(error)


class _MergeDelayErrorObserver(_MergeObserver):
    """Errors delayed: kept in ``errors``; the end of the last source signals."""

    __slots__ = ()

    def __init__(self, downstream: CompletableObserver) -> None:
        super().__init__(downstream)
        self.errors = AtomicThrowable()

    def on_error(self, error: BaseException) -> None:
        if self.errors.try_add_throwable_or_report(error):
            self.on_complete()

    def on_complete(self) -> None:
        if self.active.decrement_and_get() == 0:
            ex = self.errors.terminate()
            if ex is None:
                self.downstream.on_complete()
            else:
                self.downstream.on_error(ex)
