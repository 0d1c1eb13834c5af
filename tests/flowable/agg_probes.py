"""Probes for the aggregate/buffer/error-handling operator tests.

* :class:`Spy` wraps a Publisher and records the requests and cancellations
  that reach it (and hides the source's Subscription, so no fusion).
* :class:`ManualSource` is a source the test drives by hand (``emit``,
  ``complete``, ``fail``): it records requests and cancellation and emits only
  what the test tells it to, without checking demand (the tests check the
  requests instead).
"""

from __future__ import annotations

from typing import Any

from rxpy2 import Flowable
from rxpy2.observers import FlowableSubscriber
from rxpy2.reactivestreams import Publisher, Subscriber, Subscription


class Spy(Flowable[Any]):
    def __init__(self, source: Publisher[Any]) -> None:
        self.source = source
        self.requests: list[int] = []
        self.cancels = 0
        self.subscriptions = 0

    def subscribe_actual(self, subscriber: Subscriber[Any]) -> None:
        self.subscriptions += 1
        self.source.subscribe(_SpySubscriber(self, subscriber))


class _SpySubscriber(FlowableSubscriber[Any], Subscription):
    def __init__(self, spy: Spy, downstream: Subscriber[Any]) -> None:
        self.spy = spy
        self.downstream = downstream
        self.upstream: Subscription | None = None

    def on_subscribe(self, s: Subscription) -> None:
        self.upstream = s
        self.downstream.on_subscribe(self)

    def on_next(self, item: Any) -> None:
        self.downstream.on_next(item)

    def on_error(self, error: BaseException) -> None:
        self.downstream.on_error(error)

    def on_complete(self) -> None:
        self.downstream.on_complete()

    def request(self, n: int) -> None:
        self.spy.requests.append(n)
        self.upstream.request(n)  # type: ignore[union-attr]

    def cancel(self) -> None:
        self.spy.cancels += 1
        self.upstream.cancel()  # type: ignore[union-attr]


class ManualSource(Flowable[Any], Subscription):
    """One subscriber at a time; ``emit``/``complete``/``error`` signal it directly."""

    def __init__(self) -> None:
        self.subscriber: Subscriber[Any] | None = None
        self.requests: list[int] = []
        self.cancelled = False

    def subscribe_actual(self, subscriber: Subscriber[Any]) -> None:
        self.subscriber = subscriber
        subscriber.on_subscribe(self)

    def request(self, n: int) -> None:
        self.requests.append(n)

    def cancel(self) -> None:
        self.cancelled = True

    def emit(self, *items: Any) -> None:
        for x in items:
            self.subscriber.on_next(x)  # type: ignore[union-attr]

    def complete(self) -> None:
        self.subscriber.on_complete()  # type: ignore[union-attr]

    def fail(self, e: BaseException) -> None:
        self.subscriber.on_error(e)  # type: ignore[union-attr]


def failing(*items: Any, error: BaseException | None = None) -> Flowable[Any]:
    """``items`` under demand, then ``error`` (a ValueError by default) once they are out."""
    err = error if error is not None else ValueError("boom")
    return _Failing(items, err)


class _Failing(Flowable[Any]):
    def __init__(self, items: tuple[Any, ...], error: BaseException) -> None:
        self.items = items
        self.err = error

    def subscribe_actual(self, subscriber: Subscriber[Any]) -> None:
        sub = _FailingSubscription(subscriber, self.items, self.err)
        subscriber.on_subscribe(sub)
        sub.drain()  # the error needs no demand: it comes as soon as the items are out


class _FailingSubscription(Subscription):
    def __init__(self, downstream: Subscriber[Any], items: tuple[Any, ...],
                 error: BaseException) -> None:
        self.downstream = downstream
        self.items = items
        self.error = error
        self.index = 0
        self.requested = 0
        self.emitting = False
        self.cancelled = False
        self.done = False

    def request(self, n: int) -> None:
        self.requested += n
        self.drain()

    def drain(self) -> None:
        if self.emitting:  # re-entrant request: the running loop picks it up
            return
        self.emitting = True
        try:
            while not self.cancelled and not self.done:
                if self.index == len(self.items):
                    self.done = True
                    self.downstream.on_error(self.error)
                    return
                if self.requested == 0:
                    return
                self.requested -= 1
                x = self.items[self.index]
                self.index += 1
                self.downstream.on_next(x)
        finally:
            self.emitting = False

    def cancel(self) -> None:
        self.cancelled = True
