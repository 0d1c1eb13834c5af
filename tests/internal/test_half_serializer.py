"""HalfSerializer: on_next from one thread, terminal events from another, never overlapping."""

# Each race round's closures run inside that round: late binding of loop variables is
# what the rounds rely on, not a bug.
# ruff: noqa: B023

from __future__ import annotations

import threading

from rxpy2._internal.drain import Drain
from rxpy2._internal.helpers import AtomicThrowable
from rxpy2._internal.helpers import HalfSerializer as HS
from rxpy2.observers import FlowableSubscriber


class Recorder(FlowableSubscriber[int]):
    """Records signals in order and flags any two calls that overlap or follow a terminal."""

    def __init__(self) -> None:
        self.events: list[object] = []
        self.violations: list[str] = []
        self._busy = False
        self._terminated = False
        self._guard = threading.Lock()

    def _enter(self, what: str) -> None:
        with self._guard:
            if self._busy:
                self.violations.append(f"{what} overlapped another call")
            if self._terminated:
                self.violations.append(f"{what} after a terminal event")
            self._busy = True

    def _leave(self) -> None:
        self._busy = False

    def on_subscribe(self, s) -> None:  # pragma: no cover - not used
        pass

    def on_next(self, item: int) -> None:
        self._enter("on_next")
        self.events.append(item)
        self.events.append(("after", item))  # a second step: widens the window for overlap
        self._leave()

    def on_error(self, error: BaseException) -> None:
        self._enter("on_error")
        self._terminated = True
        self.events.append(error)
        self._leave()

    def on_complete(self) -> None:
        self._enter("on_complete")
        self._terminated = True
        self.events.append("complete")
        self._leave()

    def items(self) -> list[int]:
        return [e for e in self.events if isinstance(e, int)]

    def terminals(self) -> list[object]:
        return [e for e in self.events if e == "complete" or isinstance(e, BaseException)]


def test_on_next_then_on_complete():
    r, wip, err = Recorder(), Drain(), AtomicThrowable()
    assert HS.on_next(r, 1, wip, err) is False
    assert HS.on_next(r, 2, wip, err) is False
    HS.on_complete(r, wip, err)
    HS.on_next(r, 3, wip, err)  # dropped
    HS.on_complete(r, wip, err)  # dropped
    assert r.items() == [1, 2] and r.terminals() == ["complete"]
    assert r.violations == []


def test_on_error_once_later_errors_to_plugins(plugin_errors):
    r, wip, err = Recorder(), Drain(), AtomicThrowable()
    e1, e2 = ValueError("1"), ValueError("2")
    HS.on_next(r, 1, wip, err)
    HS.on_error(r, e1, wip, err)
    HS.on_error(r, e2, wip, err)
    HS.on_complete(r, wip, err)
    assert r.items() == [1] and r.terminals() == [e1]
    assert plugin_errors == [e2]


def test_terminal_during_on_next_is_delivered_by_the_on_next_caller():
    """Deterministic version of the race: the terminal signal comes from inside on_next."""
    wip, err = Drain(), AtomicThrowable()
    e = ValueError("x")

    class Reentrant(Recorder):
        def on_next(self, item):
            super().on_next(item)
            HS.on_error(r, e, wip, err)  # "another thread" while on_next is busy

    r = Reentrant()
    assert HS.on_next(r, 1, wip, err) is True  # the on_next caller delivered the terminal
    assert r.events == [1, ("after", 1), e]
    assert r.violations == []
    assert HS.on_next(r, 2, wip, err) is False
    assert r.items() == [1]


def test_complete_during_on_next_is_delivered_after_it():
    wip, err = Drain(), AtomicThrowable()

    class Reentrant(Recorder):
        def on_next(self, item):
            super().on_next(item)
            HS.on_complete(r, wip, err)

    r = Reentrant()
    assert HS.on_next(r, 1, wip, err) is True
    assert r.events == [1, ("after", 1), "complete"]


def _check_round(r: Recorder, delivered_items: list[int]) -> None:
    assert r.violations == []
    assert len(r.terminals()) == 1
    assert isinstance(r.events[-1], (str, BaseException)) and r.events[-1] in r.terminals()
    items = r.items()
    # the items delivered are a prefix of those offered, in order, each once
    assert items == delivered_items[:len(items)]


def test_race_on_next_vs_on_error(race_runner, race_rounds):
    seen = {"items_before_error": 0, "no_items": 0}
    for i in range(race_rounds):
        r, wip, err = Recorder(), Drain(), AtomicThrowable()
        e = ValueError("boom")
        n = 1 + i % 4
        returned: list[bool] = []

        def emitter():
            for k in range(n):
                returned.append(HS.on_next(r, k, wip, err))

        race_runner.race(emitter, lambda: HS.on_error(r, e, wip, err))
        _check_round(r, list(range(n)))
        assert r.terminals() == [e]
        # at most one on_next call reports it delivered the terminal signal
        assert returned.count(True) <= 1
        seen["items_before_error" if r.items() else "no_items"] += 1
    assert seen["items_before_error"] > 0 and seen["no_items"] > 0, seen


def test_race_on_next_vs_on_complete(race_runner, race_rounds):
    for i in range(race_rounds):
        r, wip, err = Recorder(), Drain(), AtomicThrowable()
        n = 1 + i % 4

        def emitter():
            for k in range(n):
                HS.on_next(r, k, wip, err)

        race_runner.race(emitter, lambda: HS.on_complete(r, wip, err))
        _check_round(r, list(range(n)))
        assert r.terminals() == ["complete"]


def test_race_on_error_vs_on_complete(race_runner, race_rounds, plugin_errors):
    for _ in range(race_rounds // 2):
        r, wip, err = Recorder(), Drain(), AtomicThrowable()
        HS.on_next(r, 0, wip, err)
        e = ValueError("boom")
        race_runner.race(lambda: HS.on_error(r, e, wip, err), lambda: HS.on_complete(r, wip, err))
        assert r.violations == [] and len(r.terminals()) == 1
        # the error is either delivered or, after on_complete won, reported: never lost
        if r.terminals() == ["complete"]:
            assert plugin_errors.causes()[-1] is e
        else:
            assert r.terminals() == [e]
