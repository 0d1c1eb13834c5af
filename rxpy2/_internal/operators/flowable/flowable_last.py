"""Flowable.last / last_element / last_or_error: the last item, as a Single or a Maybe.

The upstream is requested unbounded and only its latest item is kept. An empty
stream gives an empty Maybe, or for the Single the default item
(``IndexError`` when there is none). The inner subscriber is the Disposable the
observer receives: disposing it cancels the upstream.
"""

from __future__ import annotations

from typing import Generic
from typing import TypeVar

from rxpy2._internal.helpers.fused_stage import FusedFold
from rxpy2._internal.helpers.fused_stage import declare_fold
from rxpy2._internal.operators.flowable.item_or_missing import FlowableItemOrMissingMaybe
from rxpy2._internal.operators.flowable.item_or_missing import FlowableItemOrMissingSingle
from rxpy2._internal.subscribers.to_observer import ItemOrMissingSubscriber
from rxpy2.operator_kit import null_item

__all__ = ["FlowableLastMaybe", "FlowableLastSingle"]

T = TypeVar("T")


class LastSubscriber(ItemOrMissingSubscriber[T], Generic[T]):
    """Keeps the latest item in ``self.value``."""

    __slots__ = ()

    def on_next(self, item: T) -> None:
        if item is None:
            raise null_item()  # §2.13
        self.value = item


class FlowableLastMaybe(FlowableItemOrMissingMaybe[T], Generic[T]):
    __slots__ = ()

    subscriber_type = LastSubscriber


class FlowableLastSingle(FlowableItemOrMissingSingle[T], Generic[T]):
    __slots__ = ()

    subscriber_type = LastSubscriber


#: a fused chain into last: the latest item
LAST_FOLD = FusedFold("last", ["acc = x"])
declare_fold(LastSubscriber, LAST_FOLD)
