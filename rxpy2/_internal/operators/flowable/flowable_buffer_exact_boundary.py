"""Flowable.buffer(boundary): the current collection is emitted at each item of ``boundary``.

As RxJava's ``FlowableBufferExactBoundary``: the first collection opens at
subscription; each boundary item emits the current one (empty ones too) and
opens the next. The source is requested without bound first, then the boundary
is subscribed (also without bound). The completion of either side emits the
current collection and completes (cancelling the other side); an error of
either side drops it and fails the stream (cancelling the other side). A
collection that finds no downstream demand fails the stream with
``MissingBackpressureException``. Built on the exact ``buffer_time`` subscriber
(:class:`~.flowable_buffer_timed.BufferExactSubscriberBase`), with the boundary
in the timer's place.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from typing import Generic
from typing import TypeVar

from rxpy2._internal.fuseable import HasUpstreamPublisher
from rxpy2._internal.operators.flowable.flowable_buffer_timed import BufferExactSubscriberBase
from rxpy2._internal.operators.flowable.flowable_window_boundary import BoundaryEndsStream
from rxpy2._internal.operators.flowable.flowable_window_boundary import BoundarySubscriber
from rxpy2.flowable import Flowable
from rxpy2.operator_kit import subscribe_tail
from rxpy2.reactivestreams import LONG_MAX
from rxpy2.reactivestreams import Publisher
from rxpy2.reactivestreams import Subscriber

__all__ = ["FlowableBufferExactBoundary"]

T = TypeVar("T")


class FlowableBufferExactBoundary(Flowable[Any], HasUpstreamPublisher[T], Generic[T]):
    """``buffer(boundary)``: the boundary closes the collections.

    Backpressure: source and boundary are requested without bound; a collection
    due without downstream demand signals ``MissingBackpressureException``."""

    __slots__ = ("source", "boundary", "buffer_factory")

    def __init__(self, source: Publisher[T], boundary: Publisher[Any],
                 buffer_factory: Callable[[], Any] = list) -> None:
        self.source = source
        self.boundary = boundary
        self.buffer_factory = buffer_factory

    def subscribe_actual(self, subscriber: Subscriber[Any]) -> None:
        subscribe_tail(self.source, BufferExactBoundarySubscriber(
            subscriber, self.buffer_factory, self.boundary))


class BufferExactBoundarySubscriber(BoundaryEndsStream, BufferExactSubscriberBase[T], Generic[T]):
    __slots__ = ("boundary", "boundary_subscriber")

    OPERATOR = "buffer"
    PRODUCER = "the boundary Publisher"

    def __init__(self, downstream: Subscriber[Any], factory: Callable[[], Any],
                 boundary: Publisher[Any]) -> None:
        super().__init__(downstream, factory, None)
        self.boundary = boundary
        self.boundary_subscriber = BoundarySubscriber(self)

    def start_timer(self) -> bool:
        if self.cancelled:
            return False
        # as RxJava: the source first (a synchronous one may finish before the boundary starts)
        self.upstream.request(LONG_MAX)
        self.boundary.subscribe(self.boundary_subscriber)
        return False  # requested already

    def stop_signals(self) -> None:
        self.boundary_subscriber.dispose()

    # ---- the boundary (its terminal signals: BoundaryEndsStream)

    def inner_next(self) -> None:
        self.swap()
