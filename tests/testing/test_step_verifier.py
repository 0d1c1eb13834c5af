"""StepVerifier: happy paths, each failure kind (naming the step and what was seen),
virtual time on a TestScheduler, and rule breaks failing the verification."""

from __future__ import annotations

import pytest

from rxpy2 import plugins
from rxpy2._internal.subscriptions import BooleanSubscription
from rxpy2.exceptions import MissingBackpressureException
from rxpy2.flowable import Flowable
from rxpy2.processors import PublishProcessor
from rxpy2.reactivestreams import Subscriber
from rxpy2.schedulers import Schedulers
from rxpy2.testing import StepVerifier
from rxpy2.testing import TestScheduler


class Ignores(Flowable[int]):
    def __init__(self, n: int) -> None:
        self.n = n

    def subscribe_actual(self, subscriber: Subscriber[int]) -> None:
        subscriber.on_subscribe(BooleanSubscription())
        for i in range(1, self.n + 1):
            subscriber.on_next(i)
        subscriber.on_complete()


# ---------------------------------------------------------------- happy paths

def test_items_then_complete():
    elapsed = StepVerifier.create(Flowable.range(1, 5)) \
        .expect_subscription() \
        .expect_next(1, 2) \
        .expect_next_matches(lambda x: x == 3) \
        .expect_next_count(2) \
        .verify_complete()
    assert isinstance(elapsed, float) and elapsed >= 0


def test_requests_step_by_step():
    StepVerifier.create(Flowable.range(1, 5), initial_request=0) \
        .expect_no_event(0.01) \
        .then_request(2) \
        .expect_next(1, 2) \
        .expect_no_event(0.01) \
        .then_request(10) \
        .expect_next_sequence([3, 4, 5]) \
        .expect_complete() \
        .verify(timeout=5)


def test_error_forms():
    e = ValueError("bad")
    src = Flowable.just(1).concat_with(Flowable.error(e))
    StepVerifier.create(src).expect_next(1).verify_error(ValueError)
    StepVerifier.create(src).expect_next(1).verify_error(e)
    StepVerifier.create(src).expect_next(1).verify_error()
    StepVerifier.create(src).expect_next(1).verify_error_matches(lambda x: "bad" in str(x))
    StepVerifier.create(src).expect_next(1).verify_error_message("bad")


def test_then_drives_a_hot_source_and_then_cancel_ends():
    pp: PublishProcessor[int] = PublishProcessor.create()
    StepVerifier.create(pp) \
        .then(lambda: pp.on_next(1)) \
        .expect_next(1) \
        .then(lambda: pp.on_next(2)) \
        .consume_next_with(lambda v: None if v == 2 else pytest.fail("not 2")) \
        .then_cancel() \
        .verify()
    assert not pp.has_subscribers()


def test_then_consume_while():
    StepVerifier.create(Flowable.range(1, 10)) \
        .then_consume_while(lambda x: x < 8) \
        .expect_next(8, 9, 10) \
        .verify_complete()


def test_subscriber_kept_for_later_assertions():
    sv = StepVerifier.create(Flowable.range(1, 3)).expect_next(1, 2, 3).expect_complete()
    sv.verify()
    sv.subscriber.assert_result(1, 2, 3)  # type: ignore[union-attr]


def test_script_must_end_with_a_terminal_step():
    with pytest.raises(ValueError, match="must end with"):
        StepVerifier.create(Flowable.range(1, 3)).expect_next(1).verify()
    with pytest.raises(ValueError, match="the script already ended"):
        StepVerifier.create(Flowable.empty()).expect_complete().expect_next(1)


# ---------------------------------------------------------------- failures

def test_wrong_item_names_the_step_and_what_was_seen():
    with pytest.raises(AssertionError,
                       match=r"at step 1 expect_next\(1, 3\): expected on_next\(3\) \(item 2 of 2\)"
                             r" but got on_next\(2\)"):
        StepVerifier.create(Flowable.range(1, 3)).expect_next(1, 3).verify_complete()


def test_complete_instead_of_item():
    with pytest.raises(AssertionError, match=r"step 2 expect_next_count\(5\): expected on_next "
                                             r"\(item 3 of 5\) but got on_complete\(\)"):
        StepVerifier.create(Flowable.range(1, 3)).expect_next(1).expect_next_count(5) \
            .verify_complete()


def test_item_instead_of_complete():
    with pytest.raises(AssertionError, match=r"step 2 expect_complete\(\): expected "
                                             r"on_complete\(\) but got on_next\(2\)"):
        StepVerifier.create(Flowable.range(1, 3)).expect_next(1).verify_complete()


def test_wrong_error():
    with pytest.raises(AssertionError, match=r"expected on_error with an error of type KeyError"
                                             r" but got on_error\(ValueError\('x'\)\)"):
        StepVerifier.create(Flowable.error(ValueError("x"))).verify_error(KeyError)
    with pytest.raises(AssertionError, match=r"expected on_error .* but got on_complete\(\)"):
        StepVerifier.create(Flowable.empty()).verify_error()
    with pytest.raises(AssertionError, match="does not match the predicate"):
        StepVerifier.create(Flowable.error(ValueError("x"))).verify_error_matches(
            lambda e: isinstance(e, KeyError))
    with pytest.raises(AssertionError, match="expected on_error with message 'y'"):
        StepVerifier.create(Flowable.error(ValueError("x"))).verify_error_message("y")


def test_predicate_mismatch():
    with pytest.raises(AssertionError, match=r"expect_next_matches\(<lambda>\): on_next\(1\) does"
                                             r" not match the predicate"):
        StepVerifier.create(Flowable.just(1)).expect_next_matches(lambda x: x > 1) \
            .verify_complete()


def test_consume_next_with_assertion():
    def check(v):
        assert v == 2, "want 2"

    with pytest.raises(AssertionError, match=r"consume_next_with\(check\): on_next\(1\) "
                                             r"rejected: want 2"):
        StepVerifier.create(Flowable.just(1)).consume_next_with(check).verify_complete()


def test_unexpected_event_during_no_event():
    with pytest.raises(AssertionError, match=r"expect_no_event\(0.01\): expected no event for "
                                             r"0.01 s but got on_next\(1\)"):
        StepVerifier.create(Flowable.just(1)).expect_no_event(0.01).verify_complete()


def test_timeout():
    with pytest.raises(AssertionError, match=r"step 1 expect_next\(1\): timed out waiting for "
                                             r"on_next\(1\)"):
        StepVerifier.create(Flowable.never()).expect_next(1).verify_complete(timeout=0.05)


def test_rule_break_fails_the_verification():
    # a source emitting 5 items for a request of 2
    with pytest.raises(AssertionError, match=r"Reactive Streams rule violated: §1\.1: on_next #3"):
        StepVerifier.create(Ignores(5), initial_request=2).expect_next(1, 2) \
            .then_request(3).expect_next(3, 4, 5).verify_complete()


def test_second_terminal_event_fails_the_verification():
    class Twice(Flowable[int]):
        def subscribe_actual(self, s: Subscriber[int]) -> None:
            s.on_subscribe(BooleanSubscription())
            s.on_complete()
            s.on_complete()

    with pytest.raises(AssertionError, match=r"step 1 expect_complete\(\): "
                                             r"Reactive Streams rule violated: §1\.7"):
        StepVerifier.create(Twice()).verify_complete()


# ---------------------------------------------------------------- virtual time

def test_interval_on_virtual_time_through_the_scheduler_hooks():
    elapsed = StepVerifier.with_virtual_time(lambda: Flowable.interval(10.0).take(3)) \
        .expect_subscription() \
        .expect_no_event(9.0) \
        .then_await(1.0) \
        .expect_next(0) \
        .then_await(20.0) \
        .expect_next(1, 2) \
        .verify_complete()
    assert elapsed < 5.0  # 30 virtual seconds, no real waiting
    assert Schedulers.computation() is not None
    assert not isinstance(Schedulers.computation(), TestScheduler)  # hooks removed


def test_timer_with_the_scheduler_as_an_argument():
    StepVerifier.with_virtual_time(lambda s: Flowable.timer(5.0, s).map(lambda x: "tick")) \
        .expect_no_event(4.9) \
        .then_await(0.1) \
        .expect_next("tick") \
        .verify_complete()


def test_virtual_time_with_a_given_scheduler_and_request_steps():
    vts = TestScheduler()
    StepVerifier.with_virtual_time(
        lambda: Flowable.interval(1.0, scheduler=vts).on_backpressure_buffer(),
        initial_request=0, scheduler=vts) \
        .then_await(3.0) \
        .expect_no_event(0) \
        .then_request(2) \
        .expect_next(0, 1) \
        .then_cancel() \
        .verify()
    assert vts.pending_count() == 0  # cancelled: the periodic task is gone


def test_interval_without_demand_on_virtual_time():
    StepVerifier.with_virtual_time(lambda: Flowable.interval(1.0), initial_request=1) \
        .then_await(1.0) \
        .expect_next(0) \
        .then_await(1.0) \
        .verify_error(MissingBackpressureException)


def test_virtual_time_when_the_plugins_are_locked_down():
    plugins.lockdown()
    try:
        StepVerifier.with_virtual_time(lambda s: Flowable.timer(1.0, s)) \
            .then_await(1.0).expect_next(0).verify_complete()
    finally:
        plugins._unlock_for_tests()
