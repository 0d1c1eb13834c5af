"""TestSubscriber / Flowable.test() catch rule breakers: each violation recorded when it
happens and raised, naming its rule, by every assertion."""

from __future__ import annotations

import threading

import pytest

from rxpy2._internal.subscriptions import BooleanSubscription
from rxpy2.flowable import Flowable
from rxpy2.reactivestreams import LONG_MAX
from rxpy2.reactivestreams import Subscriber
from rxpy2.reactivestreams import Subscription
from rxpy2.testing import TestObserver
from rxpy2.testing import TestSubscriber


class Ignores(Flowable[int]):
    """A source that emits ``n`` items whatever was requested (breaks §1.1)."""

    def __init__(self, n: int, complete: bool = True) -> None:
        self.n = n
        self.complete = complete

    def subscribe_actual(self, subscriber: Subscriber[int]) -> None:
        subscriber.on_subscribe(BooleanSubscription())
        for i in range(1, self.n + 1):
            subscriber.on_next(i)
        if self.complete:
            subscriber.on_complete()


class Scripted(Flowable[int]):
    """A source that runs ``script(subscriber, subscription)``."""

    def __init__(self, script) -> None:
        self.script = script

    def subscribe_actual(self, subscriber: Subscriber[int]) -> None:
        self.script(subscriber)


def six_for_three(upstream_subscriber: Subscriber[int]) -> Subscriber[int]:
    """A custom lift operator that emits each item twice (6 items for a request of 3)."""

    class Twice(Subscriber[int]):
        def on_subscribe(self, s: Subscription) -> None:
            upstream_subscriber.on_subscribe(s)

        def on_next(self, item: int) -> None:
            upstream_subscriber.on_next(item)
            upstream_subscriber.on_next(item)

        def on_error(self, e: BaseException) -> None:
            upstream_subscriber.on_error(e)

        def on_complete(self) -> None:
            upstream_subscriber.on_complete()

    return Twice()


# ---------------------------------------------------------------- §1.1

def test_more_items_than_requested_fails_every_assertion():
    ts = Ignores(6).test(3)
    with pytest.raises(AssertionError, match=r"§1\.1: on_next #4 \(4\) beyond the requested "
                                             r"amount 3"):
        ts.assert_values(1, 2, 3, 4, 5, 6)
    with pytest.raises(AssertionError, match=r"§1\.1"):
        ts.assert_protocol_ok()
    with pytest.raises(AssertionError, match=r"§1\.1"):
        ts.assert_result(1, 2, 3, 4, 5, 6)
    with pytest.raises(AssertionError, match=r"§1\.1"):
        ts.assert_complete()
    # every extra item is listed
    assert [v.split(" ")[2] for v in ts.protocol_violations()] == ["#4", "#5", "#6"]


def test_custom_lift_operator_emitting_6_for_3_fails():
    ts = Flowable.range(1, 10).lift(six_for_three).test(3)
    with pytest.raises(AssertionError, match=r"§1\.1"):
        ts.assert_values(1, 1, 2, 2, 3, 3)
    with pytest.raises(AssertionError, match=r"more items than requested"):
        ts.assert_protocol_ok()


def test_later_requests_count():
    ts = Ignores(3, complete=False).test(0)
    ts.assert_protocol_violation("§1.1: on_next #1")
    ts2: TestSubscriber[int] = TestSubscriber(1)
    ts2.request(2)  # before on_subscribe: counted
    Ignores(3).subscribe(ts2)
    ts2.assert_result(1, 2, 3).assert_protocol_ok()
    assert ts2.requested_total() == 3


def test_unbounded_request_is_never_exceeded():
    ts: TestSubscriber[int] = TestSubscriber(LONG_MAX - 1)
    ts.request(5)  # capped at LONG_MAX: unbounded (§3.17)
    Flowable.range(1, 100).subscribe(ts)
    ts.assert_value_count(100).assert_complete()
    assert ts.requested_total() == LONG_MAX


def test_requests_from_another_thread_are_counted_before_they_go_up():
    # a request issued while the source emits on its own thread: no false §1.1
    for _ in range(50):
        ts2: TestSubscriber[int] = TestSubscriber(1)
        Flowable.range(1, 200).subscribe(ts2)

        def requester(ts2=ts2):
            for _ in range(199):
                ts2.request(1)

        t = threading.Thread(target=requester)
        t.start()
        t.join()
        ts2.assert_value_count(200).assert_complete().assert_protocol_ok()


def test_well_behaved_chains_pass():
    Flowable.range(1, 5).map(lambda x: x * 2).test(2).assert_values(2, 4).request_more(3) \
        .assert_result(2, 4, 6, 8, 10)
    Flowable.range(1, 5).take(2).test(1).assert_values(1).assert_not_complete()


# ---------------------------------------------------------------- §1.7

def test_signal_after_complete():
    def script(s):
        s.on_subscribe(BooleanSubscription())
        s.on_complete()
        s.on_next(7)

    ts = Scripted(script).test()
    with pytest.raises(AssertionError, match=r"§1\.7: on_next\(7\) after a terminal event"):
        ts.assert_complete()


def test_second_terminal_event():
    def script(s):
        s.on_subscribe(BooleanSubscription())
        s.on_error(ValueError("x"))
        s.on_complete()

    ts = Scripted(script).test()
    with pytest.raises(AssertionError, match=r"§1\.7: on_complete after a terminal event"):
        ts.assert_protocol_ok()
    ts.assert_protocol_violation("§1.7").assert_error(ValueError)


# ---------------------------------------------------------------- §1.9, §2.5/§2.12, §2.13

def test_signal_before_on_subscribe():
    def script(s):
        s.on_next(1)
        s.on_subscribe(BooleanSubscription())

    ts = Scripted(script).test()
    with pytest.raises(AssertionError, match=r"§1\.9: on_next before on_subscribe"):
        ts.assert_values(1)


def test_second_on_subscribe_is_cancelled_and_reported():
    second = BooleanSubscription()

    def script(s):
        s.on_subscribe(BooleanSubscription())
        s.on_subscribe(second)
        s.on_complete()

    ts = Scripted(script).test()
    assert second.is_cancelled()
    with pytest.raises(AssertionError, match=r"§2\.5/§2\.12: on_subscribe twice"):
        ts.assert_result()


def test_on_subscribe_after_own_cancel_is_not_a_second_one():
    ts = Flowable.range(1, 3).test(0, cancel=True)
    ts.assert_empty().assert_protocol_ok()


@pytest.mark.parametrize("signal", ["on_next", "on_error", "on_subscribe"])
def test_none_signals(signal):
    def script(s):
        if signal == "on_subscribe":
            s.on_subscribe(None)
            return
        s.on_subscribe(BooleanSubscription())
        getattr(s, signal)(None)

    ts: TestSubscriber[int] = TestSubscriber()
    with pytest.raises(TypeError):  # §2.13: raised to the caller (the source)
        script(ts)
    with pytest.raises(AssertionError, match=rf"§2\.13: {signal}\(None\)"):
        ts.assert_no_values()


# ---------------------------------------------------------------- after cancel (§2.8)

def driven_by_hand(initial_request: int) -> tuple[TestSubscriber[int], Subscriber[int]]:
    """A TestSubscriber (``initial_request``) of a source that only calls ``on_subscribe``;
    returns it and the Subscriber the test then signals by hand."""
    holder: list[Subscriber[int]] = []

    def script(s):
        holder.append(s)
        s.on_subscribe(BooleanSubscription())

    ts = Scripted(script).test(initial_request)
    return ts, holder[0]


def test_items_in_flight_after_cancel_are_allowed_within_demand():
    ts, s = driven_by_hand(5)
    s.on_next(1)
    ts.cancel()
    s.on_next(2)  # in flight (§2.8): fine, within the demand of 5
    s.on_complete()  # a terminal event after cancel: allowed too
    ts.assert_result(1, 2)
    assert ts.values_after_cancel() == 1
    with pytest.raises(AssertionError, match=r"§2\.8/§3\.6: 1 on_next signal\(s\) after cancel"):
        ts.assert_no_values_after_cancel()


def test_items_after_cancel_beyond_demand_break_1_1():
    ts, s = driven_by_hand(1)
    ts.cancel()
    ts.request(10)  # after cancel: a no-op, not demand (§3.6)
    s.on_next(1)
    s.on_next(2)
    with pytest.raises(AssertionError, match=r"§1\.1: on_next #2"):
        ts.assert_values(1, 2)


def test_well_behaved_source_stops_at_cancel():
    ts = Flowable.range(1, 10).test(3)
    ts.cancel()
    ts.assert_values(1, 2, 3).assert_no_values_after_cancel()


# ---------------------------------------------------------------- acknowledging / messages

def test_assert_protocol_violation_acknowledges():
    ts = Ignores(4).test(2)
    with pytest.raises(AssertionError, match="No rule violation matching '§1.7'"):
        ts.assert_protocol_violation("§1.7")
    ts.assert_protocol_violation("§1.1").assert_result(1, 2, 3, 4)
    ts.on_complete()  # a new violation after the acknowledgement still fails
    with pytest.raises(AssertionError, match=r"§1\.7"):
        ts.assert_values(1, 2, 3, 4)


def test_a_failing_assertion_keeps_its_own_message_and_lists_the_violations():
    ts = Ignores(4).test(2)
    with pytest.raises(AssertionError, match=r"Value count differs.*protocol: §1\.1"):
        ts.assert_values(1)


def test_violation_recorded_on_the_source_thread():
    ts: TestSubscriber[int] = TestSubscriber(1)
    t = threading.Thread(target=lambda: Ignores(2).subscribe(ts))
    t.start()
    t.join()
    ts.await_done()
    with pytest.raises(AssertionError, match=r"§1\.1"):
        ts.assert_complete()


def test_test_observer_rules():
    from rxpy2.disposables import Disposables
    to: TestObserver[int] = TestObserver()
    to.on_subscribe(Disposables.empty())
    to.on_success(1)
    to.on_error(ValueError())
    with pytest.raises(AssertionError, match=r"§1\.7: on_error after a terminal event"):
        to.assert_value(1)


def test_lambda_subscribers_stay_lenient():
    got: list[int] = []
    Ignores(6).subscribe(got.append)
    assert got == [1, 2, 3, 4, 5, 6]


def test_plain_subscribers_keep_the_strict_subscriber():
    # a Subscriber that is not a FlowableSubscriber is wrapped in StrictSubscriber, which
    # ends the stream on a second on_subscribe (§2.12) rather than recording it
    from rxpy2.exceptions import ProtocolViolationException

    second = BooleanSubscription()
    got: list[object] = []

    class Plain(Subscriber[int]):
        def on_subscribe(self, s: Subscription) -> None:
            s.request(LONG_MAX)

        def on_next(self, item: int) -> None:
            got.append(item)

        def on_error(self, e: BaseException) -> None:
            got.append(e)

        def on_complete(self) -> None:
            got.append("done")

    def script(s):
        s.on_subscribe(BooleanSubscription())
        s.on_subscribe(second)

    Scripted(script).subscribe(Plain())
    assert second.is_cancelled()
    assert len(got) == 1 and isinstance(got[0], ProtocolViolationException)
