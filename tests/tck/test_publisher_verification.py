"""PublisherVerification: conforming rxpy2 publishers pass it; deliberately broken ones fail it.

Part (a) lets pytest collect the verification for a few rxpy2 sources, one test
per rule. Part (b) holds the negative controls: each broken Publisher written
below breaks one rule, and the rule's test must fail on it (a TCK that cannot
fail proves nothing). Part (c) covers the environment and the runner.

Every Publisher in part (b) is WRONG on purpose.
"""

from __future__ import annotations

import random
import re
import subprocess
import sys
import textwrap
import threading
from typing import Any

import pytest

from rxpy2 import Flowable
from rxpy2.reactivestreams import LONG_MAX
from rxpy2.reactivestreams import Publisher
from rxpy2.reactivestreams import Subscriber
from rxpy2.reactivestreams import Subscription
from rxpy2.tck import Latch
from rxpy2.tck import ManualPublisher
from rxpy2.tck import Promise
from rxpy2.tck import PublisherVerification
from rxpy2.tck import Receptacle
from rxpy2.tck import RuleResult
from rxpy2.tck import SkipRule
from rxpy2.tck import TestEnvironment
from rxpy2.tck import TestException
from rxpy2.tck import run_rule
from rxpy2.tck import run_rules
from rxpy2.tck.publisher import SKIPPING_NO_ERROR_PUBLISHER_AVAILABLE

# ---------------------------------------------------------------------------------------------
# (a) conforming publishers, collected by pytest: one test per rule
# ---------------------------------------------------------------------------------------------


class TestFlowableRangeTck(PublisherVerification):
    def create_publisher(self, elements: int) -> Publisher[int]:
        return Flowable.range(0, elements)

    def create_failed_publisher(self) -> Publisher[int]:
        return Flowable.error(TestException())


class TestFlowableFromIterableTck(PublisherVerification):
    def create_publisher(self, elements: int) -> Publisher[int]:
        return Flowable.from_iterable(range(elements))

    def create_failed_publisher(self) -> Publisher[int]:
        return Flowable.error(lambda: ValueError("failed source"))


class TestFlowableJustTck(PublisherVerification):
    """At most one element: the rules that need more are skipped with the reason."""

    def create_publisher(self, elements: int) -> Publisher[int]:
        return Flowable.just(7) if elements else Flowable.empty()

    def max_elements_from_publisher(self) -> int:
        return 1


class TestEndlessRangeTck(PublisherVerification):
    """A source that never completes: the rules that need on_complete are skipped."""

    def create_publisher(self, elements: int) -> Publisher[int]:
        return Flowable.range(0, LONG_MAX)

    def max_elements_from_publisher(self) -> int:
        return self.publisher_unable_to_signal_on_complete()


# ---------------------------------------------------------------------------------------------
# (b) negative controls: broken publishers
# ---------------------------------------------------------------------------------------------


class NoopSubscription(Subscription):
    def request(self, n: int) -> None:
        pass

    def cancel(self) -> None:
        pass


class NoopPublisher(Publisher[int]):
    """Hands out a Subscription and then never emits anything (§1.1, §3.9 missed)."""

    def subscribe(self, s: Subscriber[int]) -> None:
        s.on_subscribe(NoopSubscription())


class DemandIgnoringPublisher(Publisher[int]):
    """Emits one item more than each request asked for (§1.1); optionally ignores cancel."""

    def __init__(self, honor_cancel: bool = True) -> None:
        self.honor_cancel = honor_cancel

    def subscribe(self, s: Subscriber[int]) -> None:
        honor = self.honor_cancel

        class Sub(Subscription):
            cancelled = False

            def request(self, n: int) -> None:
                i = 0
                while i <= n and not (honor and self.cancelled):  # one too many
                    s.on_next(i)
                    i += 1

            def cancel(self) -> None:
                self.cancelled = True

        s.on_subscribe(Sub())


class AsyncDemandIgnoringPublisher(Publisher[int]):
    """Each request starts a thread that emits one item more than requested, ignoring cancel."""

    def __init__(self) -> None:
        self.threads: list[threading.Thread] = []

    def subscribe(self, s: Subscriber[int]) -> None:
        outer = self

        class Sub(Subscription):
            def request(self, n: int) -> None:
                def emit() -> None:
                    for i in range(n + 1):
                        try:
                            s.on_next(i)
                        except Exception:  # the test subscriber's buffer may overflow: stop
                            return

                t = threading.Thread(target=emit, daemon=True)
                outer.threads.append(t)
                t.start()

            def cancel(self) -> None:
                pass  # ignored

        s.on_subscribe(Sub())

    def join(self) -> None:
        for t in self.threads:
            t.join(5)


class CountingPublisher(Publisher[int]):
    """Emits 0..elements-1 under demand, then completes; the knobs break one rule each."""

    def __init__(self, elements: int, *, complete_twice: bool = False, ignore_cancel: bool = False,
                 bad_request: str = "signal") -> None:
        self.elements = elements
        self.complete_twice = complete_twice
        self.ignore_cancel = ignore_cancel
        self.bad_request = bad_request  # "signal" (correct), "ignore" or "raise"

    def subscribe(self, s: Subscriber[int]) -> None:
        if s is None:
            raise TypeError("subscriber is None")
        pub = self

        class Sub(Subscription):
            def __init__(self) -> None:
                self.index = 0
                self.demand = 0
                self.emitting = False
                self.done = False

            def request(self, n: int) -> None:
                if self.done:
                    return
                if n <= 0:
                    if pub.bad_request == "raise":
                        raise ValueError(f"bad request {n}")
                    if pub.bad_request == "signal":
                        self.done = True
                        s.on_error(ValueError(f"§3.9 violated: request({n})"))
                    return
                self.demand += n
                if self.emitting:  # trampoline: request from inside on_next
                    return
                self.emitting = True
                try:
                    while not self.done and self.index < pub.elements and self.demand > 0:
                        self.demand -= 1
                        i = self.index
                        self.index += 1
                        s.on_next(i)
                    if not self.done and self.index >= pub.elements:
                        self.done = True
                        s.on_complete()
                        if pub.complete_twice:
                            s.on_complete()
                finally:
                    self.emitting = False

            def cancel(self) -> None:
                if not pub.ignore_cancel:
                    self.done = True

        s.on_subscribe(Sub())


class ForgotToCompletePublisher(Publisher[int]):
    """Emits as requested but never signals on_complete (§1.5)."""

    def subscribe(self, s: Subscriber[int]) -> None:
        class Sub(NoopSubscription):
            signal = 0

            def request(self, n: int) -> None:
                for _ in range(n):
                    s.on_next(self.signal)
                    self.signal += 1

        s.on_subscribe(Sub())


class SignalFirstPublisher(Publisher[int]):
    """Signals ``kind`` without calling on_subscribe first (§1.9)."""

    def __init__(self, kind: str) -> None:
        self.kind = kind

    def subscribe(self, s: Subscriber[int]) -> None:
        if self.kind == "complete":
            s.on_complete()
        elif self.kind == "next":
            s.on_next(1337)
        else:
            s.on_error(TestException())


class OnSubscribeTwicePublisher(Publisher[int]):
    """Calls on_subscribe twice (§1.9 / §2.12)."""

    def subscribe(self, s: Subscriber[int]) -> None:
        s.on_subscribe(NoopSubscription())
        s.on_subscribe(NoopSubscription())


class CompletesButKeepsServingPublisher(Publisher[int]):
    """Completes after its first item, but serves more items on every request (§1.7)."""

    def subscribe(self, s: Subscriber[int]) -> None:
        class Sub(NoopSubscription):
            completed = False

            def request(self, n: int) -> None:
                s.on_next(0)
                if not self.completed:
                    self.completed = True
                    s.on_complete()

        s.on_subscribe(Sub())


class SilentOnNonePublisher(Publisher[int]):
    """subscribe(None) returns normally (§1.9 wants TypeError)."""

    def subscribe(self, s: Subscriber[int]) -> None:
        pass


class RaisingSubscribePublisher(Publisher[int]):
    """A failed publisher that raises from subscribe instead of signalling on_error (§1.4, §1.9)."""

    def subscribe(self, s: Subscriber[int]) -> None:
        raise RuntimeError("It is not valid to raise here!")


class ErrorOnRequestPublisher(Publisher[int]):
    """Signals on_error on every request (§3.2 expects items)."""

    def subscribe(self, s: Subscriber[int]) -> None:
        class Sub(NoopSubscription):
            def request(self, n: int) -> None:
                s.on_error(TestException())

        s.on_subscribe(Sub())


class RaisingRequestPublisher(Publisher[int]):
    """Raises from request (§3.x: request must return normally)."""

    def subscribe(self, s: Subscriber[int]) -> None:
        class Sub(NoopSubscription):
            def request(self, n: int) -> None:
                raise RuntimeError("request exploded")

        s.on_subscribe(Sub())


class RecursivePublisher(Publisher[int]):
    """Calls on_next straight from request: request-in-on_next recurses without bound (§3.3)."""

    def subscribe(self, s: Subscriber[int]) -> None:
        class Sub(NoopSubscription):
            def request(self, n: int) -> None:
                s.on_next(0)

        s.on_subscribe(Sub())


class ErrorOnCancelPublisher(Publisher[int]):
    """Signals on_error from cancel (§3.7 wants cancel to be a no-op the second time and silent)."""

    def subscribe(self, s: Subscriber[int]) -> None:
        class Sub(NoopSubscription):
            def cancel(self) -> None:
                s.on_error(TestException())

        s.on_subscribe(Sub())


class KeepsSubscriberPublisher(Publisher[int]):
    """Keeps every Subscriber reachable after cancel (§3.13)."""

    def __init__(self) -> None:
        self.kept: list[Subscriber[int]] = []

    def subscribe(self, s: Subscriber[int]) -> None:
        self.kept.append(s)

        class Sub(NoopSubscription):
            def request(self, n: int) -> None:
                for _ in range(n):
                    s.on_next(n)

        s.on_subscribe(Sub())


class OverflowErrorPublisher(Publisher[int]):
    """Signals on_error once total demand goes past LONG_MAX (or reaches it) (§3.17)."""

    def __init__(self, at_max: bool = False) -> None:
        self.at_max = at_max

    def subscribe(self, s: Subscriber[int]) -> None:
        at_max = self.at_max

        class Sub(NoopSubscription):
            demand = 0

            def request(self, n: int) -> None:
                self.demand += n
                if at_max and self.demand == LONG_MAX:
                    s.on_error(RuntimeError("Illegally signalling on_error too soon! "
                                            "Cumulative demand equal to LONG_MAX is legal."))
                if self.demand > LONG_MAX:
                    s.on_error(RuntimeError("Illegally signalling on_error (violates rule 3.17)"))
                    return
                s.on_next(0)

        s.on_subscribe(Sub())


class RandomValuesPublisher(Publisher[int]):
    """Each Subscriber gets different random items (fails the multicast MAY rules)."""

    def subscribe(self, s: Subscriber[int]) -> None:
        rnd = random.Random()

        class Sub(NoopSubscription):
            def request(self, n: int) -> None:
                for _ in range(n):
                    s.on_next(rnd.randrange(1 << 30))

        s.on_subscribe(Sub())


class HandOffPublisher(Publisher[int]):
    """Delivers each requested item on a new thread and waits for it: when request is called
    from inside a signal, two signals run at the same time on two threads (§1.3)."""

    def __init__(self, elements: int) -> None:
        self.elements = elements

    def subscribe(self, s: Subscriber[int]) -> None:
        lock = threading.Lock()
        emitted = [0]
        total = self.elements

        def emit_one() -> None:
            with lock:
                i = emitted[0]
                emitted[0] += 1
            if i < total:
                s.on_next(i)
            elif i == total:
                s.on_complete()

        class Sub(NoopSubscription):
            def request(self, n: int) -> None:
                for _ in range(min(n, total + 1)):
                    t = threading.Thread(target=emit_one, daemon=True)
                    t.start()
                    t.join(2)

        s.on_subscribe(Sub())


class SyncCompletingPerRequestPublisher(Publisher[int]):
    """Signals nested on one thread (legal for §1.3): not concurrent access."""

    def subscribe(self, s: Subscriber[int]) -> None:
        class Sub(NoopSubscription):
            element = 0

            def request(self, n: int) -> None:
                for _ in range(n):
                    self.element += 1
                    s.on_next(self.element)
                s.on_complete()

        s.on_subscribe(Sub())


class NoneItemPublisher(Publisher[Any]):
    """Emits None as an item (§2.13)."""

    def subscribe(self, s: Subscriber[Any]) -> None:
        class Sub(NoopSubscription):
            def request(self, n: int) -> None:
                s.on_next(None)

        s.on_subscribe(Sub())


class MultiSubscriberPublisher(Publisher[int]):
    """Supports several Subscribers (or, with blow_up, rejects every one after the first)."""

    def __init__(self, elements: int, blow_up: bool) -> None:
        self.elements = elements
        self.blow_up = blow_up
        self.count = 0

    def subscribe(self, s: Subscriber[int]) -> None:
        self.count += 1
        if self.blow_up and self.count > 1:
            s.on_subscribe(NoopSubscription())
            s.on_error(RuntimeError("Unexpected additional subscriber"))
            return
        CountingPublisher(self.elements).subscribe(s)


def verification(create: Any, failed: Any = None, max_elements: int = LONG_MAX - 1) -> type[PublisherVerification]:
    """A PublisherVerification over ``create(elements)`` (not collected by pytest)."""

    class Broken(PublisherVerification):
        __test__ = False

        def create_publisher(self, elements: int) -> Publisher[Any]:
            return create(elements)

        def create_failed_publisher(self) -> Publisher[Any] | None:
            return failed() if failed is not None else None

        def max_elements_from_publisher(self) -> int:
            return max_elements

    return Broken


def fixed(pub: Publisher[Any]) -> type[PublisherVerification]:
    """A verification whose create_publisher always returns ``pub``."""
    return verification(lambda _n: pub)


def assert_fails(v: Any, rule: str, message_part: str) -> RuleResult:
    result = run_rule(v, rule)
    assert result.outcome == "failed", result
    assert message_part in result.message, result
    return result


def assert_skips(v: Any, rule: str, message_part: str) -> RuleResult:
    result = run_rule(v, rule)
    assert result.outcome == "skipped", result
    assert message_part in result.message, result
    return result


def assert_passes(v: Any, rule: str) -> None:
    result = run_rule(v, rule)
    assert result.outcome == "passed", result


# §1.1 / §1.2 / §1.5 / §1.7: demand and termination


def test_spec101_fails_when_nothing_is_emitted() -> None:
    assert_fails(fixed(NoopPublisher()),
                 "required_spec101_subscription_request_must_result_in_the_correct_number_of_produced_elements",
                 "produced no element after first `request`")


def test_spec101_fails_when_more_than_requested_is_emitted() -> None:
    assert_fails(fixed(DemandIgnoringPublisher()),
                 "required_spec101_subscription_request_must_result_in_the_correct_number_of_produced_elements",
                 "produced unrequested")


def test_spec101_raises_assertion_error_when_called_directly() -> None:
    v = fixed(NoopPublisher())()
    v.setup_method()
    with pytest.raises(AssertionError, match="produced no element after first"):
        v.required_spec101_subscription_request_must_result_in_the_correct_number_of_produced_elements()


def test_spec101_fails_when_request_raises() -> None:
    assert_fails(fixed(RaisingRequestPublisher()),
                 "required_spec101_subscription_request_must_result_in_the_correct_number_of_produced_elements",
                 "request exploded")


def test_spec102_fails_without_elements_and_with_too_many() -> None:
    rule = "required_spec102_may_signal_less_than_requested_and_terminate_subscription"
    assert_fails(fixed(NoopPublisher()), rule, "Did not receive expected element")
    assert_fails(fixed(DemandIgnoringPublisher()), rule, "Expected end-of-stream but got element [3]")


def test_create_publisher_checks_fail_without_completion() -> None:
    assert_fails(fixed(ForgotToCompletePublisher()),
                 "required_create_publisher3_must_produce_a_stream_of_exactly3_elements",
                 "Expected end-of-stream but got element [3]")
    assert_fails(fixed(NoopPublisher()),
                 "required_create_publisher1_must_produce_a_stream_of_exactly1_element",
                 "produced no elements")


def test_spec105_fails_when_on_complete_is_forgotten() -> None:
    assert_fails(fixed(ForgotToCompletePublisher()),
                 "required_spec105_must_signal_on_complete_when_finite_stream_terminates",
                 "Expected end-of-stream but got element [3]")


def test_spec105_fails_when_on_complete_is_signalled_twice() -> None:
    assert_fails(verification(lambda n: CountingPublisher(n, complete_twice=True)),
                 "required_spec105_must_signal_on_complete_when_finite_stream_terminates",
                 "Unexpected additional complete signal received!")


def test_optional_spec105_eager_on_complete_is_skipped_with_the_reason() -> None:
    # an optional rule turns its failure into a skip that says why
    v = verification(lambda _n: SignalFirstPublisher("complete"), max_elements=0)
    assert_skips(v, "optional_spec105_empty_stream_must_terminate_by_signalling_on_complete",
                 "Subscriber.on_complete() called before Subscriber.on_subscribe")


def test_optional_spec105_passes_for_synchronous_completion() -> None:
    class SyncEmpty(Publisher[int]):
        def subscribe(self, s: Subscriber[int]) -> None:
            s.on_subscribe(NoopSubscription())
            s.on_complete()

    assert_passes(verification(lambda _n: SyncEmpty(), max_elements=0),
                  "optional_spec105_empty_stream_must_terminate_by_signalling_on_complete")


def test_spec107_fails_for_publishers_that_signal_after_completion() -> None:
    rule = "required_spec107_must_not_emit_further_signals_once_on_complete_has_been_signalled"
    assert_fails(fixed(DemandIgnoringPublisher()), rule, "Expected end-of-stream but got element [")
    assert_fails(fixed(CompletesButKeepsServingPublisher()), rule,
                 "Unexpected element 0 received after stream completed")


def test_none_item_fails_as_a_spec213_violation() -> None:
    assert_fails(fixed(NoneItemPublisher()),
                 "required_spec102_may_signal_less_than_requested_and_terminate_subscription",
                 "§2.13")


# §1.3: sequential signals


def test_stochastic_spec103_fails_on_concurrent_signals() -> None:
    assert_fails(verification(lambda n: HandOffPublisher(n)),
                 "stochastic_spec103_must_signal_on_methods_sequentially",
                 "Illegal concurrent access detected")


def test_stochastic_spec103_accepts_nested_signals_on_one_thread() -> None:
    assert_passes(fixed(SyncCompletingPerRequestPublisher()),
                  "stochastic_spec103_must_signal_on_methods_sequentially")


def test_stochastic_rules_skip_when_asked() -> None:
    class NoStochastic(TestFlowableRangeTck):
        __test__ = False

        def skip_stochastic_tests(self) -> bool:
            return True

    assert_skips(NoStochastic, "stochastic_spec103_must_signal_on_methods_sequentially",
                 "skip_stochastic_tests() returned True")


# §1.4 / §1.9: failed publishers, on_subscribe first, subscribe(None)


def test_optional_spec104_fails_when_the_failed_publisher_raises() -> None:
    v = verification(lambda n: CountingPublisher(n), failed=RaisingSubscribePublisher)
    assert_fails(v, "optional_spec104_must_signal_on_error_when_fails",
                 "Publisher threw exception (RuntimeError: It is not valid to raise here!) "
                 "instead of signalling error via on_error!")


def test_rules_needing_a_failed_publisher_skip_without_one() -> None:
    v = fixed(NoopPublisher())
    assert_skips(v, "optional_spec104_must_signal_on_error_when_fails",
                 SKIPPING_NO_ERROR_PUBLISHER_AVAILABLE)
    assert_skips(v, "required_spec109_may_reject_calls_to_subscribe_if_publisher_is_unable_or_unwilling_to_"
                    "serve_them_rejection_must_trigger_on_error_after_on_subscribe",
                 SKIPPING_NO_ERROR_PUBLISHER_AVAILABLE)


def test_spec109_rejection_must_signal_on_error() -> None:
    rule = ("required_spec109_may_reject_calls_to_subscribe_if_publisher_is_unable_or_unwilling_to_"
            "serve_them_rejection_must_trigger_on_error_after_on_subscribe")
    assert_fails(verification(lambda n: CountingPublisher(n), failed=NoopPublisher), rule,
                 "Should have received on_error")

    class Busy(Publisher[int]):
        def subscribe(self, s: Subscriber[int]) -> None:
            s.on_subscribe(NoopSubscription())
            s.on_error(RuntimeError("Sorry, I'm busy now. Call me later."))

    assert_passes(verification(lambda n: CountingPublisher(n), failed=Busy), rule)


@pytest.mark.parametrize("kind,message", [
    ("complete", "on_subscribe should be called prior to on_complete always"),
    ("next", "on_subscribe should be called prior to on_next always"),
    ("error", "on_subscribe should be called prior to on_error always"),
])
def test_spec109_fails_when_a_signal_precedes_on_subscribe(kind: str, message: str) -> None:
    assert_fails(fixed(SignalFirstPublisher(kind)),
                 "required_spec109_must_issue_on_subscribe_for_non_null_subscriber", message)


def test_spec109_fails_when_on_subscribe_is_called_twice() -> None:
    assert_fails(fixed(OnSubscribeTwicePublisher()),
                 "required_spec109_must_issue_on_subscribe_for_non_null_subscriber",
                 "Only one on_subscribe call expected")


def test_spec109_fails_when_subscribe_none_does_not_raise_type_error() -> None:
    assert_fails(fixed(SilentOnNonePublisher()),
                 "required_spec109_subscribe_throw_npe_on_null_subscriber",
                 "did not raise TypeError when given a None Subscriber")
    assert_fails(fixed(NoopPublisher()),  # AttributeError is not the required TypeError
                 "required_spec109_subscribe_throw_npe_on_null_subscriber",
                 "instead of TypeError")


# §1.11: multiple subscribers (MAY)


def test_optional_spec111_multicast_with_different_sequences_is_skipped_with_the_reason() -> None:
    assert_skips(fixed(RandomValuesPublisher()),
                 "optional_spec111_multicast_must_produce_the_same_elements_in_the_same_sequence_to_"
                 "all_of_its_subscribers_when_requesting_many_upfront",
                 "Expected elements to be signaled in the same sequence to 1st and 2nd subscribers")


def test_optional_spec111_rejecting_second_subscriber_is_skipped_with_the_reason() -> None:
    rule = "optional_spec111_registered_subscribers_must_receive_on_next_or_on_complete_signals"
    assert_skips(verification(lambda n: MultiSubscriberPublisher(n, blow_up=True)), rule,
                 "Unexpected additional subscriber")
    assert_passes(verification(lambda n: MultiSubscriberPublisher(n, blow_up=False)), rule)
    assert_passes(fixed(NoopPublisher()), "optional_spec111_may_support_multi_subscribe")


# §3.2 / §3.3: synchronous requests, bounded recursion


def test_spec302_fails_when_request_signals_an_error() -> None:
    assert_fails(fixed(ErrorOnRequestPublisher()),
                 "required_spec302_must_allow_synchronous_request_calls_from_on_next_and_on_subscribe",
                 "Async error during test execution: TestException: Test Exception: Boom!")


def test_spec303_fails_on_unbounded_recursion() -> None:
    assert_fails(fixed(RecursivePublisher()), "required_spec303_must_not_allow_unbounded_recursion",
                 "yet expected recursive bound was 1")


class BoundedRecursionPublisher(Publisher[int]):
    """Nests on_next inside request up to ``max_depth`` frames, then lets the outer loop emit."""

    def __init__(self, max_depth: int) -> None:
        self.max_depth = max_depth

    def subscribe(self, s: Subscriber[int]) -> None:
        max_depth = self.max_depth

        class Sub(Subscription):
            depth = 0
            demand = 0
            index = 0
            cancelled = False

            def request(self, n: int) -> None:
                self.demand += n
                if self.depth >= max_depth:
                    return
                self.depth += 1
                try:
                    while self.demand > 0 and not self.cancelled:
                        self.demand -= 1
                        self.index += 1
                        s.on_next(self.index)
                finally:
                    self.depth -= 1

            def cancel(self) -> None:
                self.cancelled = True

        s.on_subscribe(Sub())


def test_spec303_judges_recursion_against_the_declared_bound() -> None:
    class Declared(PublisherVerification):
        __test__ = False

        def create_publisher(self, elements: int) -> Publisher[int]:
            return BoundedRecursionPublisher(3)

        def bounded_depth_of_on_next_and_request_recursion(self) -> int:
            return 3

    rule = "required_spec303_must_not_allow_unbounded_recursion"
    assert_passes(Declared, rule)
    assert_fails(fixed(BoundedRecursionPublisher(3)), rule, "Got 2 on_next calls within thread")


# §3.6 / §3.7: after cancel


def test_spec306_fails_when_request_after_cancel_emits() -> None:
    rule = "required_spec306_after_subscription_is_cancelled_request_must_be_nops"
    assert_fails(fixed(DemandIgnoringPublisher(honor_cancel=False)), rule,
                 "Did not expect an element but got element [0]")
    assert_fails(verification(lambda n: CountingPublisher(n, ignore_cancel=True)), rule,
                 "Did not expect an element but got element [0]")


def test_spec307_fails_when_cancel_signals_an_error() -> None:
    rule = "required_spec307_after_subscription_is_cancelled_additional_cancelations_must_be_nops"
    assert_fails(fixed(ErrorOnCancelPublisher()), rule,
                 "Async error during test execution: TestException: Test Exception: Boom!")
    assert_passes(fixed(DemandIgnoringPublisher(honor_cancel=False)), rule)


# §3.9: non-positive requests


@pytest.mark.parametrize("rule", [
    "required_spec309_request_zero_must_signal_illegal_argument_exception",
    "required_spec309_request_negative_number_must_signal_illegal_argument_exception",
])
def test_spec309_fails_when_bad_requests_are_not_signalled(rule: str) -> None:
    assert_fails(fixed(NoopPublisher()), rule, "Expected on_error(ValueError)")
    assert_fails(verification(lambda n: CountingPublisher(n, bad_request="ignore")), rule,
                 "Expected on_error(ValueError)")
    assert_fails(verification(lambda n: CountingPublisher(n, bad_request="raise")), rule,
                 "ValueError: bad request")
    assert_passes(verification(lambda n: CountingPublisher(n)), rule)


def test_spec309_fails_when_the_error_is_not_a_value_error() -> None:
    class WrongType(Publisher[int]):
        def subscribe(self, s: Subscriber[int]) -> None:
            class Sub(NoopSubscription):
                def request(self, n: int) -> None:
                    if n <= 0:
                        s.on_error(TestException())

            s.on_subscribe(Sub())

    assert_fails(fixed(WrongType()), "required_spec309_request_zero_must_signal_illegal_argument_exception",
                 "but expected ValueError")


def test_optional_spec309_message_must_name_the_rule() -> None:
    rule = "optional_spec309_request_negative_number_may_signal_illegal_argument_exception_with_specific_message"
    assert_passes(verification(lambda n: CountingPublisher(n)), rule)

    class Vague(Publisher[int]):
        def subscribe(self, s: Subscriber[int]) -> None:
            class Sub(NoopSubscription):
                def request(self, n: int) -> None:
                    if n <= 0:
                        s.on_error(ValueError("nope"))

            s.on_subscribe(Sub())

    assert_skips(fixed(Vague()), rule, "missing message part")


# §3.12 / §3.13: cancel


def test_spec312_fails_when_more_than_the_demand_is_signalled() -> None:
    rule = "required_spec312_cancel_must_make_the_publisher_to_eventually_stop_signaling"
    assert_fails(fixed(DemandIgnoringPublisher()), rule, ", which is more than the signalled demand: 15")
    pub = AsyncDemandIgnoringPublisher()
    try:
        assert_fails(fixed(pub), rule, ", which is more than the signalled demand: 15")
    finally:
        pub.join()


def test_spec313_fails_when_the_subscriber_is_kept() -> None:
    v = fixed(KeepsSubscriberPublisher())
    v.publisher_reference_gc_timeout_ms = 50
    assert_fails(v, "required_spec313_cancel_must_make_the_publisher_eventually_drop_all_references_to_the_subscriber",
                 "did not drop reference to test subscriber after subscription cancellation")


# §3.17: demand up to and beyond LONG_MAX


def test_spec317_fails_when_demand_above_long_max_signals_an_error() -> None:
    assert_fails(fixed(OverflowErrorPublisher()),
                 "required_spec317_must_not_signal_on_error_when_pending_above_long_max_value",
                 "Async error during test execution: RuntimeError: Illegally signalling on_error "
                 "(violates rule 3.17)")


def test_spec317_fails_when_cumulative_long_max_demand_signals_an_error() -> None:
    assert_fails(fixed(OverflowErrorPublisher(at_max=True)),
                 "required_spec317_must_support_a_cumulative_pending_element_count_up_to_long_max_value",
                 "Illegally signalling on_error too soon!")


def test_spec317_fails_when_long_max_demand_meets_a_demand_ignoring_publisher() -> None:
    assert_fails(fixed(DemandIgnoringPublisher()),
                 "required_spec317_must_support_a_pending_element_count_up_to_long_max_value",
                 "Received more than bufferSize (32) on_next signals")


def test_spec317_overflowing_requests_stop_after_the_tenth() -> None:
    sent = [0]

    class UntilCancelled(Publisher[int]):
        def subscribe(self, s: Subscriber[int]) -> None:
            class Sub(Subscription):
                started = False
                cancelled = False

                def request(self, n: int) -> None:
                    if not self.started:
                        self.started = True
                        while not self.cancelled:
                            sent[0] += 1
                            s.on_next(sent[0])

                def cancel(self) -> None:
                    self.cancelled = True

            s.on_subscribe(Sub())

    assert_passes(fixed(UntilCancelled()),
                  "required_spec317_must_not_signal_on_error_when_pending_above_long_max_value")
    assert sent[0] == 11  # ten requests from on_next, the eleventh on_next cancels


# the whole verification on broken publishers: every rule yields a result, the targeted ones fail


def test_whole_verification_on_a_publisher_that_never_emits() -> None:
    results = {r.name: r for r in run_rules(fixed(NoopPublisher()))}
    assert all(isinstance(r, RuleResult) for r in results.values())
    failed = {n for n, r in results.items() if r.failed}
    assert {
        "required_create_publisher1_must_produce_a_stream_of_exactly1_element",
        "required_spec101_subscription_request_must_result_in_the_correct_number_of_produced_elements",
        "required_spec102_may_signal_less_than_requested_and_terminate_subscription",
        "required_spec105_must_signal_on_complete_when_finite_stream_terminates",
        "required_spec309_request_zero_must_signal_illegal_argument_exception",
        "required_spec309_request_negative_number_must_signal_illegal_argument_exception",
        "required_spec313_cancel_must_make_the_publisher_eventually_drop_all_references_to_the_subscriber",
    } <= failed
    for name in ("required_validate_max_elements_from_publisher",
                 "required_validate_bounded_depth_of_on_next_and_request_recursion",
                 "required_spec306_after_subscription_is_cancelled_request_must_be_nops",
                 "required_spec307_after_subscription_is_cancelled_additional_cancelations_must_be_nops"):
        assert results[name].passed, results[name]
    assert all(r.skipped for n, r in results.items() if n.startswith("untested_"))


def test_whole_verification_on_a_demand_ignoring_publisher() -> None:
    results = {r.name: r for r in run_rules(fixed(DemandIgnoringPublisher()))}
    failed = {n for n, r in results.items() if r.failed}
    assert {
        "required_spec101_subscription_request_must_result_in_the_correct_number_of_produced_elements",
        "required_spec102_may_signal_less_than_requested_and_terminate_subscription",
        "required_spec107_must_not_emit_further_signals_once_on_complete_has_been_signalled",
        "required_spec303_must_not_allow_unbounded_recursion",
        "required_spec312_cancel_must_make_the_publisher_to_eventually_stop_signaling",
        "required_spec317_must_support_a_pending_element_count_up_to_long_max_value",
        "stochastic_spec103_must_signal_on_methods_sequentially",
    } <= failed
    assert results["required_spec109_must_issue_on_subscribe_for_non_null_subscriber"].passed
    assert results["required_spec307_after_subscription_is_cancelled_additional_cancelations_must_be_nops"].passed


def test_a_correct_hand_written_publisher_passes_everything_required() -> None:
    v = verification(lambda n: CountingPublisher(n), failed=lambda: Flowable.error(TestException()))
    results = run_rules(v)
    assert [r for r in results if r.failed] == []
    by_kind: dict[str | None, set[str]] = {}
    for r in results:
        by_kind.setdefault(r.kind, set()).add(r.outcome)
    assert by_kind["required"] == {"passed"}
    assert by_kind["untested"] == {"skipped"}


# ---------------------------------------------------------------------------------------------
# (c) names, classification, pytest integration, environment
# ---------------------------------------------------------------------------------------------

#: The rule methods of the official PublisherVerification 1.0.4.
OFFICIAL_RULES = """
required_validate_maxElementsFromPublisher required_validate_boundedDepthOfOnNextAndRequestRecursion
required_createPublisher1MustProduceAStreamOfExactly1Element
required_createPublisher3MustProduceAStreamOfExactly3Elements
required_spec101_subscriptionRequestMustResultInTheCorrectNumberOfProducedElements
required_spec102_maySignalLessThanRequestedAndTerminateSubscription
stochastic_spec103_mustSignalOnMethodsSequentially optional_spec104_mustSignalOnErrorWhenFails
required_spec105_mustSignalOnCompleteWhenFiniteStreamTerminates
optional_spec105_emptyStreamMustTerminateBySignallingOnComplete
untested_spec106_mustConsiderSubscriptionCancelledAfterOnErrorOrOnCompleteHasBeenCalled
required_spec107_mustNotEmitFurtherSignalsOnceOnCompleteHasBeenSignalled
untested_spec107_mustNotEmitFurtherSignalsOnceOnErrorHasBeenSignalled
untested_spec108_possiblyCanceledSubscriptionShouldNotReceiveOnErrorOrOnCompleteSignals
required_spec109_mustIssueOnSubscribeForNonNullSubscriber
untested_spec109_subscribeShouldNotThrowNonFatalThrowable required_spec109_subscribeThrowNPEOnNullSubscriber
required_spec109_mayRejectCallsToSubscribeIfPublisherIsUnableOrUnwillingToServeThemRejectionMustTriggerOnErrorAfterOnSubscribe
untested_spec110_rejectASubscriptionRequestIfTheSameSubscriberSubscribesTwice
optional_spec111_maySupportMultiSubscribe optional_spec111_registeredSubscribersMustReceiveOnNextOrOnCompleteSignals
optional_spec111_multicast_mustProduceTheSameElementsInTheSameSequenceToAllOfItsSubscribersWhenRequestingOneByOne
optional_spec111_multicast_mustProduceTheSameElementsInTheSameSequenceToAllOfItsSubscribersWhenRequestingManyUpfront
optional_spec111_multicast_mustProduceTheSameElementsInTheSameSequenceToAllOfItsSubscribersWhenRequestingManyUpfrontAndCompleteAsExpected
required_spec302_mustAllowSynchronousRequestCallsFromOnNextAndOnSubscribe
required_spec303_mustNotAllowUnboundedRecursion untested_spec304_requestShouldNotPerformHeavyComputations
untested_spec305_cancelMustNotSynchronouslyPerformHeavyComputation
required_spec306_afterSubscriptionIsCancelledRequestMustBeNops
required_spec307_afterSubscriptionIsCancelledAdditionalCancelationsMustBeNops
required_spec309_requestZeroMustSignalIllegalArgumentException
required_spec309_requestNegativeNumberMustSignalIllegalArgumentException
optional_spec309_requestNegativeNumberMaySignalIllegalArgumentExceptionWithSpecificMessage
required_spec312_cancelMustMakeThePublisherToEventuallyStopSignaling
required_spec313_cancelMustMakeThePublisherEventuallyDropAllReferencesToTheSubscriber
required_spec317_mustSupportAPendingElementCountUpToLongMaxValue
required_spec317_mustSupportACumulativePendingElementCountUpToLongMaxValue
required_spec317_mustNotSignalOnErrorWhenPendingAboveLongMaxValue
""".split()


def snake(name: str) -> str:
    name = re.sub(r"([A-Z]+)([A-Z][a-z])", r"\1_\2", name)
    return re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", name).lower()


def test_rules_are_the_official_ones_in_snake_case() -> None:
    assert len(OFFICIAL_RULES) == 38
    assert sorted(PublisherVerification.rule_names()) == sorted(snake(n) for n in OFFICIAL_RULES)
    kinds = {k: len(v) for k, v in PublisherVerification.rules_by_kind().items()}
    assert kinds == {"required": 22, "optional": 8, "stochastic": 1, "untested": 7}


def test_each_rule_has_a_pytest_alias_and_bases_are_not_collected() -> None:
    for name in PublisherVerification.rule_names():
        if name.startswith("untested_"):  # together in one test
            assert not hasattr(TestFlowableRangeTck, f"test_{name}")
        else:
            assert callable(getattr(TestFlowableRangeTck, f"test_{name}"))
    assert callable(TestFlowableRangeTck.test_untested_rules)
    assert PublisherVerification.__test__ is False
    assert TestFlowableRangeTck.__test__ is True
    # helpers that share a rule prefix but take arguments are not rules
    assert "optional_active_publisher_test" not in PublisherVerification.rule_names()
    assert "stochastic_test" not in PublisherVerification.rule_names()


def test_overriding_a_rule_changes_what_its_alias_runs() -> None:
    class Narrowed(TestFlowableRangeTck):
        __test__ = False

        def required_spec303_must_not_allow_unbounded_recursion(self) -> None:
            raise SkipRule("covered elsewhere")

    result = run_rule(Narrowed, "required_spec303_must_not_allow_unbounded_recursion")
    assert (result.outcome, result.message) == ("skipped", "covered elsewhere")
    v = Narrowed()
    v.setup_method()
    with pytest.raises(SkipRule):
        v.test_required_spec303_must_not_allow_unbounded_recursion()


def test_untested_rules_skip_with_untested_reason() -> None:
    results = run_rules(TestFlowableRangeTck, only=[n for n in PublisherVerification.rule_names()
                                                    if n.startswith("untested_")])
    assert len(results) == 7
    assert all(r.skipped and r.message.startswith("untested") for r in results)


def test_max_elements_precondition_skips_with_reason() -> None:
    assert_skips(TestFlowableJustTck, "required_create_publisher3_must_produce_a_stream_of_exactly3_elements",
                 "required elements nr: 3 is higher than supported by given producer: 1")
    assert_skips(TestEndlessRangeTck, "required_spec105_must_signal_on_complete_when_finite_stream_terminates",
                 "requires an on_complete signal")


def test_run_rules_rejects_unknown_names() -> None:
    with pytest.raises(ValueError):
        run_rules(TestFlowableRangeTck, only="required_nothing_like_this")


def test_pytest_collects_one_test_per_rule(tmp_path: Any) -> None:
    module = tmp_path / "test_user_publisher.py"
    module.write_text(textwrap.dedent("""
        from rxpy2 import Flowable
        from rxpy2.tck import PublisherVerification

        class TestMyPublisher(PublisherVerification):
            def create_publisher(self, elements):
                return Flowable.range(0, elements)

            def create_failed_publisher(self):
                return Flowable.error(ValueError("failed"))
    """))
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-rs", "-p", "no:cacheprovider", str(module)],
        cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    # the 7 rules the TCK has no test for share one test, skipped once, naming each
    assert "31 passed, 1 skipped" in proc.stdout, proc.stdout
    assert "untested (7 rules the TCK has no test for): §1.6" in proc.stdout


# environment


def test_environment_defaults_and_variables(monkeypatch: pytest.MonkeyPatch) -> None:
    for var in ("RXPY2_TCK_TIMEOUT_MS", "RXPY2_TCK_NO_SIGNALS_TIMEOUT_MS", "RXPY2_TCK_POLL_TIMEOUT_MS"):
        monkeypatch.delenv(var, raising=False)
    env = TestEnvironment()
    assert (env.default_timeout_ms, env.default_no_signals_timeout_ms, env.default_poll_timeout_ms) == (100, 100, 10)
    monkeypatch.setenv("RXPY2_TCK_TIMEOUT_MS", "250")
    env = TestEnvironment()
    assert (env.default_timeout_ms, env.default_no_signals_timeout_ms, env.default_poll_timeout_ms) == (250, 250, 10)
    monkeypatch.setenv("RXPY2_TCK_NO_SIGNALS_TIMEOUT_MS", "40")
    monkeypatch.setenv("RXPY2_TCK_POLL_TIMEOUT_MS", "5")
    env = TestEnvironment()
    assert (env.default_timeout_ms, env.default_no_signals_timeout_ms, env.default_poll_timeout_ms) == (250, 40, 5)
    env = TestEnvironment(30, 20, 2)
    assert (env.default_timeout_ms, env.default_no_signals_timeout_ms, env.default_poll_timeout_ms) == (30, 20, 2)
    monkeypatch.setenv("RXPY2_TCK_TIMEOUT_MS", "soon")
    with pytest.raises(ValueError, match="RXPY2_TCK_TIMEOUT_MS"):
        TestEnvironment()


def test_flop_records_and_verify_raises() -> None:
    env = TestEnvironment(20, 20, 2)
    env.flop("first")
    env.flop(KeyError("k"), "context")
    assert len(env.async_errors) == 2
    with pytest.raises(AssertionError, match="first"):
        env.verify_no_async_errors_no_delay()
    assert isinstance(env.drop_async_error(), AssertionError)
    with pytest.raises(AssertionError, match="Async error during test execution: KeyError") as info:
        env.verify_no_async_errors_no_delay()
    assert isinstance(info.value.__cause__, KeyError)
    env.clear_async_errors()
    env.verify_no_async_errors()
    with pytest.raises(AssertionError, match="now"):
        env.flop_and_fail("now")
    assert len(env.async_errors) == 1


def test_expect_error_takes_the_error_back_out() -> None:
    env = TestEnvironment(50, 20, 2)
    threading.Timer(0.01, lambda: env.flop(ValueError("late"))).start()
    assert str(env.expect_error(ValueError)) == "late"
    assert env.async_errors == []
    env.flop(KeyError("other"))
    with pytest.raises(AssertionError, match="but expected ValueError"):
        env.expect_error(ValueError)
    env.clear_async_errors()
    with pytest.raises(AssertionError, match="within 20 ms"):
        env.expect_error(ValueError, 20)
    assert isinstance(env.expect_throwing_error_matching(lambda: int("x"), ValueError, "invalid"), ValueError)
    with pytest.raises(AssertionError, match="returned normally"):
        env.expect_throwing_error_matching(lambda: None, ValueError)


def test_latch_promise_and_receptacle() -> None:
    env = TestEnvironment(30, 10, 2)
    latch = Latch(env)
    latch.assert_open("open")
    latch.expect_close("never closed")
    with pytest.raises(AssertionError, match="never closed within 30 ms"):
        env.verify_no_async_errors_no_delay()
    env.clear_async_errors()
    threading.Timer(0.005, latch.close).start()
    latch.expect_close(1000, "closes")
    latch.assert_closed("closed")
    env.verify_no_async_errors_no_delay()

    promise: Promise[int] = Promise(env)
    assert promise.value() is None and len(env.async_errors) == 1
    env.clear_async_errors()
    promise.complete(1)
    promise.complete(2)
    assert promise.value() == 1
    with pytest.raises(AssertionError, match="more than once"):
        env.verify_no_async_errors_no_delay()
    env.clear_async_errors()

    r: Receptacle[int] = Receptacle(env)
    r.add(1)
    r.complete()
    assert r.next() == 1
    r.expect_completion()
    r.add(2)  # after completion: flopped
    with pytest.raises(AssertionError, match="received after stream completed"):
        env.verify_no_async_errors_no_delay()


def test_manual_publisher_records_requests_and_cancel() -> None:
    env = TestEnvironment(50, 10, 2)
    pub: ManualPublisher[int] = ManualPublisher(env)
    sub = env.new_manual_subscriber(pub)
    sub.request(3)
    assert pub.expect_request() == 3
    pub.expect_no_request()
    pub.send_next(1)
    assert sub.next_element() == 1
    pub.send_completion()
    sub.expect_completion()
    sub.cancel()
    pub.expect_cancelling()
    assert pub.is_cancelled() and pub.pending_demand == 3
    env.verify_no_async_errors_no_delay()
