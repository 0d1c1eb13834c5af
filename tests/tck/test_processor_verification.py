"""IdentityProcessorVerification: passes on a correct Processor, fails on broken ones.

* ``TestLockstepIdentityProcessor``: the verification applied to a small correct
  identity Processor (``tck_processors.LockstepIdentityProcessor``): pytest
  collects one test per rule; required rules pass, optional ones pass or skip with
  a reason, untested ones skip as "untested". (The library has no processors yet;
  the issue that adds them plugs them in the same way.)
* Negative controls: each broken Processor of ``tck_processors`` is run through
  the rules that target what it breaks, and each of those rules must fail.
* The rule set is the official one (names, classification, delegation).
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from tck_processors import AcceptsNoneProcessor
from tck_processors import AcceptsSecondSubscriptionProcessor
from tck_processors import FirstSubscriberOnlyProcessor
from tck_processors import IgnoresDemandProcessor
from tck_processors import KeepsSubscriberAfterCancelProcessor
from tck_processors import LockstepIdentityProcessor
from tck_processors import RaisesOnBadRequestProcessor
from tck_processors import RecursiveProcessor
from tck_processors import RequestsOnceProcessor
from tck_processors import SignalsAfterCancelProcessor
from tck_processors import SwallowsUpstreamErrorProcessor

from rxpy2.reactivestreams import Processor
from rxpy2.reactivestreams import Publisher
from rxpy2.tck import IdentityProcessorVerification
from rxpy2.tck import PublisherVerification
from rxpy2.tck import SubscriberWhiteboxVerification
from rxpy2.tck import TestEnvironment
from rxpy2.tck import run_rule

#: Generous for the conforming Processor (a slow CI machine must not fail it), short "nothing
#: more" waits; the negative controls use a short timeout, since they wait it out to fail.
POSITIVE_ENV = TestEnvironment(default_timeout_ms=500, default_no_signals_timeout_ms=50)
NEGATIVE_ENV_TIMEOUT_MS = 200
NEGATIVE_ENV_NO_SIGNALS_MS = 60


class LockstepVerification(IdentityProcessorVerification[int]):
    """The verification of a processor class; ``processor_class`` is set per test."""

    __test__ = False
    processor_class: type[LockstepIdentityProcessor] = LockstepIdentityProcessor
    publisher_reference_gc_timeout_ms = 300

    def create_identity_processor(self, buffer_size: int) -> Processor[int, int]:
        return self.processor_class(buffer_size)

    def create_failed_publisher(self) -> Publisher[int] | None:
        p = self.processor_class(4)
        p.on_error(RuntimeError("failed on purpose"))
        return p

    def does_coordinated_emission(self) -> bool:
        return True


class TestLockstepIdentityProcessor(LockstepVerification):
    """The full verification on the correct Processor (one pytest test per rule)."""

    __test__ = True
    env = POSITIVE_ENV


# ---- negative controls -------------------------------------------------------------------------


def _verification(processor_class: type[LockstepIdentityProcessor], **overrides: Any) -> LockstepVerification:
    attrs: dict[str, Any] = {
        "__test__": False,
        "processor_class": processor_class,
        "env": TestEnvironment(default_timeout_ms=NEGATIVE_ENV_TIMEOUT_MS,
                               default_no_signals_timeout_ms=NEGATIVE_ENV_NO_SIGNALS_MS),
    }
    for name, value in overrides.items():
        attrs[name] = (lambda v: lambda self: v)(value)
    cls = type(f"{processor_class.__name__}Verification", (LockstepVerification,), attrs)
    return cls()  # type: ignore[no-any-return]


BROKEN: list[tuple[type[LockstepIdentityProcessor], str, str | tuple[str, ...]]] = [
    # (processor, rule that must fail, a part of the failure message, or alternatives: which
    # check trips first can depend on timing)
    (IgnoresDemandProcessor,
     "required_spec101_subscription_request_must_result_in_the_correct_number_of_produced_elements",
     ("produced value before the first `request`", "produced unrequested",
      "Expected element but got end-of-stream")),
    (SignalsAfterCancelProcessor,
     "required_spec306_after_subscription_is_cancelled_request_must_be_nops",
     "Did not expect an element"),
    (KeepsSubscriberAfterCancelProcessor,
     "required_spec313_cancel_must_make_the_publisher_eventually_drop_all_references_to_the_subscriber",
     "did not drop reference"),
    (KeepsSubscriberAfterCancelProcessor,
     "required_exercise_whitebox_happy_path",
     "Did not receive expected cancelling of upstream subscription"),
    (SwallowsUpstreamErrorProcessor,
     "required_must_immediately_pass_on_on_error_events_received_from_its_upstream_to_its_downstream",
     "Did not receive expected error on downstream"),
    (SwallowsUpstreamErrorProcessor,
     "required_spec104_must_call_on_error_on_all_its_subscribers_if_it_encounters_a_non_recoverable_error",
     "Did not receive expected error on downstream"),
    (SwallowsUpstreamErrorProcessor,
     "required_spec210_must_be_prepared_to_receive_an_on_error_signal_without_preceding_request_call",
     "did not call `register_on_error"),
    (RequestsOnceProcessor,
     "required_must_request_from_upstream_for_elements_that_have_been_requested_long_ago",
     "Did not receive expected `request` call"),
    (RequestsOnceProcessor,
     "required_create_publisher3_must_produce_a_stream_of_exactly3_elements",
     ("Timeout while waiting for next element", "produced only")),
    (AcceptsSecondSubscriptionProcessor,
     "required_spec205_must_call_subscription_cancel_if_it_already_has_an_subscription_and_receives_another_on_subscribe_signal",
     "Expected 2nd Subscription given to subscriber to be cancelled"),
    (AcceptsNoneProcessor,
     "required_spec213_on_next_must_throw_null_pointer_exception_when_parameters_are_null",
     "on_next(None) did not raise TypeError"),
    (RaisesOnBadRequestProcessor,
     "required_spec309_request_zero_must_signal_illegal_argument_exception",
     "ValueError"),
    (RecursiveProcessor,
     "required_spec303_must_not_allow_unbounded_recursion",
     "yet expected recursive bound was 1"),
    (FirstSubscriberOnlyProcessor,
     "required_spec104_must_call_on_error_on_all_its_subscribers_if_it_encounters_a_non_recoverable_error",
     "timeout while awaiting"),
]


@pytest.mark.parametrize(("processor_class", "rule", "message"), BROKEN,
                         ids=[f"{p.__name__}-{r[:60]}" for p, r, _ in BROKEN])
def test_broken_processor_fails_the_rule_it_breaks(processor_class: type[LockstepIdentityProcessor],
                                                   rule: str, message: str | tuple[str, ...]) -> None:
    result = run_rule(_verification(processor_class), rule)
    assert result.failed, f"{processor_class.__name__} should fail {rule}, but: {result}"
    parts = (message,) if isinstance(message, str) else message
    assert any(p in result.message for p in parts), result.message


@pytest.mark.parametrize(("processor_class", "rule", "message"), BROKEN,
                         ids=[f"{p.__name__}-{r[:60]}" for p, r, _ in BROKEN])
def test_the_correct_processor_passes_each_rule_a_broken_one_fails(
        processor_class: type[LockstepIdentityProcessor], rule: str, message: object) -> None:
    """The rules of the negative controls pass on the correct Processor under the same
    (short) timeouts: the controls fail because of what they break, not because of the set-up."""
    result = run_rule(_verification(LockstepIdentityProcessor), rule)
    assert result.passed, str(result)


def test_multi_subscriber_rules_are_skipped_with_the_reason_when_one_subscriber_is_supported() -> None:
    v = _verification(LockstepIdentityProcessor, max_supported_subscribers=1)
    for rule in ("required_spec104_must_call_on_error_on_all_its_subscribers_if_it_encounters_a_non_recoverable_error",
                 "required_must_request_from_upstream_for_elements_that_have_been_requested_long_ago"):
        result = run_rule(v, rule)
        assert result.skipped, str(result)
        assert ("The Publisher under test only supports 1 subscribers, while this test requires at "
                "least 2 to run") in result.message


def test_failed_publisher_rule_is_skipped_without_one() -> None:
    v = _verification(LockstepIdentityProcessor, create_failed_publisher=None)
    result = run_rule(v, "required_spec109_may_reject_calls_to_subscribe_if_publisher_is_unable_or_"
                         "unwilling_to_serve_them_rejection_must_trigger_on_error_after_on_subscribe")
    assert result.skipped and "create_failed_publisher" in result.message, str(result)


def test_non_coordinated_claim_on_a_coordinating_processor_fails_with_the_hint() -> None:
    """A coordinating Processor verified as if it were not: the failure names the fix."""
    v = _verification(LockstepIdentityProcessor, does_coordinated_emission=False)
    result = run_rule(v, "required_must_request_from_upstream_for_elements_that_have_been_requested_long_ago")
    assert result.failed
    assert "does_coordinated_emission()" in result.message


# ---- the rule set --------------------------------------------------------------------------------

#: The official IdentityProcessorVerification 1.0.4 rules that are not delegated, in snake_case.
OWN_RULES = {
    "required_spec104_must_call_on_error_on_all_its_subscribers_if_it_encounters_a_non_recoverable_error",
    "required_must_immediately_pass_on_on_error_events_received_from_its_upstream_to_its_downstream",
    "required_must_request_from_upstream_for_elements_that_have_been_requested_long_ago",
}


def test_every_publisher_and_subscriber_rule_is_delegated() -> None:
    names = set(IdentityProcessorVerification.rule_names())
    assert set(PublisherVerification.rule_names()) <= names
    assert set(SubscriberWhiteboxVerification.rule_names()) <= names
    assert names == (set(PublisherVerification.rule_names())
                     | set(SubscriberWhiteboxVerification.rule_names()) | OWN_RULES)
    # 38 publisher + 27 subscriber + 3 own = the official 68
    assert len(names) == 68


def test_each_rule_has_its_pytest_alias() -> None:
    for name in IdentityProcessorVerification.rule_names():
        alias = "test_untested_rules" if name.startswith("untested_") else f"test_{name}"
        assert callable(getattr(TestLockstepIdentityProcessor, alias, None)), name


def test_rule_names_are_official_names_in_snake_case() -> None:
    for name in IdentityProcessorVerification.rule_names():
        assert re.fullmatch(r"(required|optional|stochastic|untested)_[a-z0-9_]+", name), name
