"""Helpers shared by the processor tests (``from processor_probes import ...``).

* :class:`SerialChecker`: a FlowableSubscriber that records every signal and
  notes a protocol problem when two signals overlap (they came from two
  threads at once), or a signal arrives after a terminal one.
* :class:`FakeClock`: a ``now()`` the test moves by hand (the time-bound
  ReplayProcessor needs nothing else of a scheduler).
* :func:`race`: ``runner.race(a, b)`` with one side, chosen at random, started
  after a random delay, so that the rounds cover the interleavings where either
  side is well ahead, not only those where the shorter side wins (the
  RaceRunner switches threads only between traced lines, and sides of very
  different lengths would otherwise mostly finish in the same order).
* :func:`feed_from_two_threads`: ``on_next`` from two threads at once.
* :func:`emit`, :func:`request_each`, :func:`offer_into`: the sides of a race, for
  ``functools.partial``.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Callable
from typing import Any

from rxpy2.observers import FlowableSubscriber
from rxpy2.reactivestreams import LONG_MAX
from rxpy2.reactivestreams import Subscription
from rxpy2.testing import RaceRunner


class SerialChecker(FlowableSubscriber[Any]):
    def __init__(self, initial_request: int = LONG_MAX) -> None:
        self.initial_request = initial_request
        self.values: list[Any] = []
        self.errors: list[BaseException] = []
        self.completions = 0
        self.problems: list[str] = []
        self.subscription: Subscription | None = None
        self._busy = False
        self._lock = threading.Lock()

    def _enter(self, what: str) -> None:
        with self._lock:
            if self._busy:
                self.problems.append(f"{what} overlapped another signal")
            self._busy = True
            if self.errors or self.completions:
                self.problems.append(f"{what} after a terminal signal")

    def _leave(self) -> None:
        self._busy = False

    def on_subscribe(self, s: Subscription) -> None:
        self.subscription = s
        if self.initial_request:
            s.request(self.initial_request)

    def on_next(self, item: Any) -> None:
        self._enter(f"on_next({item!r})")
        self.values.append(item)  # a thread switch here makes an overlap visible
        self._leave()

    def on_error(self, error: BaseException) -> None:
        self._enter(f"on_error({error!r})")
        self.errors.append(error)
        self._leave()

    def on_complete(self) -> None:
        self._enter("on_complete")
        self.completions += 1
        self._leave()


class FakeClock:
    """``now()`` in seconds, moved by :meth:`advance`."""

    def __init__(self, start: float = 0.0) -> None:
        self.t = start

    def now(self) -> float:
        return self.t

    def advance(self, seconds: float) -> None:
        self.t += seconds


def jitter(fn: Callable[[], Any], most: int = 60) -> Callable[[], None]:
    """``fn`` after a random number (below ``most``) of traced loop steps: each is a chance
    for the RaceRunner to switch to the other side."""
    def run() -> None:
        for _ in range(random.randrange(most)):
            pass
        fn()

    return run


def race(runner: RaceRunner, a: Callable[[], Any], b: Callable[[], Any]) -> None:
    """``runner.race(a, b)``, one side of the two delayed by :func:`jitter`."""
    if random.random() < 0.5:
        runner.race(jitter(a), b)
    else:
        runner.race(a, jitter(b))


def feed_from_two_threads(runner: RaceRunner, processor: Any, n: int) -> None:
    """``on_next(0 .. n-1)`` on one thread and ``on_next(n .. 2n-1)`` on another, at once."""
    def first() -> None:
        for i in range(n):
            processor.on_next(i)

    def second() -> None:
        for i in range(n, 2 * n):
            processor.on_next(i)

    runner.race(first, second)


def emit(processor: Any, items: range | list[Any], complete: bool = False) -> None:
    """``on_next`` each of ``items``, then ``on_complete`` if asked."""
    for i in items:
        processor.on_next(i)
    if complete:
        processor.on_complete()


def request_each(subscription: Subscription, times: int) -> None:
    """``request(1)``, ``times`` times."""
    for _ in range(times):
        subscription.request(1)


def offer_into(processor: Any, item: Any, results: list[bool]) -> None:
    """``processor.offer(item)``, its result appended to ``results``."""
    results.append(processor.offer(item))
