"""Single.do_on_success / do_on_error / do_on_subscribe / do_on_dispose.

One operator with optional callbacks, each called before the signal goes
downstream. ``on_subscribe`` raising disposes the upstream and signals the
error (nothing else follows); ``on_success`` raising turns the item into that
error; ``on_error`` raising adds its error to the original (CompositeException);
``on_dispose`` runs once, if the downstream disposes before the terminal signal;
raising, it goes to :func:`rxpy2.plugins.on_error`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from typing import Generic
from typing import TypeVar

from rxpy2 import plugins
from rxpy2._internal.atomic import AtomicBoolean
from rxpy2._internal.helpers.disposable_helper import DISPOSED
from rxpy2._internal.helpers.disposable_helper import DisposableHelper
from rxpy2._internal.helpers.exception_helper import call_reporting
from rxpy2._internal.observers.empty import EmptyDisposable
from rxpy2.disposables import Disposable
from rxpy2.exceptions import CompositeException
from rxpy2.observers import SingleObserver
from rxpy2.single import Single

__all__ = ["SinglePeek"]

T = TypeVar("T")

Fn = Callable[..., Any] | None


class SinglePeek(Single[T], Generic[T]):
    __slots__ = ("source", "on_subscribe_fn", "on_success_fn", "on_error_fn", "on_dispose_fn")

    def __init__(self, source: Single[T], on_subscribe: Fn, on_success: Fn, on_error: Fn,
                 on_dispose: Fn) -> None:
        self.source = source
        self.on_subscribe_fn = on_subscribe
        self.on_success_fn = on_success
        self.on_error_fn = on_error
        self.on_dispose_fn = on_dispose

    def subscribe_actual(self, observer: SingleObserver[T]) -> None:
        self.source._subscribe(PeekObserver(observer, self.on_subscribe_fn, self.on_success_fn,
                                            self.on_error_fn, self.on_dispose_fn))


class PeekObserver(SingleObserver[T], Disposable, Generic[T]):
    """``upstream`` becomes DISPOSED at the terminal signal: later signals are dropped."""

    __slots__ = ("downstream", "on_subscribe_fn", "on_success_fn", "on_error_fn",
                 "on_dispose_fn", "upstream", "_disposed")

    def __init__(self, downstream: Any, on_subscribe: Fn, on_success: Fn, on_error: Fn,
                 on_dispose: Fn) -> None:
        self.downstream = downstream
        self.on_subscribe_fn = on_subscribe
        self.on_success_fn = on_success
        self.on_error_fn = on_error
        self.on_dispose_fn = on_dispose
        self.upstream: Disposable | None = None
        self._disposed = AtomicBoolean(False) if on_dispose is not None else None

    def on_subscribe(self, d: Disposable) -> None:
        if not DisposableHelper.validate(self.upstream, d):
            return
        f = self.on_subscribe_fn
        if f is not None:
            try:
                f(d)
            except Exception as e:
                d.dispose()
                self.upstream = DISPOSED
                EmptyDisposable.error(e, self.downstream)
                return
        self.upstream = d
        self.downstream.on_subscribe(self)

    def on_success(self, item: T) -> None:
        if self.upstream is DISPOSED:
            return
        f = self.on_success_fn
        if f is not None:
            try:
                f(item)
            except Exception as e:
                self._error(e)
                return
        self.upstream = DISPOSED
        self.downstream.on_success(item)

    def on_error(self, error: BaseException) -> None:
        if self.upstream is DISPOSED:
            plugins.on_error(error)
            return
        self._error(error)

    def _error(self, error: BaseException) -> None:
        f = self.on_error_fn
        if f is not None:
            try:
                f(error)
            except Exception as e:
                error = CompositeException(error, e)
        self.upstream = DISPOSED
        self.downstream.on_error(error)

    def dispose(self) -> None:
        if self.upstream is DISPOSED:  # terminated or disposed already
            return
        f = self.on_dispose_fn
        once = self._disposed  # set when on_dispose is
        if f is not None and once is not None and once.compare_and_set(False, True):
            call_reporting(f)
        d = self.upstream
        self.upstream = DISPOSED
        if d is not None:
            d.dispose()

    def is_disposed(self) -> bool:
        d = self.upstream
        return d is DISPOSED or (d is not None and d.is_disposed())
