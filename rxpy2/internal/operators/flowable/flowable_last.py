"""Flowable.last / last_element / last_or_error: the last item, as a Single or a Maybe.

The upstream is requested unbounded and only its latest item is kept. An empty
stream gives an empty Maybe, or for the Single the default item
(``IndexError`` when there is none). The inner subscriber is the Disposable the
observer receives: disposing it cancels the upstream.
"""

from __future__ import annotations

from typing import Any, Generic, TypeVar

from rxpy2.internal.fuseable import HasUpstreamPublisher
from rxpy2.internal.helpers.fused_stage import FusedFold, declare_fold
from rxpy2.internal.helpers.subscribe_loop import subscribe_tail
from rxpy2.internal.subscribers.to_observer import ItemOrMissingSubscriber
from rxpy2.maybe import Maybe
from rxpy2.observers import MaybeObserver, SingleObserver
from rxpy2.operators import null_item
from rxpy2.reactivestreams import Publisher
from rxpy2.single import Single

__all__ = ["FlowableLastMaybe", "FlowableLastSingle"]

T = TypeVar("T")


class FlowableLastMaybe(Maybe[T], HasUpstreamPublisher[T], Generic[T]):
    __slots__ = ("source",)

    def __init__(self, source: Publisher[T]) -> None:
        self.source = source

    def subscribe_actual(self, observer: MaybeObserver[T]) -> None:
        subscribe_tail(self.source, LastSubscriber(observer, None, True))


class FlowableLastSingle(Single[T], HasUpstreamPublisher[T], Generic[T]):
    __slots__ = ("source", "default_item")

    def __init__(self, source: Publisher[T], default_item: T | None) -> None:
        self.source = source
        self.default_item = default_item

    def subscribe_actual(self, observer: SingleObserver[T]) -> None:
        subscribe_tail(self.source, LastSubscriber(observer, self.default_item, False))


class LastSubscriber(ItemOrMissingSubscriber[T], Generic[T]):
    """Keeps the latest item in ``self.value``."""

    __slots__ = ()

    def fold_start(self) -> tuple[Any, Any]:
        """(a fused chain folding into it) the latest item so far"""
        return self.value, None

    def fold_end(self, acc: Any) -> None:
        self.value = acc

    def on_next(self, item: T) -> None:
        if item is None:
            raise null_item()  # §2.13
        self.value = item


#: a fused chain into last: the latest item
LAST_FOLD = FusedFold("last", ["acc = x"])
declare_fold(LastSubscriber, LAST_FOLD)
