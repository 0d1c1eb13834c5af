"""Test doubles shared by the tests of rxpy2's concurrency core."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from rxpy2.observers import FlowableSubscriber
from rxpy2.reactivestreams import Subscription

COMPLETE = "complete"


class ProbeSubscription(Subscription):
    """Records requests and cancellations (thread-safe)."""

    def __init__(self, on_request: Callable[[int], Any] | None = None) -> None:
        self.requests: list[int] = []
        self.cancelled = 0
        self._lock = threading.Lock()
        self._on_request = on_request

    def request(self, n: int) -> None:
        with self._lock:
            self.requests.append(n)
        if self._on_request is not None:
            self._on_request(n)

    def cancel(self) -> None:
        with self._lock:
            self.cancelled += 1

    @property
    def total(self) -> int:
        return sum(self.requests)


class Recorder(FlowableSubscriber[Any]):
    """Records every signal in order; flags calls that overlap each other, come
    before ``on_subscribe`` or after a terminal event (``violations``)."""

    def __init__(self, on_next: Callable[[Recorder, Any], Any] | None = None) -> None:
        self.events: list[Any] = []
        self.violations: list[str] = []
        self.subscription: Subscription | None = None
        self._busy = False
        self._terminated = False
        self._guard = threading.Lock()
        self._on_next_hook = on_next

    def _enter(self, what: str) -> None:
        with self._guard:
            if self._busy:
                self.violations.append(f"{what} overlapped another call")
            if self._terminated:
                self.violations.append(f"{what} after a terminal event")
            self._busy = True

    def on_subscribe(self, s: Subscription) -> None:
        self._enter("on_subscribe")
        if self.subscription is not None:
            self.violations.append("on_subscribe twice")
        self.subscription = s
        self._busy = False

    def on_next(self, item: Any) -> None:
        self._enter("on_next")
        self.events.append(item)
        self._busy = False
        hook = self._on_next_hook
        if hook is not None:
            hook(self, item)

    def on_error(self, error: BaseException) -> None:
        self._enter("on_error")
        self._terminated = True
        self.events.append(error)
        self._busy = False

    def on_complete(self) -> None:
        self._enter("on_complete")
        self._terminated = True
        self.events.append(COMPLETE)
        self._busy = False

    def items(self) -> list[Any]:
        return [e for e in self.events if e != COMPLETE and not isinstance(e, BaseException)]

    def terminals(self) -> list[Any]:
        return [e for e in self.events if e == COMPLETE or isinstance(e, BaseException)]

    def assert_well_formed(self) -> None:
        """No violation, and at most one terminal event, which comes last."""
        assert self.violations == [], self.violations
        t = self.terminals()
        assert len(t) <= 1, self.events
        if t:
            assert self.events[-1] is t[0], self.events
