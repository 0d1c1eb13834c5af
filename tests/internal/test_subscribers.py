"""StrictSubscriber, LambdaSubscriber and SerializedSubscriber."""

# Each race round's closures run inside that round: late binding of loop variables is
# what the rounds rely on, not a bug.
# ruff: noqa: B023

from __future__ import annotations

import pytest
from rx_internal_support import COMPLETE
from rx_internal_support import ProbeSubscription
from rx_internal_support import Recorder

from rxpy2._internal.helpers import CANCELLED
from rxpy2._internal.subscribers.lambda_subscriber import LambdaSubscriber
from rxpy2._internal.subscribers.serialized import SerializedSubscriber
from rxpy2._internal.subscribers.strict import StrictSubscriber
from rxpy2.exceptions import CompositeException
from rxpy2.exceptions import OnErrorNotImplementedException
from rxpy2.exceptions import ProtocolViolationException
from rxpy2.flowable import Flowable
from rxpy2.reactivestreams import LONG_MAX
from rxpy2.reactivestreams import Subscriber
from rxpy2.reactivestreams import Subscription

# ---------------------------------------------------------------- StrictSubscriber


class PlainSubscriber(Subscriber[int]):
    """A user-written Subscriber (not a FlowableSubscriber) driven by callbacks."""

    def __init__(self, on_subscribe=None, on_next=None) -> None:
        self.s: Subscription | None = None
        self.events: list[object] = []
        self._on_subscribe = on_subscribe
        self._on_next = on_next

    def on_subscribe(self, s: Subscription) -> None:
        self.s = s
        self.events.append("subscribed")
        if self._on_subscribe is not None:
            self._on_subscribe(s)

    def on_next(self, item: int) -> None:
        self.events.append(item)
        if self._on_next is not None:
            self._on_next(self.s, item)

    def on_error(self, error: BaseException) -> None:
        self.events.append(error)

    def on_complete(self) -> None:
        self.events.append(COMPLETE)


@pytest.mark.parametrize("n", [0, -1])
def test_strict_non_positive_request_is_on_error(n):
    down = PlainSubscriber(on_subscribe=lambda s: s.request(n))
    strict = StrictSubscriber(down)
    up = ProbeSubscription()
    strict.on_subscribe(up)
    assert up.cancelled == 1  # §3.9: the stream stops
    assert up.requests == []
    assert len(down.events) == 2 and down.events[0] == "subscribed"
    err = down.events[1]
    assert isinstance(err, ValueError) and "§3.9" in str(err) and str(n) in str(err)
    strict.on_next(1)  # the upstream raced on: nothing more reaches the subscriber
    strict.on_complete()
    assert len(down.events) == 2


def test_strict_bad_request_through_flowable_subscribe():
    down = PlainSubscriber(on_subscribe=lambda s: s.request(0))
    Flowable.range(1, 5).subscribe(down)
    assert down.events[0] == "subscribed"
    assert isinstance(down.events[1], ValueError)
    assert len(down.events) == 2


def test_strict_requests_are_deferred_until_on_subscribe_returned():
    returned = []
    down = PlainSubscriber(on_subscribe=lambda s: (s.request(2), s.request(3)))
    strict = StrictSubscriber(down)
    up = ProbeSubscription(on_request=lambda n: returned.append(down.events[:]))
    strict.on_subscribe(up)
    assert up.requests == [5]  # accumulated, handed over once on_subscribe returned
    assert returned == [["subscribed"]]


def test_strict_on_subscribe_is_the_first_signal_in_a_flow():
    down = PlainSubscriber(on_subscribe=lambda s: s.request(LONG_MAX))
    Flowable.range(1, 3).subscribe(down)
    assert down.events == ["subscribed", 1, 2, 3, COMPLETE]


def test_strict_request_inside_on_next_runs_the_flow():
    down = PlainSubscriber(on_subscribe=lambda s: s.request(1),
                           on_next=lambda s, item: s.request(1))
    Flowable.range(1, 5).subscribe(down)
    assert down.events == ["subscribed", 1, 2, 3, 4, 5, COMPLETE]


def test_strict_second_on_subscribe_2_12():
    down = PlainSubscriber()
    strict = StrictSubscriber(down)
    first, second = ProbeSubscription(), ProbeSubscription()
    strict.on_subscribe(first)
    strict.on_subscribe(second)
    assert second.cancelled == 1
    assert first.cancelled == 1  # the stream ends
    assert down.events[0] == "subscribed" and len(down.events) == 2
    assert isinstance(down.events[1], ProtocolViolationException)
    assert "§2.12" in str(down.events[1])


def test_strict_request_and_cancel_after_terminal_are_no_ops():
    down = PlainSubscriber()
    strict = StrictSubscriber(down)
    up = ProbeSubscription()
    strict.on_subscribe(up)
    strict.request(1)
    strict.on_complete()
    strict.request(5)
    strict.request(0)  # §3.6: a no-op now, neither on_error nor reported
    strict.request(-1)
    strict.cancel()
    assert up.requests == [1]
    assert up.cancelled == 0
    assert down.events == ["subscribed", COMPLETE]


def test_strict_after_error_request_and_cancel_are_no_ops():
    down = PlainSubscriber()
    strict = StrictSubscriber(down)
    up = ProbeSubscription()
    strict.on_subscribe(up)
    e = ValueError("x")
    strict.on_error(e)
    strict.request(3)
    strict.cancel()
    assert up.requests == [] and up.cancelled == 0
    assert down.events == ["subscribed", e]


def test_strict_cancel_before_upstream_arrives():
    down = PlainSubscriber(on_subscribe=lambda s: s.cancel())
    strict = StrictSubscriber(down)
    up = ProbeSubscription()
    strict.on_subscribe(up)
    assert up.cancelled == 1 and up.requests == []


def test_strict_wraps_plain_subscribers_only():
    seen = []

    class Probe(Flowable[int]):
        def subscribe_actual(self, subscriber) -> None:
            seen.append(subscriber)

    plain = PlainSubscriber()
    rec = Recorder()
    Probe().subscribe(plain)
    Probe().subscribe(rec)
    assert isinstance(seen[0], StrictSubscriber) and seen[0].downstream is plain
    assert seen[1] is rec


def test_race_strict_on_next_vs_on_error(race_runner, race_rounds):
    for i in range(race_rounds // 2):
        down = Recorder()
        strict = StrictSubscriber(down)
        strict.on_subscribe(ProbeSubscription())
        e = ValueError("x")
        n = 1 + i % 3
        race_runner.race(lambda: [strict.on_next(k) for k in range(n)],
                         lambda: strict.on_error(e))
        down.assert_well_formed()
        assert down.terminals() == [e]
        assert down.items() == list(range(len(down.items())))


# ---------------------------------------------------------------- LambdaSubscriber

def _lambda(**kw):
    ls = LambdaSubscriber(**kw)
    up = ProbeSubscription()
    ls.on_subscribe(up)
    return ls, up


def test_lambda_callbacks_and_request_all():
    got = []
    ls, up = _lambda(on_next=got.append, on_error=got.append, on_complete=lambda: got.append("c"))
    assert up.requests == [LONG_MAX]
    ls.on_next(1)
    ls.on_next(2)
    ls.on_complete()
    assert got == [1, 2, "c"]
    assert ls.is_disposed()  # terminated
    ls.on_next(3)
    assert got == [1, 2, "c"]
    assert up.cancelled == 0  # terminal events do not cancel upstream


def test_lambda_custom_on_subscribe():
    ls = LambdaSubscriber(on_subscribe=lambda s: s.request(2))
    up = ProbeSubscription()
    ls.on_subscribe(up)
    assert up.requests == [2]
    ls.request(3)
    assert up.requests == [2, 3]


def test_lambda_on_subscribe_raising_cancels_and_signals_error():
    e = ValueError("sub")
    errors = []

    def boom(s):
        raise e

    ls = LambdaSubscriber(on_error=errors.append, on_subscribe=boom)
    up = ProbeSubscription()
    ls.on_subscribe(up)
    assert up.cancelled == 1 and errors == [e]


def test_lambda_on_next_raising_cancels_upstream_and_calls_on_error():
    e = ZeroDivisionError("x")
    errors = []

    def on_next(v):
        if v == 2:
            raise e

    ls, up = _lambda(on_next=on_next, on_error=errors.append)
    ls.on_next(1)
    ls.on_next(2)
    assert up.cancelled == 1
    assert errors == [e]
    ls.on_next(3)
    ls.on_complete()
    assert errors == [e]


def test_lambda_without_on_error_reports_not_implemented(plugin_errors):
    ls, up = _lambda(on_next=lambda v: None)
    assert not ls.has_custom_on_error()
    e = ValueError("x")
    ls.on_error(e)
    assert len(plugin_errors) == 1
    err = plugin_errors[0]
    assert isinstance(err, OnErrorNotImplementedException)
    assert err.__cause__ is e


def test_lambda_on_error_raising_reports_composite(plugin_errors):
    e, e2 = ValueError("x"), KeyError("handler")

    def on_error(_):
        raise e2

    ls, up = _lambda(on_error=on_error)
    assert ls.has_custom_on_error()
    ls.on_error(e)
    assert len(plugin_errors) == 1
    assert isinstance(plugin_errors[0], CompositeException)
    assert plugin_errors[0].exceptions == [e, e2]


def test_lambda_on_complete_raising_reported(plugin_errors):
    e = ValueError("complete")

    def on_complete():
        raise e

    ls, up = _lambda(on_complete=on_complete)
    ls.on_complete()
    assert plugin_errors.causes() == [e]


def test_lambda_error_after_terminal_reported(plugin_errors):
    errors = []
    ls, up = _lambda(on_error=errors.append)
    ls.on_complete()
    e = ValueError("late")
    ls.on_error(e)
    assert errors == []
    assert plugin_errors.causes() == [e]


def test_lambda_dispose_cancels_and_drops_later_items(plugin_errors):
    got = []
    ls, up = _lambda(on_next=got.append, on_complete=lambda: got.append("c"))
    ls.on_next(1)
    assert not ls.is_disposed()
    ls.dispose()
    assert ls.is_disposed() and up.cancelled == 1
    ls.dispose()
    assert up.cancelled == 1
    ls.on_next(2)  # an in-flight item after dispose is not delivered
    ls.on_complete()
    assert got == [1]
    ls.on_error(ValueError("late"))  # an error after dispose goes to the plugins
    assert len(plugin_errors) == 1


def test_lambda_second_subscription(plugin_errors):
    ls, up = _lambda()
    second = ProbeSubscription()
    ls.on_subscribe(second)
    assert second.cancelled == 1
    assert [type(e) for e in plugin_errors] == [ProtocolViolationException]


def test_lambda_subscribe_on_disposed():
    ls = LambdaSubscriber()
    ls.dispose()
    up = ProbeSubscription()
    ls.on_subscribe(up)
    assert up.cancelled == 1 and up.requests == []


def test_lambda_via_flowable_subscribe():
    got = []
    d = Flowable.range(1, 3).subscribe(got.append, got.append, lambda: got.append("c"))
    assert got == [1, 2, 3, "c"]
    assert d.is_disposed()
    assert isinstance(d, LambdaSubscriber)
    assert d.upstream.get() is CANCELLED


# ---------------------------------------------------------------- SerializedSubscriber

def _serialized(delay_error=False, on_next=None):
    r = Recorder(on_next)
    ss = SerializedSubscriber(r, delay_error)
    up = ProbeSubscription()
    ss.on_subscribe(up)
    return r, ss, up


def test_serialized_passes_signals_and_itself():
    r, ss, up = _serialized()
    assert r.subscription is ss
    ss.request(3)
    assert up.requests == [3]
    ss.on_next(1)
    ss.on_complete()
    ss.on_next(2)
    ss.on_complete()
    assert r.events == [1, COMPLETE]
    ss.cancel()
    assert up.cancelled == 1


@pytest.mark.parametrize("signal", ["on_subscribe", "on_next", "on_error"])
def test_serialized_none_argument_raises_type_error(signal):
    """§2.13: a None argument raises TypeError to the caller (found by the TCK's subscriber
    verification); nothing reaches the downstream."""
    r, ss, up = _serialized()
    with pytest.raises(TypeError):
        getattr(ss, signal)(None)
    assert r.events == [] and up.cancelled == 0
    ss.on_next(1)  # the stream goes on: the caller, not the Subscriber, broke the rule
    assert r.events == [1]


def test_serialized_error_after_terminal_reported(plugin_errors):
    r, ss, up = _serialized()
    ss.on_complete()
    e = ValueError("late")
    ss.on_error(e)
    assert r.events == [COMPLETE]
    assert plugin_errors.causes() == [e]


def test_serialized_reentrant_signals_are_queued_in_order():
    def hook(rec, item):
        if item == 1:
            ss.on_next(2)  # re-entrant: queued, delivered after on_next(1) returns
            ss.on_next(3)
            ss.on_complete()

    r, ss, up = _serialized(on_next=hook)
    ss.on_next(1)
    assert r.events == [1, 2, 3, COMPLETE]
    r.assert_well_formed()


@pytest.mark.parametrize("delay_error,expected", [(False, [1, "E"]), (True, [1, 2, "E"])])
def test_serialized_error_cuts_ahead_unless_delayed(delay_error, expected):
    e = ValueError("E")

    def hook(rec, item):
        if item == 1:
            ss.on_next(2)
            ss.on_error(e)

    r, ss, up = _serialized(delay_error, hook)
    ss.on_next(1)
    assert [str(x) if isinstance(x, BaseException) else x for x in r.events] == expected


def test_race_serialized_on_next_vs_on_next(race_runner, race_rounds):
    for i in range(race_rounds // 2):
        r, ss, up = _serialized()
        n = 2 + i % 4
        race_runner.race(lambda: [ss.on_next(("a", k)) for k in range(n)],
                         lambda: [ss.on_next(("b", k)) for k in range(n)])
        r.assert_well_formed()  # never two calls at once
        items = r.items()
        assert sorted(items) == sorted([("a", k) for k in range(n)] + [("b", k) for k in range(n)])
        # each thread's items keep their order
        assert [k for (t, k) in items if t == "a"] == list(range(n))
        assert [k for (t, k) in items if t == "b"] == list(range(n))


def test_race_serialized_on_next_vs_on_error(race_runner, race_rounds):
    for i in range(race_rounds // 2):
        r, ss, up = _serialized()
        e = ValueError("x")
        n = 1 + i % 4
        race_runner.race(lambda: [ss.on_next(k) for k in range(n)], lambda: ss.on_error(e))
        r.assert_well_formed()
        assert r.terminals() == [e]  # delivered exactly once, never lost
        items = r.items()
        assert items == list(range(len(items)))


def test_race_serialized_on_next_vs_on_complete(race_runner, race_rounds):
    for i in range(race_rounds // 2):
        r, ss, up = _serialized(delay_error=True)
        n = 1 + i % 4
        race_runner.race(lambda: [ss.on_next(k) for k in range(n)], ss.on_complete)
        r.assert_well_formed()
        assert r.terminals() == [COMPLETE]
        items = r.items()
        assert items == list(range(len(items)))
