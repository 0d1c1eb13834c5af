"""Flowable.skip_last: all but the last ``n`` items.

The latest ``n`` items wait in a buffer; each new item releases the oldest one.
The buffered items are paid for once, up front: the first downstream
``request(k)`` asks upstream for ``k + n`` (capped); later requests pass through.
"""

from __future__ import annotations

from collections import deque
from typing import Generic, TypeVar

from rxpy2.flowable import Flowable
from rxpy2.internal.fuseable import HasUpstreamPublisher
from rxpy2.internal.helpers.subscribe_loop import subscribe_tail
from rxpy2.internal.operators.flowable.flowable_skip import SkipSubscriber
from rxpy2.operators import null_error, null_item
from rxpy2.reactivestreams import Publisher, Subscriber

__all__ = ["FlowableSkipLast"]

T = TypeVar("T")


class FlowableSkipLast(Flowable[T], HasUpstreamPublisher[T], Generic[T]):
    __slots__ = ("source", "n")

    def __init__(self, source: Publisher[T], n: int) -> None:
        self.source = source
        self.n = n

    def subscribe_actual(self, subscriber: Subscriber[T]) -> None:
        subscribe_tail(self.source, SkipLastSubscriber(subscriber, self.n))


class SkipLastSubscriber(SkipSubscriber[T], Generic[T]):
    """Requests as :class:`SkipSubscriber` does (``n`` extra, once); buffers instead of counting."""

    __slots__ = ("buffer",)

    def __init__(self, downstream: Subscriber[T], n: int) -> None:
        super().__init__(downstream, n)
        self.buffer: deque[T] = deque()

    def on_next(self, item: T) -> None:
        if item is None:
            raise null_item()  # §2.13
        b = self.buffer
        b.append(item)
        if len(b) > self.n:
            self.downstream.on_next(b.popleft())

    def on_error(self, error: BaseException) -> None:
        if error is None:
            raise null_error()  # §2.13
        self.buffer.clear()
        self.downstream.on_error(error)

    def on_complete(self) -> None:
        self.buffer.clear()
        self.downstream.on_complete()
