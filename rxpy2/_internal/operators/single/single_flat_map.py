"""Single.flat_map / flat_map_maybe: continue with the source ``mapper(item)`` returns.

The operator's observer is an ``AtomicReference`` of the current upstream
Disposable and is what the downstream disposes: first it holds the source's
Disposable, then (through a resume observer) the inner source's.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from typing import ClassVar
from typing import Generic
from typing import TypeVar

from rxpy2._internal.atomic import AtomicReference
from rxpy2._internal.helpers.disposable_helper import DISPOSED
from rxpy2._internal.helpers.disposable_helper import DisposableHelper
from rxpy2._internal.observers.resume import ResumeMaybeObserver
from rxpy2._internal.observers.resume import ResumeSingleObserver
from rxpy2.disposables import Disposable
from rxpy2.maybe import Maybe
from rxpy2.observers import MaybeObserver
from rxpy2.observers import SingleObserver
from rxpy2.single import Single

__all__ = ["FlatMapObserver", "FlatMapOp", "SingleFlatMap", "SingleFlatMapMaybe", "apply_mapper"]

T = TypeVar("T")
R = TypeVar("R")


def apply_mapper(mapper: Callable[[Any], Any], item: Any, kind: type) -> Any:
    """``mapper(item)``, checked to be a ``kind`` (``TypeError`` otherwise, ``None`` included)."""
    r = mapper(item)
    if not isinstance(r, kind):
        raise TypeError("The mapper returned None" if r is None else
                        f"The mapper returned a {type(r).__name__}, not a {kind.__name__}")
    return r


class FlatMapObserver(AtomicReference[Disposable], SingleObserver[T], MaybeObserver[T], Disposable,
                      Generic[T]):
    """Of a Single or a Maybe: an empty Maybe completes (a Single never calls ``on_complete``)."""

    __slots__ = ("downstream", "mapper", "kind", "resume")

    def __init__(self, downstream: Any, mapper: Callable[[T], Any], kind: type,
                 resume: Callable[[Any, Any], Any]) -> None:
        super().__init__()
        self.downstream = downstream
        self.mapper = mapper
        self.kind = kind
        self.resume = resume

    def on_subscribe(self, d: Disposable) -> None:
        if DisposableHelper.set_once(self, d):
            self.downstream.on_subscribe(self)

    def on_success(self, item: T) -> None:
        try:
            inner = apply_mapper(self.mapper, item, self.kind)
        except Exception as e:
            self.downstream.on_error(e)
            return
        if self.get() is not DISPOSED:
            inner._subscribe(self.resume(self, self.downstream))

    def on_error(self, error: BaseException) -> None:
        self.downstream.on_error(error)

    def on_complete(self) -> None:
        self.downstream.on_complete()

    def dispose(self) -> None:
        DisposableHelper.dispose(self)

    def is_disposed(self) -> bool:
        return self.get() is DISPOSED


class FlatMapOp(Generic[T]):
    """The operator of a Single's or Maybe's flat_map: ``source`` and ``mapper``. Its
    ``observer_type`` follows the ``kind`` that ``mapper(item)`` returns with a ``resume``
    observer (a class attribute each, of the operator's class)."""

    __slots__ = ("source", "mapper")

    observer_type: ClassVar[type[FlatMapObserver[Any]]] = FlatMapObserver
    kind: ClassVar[type]
    resume: ClassVar[type]

    def __init__(self, source: Single[T] | Maybe[T], mapper: Callable[[T], Any]) -> None:
        self.source = source
        self.mapper = mapper

    def subscribe_actual(self, observer: Any) -> None:
        self.source._subscribe(self.observer_type(observer, self.mapper, self.kind, self.resume))


class SingleFlatMap(FlatMapOp[T], Single[R], Generic[T, R]):
    __slots__ = ()

    kind = Single
    resume = ResumeSingleObserver


class SingleFlatMapMaybe(FlatMapOp[T], Maybe[R], Generic[T, R]):
    __slots__ = ()

    kind = Maybe
    resume = ResumeMaybeObserver
