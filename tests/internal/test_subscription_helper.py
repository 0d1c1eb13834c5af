"""SubscriptionHelper: validation, set/replace/set_once/cancel, deferred request and their races."""

# Each race round's closures run inside that round: late binding of loop variables is
# what the rounds rely on, not a bug.
# ruff: noqa: B023

from __future__ import annotations

import threading

import pytest

from rxpy2._internal.atomic import AtomicLong
from rxpy2._internal.atomic import AtomicReference
from rxpy2._internal.helpers import CANCELLED
from rxpy2._internal.helpers import SubscriptionHelper as SH
from rxpy2.exceptions import ProtocolViolationException
from rxpy2.reactivestreams import LONG_MAX
from rxpy2.reactivestreams import Subscription


class Probe(Subscription):
    """Records requests and cancellations; thread-safe."""

    def __init__(self) -> None:
        self.requests: list[int] = []
        self.cancelled = 0
        self._lock = threading.Lock()

    def request(self, n: int) -> None:
        with self._lock:
            self.requests.append(n)

    def cancel(self) -> None:
        with self._lock:
            self.cancelled += 1

    @property
    def total(self) -> int:
        return sum(self.requests)


def test_cancelled_sentinel():
    assert SH.CANCELLED is CANCELLED
    assert SH.is_cancelled(CANCELLED)
    assert not SH.is_cancelled(Probe())
    assert not SH.is_cancelled(None)
    CANCELLED.request(1)  # no-ops
    CANCELLED.cancel()
    assert repr(CANCELLED) == "CANCELLED"


# ---------------------------------------------------------------- validate

def test_validate_first_subscription():
    p = Probe()
    assert SH.validate(None, p) is True
    assert p.cancelled == 0


def test_validate_second_subscription_cancelled_and_reported(plugin_errors):
    first, second = Probe(), Probe()
    assert SH.validate(first, second) is False
    assert second.cancelled == 1
    assert first.cancelled == 0
    assert len(plugin_errors) == 1
    assert isinstance(plugin_errors[0], ProtocolViolationException)
    assert "§2.5" in str(plugin_errors[0])


def test_validate_none_subscription_reported(plugin_errors):
    assert SH.validate(None, None) is False
    assert [type(e) for e in plugin_errors] == [TypeError]


# ---------------------------------------------------------------- validate_request

@pytest.mark.parametrize("n", [1, 5, LONG_MAX])
def test_validate_request_positive_gives_the_amount(n):
    r = SH.validate_request(n)
    assert r == n and type(r) is int


class _Index:
    def __init__(self, v):
        self.v = v

    def __index__(self):
        return self.v

    def __repr__(self) -> str:  # a stable test id (pytest-xdist workers compare them)
        return f"_Index({self.v})"


class _BadIndex:
    def __index__(self):
        raise RuntimeError("no")

    def __repr__(self) -> str:  # a stable test id (pytest-xdist workers compare them)
        return "_BadIndex()"


def test_validate_request_converts_an_integer_type_with_index():
    r = SH.validate_request(_Index(7))
    assert r == 7 and type(r) is int
    assert SH.request_amount(_Index(7)) == 7


@pytest.mark.parametrize("n", [2.5, 0.5, 3.0, "3", None, True, False, [1], _BadIndex()],
                         ids=repr)
def test_validate_request_that_is_not_an_int_reports_a_type_error_naming_it(n, plugin_errors):
    assert SH.validate_request(n) == 0
    assert SH.request_amount(n) == 0
    assert len(plugin_errors) == 1
    e = plugin_errors[0]
    assert isinstance(e, TypeError)
    assert "§3.9" in str(e) and type(n).__name__ in str(e)


def test_bool_is_not_a_request_although_it_is_an_int(plugin_errors):
    # request(True) is a bug, not request(1)
    assert SH.validate_request(True) == 0
    assert isinstance(SH.bad_request(True), TypeError)
    assert "bool" in str(plugin_errors[0])


@pytest.mark.parametrize("n", [0, -1, -LONG_MAX, _Index(0), _Index(-2)], ids=repr)
def test_validate_request_non_positive_reports_3_9(n, plugin_errors):
    assert SH.validate_request(n) == 0
    assert SH.request_amount(n) == 0
    n = n.v if isinstance(n, _Index) else n
    assert len(plugin_errors) == 1
    e = plugin_errors[0]
    assert isinstance(e, ValueError)
    assert "§3.9" in str(e) and str(n) in str(e)


def test_bad_request_error():
    e = SH.bad_request(-3)
    assert isinstance(e, ValueError)
    assert str(e) == "§3.9 violated: positive request amount required but it was -3"


# ---------------------------------------------------------------- set_once / replace / set / cancel

def test_set_once():
    ref = AtomicReference()
    p = Probe()
    assert SH.set_once(ref, p) is True
    assert ref.get() is p
    assert p.cancelled == 0


def test_set_once_twice_cancels_and_reports(plugin_errors):
    ref = AtomicReference()
    p1, p2 = Probe(), Probe()
    SH.set_once(ref, p1)
    assert SH.set_once(ref, p2) is False
    assert ref.get() is p1
    assert p2.cancelled == 1 and p1.cancelled == 0
    assert [type(e) for e in plugin_errors] == [ProtocolViolationException]


def test_set_once_after_cancel_cancels_silently():
    ref = AtomicReference()
    assert SH.cancel(ref) is True
    p = Probe()
    assert SH.set_once(ref, p) is False
    assert p.cancelled == 1
    assert ref.get() is CANCELLED


def test_set_once_none_is_type_error():
    with pytest.raises(TypeError):
        SH.set_once(AtomicReference(), None)  # type: ignore[arg-type]


def test_set_once_request():
    ref = AtomicReference()
    p = Probe()
    assert SH.set_once_request(ref, p, 16) is True
    assert p.requests == [16]
    SH.cancel(ref)
    p2 = Probe()
    assert SH.set_once_request(ref, p2, 16) is False
    assert p2.requests == [] and p2.cancelled == 1


def test_replace_does_not_cancel_previous():
    ref = AtomicReference()
    p1, p2 = Probe(), Probe()
    assert SH.replace(ref, p1) is True
    assert SH.replace(ref, p2) is True
    assert ref.get() is p2
    assert p1.cancelled == 0
    assert SH.replace(ref, None) is True
    assert ref.get() is None


def test_set_cancels_previous():
    ref = AtomicReference()
    p1, p2 = Probe(), Probe()
    assert SH.set(ref, p1) is True
    assert SH.set(ref, p2) is True
    assert p1.cancelled == 1 and p2.cancelled == 0
    assert ref.get() is p2


@pytest.mark.parametrize("op", [SH.set, SH.replace])
def test_set_and_replace_after_cancel(op):
    ref = AtomicReference()
    SH.cancel(ref)
    p = Probe()
    assert op(ref, p) is False
    assert p.cancelled == 1
    assert ref.get() is CANCELLED
    assert op(ref, None) is False


def test_cancel_cancels_current_once():
    ref = AtomicReference()
    p = Probe()
    SH.set_once(ref, p)
    assert SH.cancel(ref) is True
    assert SH.cancel(ref) is False
    assert p.cancelled == 1
    assert ref.get() is CANCELLED


def test_cancel_empty_reference():
    ref = AtomicReference()
    assert SH.cancel(ref) is True
    assert ref.get() is CANCELLED


# ---------------------------------------------------------------- deferred request / set once

def test_deferred_requests_before_subscription_are_handed_over_once():
    ref, req = AtomicReference(), AtomicLong()
    SH.deferred_request(ref, req, 3)
    SH.deferred_request(ref, req, 4)
    p = Probe()
    assert SH.deferred_set_once(ref, req, p) is True
    assert p.requests == [7]
    assert req.get() == 0
    SH.deferred_request(ref, req, 5)  # now direct
    assert p.requests == [7, 5]


def test_deferred_set_once_without_requests_requests_nothing():
    ref, req = AtomicReference(), AtomicLong()
    p = Probe()
    SH.deferred_set_once(ref, req, p)
    assert p.requests == []


def test_deferred_request_caps_at_long_max():
    ref, req = AtomicReference(), AtomicLong()
    SH.deferred_request(ref, req, LONG_MAX)
    SH.deferred_request(ref, req, 5)
    p = Probe()
    SH.deferred_set_once(ref, req, p)
    assert p.requests == [LONG_MAX]


def test_deferred_request_non_positive_reported_not_accumulated(plugin_errors):
    ref, req = AtomicReference(), AtomicLong()
    SH.deferred_request(ref, req, 0)
    SH.deferred_request(ref, req, -2)
    assert req.get() == 0
    assert [type(e) for e in plugin_errors] == [ValueError, ValueError]


def test_deferred_set_once_after_cancel():
    ref, req = AtomicReference(), AtomicLong()
    SH.deferred_request(ref, req, 5)
    SH.cancel(ref)
    p = Probe()
    assert SH.deferred_set_once(ref, req, p) is False
    assert p.cancelled == 1 and p.requests == []


def test_deferred_set_once_twice_reports(plugin_errors):
    ref, req = AtomicReference(), AtomicLong()
    SH.deferred_set_once(ref, req, Probe())
    p2 = Probe()
    assert SH.deferred_set_once(ref, req, p2) is False
    assert p2.cancelled == 1
    assert [type(e) for e in plugin_errors] == [ProtocolViolationException]


# ---------------------------------------------------------------- races

def test_race_deferred_request_vs_deferred_set_once(race_runner, race_rounds):
    for i in range(race_rounds):
        ref, req = AtomicReference(), AtomicLong()
        p = Probe()
        amounts = [1 + (i + k) % 5 for k in range(1 + i % 3)]

        def requester():
            for n in amounts:
                SH.deferred_request(ref, req, n)

        race_runner.race(requester, lambda: SH.deferred_set_once(ref, req, p))
        # exactly what was requested reached the subscription: nothing lost, nothing twice
        assert p.total == sum(amounts), (amounts, p.requests)
        assert all(n > 0 for n in p.requests)
        assert req.get() == 0
        assert ref.get() is p


def test_race_deferred_request_vs_deferred_set_once_unbounded(race_runner, race_rounds):
    for _ in range(race_rounds // 4):
        ref, req = AtomicReference(), AtomicLong()
        p = Probe()
        race_runner.race(lambda: SH.deferred_request(ref, req, LONG_MAX),
                         lambda: SH.deferred_set_once(ref, req, p))
        assert p.requests == [LONG_MAX]


def test_race_cancel_vs_set_once(race_runner, race_rounds):
    for _ in range(race_rounds):
        ref = AtomicReference()
        p = Probe()
        result = []
        race_runner.race(lambda: SH.cancel(ref),
                         lambda: result.append(SH.set_once(ref, p)))
        # cancelled exactly once either way: by cancel() or by set_once finding CANCELLED
        assert p.cancelled == 1
        assert ref.get() is CANCELLED
        assert result in ([True], [False])


def test_race_cancel_vs_cancel_cancels_once(race_runner, race_rounds):
    for _ in range(race_rounds // 2):
        ref = AtomicReference()
        p = Probe()
        SH.set_once(ref, p)
        won = []
        race_runner.race(lambda: won.append(SH.cancel(ref)), lambda: won.append(SH.cancel(ref)))
        assert sorted(won) == [False, True]
        assert p.cancelled == 1


def test_race_set_vs_cancel(race_runner, race_rounds):
    for _ in range(race_rounds // 2):
        ref = AtomicReference()
        first, second = Probe(), Probe()
        SH.set(ref, first)
        race_runner.race(lambda: SH.set(ref, second), lambda: SH.cancel(ref))
        assert first.cancelled == 1 and second.cancelled == 1
        assert ref.get() is CANCELLED
