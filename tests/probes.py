"""Probe sources and subscribers shared by the tests (``from probes import ...``).

Flowable side:

* :class:`ManualSource`: a source the test drives by hand (``emit``, ``complete``,
  ``error``) from any thread; it is its own Subscription and records the
  requests and cancellations that reach it, without checking demand (the tests
  check the requests instead).
* :class:`Manual`: a source that gives each subscriber a fresh
  :class:`ProbeSubscription` (``probe`` is the latest) and keeps the subscriber
  (``subscriber``) for the test to signal.
* :class:`Spy` wraps a Publisher and records the requests and cancellations
  that reach it (and hides the source's Subscription, so no fusion).
* :class:`Recorded`: ``Flowable.range`` seen through ``do_on_request``/``do_on_cancel``.
* :func:`failing`: items under demand, then an error.
* :class:`RequestOneInOnNext`: requests 1, then 1 more from inside each ``on_next``.
* :func:`boom`: a user function that raises ``ZeroDivisionError``.
* :class:`SyncFusedProbe`: ``0..n-1`` as a SYNC-fusable QueueSubscription that
  records the requests, fusion modes and cancellations (``poll`` may raise).

0-1 side: :class:`ProbeDisposable` and :class:`ProbeSingle`/:class:`ProbeMaybe`/
:class:`ProbeCompletable`, sources that keep their observers for the test to signal.
"""

from __future__ import annotations

import threading
from typing import Any

from rxpy2 import Completable, Disposable, Flowable, Maybe, Single
from rxpy2.internal.fuseable import SYNC, QueueSubscription
from rxpy2.observers import FlowableSubscriber
from rxpy2.reactivestreams import Publisher, Subscriber, Subscription

# ---------------------------------------------------------------------------- Flowable


class ManualSource(Flowable[Any], Subscription):
    """Its subscriber's signals come from ``emit``/``complete``/``error``; ``requests``,
    ``cancels`` and ``subscriptions`` count over all subscriptions."""

    def __init__(self) -> None:
        self.subscriber: Subscriber[Any] | None = None
        self.requests: list[int] = []
        self.cancels = 0
        self.subscriptions = 0
        self._lock = threading.Lock()

    def subscribe_actual(self, subscriber: Subscriber[Any]) -> None:
        self.subscriptions += 1
        self.subscriber = subscriber
        subscriber.on_subscribe(self)

    def request(self, n: int) -> None:
        with self._lock:
            self.requests.append(n)

    def cancel(self) -> None:
        with self._lock:
            self.cancels += 1

    @property
    def cancelled(self) -> bool:
        return self.cancels > 0

    def emit(self, *items: Any) -> None:
        for x in items:
            self.subscriber.on_next(x)  # type: ignore[union-attr]

    def complete(self) -> None:
        self.subscriber.on_complete()  # type: ignore[union-attr]

    def error(self, e: BaseException) -> None:
        self.subscriber.on_error(e)  # type: ignore[union-attr]


class ProbeSubscription(Subscription):
    """Records requests; ``cancelled`` counts the cancels."""

    def __init__(self) -> None:
        self.requests: list[int] = []
        self.cancelled = 0

    def request(self, n: int) -> None:
        self.requests.append(n)

    def cancel(self) -> None:
        self.cancelled += 1


class Manual(Flowable[Any]):
    """One :class:`ProbeSubscription` per subscription; ``subscriber``/``probe`` are the latest."""

    def __init__(self) -> None:
        self.subscribers: list[Subscriber[Any]] = []
        self.probes: list[ProbeSubscription] = []

    def subscribe_actual(self, subscriber: Subscriber[Any]) -> None:
        p = ProbeSubscription()
        self.subscribers.append(subscriber)
        self.probes.append(p)
        subscriber.on_subscribe(p)

    @property
    def subscriptions(self) -> int:
        return len(self.subscribers)

    @property
    def subscriber(self) -> Any:
        return self.subscribers[-1] if self.subscribers else None

    @property
    def probe(self) -> ProbeSubscription:
        return self.probes[-1]


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


class Recorded:
    """``Flowable.range(start, count)`` seen through do_on_request/do_on_cancel (not fuseable)."""

    def __init__(self, start: int = 1, count: int = 10) -> None:
        self.requests: list[int] = []
        self.cancels: list[int] = []
        self.flowable = Flowable.range(start, count) \
            .do_on_request(self.requests.append) \
            .do_on_cancel(lambda: self.cancels.append(1))


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


class RequestOneInOnNext(FlowableSubscriber[Any]):
    """Requests 1 in on_subscribe and 1 more from inside each on_next; after
    ``stop_after`` items (if given) it cancels instead."""

    def __init__(self, stop_after: int | None = None) -> None:
        self.values: list[Any] = []
        self.errors: list[BaseException] = []
        self.completed = 0
        self.stop_after = stop_after

    def on_subscribe(self, s: Subscription) -> None:
        self.s = s
        s.request(1)

    def on_next(self, item: Any) -> None:
        self.values.append(item)
        if self.stop_after is not None and len(self.values) == self.stop_after:
            self.s.cancel()
        else:
            self.s.request(1)

    def on_error(self, error: BaseException) -> None:
        self.errors.append(error)

    def on_complete(self) -> None:
        self.completed += 1


class Boom(Exception):
    """The test error of the modules that need an exception class of their own."""


def record(source: Flowable[Any]) -> tuple[Flowable[Any], list[int], list[bool]]:
    """``source`` with the requests and cancellations that reach it recorded:
    ``(flowable, requests, cancels)``."""
    requests: list[int] = []
    cancels: list[bool] = []
    f = source.do_on_request(requests.append).do_on_cancel(lambda: cancels.append(True))
    return f, requests, cancels


def boom(*_args: Any) -> Any:
    raise ZeroDivisionError("boom")


# ---------------------------------------------------------------------------- 0-1 types


class ProbeDisposable(Disposable):
    def __init__(self) -> None:
        self.disposed = 0

    def dispose(self) -> None:
        self.disposed += 1

    def is_disposed(self) -> bool:
        return self.disposed > 0


class _ObserverProbe:
    """Keeps its observers; the test signals the latest through ``success``/``complete``/``error``."""

    def __init__(self) -> None:
        self.observers: list[Any] = []
        self.d = ProbeDisposable()

    def subscribe_actual(self, observer: Any) -> None:
        self.observers.append(observer)
        observer.on_subscribe(self.d)

    def success(self, v: Any) -> None:
        self.observers[-1].on_success(v)

    def complete(self) -> None:
        self.observers[-1].on_complete()

    def error(self, e: BaseException) -> None:
        self.observers[-1].on_error(e)

    @property
    def disposed(self) -> int:
        return self.d.disposed


class ProbeSingle(_ObserverProbe, Single[Any]):
    pass


class ProbeMaybe(_ObserverProbe, Maybe[Any]):
    pass


class ProbeCompletable(_ObserverProbe, Completable):
    pass


class SyncFusedProbe(Flowable[int]):
    """0..n-1 as a SYNC-fusable QueueSubscription recording requests, fusion modes, cancels."""

    def __init__(self, n: int, fail_at: int | None = None) -> None:
        self.n = n
        self.fail_at = fail_at
        self.requests: list[int] = []
        self.modes: list[int] = []
        self.cancelled = 0

    def subscribe_actual(self, subscriber: Subscriber[int]) -> None:
        subscriber.on_subscribe(_SyncFusedSubscription(self))


class _SyncFusedSubscription(QueueSubscription[int]):
    def __init__(self, parent: SyncFusedProbe) -> None:
        self.parent = parent
        self.index = 0

    def request_fusion(self, mode: int) -> int:
        self.parent.modes.append(mode)
        return SYNC if mode & SYNC else 0

    def poll(self) -> int | None:
        i = self.index
        if i == self.parent.n:
            return None
        if i == self.parent.fail_at:
            raise ValueError(f"poll failed at {i}")
        self.index = i + 1
        return i

    def is_empty(self) -> bool:
        return self.index == self.parent.n

    def clear(self) -> None:
        self.index = self.parent.n

    def request(self, n: int) -> None:  # the unfused path: only recorded (enough for tests)
        self.parent.requests.append(n)

    def cancel(self) -> None:
        self.parent.cancelled += 1
