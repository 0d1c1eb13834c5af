"""``Drain.missed``: the producer's hint that a pass is already due (both backends)."""

from __future__ import annotations

from collections import deque
from typing import Any

import pytest

from rxpy2.operators.drain import GilDrain, LockDrain
from rxpy2.testing import RaceRunner

BACKENDS = [GilDrain, LockDrain]


def test_missed_set_by_a_counted_enter_and_cleared_by_the_pass_it_starts() -> None:
    d = GilDrain()
    assert d.missed is False
    assert d.enter()
    assert d.missed is False  # owning is not a signal
    assert not d.enter()
    assert d.missed is True  # counted: a pass is due
    assert d.leave()  # ... and this is it: the caller still owns the drain
    assert d.missed is False
    assert not d.leave()
    assert d.is_free()


def test_missed_never_claims_a_pass_on_the_lock_backend() -> None:
    d = LockDrain()
    assert d.enter()
    assert not d.enter()
    assert d.missed is False  # False tells nothing: the caller must enter()
    assert d.leave()
    assert not d.leave()


class _Hop:
    """A producer appends and skips ``enter()`` while a pass is due (the observe_on
    shape); a second thread signals through ``enter()`` too. Every item must be taken by
    some pass, and none may stay queued once the drain is free."""

    def __init__(self, drain: Any, n: int) -> None:
        self.d = drain
        self.n = n
        self.queue: deque[int] = deque()
        self.out: list[int] = []

    def loop(self) -> None:
        q = self.queue
        while True:
            while q:
                self.out.append(q.popleft())
            if not self.d.leave():
                return

    def producer(self) -> None:
        d = self.d
        for i in range(self.n):
            self.queue.append(i)
            if not d.missed and d.enter():
                self.loop()

    def signaller(self) -> None:
        d = self.d
        for _ in range(self.n):
            if d.enter():
                self.loop()


@pytest.mark.parametrize("backend", BACKENDS, ids=lambda b: b.__name__)
def test_drain_race_producer_skipping_enter_while_a_pass_is_due(backend: Any) -> None:
    with RaceRunner() as runner:
        for _ in range(300):
            h = _Hop(backend(), 60)
            runner.race(h.producer, h.signaller)
            assert h.out == list(range(60))  # none lost, none twice, in order
            assert not h.queue
            assert h.d.is_free()
            assert h.d.missed is False
