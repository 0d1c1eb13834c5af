"""Maybe.switch_if_empty (and default_if_empty): continue with another source if empty.

The observer holds the current upstream Disposable; on an empty completion the
other source's Disposable replaces it (see ``rxpy2/_internal/observers/resume.py``).
"""

from __future__ import annotations

from typing import Any
from typing import ClassVar
from typing import Generic
from typing import TypeVar

from rxpy2._internal.atomic import AtomicReference
from rxpy2._internal.helpers.disposable_helper import DISPOSED
from rxpy2._internal.helpers.disposable_helper import DisposableHelper
from rxpy2._internal.observers.resume import ResumeMaybeObserver
from rxpy2._internal.observers.resume import ResumeSingleObserver
from rxpy2._internal.zero_one import ZeroOneBase
from rxpy2.disposables import Disposable
from rxpy2.maybe import Maybe
from rxpy2.observers import CompletableObserver
from rxpy2.observers import MaybeObserver
from rxpy2.single import Single

__all__ = ["MaybeSwitchIfEmpty", "MaybeSwitchIfEmptySingle", "OtherOnCompleteObserver", "OtherOnCompleteOp"]

T = TypeVar("T")


class OtherOnCompleteObserver(AtomicReference[Disposable], MaybeObserver[T], CompletableObserver,
                              Disposable, Generic[T]):
    """On completion subscribes ``other`` with a ``resume`` observer (also behind
    ``Completable.and_then(single/maybe)``); an item or error passes through."""

    __slots__ = ("downstream", "other", "resume")

    def __init__(self, downstream: Any, other: Any, resume: type) -> None:
        super().__init__()
        self.downstream = downstream
        self.other = other
        self.resume = resume

    def on_subscribe(self, d: Disposable) -> None:
        if DisposableHelper.set_once(self, d):
            self.downstream.on_subscribe(self)

    def on_success(self, item: T) -> None:
        self.downstream.on_success(item)

    def on_error(self, error: BaseException) -> None:
        self.downstream.on_error(error)

    def on_complete(self) -> None:
        if self.get() is not DISPOSED:
            self.other._subscribe(self.resume(self, self.downstream))

    def dispose(self) -> None:
        DisposableHelper.dispose(self)

    def is_disposed(self) -> bool:
        return self.get() is DISPOSED


class OtherOnCompleteOp(Generic[T]):
    """The operator body of ``switch_if_empty`` and ``Completable.and_then(single/maybe)``
    (a mixin): ``other`` follows an empty ``source`` with the operator's ``resume`` observer."""

    __slots__ = ("source", "other")

    resume: ClassVar[type]

    def __init__(self, source: ZeroOneBase, other: ZeroOneBase) -> None:
        self.source = source
        self.other = other

    def subscribe_actual(self, observer: Any) -> None:
        self.source._subscribe(OtherOnCompleteObserver(observer, self.other, self.resume))


class MaybeSwitchIfEmpty(OtherOnCompleteOp[T], Maybe[T], Generic[T]):
    __slots__ = ()

    resume = ResumeMaybeObserver


class MaybeSwitchIfEmptySingle(OtherOnCompleteOp[T], Single[T], Generic[T]):
    __slots__ = ()

    resume = ResumeSingleObserver
