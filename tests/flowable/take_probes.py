"""Probes for the take/skip/filtering operator tests.

* :class:`ManualSource`: a source the test drives by hand (``emit``, ``complete``,
  ``error``) from any thread. It records the requests and cancellations that
  reach it and does not check demand (the tests check the requests instead).
* :func:`recorded`: a source over ``Flowable.range`` that records requests and
  cancellations through ``do_on_request``/``do_on_cancel``.
"""

from __future__ import annotations

import threading
from typing import Any

from rxpy2 import Flowable
from rxpy2.reactivestreams import Subscriber, Subscription


class ManualSource(Flowable[Any], Subscription):
    """One subscriber at a time; its signals go straight to that subscriber."""

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


class Recorded:
    """``Flowable.range(start, count)`` seen through do_on_request/do_on_cancel (not fuseable)."""

    def __init__(self, start: int = 1, count: int = 10) -> None:
        self.requests: list[int] = []
        self.cancels: list[int] = []
        self.flowable = Flowable.range(start, count) \
            .do_on_request(self.requests.append) \
            .do_on_cancel(lambda: self.cancels.append(1))


def boom(*_args: Any) -> Any:
    raise ZeroDivisionError("boom")
