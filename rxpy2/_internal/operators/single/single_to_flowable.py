"""Single.to_flowable: the item, emitted when requested (DeferredScalarSubscription)."""

from __future__ import annotations

from typing import Any
from typing import Generic
from typing import TypeVar

from rxpy2._internal.helpers.disposable_helper import ValidatedUpstream
from rxpy2._internal.subscriptions.deferred_scalar import DeferredScalarSubscription
from rxpy2.disposables import Disposable
from rxpy2.flowable import Flowable
from rxpy2.observers import MaybeObserver
from rxpy2.observers import SingleObserver
from rxpy2.reactivestreams import Subscriber
from rxpy2.single import Single

__all__ = ["SingleToFlowable", "ToFlowableObserver"]

T = TypeVar("T")


class SingleToFlowable(Flowable[T], Generic[T]):
    __slots__ = ("source",)

    def __init__(self, source: Single[T]) -> None:
        self.source = source

    def subscribe_actual(self, subscriber: Subscriber[T]) -> None:
        self.source._subscribe(ToFlowableObserver(subscriber))


class ToFlowableObserver(ValidatedUpstream, DeferredScalarSubscription[T], SingleObserver[T], MaybeObserver[T],
                         Generic[T]):
    """Shared with Maybe.to_flowable: ``on_complete`` (an empty Maybe) completes at once."""

    __slots__ = ("upstream",)

    def __init__(self, downstream: Subscriber[T]) -> None:
        super().__init__(downstream)
        self.upstream: Disposable | None = None

    def on_success(self, item: T) -> None:
        self.complete(item)

    def on_error(self, error: BaseException) -> None:
        self.downstream.on_error(error)

    def on_complete(self) -> None:
        self.downstream.on_complete()

    def cancel(self) -> None:
        super().cancel()
        d: Any = self.upstream
        if d is not None:
            d.dispose()
