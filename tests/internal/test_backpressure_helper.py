"""BackpressureHelper: capped request accounting, the LONG_MAX and LONG_MIN marks, and races."""

# Each race round's closures run inside that round: late binding of loop variables is
# what the rounds rely on, not a bug.
# ruff: noqa: B023

from __future__ import annotations

import pytest

from rxpy2._internal.atomic import AtomicLong
from rxpy2._internal.atomic import HardwareAtomicLong
from rxpy2._internal.atomic import LockAtomicLong
from rxpy2._internal.helpers import BackpressureHelper as BH
from rxpy2.exceptions import ProtocolViolationException
from rxpy2.reactivestreams import LONG_MAX
from rxpy2.reactivestreams import LONG_MIN

LONGS = [LockAtomicLong, HardwareAtomicLong]


@pytest.mark.parametrize("a,b,expected", [
    (0, 0, 0), (1, 2, 3), (LONG_MAX - 1, 1, LONG_MAX), (LONG_MAX, 1, LONG_MAX),
    (LONG_MAX, LONG_MAX, LONG_MAX), (LONG_MAX - 5, 10, LONG_MAX),
])
def test_add_cap(a, b, expected):
    assert BH.add_cap(a, b) == expected


@pytest.mark.parametrize("a,b,expected", [
    (0, 5, 0), (3, 4, 12), (2**31, 2**31, 2**62), (2**32, 2**32, LONG_MAX),
    (LONG_MAX, 2, LONG_MAX), (LONG_MAX, 1, LONG_MAX),
])
def test_multiply_cap(a, b, expected):
    assert BH.multiply_cap(a, b) == expected


@pytest.mark.parametrize("cls", LONGS)
def test_add_returns_previous_and_caps(cls):
    r = cls(0)
    assert BH.add(r, 5) == 0
    assert BH.add(r, 7) == 5
    assert r.get() == 12
    assert BH.add(r, LONG_MAX) == 12
    assert r.get() == LONG_MAX


@pytest.mark.parametrize("cls", LONGS)
def test_long_max_is_sticky(cls):
    r = cls(LONG_MAX)
    assert BH.add(r, 1) == LONG_MAX
    assert r.get() == LONG_MAX
    assert BH.produced(r, 10) == LONG_MAX  # unbounded: nothing is subtracted
    assert r.get() == LONG_MAX
    assert BH.add_cancel(r, 3) == LONG_MAX
    assert BH.produced_cancel(r, 3) == LONG_MAX
    assert r.get() == LONG_MAX


@pytest.mark.parametrize("cls", LONGS)
def test_produced_returns_new_value(cls):
    r = cls(10)
    assert BH.produced(r, 3) == 7
    assert BH.produced(r, 7) == 0
    assert r.get() == 0


@pytest.mark.parametrize("cls", LONGS)
def test_produced_more_than_requested_is_reported(cls, plugin_errors):
    r = cls(2)
    assert BH.produced(r, 5) == 0
    assert r.get() == 0
    assert len(plugin_errors) == 1
    e = plugin_errors[0]
    assert isinstance(e, ProtocolViolationException)
    assert isinstance(e, RuntimeError)
    assert "More produced than requested: -3" in str(e)


@pytest.mark.parametrize("cls", LONGS)
def test_produced_cancel_more_than_requested_is_reported(cls, plugin_errors):
    r = cls(1)
    assert BH.produced_cancel(r, 2) == 0
    assert [type(e) for e in plugin_errors] == [ProtocolViolationException]


@pytest.mark.parametrize("cls", LONGS)
def test_add_cancel_and_produced_cancel_respect_the_cancel_mark(cls):
    r = cls(LONG_MIN)
    assert BH.add_cancel(r, 5) == LONG_MIN
    assert r.get() == LONG_MIN
    assert BH.produced_cancel(r, 5) == LONG_MIN
    assert r.get() == LONG_MIN


@pytest.mark.parametrize("cls", LONGS)
def test_add_cancel_and_produced_cancel_count_normally(cls):
    r = cls(0)
    assert BH.add_cancel(r, 5) == 0
    assert BH.add_cancel(r, 5) == 5
    assert BH.produced_cancel(r, 4) == 6
    assert BH.add_cancel(r, LONG_MAX) == 6
    assert r.get() == LONG_MAX


def test_plain_add_does_not_know_the_cancel_mark():
    # documents the difference: operators with a cancel mark must use *_cancel
    r = AtomicLong(LONG_MIN)
    BH.add(r, 1)
    assert r.get() == LONG_MIN + 1


# ---------------------------------------------------------------- races

def test_race_add_vs_produced_exact(race_runner, race_rounds):
    for i in range(race_rounds):
        r = AtomicLong(100)
        k = 1 + i % 7
        race_runner.race(lambda: [BH.add(r, 3) for _ in range(k)],
                         lambda: [BH.produced(r, 2) for _ in range(k)])
        assert r.get() == 100 + k


def test_race_add_vs_add_caps(race_runner, race_rounds):
    for _ in range(race_rounds // 2):
        r = AtomicLong(0)
        prev = []
        race_runner.race(lambda: prev.append(BH.add(r, LONG_MAX - 10)),
                         lambda: prev.append(BH.add(r, 20)))
        assert r.get() == LONG_MAX
        assert sorted(prev) in ([0, 20], [0, LONG_MAX - 10])


def test_race_add_cancel_vs_cancel_mark(race_runner, race_rounds):
    for _ in range(race_rounds // 2):
        r = AtomicLong(0)
        prev = []
        race_runner.race(lambda: prev.append(BH.add_cancel(r, 5)),
                         lambda: prev.append(r.get_and_set(LONG_MIN)))
        # once the mark is in, it stays, whichever came first
        assert r.get() == LONG_MIN
        assert sorted(prev) in ([0, 5], [LONG_MIN, 0])
