"""The outer subscriber shared by the window(...) / window_time / group_by tests."""

from __future__ import annotations

from typing import Any

from rxpy2 import Flowable
from rxpy2.observers import FlowableSubscriber
from rxpy2.reactivestreams import LONG_MAX
from rxpy2.reactivestreams import Subscription
from rxpy2.testing import TestSubscriber


class WindowCollector(FlowableSubscriber[Any]):
    """The outer subscriber: subscribes a ``TestSubscriber(window_request)`` to each window
    (or group) inside ``on_next``, so none is abandoned."""

    def __init__(self, outer_request: int = LONG_MAX, window_request: int = LONG_MAX) -> None:
        self.outer_request = outer_request
        self.window_request = window_request
        self.windows: list[Flowable[Any]] = []
        self.subs: list[TestSubscriber[Any]] = []
        self.errors: list[BaseException] = []
        self.completed = 0
        self.s: Subscription | None = None

    def on_subscribe(self, s: Subscription) -> None:
        self.s = s
        if self.outer_request:
            s.request(self.outer_request)

    def on_next(self, w: Flowable[Any]) -> None:
        ts: TestSubscriber[Any] = TestSubscriber(self.window_request)
        self.windows.append(w)
        self.subs.append(ts)
        w.subscribe(ts)

    def on_error(self, error: BaseException) -> None:
        self.errors.append(error)

    def on_complete(self) -> None:
        self.completed += 1

    def request(self, n: int) -> None:
        self.s.request(n)  # type: ignore[union-attr]

    def cancel(self) -> None:
        self.s.cancel()  # type: ignore[union-attr]

    def values(self) -> list[list[Any]]:
        return [ts.values() for ts in self.subs]


def collect(f: Flowable[Any], outer_request: int = LONG_MAX,
            window_request: int = LONG_MAX) -> WindowCollector:
    c = WindowCollector(outer_request, window_request)
    f.subscribe(c)
    return c
