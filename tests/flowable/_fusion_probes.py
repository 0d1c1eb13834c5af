"""Probes of the fusion tests.

:class:`FusionProbe`: a transparent fuseable stage that records what crosses it.
It sits between a source and the consumer, has no user code (so it passes a
BOUNDARY request on unchanged) and records the fusion modes asked and granted,
the requests, the cancels, the items polled and the threads that polled;
``poll_fail_at=k`` makes the poll of item ``k`` raise ``poll_error`` (``Boom``).

:class:`OddRejecter`: a ConditionalSubscriber that drops odd items (``try_on_next``
returns False) and fails on a plain ``on_next``.
"""

from __future__ import annotations

import threading
import time
from typing import Any

from probes import Boom
from probes import Forwarding

from rxpy2 import Flowable
from rxpy2._internal.fuseable import NONE
from rxpy2._internal.fuseable import ConditionalSubscriber
from rxpy2._internal.fuseable import QueueSubscription

__all__ = ["FusionProbe", "OddRejecter", "assert_no_new_threads", "rxpy2_threads"]


class FusionProbe(Flowable[Any]):
    def __init__(self, source: Any, poll_fail_at: int | None = None,
                 poll_error: type[BaseException] = Boom) -> None:
        self.source = source
        self.poll_fail_at = poll_fail_at
        self.poll_error = poll_error
        self.asked: list[int] = []
        self.granted: list[int] = []
        self.requests: list[int] = []
        self.cancels = 0
        self.polled = 0
        self.poll_threads: set[threading.Thread] = set()

    def subscribe_actual(self, subscriber: Any) -> None:
        self.source.subscribe(_FusionProbeSubscriber(self, subscriber))


class _FusionProbeSubscriber(Forwarding, QueueSubscription[Any]):
    def __init__(self, probe: FusionProbe, downstream: Any) -> None:
        super().__init__(downstream)
        self.probe = probe

    def request_fusion(self, mode: int) -> int:
        self.probe.asked.append(mode)
        up = self.upstream
        m = up.request_fusion(mode) if isinstance(up, QueueSubscription) else NONE
        self.probe.granted.append(m)
        return m

    def poll(self) -> Any:
        p = self.probe
        p.poll_threads.add(threading.current_thread())
        v = self.upstream.poll()
        if v is not None:
            if p.polled == p.poll_fail_at:
                raise p.poll_error()
            p.polled += 1
        return v

    def is_empty(self) -> bool:
        return bool(self.upstream.is_empty())

    def clear(self) -> None:
        self.upstream.clear()

    def request(self, n: int) -> None:
        self.probe.requests.append(n)
        self.upstream.request(n)

    def cancel(self) -> None:
        self.probe.cancels += 1
        self.upstream.cancel()


def rxpy2_threads() -> set[threading.Thread]:
    return {t for t in threading.enumerate() if t.name.startswith("rxpy2-")}


def assert_no_new_threads(before: set[threading.Thread]) -> None:
    """The rxpy2 threads started since ``before`` end (a generous deadline, not a timing check)."""
    deadline = time.monotonic() + 10
    while rxpy2_threads() - before and time.monotonic() < deadline:
        time.sleep(0.01)
    assert not (rxpy2_threads() - before)


class OddRejecter(ConditionalSubscriber[int]):
    """Requests nothing by itself (``s`` is the subscription); records what was offered."""

    def __init__(self) -> None:
        self.s: Any = None
        self.offered: list[int] = []
        self.accepted: list[int] = []
        self.completed = False
        self.error: BaseException | None = None

    def on_subscribe(self, s: Any) -> None:
        self.s = s

    def try_on_next(self, item: int) -> bool:
        self.offered.append(item)
        if item % 2:
            return False
        self.accepted.append(item)
        return True

    def on_next(self, item: int) -> None:
        raise AssertionError("a conditional upstream uses try_on_next")

    def on_error(self, error: BaseException) -> None:
        self.error = error

    def on_complete(self) -> None:
        self.completed = True
