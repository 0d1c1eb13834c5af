"""Probe sources shared by the asynchronous-operator tests."""

from __future__ import annotations

from typing import Any

from rxpy2 import Flowable
from rxpy2.internal.fuseable import SYNC, QueueSubscription
from rxpy2.reactivestreams import Subscriber, Subscription


class SyncFusedProbe(Flowable[int]):
    """0..n-1 as a SYNC-fusable QueueSubscription that records requests and fusion modes."""

    def __init__(self, n: int, fail_at: int | None = None) -> None:
        self.n = n
        self.fail_at = fail_at
        self.requests: list[int] = []
        self.modes: list[int] = []
        self.cancelled = 0

    def subscribe_actual(self, subscriber: Subscriber[int]) -> None:
        subscriber.on_subscribe(_SyncFusedSubscription(self, subscriber))


class _SyncFusedSubscription(QueueSubscription[int]):
    def __init__(self, parent: SyncFusedProbe, downstream: Subscriber[int]) -> None:
        self.parent = parent
        self.downstream = downstream
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

    def request(self, n: int) -> None:  # the unfused path: emit everything (enough for tests)
        self.parent.requests.append(n)

    def cancel(self) -> None:
        self.parent.cancelled += 1


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
