"""Flowable.retry: resubscribe to the source when it fails.

At most ``times`` resubscriptions (``LONG_MAX``: no limit), and only while
``predicate(error)`` holds (no predicate: always); then the error goes
downstream. A predicate that raises ends the stream with
``CompositeException(error, predicate_error)``. ``retry(bi_predicate=fn)``
(RxJava 2's FlowableRetryBiPredicate) resubscribes while ``fn(attempt, error)``
holds, ``attempt`` counting the errors from 1.

A :class:`SubscriptionArbiter` faces the downstream for all the subscriptions:
before resubscribing the operator reports what the failed attempt emitted
(``produced(n)``), so the new subscription is asked for exactly the demand
still outstanding. Resubscription runs in a loop guarded by a :class:`Drain`: a
source that fails inside ``subscribe`` only fails ``enter()`` (it is counted), and
the loop already running resubscribes when ``leave()`` says so, so the stack does
not grow with the number of retries (a loop, never recursion).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from typing import Generic
from typing import TypeVar

from rxpy2._internal.fuseable import HasUpstreamPublisher
from rxpy2._internal.subscribers.arbiter_relay import ArbiterRelay
from rxpy2.exceptions import CompositeException
from rxpy2.flowable import Flowable
from rxpy2.operator_kit import null_error
from rxpy2.reactivestreams import LONG_MAX
from rxpy2.reactivestreams import Publisher
from rxpy2.reactivestreams import Subscriber

__all__ = ["FlowableRetry", "FlowableRetryBiPredicate", "ResubscribingSubscriber", "retry_if"]

T = TypeVar("T")


def retry_if(downstream: Any, resubscribe: Callable[[], None], error: BaseException,
             predicate: Callable[..., bool], *args: object) -> None:
    """The retry decision of every ``retry`` with a predicate (Flowable's, the 0-1 types'):
    ``resubscribe()`` if ``predicate(*args)`` holds, else ``error`` downstream; a
    predicate that raises signals ``CompositeException(error, its error)``."""
    try:
        again = predicate(*args)
    except Exception as e:
        downstream.on_error(CompositeException(error, e))
        return
    if again:
        resubscribe()
    else:
        downstream.on_error(error)


class FlowableRetry(Flowable[T], HasUpstreamPublisher[T], Generic[T]):
    __slots__ = ("source", "times", "predicate")

    def __init__(self, source: Publisher[T], times: int,
                 predicate: Callable[[BaseException], bool] | None) -> None:
        self.source = source
        self.times = times
        self.predicate = predicate

    def subscribe_actual(self, subscriber: Subscriber[T]) -> None:
        parent: RetrySubscriber[T] = RetrySubscriber(subscriber, self.source, self.times,
                                                     self.predicate)
        subscriber.on_subscribe(parent)
        parent.subscribe_next()


class ResubscribingSubscriber(ArbiterRelay[T], Generic[T]):
    """Base of retry/repeat: relays items and resubscribes to ``source`` in a trampoline.

    A subclass decides in ``on_error``/``on_complete`` whether to call
    :meth:`subscribe_next` or to signal the downstream.
    """

    def __init__(self, downstream: Subscriber[T], source: Publisher[T]) -> None:
        super().__init__(downstream)
        self.source = source

    def subscribe_next(self) -> None:
        """Subscribe to the source again (the first time too) unless cancelled."""
        gate = self.gate
        if not gate.enter():
            return  # the loop already running resubscribes
        while True:
            if self.cancelled:
                return
            self.carry_over()  # the next attempt gets only the outstanding demand
            self.source.subscribe(self)
            if not gate.leave():
                return


class RetrySubscriber(ResubscribingSubscriber[T], Generic[T]):
    def __init__(self, downstream: Subscriber[T], source: Publisher[T], times: int,
                 predicate: Callable[[BaseException], bool] | None) -> None:
        super().__init__(downstream, source)
        self.remaining = times
        self.predicate = predicate

    def on_error(self, error: BaseException) -> None:
        if error is None:
            raise null_error()  # §2.13
        r = self.remaining
        if r == 0:
            self.downstream.on_error(error)
            return
        if r != LONG_MAX:
            self.remaining = r - 1
        p = self.predicate
        if p is None:
            self.subscribe_next()
        else:
            retry_if(self.downstream, self.subscribe_next, error, p, error)

    def on_complete(self) -> None:
        self.downstream.on_complete()


class FlowableRetryBiPredicate(Flowable[T], HasUpstreamPublisher[T], Generic[T]):
    """``retry(bi_predicate=fn)``: resubscribe while ``fn(attempt, error)`` holds
    (``attempt`` is 1 at the first error), as RxJava 2's ``retry(BiPredicate)``."""

    __slots__ = ("source", "predicate")

    def __init__(self, source: Publisher[T],
                 predicate: Callable[[int, BaseException], bool]) -> None:
        self.source = source
        self.predicate = predicate

    def subscribe_actual(self, subscriber: Subscriber[T]) -> None:
        parent: RetryBiSubscriber[T] = RetryBiSubscriber(subscriber, self.source, self.predicate)
        subscriber.on_subscribe(parent)
        parent.subscribe_next()


class RetryBiSubscriber(ResubscribingSubscriber[T], Generic[T]):
    def __init__(self, downstream: Subscriber[T], source: Publisher[T],
                 predicate: Callable[[int, BaseException], bool]) -> None:
        super().__init__(downstream, source)
        self.predicate = predicate
        self.attempts = 0

    def on_error(self, error: BaseException) -> None:
        if error is None:
            raise null_error()  # §2.13
        self.attempts += 1
        retry_if(self.downstream, self.subscribe_next, error, self.predicate, self.attempts, error)

    def on_complete(self) -> None:
        self.downstream.on_complete()
