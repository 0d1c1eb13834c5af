"""Probe sources (and race checks) shared by the asynchronous-operator tests.

``SyncFusedProbe`` lives in ``tests/probes.py`` (the parallel tests use it too);
it is re-exported here.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from probes import ManualSource
from probes import SyncFusedProbe

from rxpy2 import Flowable
from rxpy2.reactivestreams import Subscriber
from rxpy2.reactivestreams import Subscription

__all__ = ["CapturingSource", "SyncFusedProbe", "race_cancel_vs_inner_items",
           "race_items_vs_requests"]


class CapturingSource(Flowable[Any]):
    """Hands a recording Subscription to its subscriber and keeps the subscriber, so a test
    can signal it from any thread (``emit``, ``complete``, ``error``)."""

    def __init__(self) -> None:
        self.subscriber: Subscriber[Any] | None = None
        self.requests: list[int] = []
        self.cancelled = 0

    def subscribe_actual(self, subscriber: Subscriber[Any]) -> None:
        self.subscriber = subscriber
        subscriber.on_subscribe(_Recording(self))

    def emit(self, *items: Any) -> None:
        for x in items:
            self.subscriber.on_next(x)  # type: ignore[union-attr]

    def complete(self) -> None:
        self.subscriber.on_complete()  # type: ignore[union-attr]

    def error(self, e: BaseException) -> None:
        self.subscriber.on_error(e)  # type: ignore[union-attr]


class _Recording(Subscription):
    def __init__(self, parent: CapturingSource) -> None:
        self.parent = parent

    def request(self, n: int) -> None:
        self.parent.requests.append(n)

    def cancel(self) -> None:
        self.parent.cancelled += 1


def race_cancel_vs_inner_items(race_runner: Any, rounds: int,
                               subscribe: Callable[[ManualSource], Any]) -> None:
    """Race an inner's items against the downstream's ``cancel``, ``rounds`` times.

    ``subscribe(inner)`` returns the TestSubscriber of a flattening operator whose one
    running inner is ``inner`` (and whose outer does not complete). Whatever the timing:
    the items that arrived are an in-order prefix, with no error and no completion; the
    inner was cancelled, and an item it sends after that goes nowhere.
    """
    for _ in range(rounds):
        inner = ManualSource()
        ts = subscribe(inner)

        def produce(inner: ManualSource = inner) -> None:
            inner.emit(*range(5))  # no completion: the inner is running when cancelled

        race_runner.race(produce, ts.cancel)
        n = ts.value_count()
        ts.assert_value_sequence(list(range(n))).assert_no_errors().assert_protocol_ok()
        assert inner.cancelled
        ts.assert_not_complete()
        inner.emit(99)  # a source that missed the cancel: nothing more arrives
        assert ts.value_count() == n


def race_items_vs_requests(race_runner: Any, source: ManualSource, items: tuple[Any, ...],
                           ts: Any, requests: int | None = None) -> None:
    """Race ``source`` emitting ``items`` and completing against ``requests`` (default: one
    per item) ``ts.request(1)`` calls on another thread; the caller then checks ``ts``."""
    n = len(items) if requests is None else requests

    def produce() -> None:
        source.emit(*items)
        source.complete()

    def consume() -> None:
        for _ in range(n):
            ts.request(1)

    race_runner.race(produce, consume)
