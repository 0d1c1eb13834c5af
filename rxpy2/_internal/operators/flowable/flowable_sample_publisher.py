"""Flowable.sample(sampler): the latest item at each item of the ``sampler`` Publisher.

As RxJava's ``FlowableSamplePublisher``: the downstream gets the subscription
first, then the sampler is subscribed and the source requested, both without
bound. Each sampler item takes the latest source item (if a new one came since
the last sample) and emits it under the downstream's demand; without demand the
stream fails with ``MissingBackpressureException``. The completion of either
side completes the stream (cancelling the other; with ``emit_last`` the item
still waiting is emitted first), an error of either side fails it. The timed
``sample``'s subscriber (:class:`~.flowable_sample_timed.SampleSubscriber`) with
the sampler in the timer's place.
"""

from __future__ import annotations

from typing import Any
from typing import Generic
from typing import TypeVar

from rxpy2._internal.fuseable import HasUpstreamPublisher
from rxpy2._internal.operators.flowable.flowable_sample_timed import SampleSubscriber
from rxpy2._internal.operators.flowable.flowable_window_boundary import BoundaryEndsStream
from rxpy2._internal.operators.flowable.flowable_window_boundary import BoundarySubscriber
from rxpy2.flowable import Flowable
from rxpy2.operator_kit import subscribe_tail
from rxpy2.reactivestreams import Publisher
from rxpy2.reactivestreams import Subscriber

__all__ = ["FlowableSamplePublisher"]

T = TypeVar("T")


class FlowableSamplePublisher(Flowable[T], HasUpstreamPublisher[T], Generic[T]):
    """``sample(sampler)``: source and sampler are requested without bound.

    Backpressure: a sample due without downstream demand signals
    ``MissingBackpressureException`` (add ``on_backpressure_latest()`` after it)."""

    __slots__ = ("source", "sampler", "emit_last")

    def __init__(self, source: Publisher[T], sampler: Publisher[Any], emit_last: bool) -> None:
        self.source = source
        self.sampler = sampler
        self.emit_last = emit_last

    def subscribe_actual(self, subscriber: Subscriber[T]) -> None:
        subscribe_tail(self.source, SamplePublisherSubscriber(
            subscriber, self.sampler, self.emit_last))


class SamplePublisherSubscriber(BoundaryEndsStream, SampleSubscriber[T], Generic[T]):
    __slots__ = ("sampler", "sampler_subscriber")

    PRODUCER = "the sampler Publisher"

    def __init__(self, downstream: Subscriber[T], sampler: Publisher[Any],
                 emit_last: bool) -> None:
        super().__init__(downstream, emit_last)
        self.sampler = sampler
        self.sampler_subscriber = BoundarySubscriber(self)

    def start_timer(self) -> bool:
        if self.cancelled:
            return False
        self.sampler.subscribe(self.sampler_subscriber)
        return True  # then the source is requested

    def stop_timer(self) -> None:
        self.sampler_subscriber.dispose()

    # ---- the sampler (its terminal signals: BoundaryEndsStream)

    def inner_next(self) -> None:
        self.tick()
