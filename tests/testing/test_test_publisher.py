"""TestPublisher: the compliant one (demand, cancellation, terminal cleanup, assertions) and
each Violation used against library operators (map, filter, take, observe_on), showing
the operators' defences and what the rule-checking TestSubscriber flags."""

from __future__ import annotations

import pytest

from rxpy2.exceptions import MissingBackpressureException
from rxpy2.flowable import Flowable
from rxpy2.testing import StepVerifier
from rxpy2.testing import TestPublisher
from rxpy2.testing import TestScheduler
from rxpy2.testing import TestSubscriber
from rxpy2.testing import Violation

# ---------------------------------------------------------------- compliant


def test_is_a_flowable_and_emits_to_every_subscriber():
    tp: TestPublisher[int] = TestPublisher.create()
    assert isinstance(tp, Flowable)
    tp.assert_was_not_subscribed().assert_no_subscribers()
    ts1 = tp.test()
    ts2 = tp.test()
    tp.assert_was_subscribed().assert_subscribers(2).assert_was_requested()
    assert tp.subscribe_count() == 2
    tp.emit(1, 2, 3)
    ts1.assert_result(1, 2, 3)
    ts2.assert_result(1, 2, 3)
    tp.assert_no_subscribers()  # terminal: cleaned up
    tp.test().assert_result()  # late subscriber: the terminal event at once


def test_next_without_demand_fails_that_subscriber():
    tp: TestPublisher[int] = TestPublisher.create()
    ts = tp.test(2)
    tp.assert_min_requested(2).assert_max_requested(2)
    assert tp.requested == 2
    tp.next(1, 2)
    tp.assert_min_requested(0)
    tp.next(3)
    ts.assert_failure(MissingBackpressureException, 1, 2)
    assert str(ts.errors()[0]) == "Can't deliver value due to lack of requests"
    tp.assert_no_subscribers().assert_no_request_overflow()


def test_none_is_refused_at_the_caller():
    tp: TestPublisher[int] = TestPublisher.create()
    ts = tp.test()
    with pytest.raises(TypeError, match="§2.13"):
        tp.next(None)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="§2.13"):
        tp.error(None)  # type: ignore[arg-type]
    ts.assert_empty()


def test_cancel_removes_and_is_recorded():
    tp: TestPublisher[int] = TestPublisher.create()
    ts = tp.test()
    tp.assert_not_cancelled()
    ts.cancel()
    tp.assert_was_cancelled().assert_was_cancelled(1).assert_no_subscribers()
    tp.next(1)
    ts.assert_empty().assert_no_values_after_cancel()
    with pytest.raises(AssertionError, match="expected no cancellation but there were 1"):
        tp.assert_not_cancelled()


def test_bad_request_signals_value_error():
    tp: TestPublisher[int] = TestPublisher.create()
    ts: TestSubscriber[int] = TestSubscriber(0)
    tp.subscribe(ts)
    ts.request(0)
    ts.assert_error(ValueError)
    assert "§3.9" in str(ts.errors()[0])


def test_assertion_messages():
    tp: TestPublisher[int] = TestPublisher.create()
    with pytest.raises(AssertionError, match="expected a subscription but there was none"):
        tp.assert_was_subscribed()
    with pytest.raises(AssertionError, match="expected a request but there was none"):
        tp.assert_was_requested()
    with pytest.raises(AssertionError, match="no subscriber to check the demand of"):
        tp.assert_min_requested(1)
    tp.test(3)
    with pytest.raises(AssertionError, match="minimum demand of 5 but the lowest was 3"):
        tp.assert_min_requested(5)
    with pytest.raises(AssertionError, match="maximum demand of 1 but the highest was 3"):
        tp.assert_max_requested(1)
    with pytest.raises(AssertionError, match="expected a cancellation"):
        tp.assert_was_cancelled()
    with pytest.raises(AssertionError, match="expected 2 but there were 1"):
        tp.assert_subscribers(2)
    with pytest.raises(AssertionError, match="expected a request overflow"):
        tp.assert_request_overflow()
    assert "subscribers=1" in repr(tp)
    with pytest.raises(TypeError):
        TestPublisher.create_noncompliant("REQUEST_OVERFLOW")  # type: ignore[arg-type]


def test_map_and_take_against_the_compliant_publisher():
    tp: TestPublisher[int] = TestPublisher.create()
    ts = tp.map(lambda x: x * 10).take(2).test(1)
    tp.assert_min_requested(1)
    tp.next(1)
    ts.request(5)
    tp.next(2)
    ts.assert_result(10, 20)
    tp.assert_was_cancelled().assert_no_subscribers()  # take cancelled upstream


def test_with_step_verifier():
    tp: TestPublisher[int] = TestPublisher.create()
    StepVerifier.create(tp.map(str), initial_request=1) \
        .then(lambda: tp.assert_was_requested().assert_min_requested(1)) \
        .then(lambda: tp.next(1)) \
        .expect_next("1") \
        .then_request(1) \
        .then(lambda: tp.next(2).complete()) \
        .expect_next("2") \
        .verify_complete()


# ---------------------------------------------------------------- REQUEST_OVERFLOW

def test_request_overflow_through_map_is_flagged_by_the_test_subscriber():
    # map passes every item on (it does no demand accounting): the §1.1 break reaches
    # the TestSubscriber, which names it
    tp: TestPublisher[int] = TestPublisher.create_noncompliant(Violation.REQUEST_OVERFLOW)
    ts = tp.map(lambda x: x + 1).test(1)
    tp.next(1, 2, 3)
    tp.assert_request_overflow()
    with pytest.raises(AssertionError, match=r"§1\.1: on_next #2 \(3\) beyond the requested "
                                             r"amount 1"):
        ts.assert_values(2, 3, 4)


def test_request_overflow_into_observe_on_signals_missing_backpressure():
    # observe_on requests buffer_size upstream; more than that does not fit its queue
    vts = TestScheduler()
    tp: TestPublisher[int] = TestPublisher.create_noncompliant(Violation.REQUEST_OVERFLOW)
    ts = tp.observe_on(vts, buffer_size=2).test(0)
    tp.assert_max_requested(2)
    tp.next(1, 2, 3)
    tp.assert_request_overflow().assert_was_cancelled()
    vts.trigger_actions()
    ts.assert_failure(MissingBackpressureException).assert_protocol_ok()


def test_request_overflow_into_take_is_within_what_take_asked_for():
    # take(2) with downstream demand 5 asks upstream for 2 only; a third item is beyond
    # what take requested, but take stops at 2 and completes: the downstream is safe
    tp: TestPublisher[int] = TestPublisher.create_noncompliant(Violation.REQUEST_OVERFLOW)
    ts = tp.take(2).test(5)
    tp.assert_max_requested(2)
    tp.next(1, 2, 3)
    ts.assert_result(1, 2)


# ---------------------------------------------------------------- ALLOW_NULL

def test_allow_null_straight_into_the_test_subscriber():
    tp: TestPublisher[int] = TestPublisher.create_noncompliant(Violation.ALLOW_NULL)
    ts = tp.test()
    with pytest.raises(TypeError):  # §2.13: the subscriber raises to the caller
        tp.next(None)  # type: ignore[arg-type]
    with pytest.raises(AssertionError, match=r"§2\.13: on_next\(None\)"):
        ts.assert_no_values()


def test_allow_null_into_map_is_refused():
    # map's upstream-facing subscriber raises TypeError at the caller (§2.13), or, where it
    # applies its mapper first, refuses the None result with on_error(TypeError)
    tp: TestPublisher[int] = TestPublisher.create_noncompliant(Violation.ALLOW_NULL)
    ts = tp.map(lambda x: x).test()
    try:
        tp.next(None)  # type: ignore[arg-type]
    except TypeError:
        ts.assert_empty()
    else:
        ts.assert_failure(TypeError).assert_protocol_ok()
        tp.assert_was_cancelled()


# ---------------------------------------------------------------- CLEANUP_ON_TERMINATE

def test_terminating_twice_is_flagged_by_the_test_subscriber():
    tp: TestPublisher[int] = TestPublisher.create_noncompliant(Violation.CLEANUP_ON_TERMINATE)
    ts = tp.test()
    tp.complete().complete()
    with pytest.raises(AssertionError, match=r"§1\.7: on_complete after a terminal event"):
        ts.assert_result()


@pytest.mark.parametrize("operator", [
    lambda f: f.map(lambda x: x),
    lambda f: f.filter(lambda x: True),
    lambda f: f.take(5),
])
def test_operators_stop_after_their_terminal_event(operator):
    tp: TestPublisher[int] = TestPublisher.create_noncompliant(Violation.CLEANUP_ON_TERMINATE)
    ts = operator(tp).test()
    tp.next(1).error(ValueError("first")).complete()
    tp.next(2)
    ts.assert_failure(ValueError, 1).assert_protocol_ok()


# ---------------------------------------------------------------- DEFER_CANCELLATION

def test_deferred_cancellation_keeps_emitting():
    tp: TestPublisher[int] = TestPublisher.create_noncompliant(Violation.DEFER_CANCELLATION)
    ts = tp.test()
    tp.next(1)
    ts.cancel()
    tp.assert_was_cancelled().assert_subscribers(1)
    tp.next(2, 3)
    ts.assert_values(1, 2, 3)  # within the demand: in flight as far as §2.8 can tell
    with pytest.raises(AssertionError, match=r"2 on_next signal\(s\) after cancel\(\)"):
        ts.assert_no_values_after_cancel()


def test_deferred_cancellation_beyond_demand_breaks_1_1():
    tp: TestPublisher[int] = TestPublisher.create_noncompliant(Violation.DEFER_CANCELLATION,
                                                               Violation.REQUEST_OVERFLOW)
    ts = tp.test(1)
    tp.next(1)
    ts.cancel()
    tp.next(2)
    with pytest.raises(AssertionError, match=r"§1\.1: on_next #2"):
        ts.assert_values(1, 2)


def test_take_defends_against_deferred_cancellation():
    # (with REQUEST_OVERFLOW too: take asked for 2 only, a compliant publisher would fail
    # the subscriber at item 3 for lack of demand)
    tp: TestPublisher[int] = TestPublisher.create_noncompliant(Violation.DEFER_CANCELLATION,
                                                               Violation.REQUEST_OVERFLOW)
    ts = tp.take(2).test()
    tp.next(1, 2, 3, 4)
    tp.complete()
    tp.assert_was_cancelled()
    ts.assert_result(1, 2).assert_no_values_after_cancel()
