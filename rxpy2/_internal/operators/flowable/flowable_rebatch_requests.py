"""Flowable.rebatch_requests(n): request from upstream in a stable pattern.

Whatever the downstream requests (little, much or unbounded), the upstream
sees ``request(n)`` first and then ``request(n - n // 4)`` each time that many
items went downstream (the operator guide's stable-prefetch queue-drain,
:class:`~rxpy2._internal.subscribers.stable_prefetch.StablePrefetchSubscriber`). The
items in between wait in a bounded queue of ``n``; an item the upstream sends
beyond its requests finds the queue full, cancels the upstream and ends the
stream with a :class:`MissingBackpressureException`. Errors are delayed: an
error (that one too) goes downstream after the queued items, under demand, as
RxJava 2 does (its ``rebatchRequests(n)`` is ``observeOn(immediate, true, n)``).
Cancelling clears the queue.
"""

from __future__ import annotations

from typing import Generic
from typing import TypeVar

from rxpy2._internal.fuseable import HasUpstreamPublisher
from rxpy2._internal.helpers.subscribe_loop import subscribe_tail
from rxpy2._internal.subscribers.stable_prefetch import StablePrefetchSubscriber
from rxpy2.flowable import Flowable
from rxpy2.reactivestreams import Publisher
from rxpy2.reactivestreams import Subscriber

__all__ = ["FlowableRebatchRequests"]

T = TypeVar("T")


class FlowableRebatchRequests(Flowable[T], HasUpstreamPublisher[T], Generic[T]):
    __slots__ = ("source", "n")

    def __init__(self, source: Publisher[T], n: int) -> None:
        self.source = source
        self.n = n

    def subscribe_actual(self, subscriber: Subscriber[T]) -> None:
        subscribe_tail(self.source, RebatchRequestsSubscriber(subscriber, self.n))


class RebatchRequestsSubscriber(StablePrefetchSubscriber[T, T], Generic[T]):
    """Queues each item; the drain emits under demand and replenishes the upstream."""

    __slots__ = ("delayed_error",)

    operator_name = "rebatch_requests"

    # The base's drain reads ``error`` only once ``done`` is set, and signals it at
    # once; here it shows only when the queue is empty, so the error waits behind
    # the queued items (the items' own path is not touched).
    @property
    def error(self) -> BaseException | None:
        e = self.delayed_error
        if e is not None and self.queue.is_empty():
            return e
        return None

    @error.setter
    def error(self, value: BaseException | None) -> None:
        self.delayed_error = value

    def __init__(self, downstream: Subscriber[T], batch_size: int) -> None:
        super().__init__(downstream, batch_size, batch_size)

    def on_next(self, item: T) -> None:
        if self.done:
            return
        if self.queue.offer(item):
            self.drain()
        else:
            self.overflow()
