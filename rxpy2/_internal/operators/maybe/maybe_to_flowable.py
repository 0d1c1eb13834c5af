"""Maybe.to_flowable: the item emitted when requested, or an empty completion."""

from __future__ import annotations

from typing import Generic
from typing import TypeVar

from rxpy2._internal.operators.single.single_to_flowable import ToFlowableObserver
from rxpy2.flowable import Flowable
from rxpy2.maybe import Maybe
from rxpy2.reactivestreams import Subscriber

__all__ = ["MaybeToFlowable"]

T = TypeVar("T")


class MaybeToFlowable(Flowable[T], Generic[T]):
    __slots__ = ("source",)

    def __init__(self, source: Maybe[T]) -> None:
        self.source = source

    def subscribe_actual(self, subscriber: Subscriber[T]) -> None:
        self.source._subscribe(ToFlowableObserver(subscriber))
