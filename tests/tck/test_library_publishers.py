"""The TCK on every Publisher of the library, and on the library's Subscribers not verified elsewhere.

* One ``PublisherVerification`` per case of ``library_publishers.CASES``, made
  by :func:`library_publishers.verification_class` and bound here as a module
  global, so pytest collects ``TestTck_<name>`` with one test per rule. A new
  operator joins by one line in ``library_publishers.REGISTRY``.
* Before that, each case is checked against the registry's contract
  (``create(n)`` gives exactly ``n`` items then completes; ``failed()`` fails
  without demand): a wrong case would otherwise make rules pass or skip for the
  wrong reason.
* The Subscribers of the library that ``test_subscriber_verification.py`` does not
  cover: ``LambdaSubscriber`` whitebox (through its own ``on_subscribe``
  callback), ``SerializedSubscriber`` (whitebox and blackbox) and the Subscriber
  behind ``blocking_iterable`` / ``blocking_subscribe`` (blackbox).

``tools/conformance`` runs the same cases outside pytest and writes
``docs/conformance.md``.
"""

from __future__ import annotations

from typing import Any

import pytest
from library_publishers import CASES
from library_publishers import Case
from library_publishers import verification_class
from probes import ProbeSubscription
from test_subscriber_verification import OneByOneSubscriber
from test_subscriber_verification import ProbeSubscriber
from test_subscriber_verification import SubscriptionPuppet

from rxpy2 import Flowable
from rxpy2._internal.operators.flowable.flowable_blocking import BlockingIteratorSubscriber
from rxpy2._internal.subscribers.lambda_subscriber import LambdaSubscriber
from rxpy2._internal.subscribers.serialized import SerializedSubscriber
from rxpy2.exceptions import CompositeException
from rxpy2.exceptions import ProtocolViolationException
from rxpy2.reactivestreams import LONG_MAX
from rxpy2.reactivestreams import Subscriber
from rxpy2.tck import SkipRule
from rxpy2.tck import SubscriberBlackboxVerification
from rxpy2.tck import SubscriberWhiteboxVerification
from rxpy2.tck import TestEnvironment
from rxpy2.tck import TestException
from rxpy2.tck import WhiteboxSubscriberProbe
from rxpy2.testing import TestSubscriber

# ---- the publishers: one verification class per case ------------------------------------------


for _case in CASES:
    _cls = verification_class(_case, __name__)
    globals()[_cls.__name__] = _cls
del _case, _cls


# ---- the registry's contract --------------------------------------------------------------------

#: The stream lengths the contract is checked with (the rules use 0, 1, 2, 3, 5, 6, 10, 20).
SIZES = (0, 1, 3, 10)


def _sizes(case: Case) -> list[int]:
    return [k for k in SIZES if k <= case.max_elements and (k == 0 or k >= case.min_elements)]


def _subscribe(case: Case, k: int, initial_request: int) -> TestSubscriber[Any] | None:
    try:
        pub = case.create(max(k, case.min_elements))  # as the verification does
    except SkipRule:
        return None
    ts: TestSubscriber[Any] = TestSubscriber(initial_request=initial_request)
    Flowable.from_publisher(pub).subscribe(ts)
    return ts


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_create_gives_exactly_n_items_then_completes(case: Case) -> None:
    for k in _sizes(case):
        ts = _subscribe(case, k, LONG_MAX)
        if ts is None:  # error/never sources: every rule with items is skipped
            continue
        if case.max_elements == LONG_MAX:  # never completes
            ts.assert_no_values().assert_not_terminated().cancel()
            continue
        ts.await_done()
        ts.assert_no_errors().assert_complete()
        expected = max(k, case.min_elements)
        assert ts.value_count() == expected, f"{case.name}: create({k}) gave {ts.values()}"


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_create_emits_only_under_demand(case: Case) -> None:
    for k in _sizes(case):
        ts = _subscribe(case, k, 0)
        if ts is None or k == 0:
            continue
        ts.assert_no_values()
        ts.request(1)
        ts.await_count(1)
        ts.assert_value_count(1)
        ts.request(LONG_MAX)
        if case.max_elements != LONG_MAX:
            ts.await_done().assert_complete().assert_value_count(max(k, case.min_elements))


@pytest.mark.parametrize("case", [c for c in CASES if c.failed is not None], ids=lambda c: c.name)
def test_failed_signals_on_error_without_demand(case: Case) -> None:
    assert case.failed is not None
    ts: TestSubscriber[Any] = TestSubscriber(initial_request=0)
    Flowable.from_publisher(case.failed()).subscribe(ts)
    ts.await_done().assert_error(Exception).assert_no_values()


def test_every_case_has_a_verification_class() -> None:
    names = {c.name for c in CASES}
    assert len(names) == len(CASES)
    collected = {n[len("TestTck_"):] for n in globals() if n.startswith("TestTck_")}
    assert collected == names


def test_failed_publishers_signal_the_test_exception() -> None:
    """The failed Publishers fail with the TCK's TestException (or what the operator makes of
    it), never with an error of the registry itself (a TypeError from a wrong lambda, say)."""
    bad = {}
    for case in CASES:
        if case.failed is None:
            continue
        ts: TestSubscriber[Any] = TestSubscriber()
        Flowable.from_publisher(case.failed()).subscribe(ts)
        ts.await_done()
        errors = ts.errors()
        # a failing fallback (on_error_return(boom), ...) signals both errors together; an
        # empty Maybe where an item is required signals IndexError
        if not errors or not isinstance(errors[0], (TestException, CompositeException, IndexError)):
            bad[case.name] = errors
    assert bad == {}


# ---- the library's Subscribers not verified in test_subscriber_verification.py ------------------

SUBSCRIBER_ENV = TestEnvironment(default_timeout_ms=500, default_no_signals_timeout_ms=20)


class ReportsSecondSubscription:
    """These Subscribers cancel a second Subscription (§2.5) and report it to
    ``rxpy2.plugins.on_error``, as RxJava's report to RxJavaPlugins: that report, and only it,
    is expected."""

    @pytest.fixture(autouse=True)
    def _second_subscription_is_reported(self, plugin_errors: list[BaseException]) -> Any:
        yield
        assert all(isinstance(e, ProtocolViolationException) and "§2.5" in str(e)
                   for e in plugin_errors), plugin_errors


class TestLambdaSubscriberWhitebox(ReportsSecondSubscription, SubscriberWhiteboxVerification[int]):
    """LambdaSubscriber as ``Flowable.subscribe(on_next, on_error, on_complete, on_subscribe)``
    builds it: the callbacks report to the probe, and ``on_subscribe`` hands the probe a puppet
    that requests and cancels through the LambdaSubscriber (what a user's callback would do)."""

    env = SUBSCRIBER_ENV

    def create_subscriber(self, probe: WhiteboxSubscriberProbe[int]) -> Subscriber[int]:
        return LambdaSubscriber(
            on_next=probe.register_on_next,
            on_error=probe.register_on_error,
            on_complete=probe.register_on_complete,
            on_subscribe=lambda s: probe.register_on_subscribe(SubscriptionPuppet(s)))


class TestSerializedSubscriberWhitebox(ReportsSecondSubscription, SubscriberWhiteboxVerification[int]):
    """SerializedSubscriber (behind ``serialize()``) around a correct Subscriber; the puppet
    requests and cancels through the SerializedSubscriber."""

    env = SUBSCRIBER_ENV

    def create_subscriber(self, probe: WhiteboxSubscriberProbe[int]) -> Subscriber[int]:
        return SerializedSubscriber(ProbeSubscriber(probe))


class TestSerializedSubscriberBlackbox(ReportsSecondSubscription, SubscriberBlackboxVerification[int]):
    env = SUBSCRIBER_ENV

    def create_subscriber(self) -> Subscriber[int]:
        return SerializedSubscriber(OneByOneSubscriber())


class TestBlockingIteratorSubscriberBlackbox(ReportsSecondSubscription, SubscriberBlackboxVerification[int]):
    """The Subscriber of ``blocking_iterable()`` and ``blocking_subscribe()``: it requests its
    buffer size (16 here) and waits for the iterating thread to take items before asking for
    more. Nobody iterates here, so it asks for 16 items at most."""

    env = SUBSCRIBER_ENV

    def create_subscriber(self) -> Subscriber[int]:
        return BlockingIteratorSubscriber(16)


def test_blocking_iterator_subscriber_requests_its_buffer_then_more_as_it_is_consumed() -> None:
    """The blackbox verification above sees the first request only; with a consumer the
    Subscriber keeps requesting (so the §2.1 rule is not passed by a Subscriber that stalls)."""
    requests: list[int] = []
    items = list(Flowable.range(0, 100).do_on_request(requests.append).blocking_iterable(16))
    assert items == list(range(100))
    assert requests[0] == 16 and sum(requests) >= 100 and max(requests) <= 16


def test_lambda_subscriber_whitebox_puppet_acts_on_the_upstream() -> None:
    """The whitebox set-up above is meaningful: the puppet's requests and cancel reach the
    upstream Subscription."""
    puppets: list[SubscriptionPuppet] = []
    sub: LambdaSubscriber[int] = LambdaSubscriber(on_subscribe=lambda s: puppets.append(SubscriptionPuppet(s)))
    upstream = ProbeSubscription()
    sub.on_subscribe(upstream)
    (puppet,) = puppets
    assert upstream.requests == []  # a custom on_subscribe replaces the default request(LONG_MAX)
    puppet.trigger_request(3)
    puppet.signal_cancel()
    assert upstream.requests == [3] and upstream.cancelled
