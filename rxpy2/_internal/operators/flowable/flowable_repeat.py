"""Flowable.repeat / repeat_until: subscribe to the source again when it completes.

``FlowableRepeat(source, times)`` runs the source ``times`` times in all
(``LONG_MAX``: forever); ``FlowableRepeatUntil(source, stop)`` resubscribes
after each completion until ``stop()`` returns True (``stop`` raising ends the
stream with that error). Errors end the stream at once.

Demand carries over from one run to the next through a
:class:`SubscriptionArbiter`, and resubscription runs in a loop guarded by a
:class:`Drain` (see :class:`ResubscribingSubscriber`), so a source that completes synchronously can
be repeated any number of times in constant stack depth.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from typing import Generic
from typing import TypeVar

from rxpy2._internal.fuseable import HasUpstreamPublisher
from rxpy2._internal.operators.flowable.flowable_retry import ResubscribingSubscriber
from rxpy2.flowable import Flowable
from rxpy2.operator_kit import null_error
from rxpy2.reactivestreams import LONG_MAX
from rxpy2.reactivestreams import Publisher
from rxpy2.reactivestreams import Subscriber

__all__ = ["FlowableRepeat", "FlowableRepeatUntil"]

T = TypeVar("T")


class FlowableRepeat(Flowable[T], HasUpstreamPublisher[T], Generic[T]):
    __slots__ = ("source", "times")

    def __init__(self, source: Publisher[T], times: int) -> None:
        self.source = source
        self.times = times

    def subscribe_actual(self, subscriber: Subscriber[T]) -> None:
        times = self.times
        parent: RepeatSubscriber[T] = RepeatSubscriber(
            subscriber, self.source, times - 1 if times != LONG_MAX else LONG_MAX)
        subscriber.on_subscribe(parent)
        parent.subscribe_next()


class FlowableRepeatUntil(Flowable[T], HasUpstreamPublisher[T], Generic[T]):
    __slots__ = ("source", "stop")

    def __init__(self, source: Publisher[T], stop: Callable[[], Any]) -> None:
        self.source = source
        self.stop = stop

    def subscribe_actual(self, subscriber: Subscriber[T]) -> None:
        parent: RepeatUntilSubscriber[T] = RepeatUntilSubscriber(subscriber, self.source,
                                                                 self.stop)
        subscriber.on_subscribe(parent)
        parent.subscribe_next()


class _Repeating(ResubscribingSubscriber[T], Generic[T]):
    """repeat and repeat_until: an error ends the stream; ``on_complete`` decides whether
    to subscribe again."""

    def on_error(self, error: BaseException) -> None:
        if error is None:
            raise null_error()  # §2.13
        self.downstream.on_error(error)


class RepeatSubscriber(_Repeating[T], Generic[T]):
    def __init__(self, downstream: Subscriber[T], source: Publisher[T], remaining: int) -> None:
        super().__init__(downstream, source)
        self.remaining = remaining  # resubscriptions left

    def on_complete(self) -> None:
        r = self.remaining
        if r == 0:
            self.downstream.on_complete()
            return
        if r != LONG_MAX:
            self.remaining = r - 1
        self.subscribe_next()


class RepeatUntilSubscriber(_Repeating[T], Generic[T]):
    def __init__(self, downstream: Subscriber[T], source: Publisher[T],
                 stop: Callable[[], Any]) -> None:
        super().__init__(downstream, source)
        self.stop = stop

    def on_complete(self) -> None:
        try:
            b = self.stop()
        except Exception as e:
            self.downstream.on_error(e)
            return
        if b:
            self.downstream.on_complete()
        else:
            self.subscribe_next()
