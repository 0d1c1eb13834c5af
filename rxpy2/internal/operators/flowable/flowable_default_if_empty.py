"""Flowable.default_if_empty: the items, or ``default_item`` if the upstream completes empty.

Items pass through untouched. The default item is a post-complete emission
(:class:`SinglePostCompleteSubscriber`): it needs demand of its own, and when
the upstream completes before any is there it waits for the next ``request``.
"""

from __future__ import annotations

from typing import Generic, TypeVar

from rxpy2.flowable import Flowable
from rxpy2.internal.fuseable import HasUpstreamPublisher
from rxpy2.internal.helpers.subscribe_loop import subscribe_tail
from rxpy2.internal.subscribers.single_post_complete import SinglePostCompleteSubscriber
from rxpy2.operators import null_error, null_item
from rxpy2.reactivestreams import Publisher, Subscriber

__all__ = ["FlowableDefaultIfEmpty"]

T = TypeVar("T")


class FlowableDefaultIfEmpty(Flowable[T], HasUpstreamPublisher[T], Generic[T]):
    __slots__ = ("source", "default_item")

    def __init__(self, source: Publisher[T], default_item: T) -> None:
        self.source = source
        self.default_item = default_item

    def subscribe_actual(self, subscriber: Subscriber[T]) -> None:
        subscribe_tail(self.source, DefaultIfEmptySubscriber(subscriber, self.default_item))


class DefaultIfEmptySubscriber(SinglePostCompleteSubscriber[T, T], Generic[T]):
    __slots__ = ("default_item", "has_item")

    def __init__(self, downstream: Subscriber[T], default_item: T) -> None:
        super().__init__(downstream)
        self.default_item = default_item
        self.has_item = False

    def on_next(self, item: T) -> None:
        if item is None:
            raise null_item()  # §2.13
        # once an item came, no final item follows: no need to count what was produced
        self.has_item = True
        self.downstream.on_next(item)

    def on_error(self, error: BaseException) -> None:
        if error is None:
            raise null_error()  # §2.13
        self.downstream.on_error(error)

    def on_complete(self) -> None:
        if self.has_item:
            self.downstream.on_complete()
        else:
            self.complete(self.default_item)
