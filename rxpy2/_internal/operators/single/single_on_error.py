"""Single.on_error_return(_item) and on_error_resume_next."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from typing import Generic
from typing import TypeVar

from rxpy2._internal.atomic import AtomicReference
from rxpy2._internal.helpers.disposable_helper import DISPOSED
from rxpy2._internal.helpers.disposable_helper import DisposableHelper
from rxpy2._internal.zero_one import FunctionObserver
from rxpy2._internal.zero_one import FunctionOp
from rxpy2.disposables import Disposable
from rxpy2.exceptions import CompositeException
from rxpy2.observers import CompletableObserver
from rxpy2.observers import MaybeObserver
from rxpy2.observers import SingleObserver
from rxpy2.single import Single

__all__ = ["OnErrorReturnObserver", "ResumeNextObserver", "SingleOnErrorReturn", "SingleResumeNext",
           "call_fallback"]

T = TypeVar("T")


def call_fallback(fn: Callable[[BaseException], Any], error: BaseException,
                  kind: type | None) -> Any:
    """``fn(error)``; if it raises, a CompositeException of both errors is raised; ``None``
    (or, with ``kind``, something that is not a ``kind``) is a ``TypeError``."""
    try:
        r = fn(error)
    except Exception as e:
        raise CompositeException(error, e) from None
    if r is None:
        raise TypeError("The fallback function returned None") from error
    if kind is not None and not isinstance(r, kind):
        raise TypeError(f"The fallback function returned a {type(r).__name__}, "
                        f"not a {kind.__name__}") from error
    return r


class OnErrorReturnObserver(FunctionObserver[T], SingleObserver[T], MaybeObserver[T], Generic[T]):
    """Of a Single or a Maybe (a Single never calls ``on_complete``)."""

    __slots__ = ()

    def on_success(self, item: T) -> None:
        self.downstream.on_success(item)

    def on_complete(self) -> None:
        self.downstream.on_complete()

    def on_error(self, error: BaseException) -> None:
        try:
            v = call_fallback(self.fn, error, None)
        except Exception as e:
            self.downstream.on_error(e)
            return
        self.downstream.on_success(v)


class SingleOnErrorReturn(FunctionOp[T], Single[T], Generic[T]):
    __slots__ = ()

    observer_type = OnErrorReturnObserver


class SingleResumeNext(Single[T], Generic[T]):
    __slots__ = ("source", "fn")

    def __init__(self, source: Single[T], fn: Callable[[BaseException], Single[T]]) -> None:
        self.source = source
        self.fn = fn

    def subscribe_actual(self, observer: SingleObserver[T]) -> None:
        parent: ResumeNextObserver[T] = ResumeNextObserver(observer, self.fn, Single)
        observer.on_subscribe(parent)
        self.source._subscribe(parent)


class ResumeNextObserver(AtomicReference[Disposable], SingleObserver[T], MaybeObserver[T],
                         CompletableObserver, Disposable, Generic[T]):
    """Subscribes itself to the fallback, at most once (``once``); shared with Maybe and
    Completable (``on_complete`` passes through). The downstream disposes this object,
    which holds whichever upstream is current."""

    __slots__ = ("downstream", "fn", "kind", "once")

    def __init__(self, downstream: Any, fn: Callable[[BaseException], Any], kind: type) -> None:
        super().__init__()
        self.downstream = downstream
        self.fn = fn
        self.kind = kind
        self.once = False

    def on_subscribe(self, d: Disposable) -> None:
        DisposableHelper.replace(self, d)

    def on_success(self, item: T) -> None:
        self.downstream.on_success(item)

    def on_complete(self) -> None:
        self.downstream.on_complete()

    def on_error(self, error: BaseException) -> None:
        if self.once:
            self.downstream.on_error(error)
            return
        self.once = True
        try:
            nxt = call_fallback(self.fn, error, self.kind)
        except Exception as e:
            self.downstream.on_error(e)
            return
        if self.get() is not DISPOSED:
            nxt._subscribe(self)

    def dispose(self) -> None:
        DisposableHelper.dispose(self)

    def is_disposed(self) -> bool:
        return self.get() is DISPOSED
