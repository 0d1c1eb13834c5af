"""Flowable.single / single_element / single_or_error: the only item, as a Single or a Maybe.

The upstream is requested unbounded. A second item cancels it and signals
``ValueError("Sequence contains more than one element")``. An empty stream
gives an empty Maybe, or for the Single the default item (``IndexError`` when
there is none). The inner subscriber is the Disposable the observer receives.
"""

from __future__ import annotations

from typing import Generic
from typing import TypeVar

from rxpy2._internal.operators.flowable.item_or_missing import FlowableItemOrMissingMaybe
from rxpy2._internal.operators.flowable.item_or_missing import FlowableItemOrMissingSingle
from rxpy2._internal.subscribers.to_observer import ItemOrMissingSubscriber
from rxpy2._internal.subscribers.to_observer import OnlyItemSubscriber

__all__ = ["FlowableSingleMaybe", "FlowableSingleSingle"]

T = TypeVar("T")


class SingleElementSubscriber(OnlyItemSubscriber[T], ItemOrMissingSubscriber[T], Generic[T]):
    """Keeps the only item in ``self.value``; a second one is an error."""

    __slots__ = ()

    def too_many(self) -> BaseException:
        return ValueError("Sequence contains more than one element")


class FlowableSingleMaybe(FlowableItemOrMissingMaybe[T], Generic[T]):
    __slots__ = ()

    subscriber_type = SingleElementSubscriber


class FlowableSingleSingle(FlowableItemOrMissingSingle[T], Generic[T]):
    __slots__ = ()

    subscriber_type = SingleElementSubscriber
