"""Completable.concat / concat_array / concat_with / and_then(completable).

Subscribes to the sources one after another. A source that completes while
being subscribed would make the next subscription recurse; instead completion
only signals a :class:`~rxpy2.operator_kit.Drain` and the loop that owns it (already
running) subscribes the next source (trampolining), so any number of
synchronous sources runs in constant stack depth. After the terminal signal
the loop keeps the drain for good. The downstream disposes a SerialDisposable that holds
the current source's Disposable.
"""

from __future__ import annotations

from collections.abc import Iterable
from collections.abc import Iterator
from typing import Any

from rxpy2._internal.observers.empty import EmptyDisposable
from rxpy2.completable import Completable
from rxpy2.disposables import Disposable
from rxpy2.disposables import SerialDisposable
from rxpy2.observers import CompletableObserver
from rxpy2.operator_kit import Drain

__all__ = ["CompletableConcat"]

_END: Any = object()


class CompletableConcat(Completable):
    __slots__ = ("sources",)

    def __init__(self, sources: Iterable[Completable]) -> None:
        self.sources = sources

    def subscribe_actual(self, observer: CompletableObserver) -> None:
        try:
            it = iter(self.sources)
        except Exception as e:
            EmptyDisposable.error(e, observer)
            return
        parent = _ConcatObserver(observer, it)
        observer.on_subscribe(parent.sd)
        parent.next()


class _ConcatObserver(CompletableObserver):
    __slots__ = ("downstream", "it", "sd", "gate")

    def __init__(self, downstream: CompletableObserver, it: Iterator[Completable]) -> None:
        self.downstream = downstream
        self.it = it
        self.sd = SerialDisposable()
        self.gate = Drain()

    def on_subscribe(self, d: Disposable) -> None:
        self.sd.replace(d)

    def on_error(self, error: BaseException) -> None:
        self.downstream.on_error(error)

    def on_complete(self) -> None:
        self.next()

    def next(self) -> None:
        gate = self.gate
        if not gate.enter():
            return  # counted: the running loop subscribes the next source
        sd = self.sd
        it = self.it
        while True:
            if sd.is_disposed():
                return
            try:
                c = next(it, _END)
                if c is _END:
                    self.downstream.on_complete()
                    return
                if not isinstance(c, Completable):
                    raise TypeError(f"concat() source is a {type(c).__name__}, "
                                    "not a Completable")
            except Exception as e:
                self.downstream.on_error(e)
                return
            c._subscribe(self)
            if not gate.leave():
                return  # completes later: that completion runs the loop
