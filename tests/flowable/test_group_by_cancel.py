"""group_by: a cancel returns at once (§3.5), however long the synchronous upstream.

Cancelling the outer stream cancels the groups still queued in it and requests their items
again; cancelling a group requests its buffered items again. Before the fix each queued
group asked for more while the others still held the upstream, and every item of a new
key brought in by that request was dropped and replaced at once: over an endless
synchronous source the ``cancel()`` never returned. The tests of (a) and (b) hung then (the
timeout fails them) or saw the whole stream go by inside the cancel; the races (c) check
that nothing is lost, doubled or signalled after the cancel on both drain backends.
"""

from __future__ import annotations

import importlib
import os
from typing import Any

import pytest
from probes import ManualSource
from probes import Spy
from test_group_by import GroupCollector
from test_group_by import collect

from rxpy2 import Flowable
from rxpy2._internal.drain import GilDrain
from rxpy2._internal.drain import LockDrain
from rxpy2.reactivestreams import LONG_MAX

pytestmark = pytest.mark.timeout(10)

group_by_module = importlib.import_module("rxpy2._internal.operators.flowable.flowable_group_by")


class Counted:
    """An endless ``Flowable.generate`` of 0, 1, 2, ... that counts what it emitted."""

    def __init__(self) -> None:
        self.emitted = 0

    def step(self, state: int, emitter: Any) -> int:
        self.emitted += 1
        emitter.on_next(state)
        return state + 1

    def flowable(self) -> Flowable[int]:
        return Flowable.generate(lambda: 0, self.step)


def endless_sources() -> list[Any]:
    return [pytest.param(lambda: Flowable.range(0, LONG_MAX), id="range"),
            pytest.param(lambda: Counted().flowable(), id="generate")]


def mostly_new_keys(x: int) -> int:
    """Key 0 for every fourth item; every other item has a key of its own."""
    return 0 if x % 4 == 0 else x


# ------------------------------------------------------------------------- (a) the outer


@pytest.mark.parametrize("make", endless_sources())
def test_outer_cancel_with_queued_groups_returns_and_cancels_the_upstream(make):
    spy = Spy(make())
    ts = spy.group_by(lambda x: x, buffer_size=16).test(0)  # 16 groups wait in the queue
    ts.cancel()
    assert spy.cancels == 1
    ts.assert_no_values().assert_not_complete().assert_no_errors()
    # each queued group's item was requested again (after the upstream's cancel: no-ops)
    assert spy.requests == [16] + [1] * 16


@pytest.mark.parametrize("make", endless_sources())
def test_outer_cancel_with_queued_groups_and_a_live_one_returns(make):
    spy = Spy(make())
    c = collect(spy.group_by(mostly_new_keys, buffer_size=16), outer_request=1)
    # group 0 consumes everything; the queued groups of the other keys hold the upstream
    got = c.subs[0].values()
    assert got == list(range(0, 4 * len(got), 4)) and got
    c.cancel()  # their items are requested again: the new keys it brings are dropped
    assert spy.cancels == 0  # group 0 is still live
    values = c.subs[0].values()
    assert values == list(range(0, 4 * len(values), 4))
    assert c.keys() == [0] and c.completed == 0 and not c.errors
    c.subs[0].cancel()
    assert spy.cancels == 1


def test_outer_cancel_does_not_run_the_stream_to_its_end_and_owes_the_replacements():
    spy = Spy(Flowable.range(0, 10_000))
    c = collect(spy.group_by(mostly_new_keys, buffer_size=16), outer_request=1)
    c.cancel()
    ts = c.subs[0]
    ts.assert_not_complete()  # the rest of the source did not go by inside the cancel
    parent = c.groups[0].state.parent  # type: ignore[attr-defined]
    assert parent.owed.get() > 0  # the dropped items' replacements wait ...
    ts.request(1)  # ... for the next request made outside a cancel
    assert parent.owed.get() == 0
    ts.assert_value_count(2500).assert_complete()
    assert ts.values() == list(range(0, 10_000, 4))
    assert c.completed == 0  # the outer was cancelled: it never terminates


def test_owed_replacements_go_with_the_next_dropped_item():
    src = ManualSource()
    c = collect(src.group_by(mostly_new_keys, buffer_size=16), outer_request=1)
    src.emit(0, 1, 2)  # group 0 emitted, groups 1 and 2 queued
    parent = c.groups[0].state.parent  # type: ignore[attr-defined]
    work = group_by_module._CANCEL_WORK
    work.depth += 1  # as if a synchronous upstream emitted inside the cancel's request
    try:
        c.cancel()
        src.emit(3, 5)  # new keys after the cancel: dropped, replacements owed
    finally:
        work.depth -= 1
    assert parent.owed.get() == 2
    before = list(src.requests)
    src.emit(6)  # dropped outside cancel work: its replacement and the two owed ones
    assert src.requests == before + [3]
    assert parent.owed.get() == 0


# ------------------------------------------------------------------------- (b) through flat_map


@pytest.mark.parametrize("take", [1, 2, 3])
@pytest.mark.parametrize("demand", [1, 3, 10])
def test_tck_like_flat_map_take_then_cancel_returns(take, demand):
    # the Reactive Streams TCK's §3.17 publisher: bounded demand, then cancel; with take(3)
    # every inner is still live when flat_map cancels the outer (it cancels the inners next)
    spy = Spy(Flowable.range(0, LONG_MAX))
    ts = spy.group_by(lambda x: x // 2).flat_map(lambda g: g.take(take)).test(demand)
    expected = list(range(demand))  # take(1): the pair's second item makes a new group
    ts.assert_values(*expected)
    ts.cancel()
    assert spy.cancels == 1
    ts.assert_values(*expected).assert_not_complete().assert_no_errors()


@pytest.mark.parametrize("make", endless_sources())
def test_group_cancel_with_the_outer_gone_returns(make):
    spy = Spy(make())
    c = collect(spy.group_by(lambda x: x % 3, buffer_size=16), group_request=0)
    c.subs[2].request(LONG_MAX)  # group 2 consumes all; groups 0 and 1 buffer until the stall
    c.cancel()
    assert spy.cancels == 0
    c.subs[0].cancel()  # each gives its items back: the new keys they bring are dropped,
    c.subs[1].cancel()  # and key 2's items are consumed (and replaced) inside the cancel
    assert spy.cancels == 0
    values = c.subs[2].values()
    assert values == list(range(2, 3 * len(values), 3)) and len(values) > 5
    c.subs[2].cancel()
    assert spy.cancels == 1


# ------------------------------------------------------------------------- (c) races


BACKENDS = [pytest.param(GilDrain, id="gil"), pytest.param(LockDrain, id="lock")]
#: a race test runs ``RXPY2_RACE_ROUNDS`` rounds (300, or 10 000 for a long hunt)
RACE_TIMEOUT = pytest.mark.timeout(10 + int(os.environ.get("RXPY2_RACE_ROUNDS", "300")) // 20)


@pytest.fixture(params=BACKENDS)
def drain_backend(request, monkeypatch):
    """group_by's drains on the given backend (both are raced, whichever is in force)."""
    monkeypatch.setattr(group_by_module, "Drain", request.param)
    return request.param


class CancelWatch(GroupCollector):
    """Fails on any outer signal that starts after ``cancel()`` returned."""

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self.cancel_returned = False
        self.late: list[Any] = []

    def outer_cancel(self) -> None:
        self.cancel()
        self.cancel_returned = True

    def on_next(self, g: Any) -> None:
        if self.cancel_returned:
            self.late.append(g)
        super().on_next(g)

    def on_error(self, error: BaseException) -> None:
        self.late.append(error)

    def on_complete(self) -> None:
        self.late.append("complete")


@RACE_TIMEOUT
def test_race_outer_cancel_vs_group_consumption_sync_upstream(race_runner, race_rounds,
                                                              drain_backend):
    for _ in range(race_rounds):
        counted = Counted()
        spy = Spy(counted.flowable())
        c = CancelWatch(outer_request=1, group_request=0)
        spy.group_by(mostly_new_keys, buffer_size=16).subscribe(c)
        group = c.subs[0]
        race_runner.race(c.outer_cancel, lambda group=group: group.request(5))
        assert c.late == [] and c.keys() == [0]
        group.assert_values(0, 4, 8, 12, 16)  # nothing lost, nothing twice, in order
        assert spy.cancels == 0
        group.cancel()
        assert spy.cancels == 1
        # every item was asked for again exactly once (or is owed), plus the emitted group
        parent = c.groups[0].state.parent  # type: ignore[attr-defined]
        assert sum(spy.requests) + parent.owed.get() == 16 + counted.emitted + 1


@RACE_TIMEOUT
def test_race_outer_cancel_vs_items_and_group_consumption(race_runner, race_rounds,
                                                          drain_backend):
    items = list(range(1, 41))
    for _ in range(race_rounds):
        src = ManualSource()
        c = CancelWatch(outer_request=1)
        src.group_by(mostly_new_keys, buffer_size=16).subscribe(c)
        src.emit(0)

        def produce(src=src):
            src.emit(*items)

        race_runner.race(c.outer_cancel, produce)
        assert c.late == [] and c.keys() == [0]
        c.subs[0].assert_values(*range(0, 41, 4))
        # queued, dropped or consumed: each item asked for again once; the group once
        assert sum(src.requests) == 16 + 41 + 1
        assert not src.cancelled
        c.subs[0].cancel()
        assert src.cancels == 1
