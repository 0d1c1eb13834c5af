"""The subscriber verifications: they pass on conforming Subscribers and fail on broken ones.

* Positive: ``SubscriberWhiteboxVerification`` and ``SubscriberBlackboxVerification``
  applied to a minimal correct Subscriber, to rxpy2's ``LambdaSubscriber``,
  ``TestSubscriber`` (blackbox, and whitebox through a probe-reporting wrapper) and
  ``StrictSubscriber`` around a correct Subscriber. pytest collects one test per
  rule.
* Negative controls, in the spirit of the official TCK's own tests: Subscribers
  that each break one rule (request nothing, call request/cancel from on_complete
  or on_error, keep a second Subscription, raise from on_next or on_error, ignore
  None, block, forget the probe, ...) must make the rule that targets it fail.
  Unrelated calls that merely look suspicious, and delayed or one-at-a-time
  requesting, must pass.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest

from rxpy2._internal.subscribers.lambda_subscriber import LambdaSubscriber
from rxpy2._internal.subscribers.strict import StrictSubscriber
from rxpy2.exceptions import ProtocolViolationException
from rxpy2.reactivestreams import Subscriber
from rxpy2.reactivestreams import Subscription
from rxpy2.tck import SubscriberBlackboxVerification
from rxpy2.tck import SubscriberPuppet
from rxpy2.tck import SubscriberWhiteboxVerification
from rxpy2.tck import TestEnvironment
from rxpy2.tck import WhiteboxSubscriberProbe
from rxpy2.tck import run_rule
from rxpy2.tck.operators import SubscriptionPuppet
from rxpy2.testing import TestSubscriber

POSITIVE_ENV = TestEnvironment(default_timeout_ms=500, default_no_signals_timeout_ms=50)
NEGATIVE_TIMEOUT_MS = 200
NEGATIVE_NO_SIGNALS_MS = 50


def negative_env() -> TestEnvironment:
    return TestEnvironment(default_timeout_ms=NEGATIVE_TIMEOUT_MS,
                           default_no_signals_timeout_ms=NEGATIVE_NO_SIGNALS_MS)


# ---- correct subscribers ---------------------------------------------------------------------------


class ProbeSubscriber(Subscriber[Any]):
    """A minimal correct Subscriber that reports to a whitebox probe; the broken ones below
    override one method of it."""

    def __init__(self, probe: WhiteboxSubscriberProbe[Any]) -> None:
        self.probe = probe
        self.subscription: Subscription | None = None

    def on_subscribe(self, subscription: Subscription) -> None:
        if subscription is None:
            raise TypeError("subscription is None (§2.13)")
        if self.subscription is not None:
            subscription.cancel()  # §2.5
            return
        self.subscription = subscription
        self.probe.register_on_subscribe(SubscriptionPuppet(subscription))

    def on_next(self, item: Any) -> None:
        if item is None:
            raise TypeError("item is None (§2.13)")
        self.probe.register_on_next(item)

    def on_error(self, error: BaseException) -> None:
        if error is None:
            raise TypeError("error is None (§2.13)")
        self.probe.register_on_error(error)

    def on_complete(self) -> None:
        self.probe.register_on_complete()


class OneByOneSubscriber(Subscriber[Any]):
    """A minimal correct blackbox Subscriber: requests one item at a time."""

    def __init__(self) -> None:
        self.subscription: Subscription | None = None
        self.received: list[Any] = []
        self.terminated = threading.Event()

    def on_subscribe(self, subscription: Subscription) -> None:
        if subscription is None:
            raise TypeError("subscription is None (§2.13)")
        if self.subscription is not None:
            subscription.cancel()  # §2.5
            return
        self.subscription = subscription
        subscription.request(1)

    def on_next(self, item: Any) -> None:
        if item is None:
            raise TypeError("item is None (§2.13)")
        self.received.append(item)
        assert self.subscription is not None
        self.subscription.request(1)

    def on_error(self, error: BaseException) -> None:
        if error is None:
            raise TypeError("error is None (§2.13)")
        self.terminated.set()

    def on_complete(self) -> None:
        self.terminated.set()


class ProbingWrapper(Subscriber[Any]):
    """Reports the signals a wrapped Subscriber receives to a whitebox probe; the puppet
    requests and cancels through the wrapped Subscriber (a TestSubscriber is a Subscription)."""

    def __init__(self, inner: Any, probe: WhiteboxSubscriberProbe[Any]) -> None:
        self.inner = inner
        self.probe = probe

    def on_subscribe(self, subscription: Subscription) -> None:
        self.inner.on_subscribe(subscription)
        self.probe.register_on_subscribe(SubscriptionPuppet(self.inner))

    def on_next(self, item: Any) -> None:
        self.inner.on_next(item)
        self.probe.register_on_next(item)

    def on_error(self, error: BaseException) -> None:
        self.inner.on_error(error)
        self.probe.register_on_error(error)

    def on_complete(self) -> None:
        self.inner.on_complete()
        self.probe.register_on_complete()


WB_213_SUBSCRIBE = "required_spec213_on_subscribe_must_throw_null_pointer_exception_when_parameters_are_null"
WB_213_NEXT = "required_spec213_on_next_must_throw_null_pointer_exception_when_parameters_are_null"
WB_213_ERROR = "required_spec213_on_error_must_throw_null_pointer_exception_when_parameters_are_null"
BB_213_SUBSCRIBE = "required_spec213_blackbox_on_subscribe_must_throw_null_pointer_exception_when_parameters_are_null"
BB_213_NEXT = "required_spec213_blackbox_on_next_must_throw_null_pointer_exception_when_parameters_are_null"
BB_213_ERROR = "required_spec213_blackbox_on_error_must_throw_null_pointer_exception_when_parameters_are_null"


# ---- positive: the verifications on conforming subscribers ---------------------------------------------


class TestProbeSubscriberWhitebox(SubscriberWhiteboxVerification[int]):
    """The reference: a minimal correct Subscriber keeps every rule."""

    env = POSITIVE_ENV

    def create_subscriber(self, probe: WhiteboxSubscriberProbe[int]) -> Subscriber[int]:
        return ProbeSubscriber(probe)


class TestOneByOneSubscriberBlackbox(SubscriberBlackboxVerification[int]):
    """The reference: a minimal correct one-at-a-time Subscriber keeps every rule."""

    env = POSITIVE_ENV

    def create_subscriber(self) -> Subscriber[int]:
        return OneByOneSubscriber()


class TestStrictSubscriberWhitebox(SubscriberWhiteboxVerification[int]):
    """StrictSubscriber around a correct Subscriber; the puppet acts through the StrictSubscriber."""

    env = POSITIVE_ENV

    def create_subscriber(self, probe: WhiteboxSubscriberProbe[int]) -> Subscriber[int]:
        return StrictSubscriber(ProbeSubscriber(probe))



class TestStrictSubscriberBlackbox(SubscriberBlackboxVerification[int]):
    env = POSITIVE_ENV

    def create_subscriber(self) -> Subscriber[int]:
        return StrictSubscriber(OneByOneSubscriber())



class TestLambdaSubscriberBlackbox(SubscriberBlackboxVerification[int]):
    """LambdaSubscriber (what ``Flowable.subscribe(on_next, on_error)`` uses): requests everything."""

    env = POSITIVE_ENV

    @pytest.fixture(autouse=True)
    def _second_subscription_is_reported(self, plugin_errors: list[BaseException]) -> Any:
        # LambdaSubscriber cancels a second Subscription (§2.5) and reports it to the plugins
        yield
        assert all(isinstance(e, ProtocolViolationException) and "§2.5" in str(e)
                   for e in plugin_errors), plugin_errors

    def create_subscriber(self) -> Subscriber[int]:
        return LambdaSubscriber(on_next=lambda item: None, on_error=lambda error: None)



def test_lambda_subscriber_cancels_a_second_subscription_and_reports_it(plugin_errors: list[Any]) -> None:
    """The §2.5 rule on LambdaSubscriber, with the report that goes with it asserted."""
    result = run_rule(TestLambdaSubscriberBlackbox(), "required_spec205_blackbox_must_call_subscription_cancel_"
                                                      "if_it_already_has_an_subscription_and_receives_another_"
                                                      "on_subscribe_signal")
    assert result.passed, str(result)
    assert len(plugin_errors) == 1 and isinstance(plugin_errors[0], ProtocolViolationException)




class TestTestSubscriberBlackbox(SubscriberBlackboxVerification[int]):
    """rxpy2.testing.TestSubscriber as it is (requests everything)."""

    env = POSITIVE_ENV

    def create_subscriber(self) -> Subscriber[int]:
        return TestSubscriber()



class TestTestSubscriberWhitebox(SubscriberWhiteboxVerification[int]):
    """TestSubscriber(0) seen through a probe-reporting wrapper; the puppet requests and
    cancels through the TestSubscriber."""

    env = POSITIVE_ENV

    def create_subscriber(self, probe: WhiteboxSubscriberProbe[int]) -> Subscriber[int]:
        return ProbingWrapper(TestSubscriber(0), probe)



# ---- negative controls: whitebox ------------------------------------------------------------------------

SubscriberFactory = Callable[[WhiteboxSubscriberProbe[Any]], Subscriber[Any]]


def whitebox(factory: SubscriberFactory) -> SubscriberWhiteboxVerification[int]:
    class Custom(SubscriberWhiteboxVerification[int]):
        __test__ = False
        env = negative_env()

        def create_subscriber(self, probe: WhiteboxSubscriberProbe[int]) -> Subscriber[int]:
            return factory(probe)

    return Custom()


class NoRequestPuppet(SubscriberPuppet):
    def __init__(self, subscription: Subscription) -> None:
        self.subscription = subscription

    def trigger_request(self, elements: int) -> None:
        pass  # forgot to request

    def signal_cancel(self) -> None:
        self.subscription.cancel()


class ForgetsToRequest(ProbeSubscriber):
    """§2.1: the puppet's trigger_request requests nothing."""

    def on_subscribe(self, subscription: Subscription) -> None:
        self.subscription = subscription
        self.probe.register_on_subscribe(NoRequestPuppet(subscription))


class RequestsInOnComplete(ProbeSubscriber):
    """§2.3: request from inside on_complete."""

    def on_complete(self) -> None:
        assert self.subscription is not None
        self.subscription.request(1)
        self.probe.register_on_complete()


class CancelsInOnComplete(ProbeSubscriber):
    """§2.3: cancel from inside on_complete."""

    def on_complete(self) -> None:
        assert self.subscription is not None
        self.subscription.cancel()
        self.probe.register_on_complete()


class RequestsInOnError(ProbeSubscriber):
    """§2.3: request from inside on_error."""

    def on_error(self, error: BaseException) -> None:
        assert self.subscription is not None
        self.subscription.request(1)


class CancelsInOnError(ProbeSubscriber):
    """§2.3: cancel from inside on_error."""

    def on_error(self, error: BaseException) -> None:
        assert self.subscription is not None
        self.subscription.cancel()


class _Unrelated(Subscriber[Any]):
    """Another Subscriber whose on_complete/on_error act on a Subscription it was given."""

    def __init__(self, action: Callable[[], None]) -> None:
        self.action = action

    def on_subscribe(self, subscription: Subscription) -> None:
        pass

    def on_next(self, item: Any) -> None:
        pass

    def on_error(self, error: BaseException) -> None:
        self.action()

    def on_complete(self) -> None:
        self.action()


class UnrelatedCallsFromMethodsNamedLikeSignals(ProbeSubscriber):
    """Legal: request/cancel made during on_subscribe from some other object's ``on_complete``
    and ``on_error`` methods; only calls made inside the signals the TCK delivers count."""

    def on_subscribe(self, subscription: Subscription) -> None:
        super().on_subscribe(subscription)
        _Unrelated(lambda: subscription.request(1)).on_complete()
        _Unrelated(subscription.cancel).on_complete()
        _Unrelated(lambda: subscription.request(1)).on_error(RuntimeError())
        _Unrelated(subscription.cancel).on_error(RuntimeError())


class KeepsSecondSubscription(ProbeSubscriber):
    """§2.5: takes every Subscription it is given and requests from it."""

    def on_subscribe(self, subscription: Subscription) -> None:
        self.subscription = subscription
        self.probe.register_on_subscribe(SubscriptionPuppet(subscription))
        subscription.request(1)


class ThrowsAfterCancel(ProbeSubscriber):
    """§2.8: blows up on an on_next that arrives after it cancelled."""

    def on_subscribe(self, subscription: Subscription) -> None:
        self.subscription = subscription
        cancelled = self

        class Puppet(SubscriberPuppet):
            def trigger_request(self, elements: int) -> None:
                subscription.request(elements)

            def signal_cancel(self) -> None:
                cancelled.is_cancelled = True
                subscription.cancel()

        self.is_cancelled = False
        self.probe.register_on_subscribe(Puppet())

    def on_next(self, item: Any) -> None:
        if self.is_cancelled:
            raise RuntimeError("But I thought it's cancelled!")
        self.probe.register_on_next(item)


class ForgetsProbeOnComplete(ProbeSubscriber):
    """The probe is not told about on_complete (a Subscriber that loses the signal)."""

    def on_complete(self) -> None:
        pass


class NeverRegistersOnSubscribe(ProbeSubscriber):
    """The probe never gets the puppet."""

    def on_subscribe(self, subscription: Subscription) -> None:
        self.subscription = subscription


class ThrowsFromOnError(ProbeSubscriber):
    """§2.13: raises from on_error."""

    def on_error(self, error: BaseException) -> None:
        raise RuntimeError("Wrong, don't do this!") from error


class IgnoresNone(ProbeSubscriber):
    """§2.13: None arguments are silently ignored."""

    def on_subscribe(self, subscription: Subscription) -> None:
        if subscription is None:
            return
        super().on_subscribe(subscription)

    def on_next(self, item: Any) -> None:
        if item is not None:
            self.probe.register_on_next(item)

    def on_error(self, error: BaseException) -> None:
        if error is not None:
            self.probe.register_on_error(error)


class StuckWorker(ProbeSubscriber):
    """Hands each item to a worker thread that is blocked: the items are never processed."""

    def __init__(self, probe: WhiteboxSubscriberProbe[Any], release: threading.Event) -> None:
        super().__init__(probe)
        self.release = release

    def on_next(self, item: Any) -> None:
        def work() -> None:
            self.release.wait(5)
            # released at the end of the test: too late for the probe

        threading.Thread(target=work, name="tck-test-stuck-worker", daemon=True).start()


def _delayed(delay_s: float, action: Callable[[], None], timers: list[threading.Timer]) -> None:
    t = threading.Timer(delay_s, action)
    t.daemon = True
    timers.append(t)
    t.start()


class DelayedRequests(ProbeSubscriber):
    """Legal: requests (and cancels) some time after being asked to, and checks that no item
    comes before its request."""

    def __init__(self, probe: WhiteboxSubscriberProbe[Any], timers: list[threading.Timer],
                 one_at_a_time: bool = False) -> None:
        super().__init__(probe)
        self.timers = timers
        self.one_at_a_time = one_at_a_time
        self.lock = threading.Lock()
        self.demand = 0  # requested and not yet received
        self.outstanding = 0  # triggered and not yet requested (one-at-a-time)
        self.delay = NEGATIVE_TIMEOUT_MS / 2000.0

    def _request(self, n: int) -> None:
        with self.lock:
            self.demand += n
        assert self.subscription is not None
        self.subscription.request(n)

    def on_subscribe(self, subscription: Subscription) -> None:
        self.subscription = subscription
        me = self

        class Puppet(SubscriberPuppet):
            def trigger_request(self, elements: int) -> None:
                if me.one_at_a_time:
                    with me.lock:
                        me.outstanding += elements
                    _delayed(me.delay, lambda: me._request(1), me.timers)
                else:
                    _delayed(me.delay, lambda: me._request(elements), me.timers)

            def signal_cancel(self) -> None:
                _delayed(me.delay, subscription.cancel, me.timers)

        self.probe.register_on_subscribe(Puppet())

    def on_next(self, item: Any) -> None:
        with self.lock:
            if self.demand <= 0:
                raise RuntimeError("on_next signalled without demand!")
            self.demand -= 1
            if self.one_at_a_time:
                self.outstanding -= 1
                more = self.outstanding > 0
        if self.one_at_a_time and more:
            _delayed(self.delay, lambda: self._request(1), self.timers)
        self.probe.register_on_next(item)


R201 = "required_spec201_must_signal_demand_via_subscription_request"
R203C = "required_spec203_must_not_call_methods_on_subscription_or_publisher_in_on_complete"
R203E = "required_spec203_must_not_call_methods_on_subscription_or_publisher_in_on_error"
R205 = ("required_spec205_must_call_subscription_cancel_if_it_already_has_an_subscription_and_receives_"
        "another_on_subscribe_signal")
R208 = "required_spec208_must_be_prepared_to_receive_on_next_signals_after_having_called_subscription_cancel"
R209P = "required_spec209_must_be_prepared_to_receive_an_on_complete_signal_with_preceding_request_call"
R209N = "required_spec209_must_be_prepared_to_receive_an_on_complete_signal_without_preceding_request_call"
R210P = "required_spec210_must_be_prepared_to_receive_an_on_error_signal_with_preceding_request_call"
R210N = "required_spec210_must_be_prepared_to_receive_an_on_error_signal_without_preceding_request_call"
R308 = "required_spec308_request_must_register_given_number_elements_to_be_produced"
HAPPY = "required_exercise_whitebox_happy_path"

WHITEBOX_BROKEN: list[tuple[str, SubscriberFactory, str, str]] = [
    # (id, subscriber, rule that must fail, a part of the failure message)
    ("forgets-to-request", ForgetsToRequest, R201, "Did not receive expected `request` call within"),
    ("request-in-on-complete", RequestsInOnComplete, R203C,
     "Subscription.request MUST NOT be called from Subscriber.on_complete (Rule 2.3)!"),
    ("cancel-in-on-complete", CancelsInOnComplete, R203C,
     "Subscription.cancel MUST NOT be called from Subscriber.on_complete (Rule 2.3)!"),
    ("request-in-on-error", RequestsInOnError, R203E,
     "Subscription.request MUST NOT be called from Subscriber.on_error (Rule 2.3)!"),
    ("cancel-in-on-error", CancelsInOnError, R203E,
     "Subscription.cancel MUST NOT be called from Subscriber.on_error (Rule 2.3)!"),
    ("keeps-second-subscription", KeepsSecondSubscription, R205,
     "Expected 2nd Subscription given to subscriber to be cancelled"),
    ("throws-after-cancel", ThrowsAfterCancel, R208, "But I thought it's cancelled!"),
    ("forgets-probe-on-complete", ForgetsProbeOnComplete, R209P, "did not call `register_on_complete()`"),
    ("never-registers-on-subscribe-209", NeverRegistersOnSubscribe, R209N, "did not `register_on_subscribe`"),
    ("never-registers-on-subscribe-happy", NeverRegistersOnSubscribe, HAPPY, "did not `register_on_subscribe`"),
    ("never-registers-on-subscribe-308", NeverRegistersOnSubscribe, R308, "did not `register_on_subscribe`"),
    ("throws-from-on-error-preceding", ThrowsFromOnError, R210P, "Test Exception: Boom!"),
    ("throws-from-on-error-without", ThrowsFromOnError, R210N, "Test Exception: Boom!"),
    ("ignores-none-subscription", IgnoresNone, WB_213_SUBSCRIBE, "on_subscribe(None) did not raise TypeError"),
    ("ignores-none-item", IgnoresNone, WB_213_NEXT, "on_next(None) did not raise TypeError"),
    ("ignores-none-error", IgnoresNone, WB_213_ERROR, "on_error(None) did not raise TypeError"),
]


@pytest.mark.parametrize(("factory", "rule", "message"), [b[1:] for b in WHITEBOX_BROKEN],
                         ids=[b[0] for b in WHITEBOX_BROKEN])
def test_whitebox_fails_on_a_broken_subscriber(factory: SubscriberFactory, rule: str, message: str) -> None:
    result = run_rule(whitebox(factory), rule)
    assert result.failed, f"{factory.__name__} should fail {rule}, but: {result}"
    assert message in result.message, result.message


@pytest.mark.parametrize("rule", [HAPPY, R308])
def test_whitebox_fails_on_a_subscriber_that_blocks(rule: str) -> None:
    release = threading.Event()
    try:
        result = run_rule(whitebox(lambda probe: StuckWorker(probe, release)), rule)
    finally:
        release.set()
    assert result.failed, str(result)
    assert "did not call `register_on_next(" in result.message, result.message


@pytest.mark.parametrize("rule", [R203C, R203E])
def test_whitebox_passes_unrelated_calls_from_methods_named_like_signals(rule: str) -> None:
    result = run_rule(whitebox(UnrelatedCallsFromMethodsNamedLikeSignals), rule)
    assert result.passed, str(result)


@pytest.mark.parametrize("one_at_a_time", [False, True], ids=["delayed", "delayed-one-at-a-time"])
@pytest.mark.parametrize("rule", [R208, R308, HAPPY])
def test_whitebox_waits_for_delayed_demand(rule: str, one_at_a_time: bool) -> None:
    timers: list[threading.Timer] = []
    try:
        result = run_rule(whitebox(lambda probe: DelayedRequests(probe, timers, one_at_a_time)), rule)
    finally:
        for t in timers:
            t.join(2)
    assert result.passed, str(result)


@pytest.mark.parametrize(("factory", "rule", "message"), [b[1:] for b in WHITEBOX_BROKEN],
                         ids=[b[0] for b in WHITEBOX_BROKEN])
def test_the_correct_subscriber_passes_each_rule_a_broken_one_fails(
        factory: SubscriberFactory, rule: str, message: str) -> None:
    """Same rules, same short timeouts, correct Subscriber: the controls fail for what they break."""
    result = run_rule(whitebox(ProbeSubscriber), rule)
    assert result.passed, str(result)


# ---- negative controls: blackbox ------------------------------------------------------------------------


def blackbox(factory: Callable[[], Subscriber[Any]],
             trigger: Callable[[Subscriber[Any]], None] | None = None) -> SubscriberBlackboxVerification[int]:
    class Custom(SubscriberBlackboxVerification[int]):
        __test__ = False
        env = negative_env()

        def create_subscriber(self) -> Subscriber[int]:
            return factory()

        def trigger_request(self, subscriber: Subscriber[int]) -> None:
            if trigger is not None:
                trigger(subscriber)

    return Custom()


class NoopSubscriber(Subscriber[Any]):
    """Requests nothing, does nothing."""

    def on_subscribe(self, subscription: Subscription) -> None:
        pass

    def on_next(self, item: Any) -> None:
        pass

    def on_error(self, error: BaseException) -> None:
        pass

    def on_complete(self) -> None:
        pass


class KeepSubscription(NoopSubscriber):
    def __init__(self) -> None:
        self.subscription: Subscription | None = None

    def on_subscribe(self, subscription: Subscription) -> None:
        self.subscription = subscription


class BbRequestsInOnComplete(KeepSubscription):
    def on_complete(self) -> None:
        assert self.subscription is not None
        self.subscription.request(1)


class BbCancelsInOnComplete(KeepSubscription):
    def on_complete(self) -> None:
        assert self.subscription is not None
        self.subscription.cancel()


class BbRequestsInOnError(KeepSubscription):
    def on_error(self, error: BaseException) -> None:
        assert self.subscription is not None
        self.subscription.request(1)


class BbCancelsInOnError(KeepSubscription):
    def on_error(self, error: BaseException) -> None:
        assert self.subscription is not None
        self.subscription.cancel()


class BbRequestsFromEverySubscription(KeepSubscription):
    """§2.5: requests from every Subscription it is given."""

    def on_subscribe(self, subscription: Subscription) -> None:
        super().on_subscribe(subscription)
        subscription.request(1)


class BbThrowsFromOnError(NoopSubscriber):
    def on_subscribe(self, subscription: Subscription) -> None:
        subscription.request(1)

    def on_error(self, error: BaseException) -> None:
        raise RuntimeError("Wrong, don't do this!") from error


class BbCannotCopeWithItsDemand(KeepSubscription):
    """§2.1: asks for 8 items, but breaks on the 3rd."""

    def __init__(self) -> None:
        super().__init__()
        self.count = 0

    def on_subscribe(self, subscription: Subscription) -> None:
        super().on_subscribe(subscription)
        subscription.request(8)

    def on_next(self, item: Any) -> None:
        self.count += 1
        if self.count == 3:
            raise RuntimeError("buffer of 2 overflowed")


class BbRequestsTooLate(KeepSubscription):
    """Blocks: its request comes from a worker that is stuck until long after the timeout."""

    def __init__(self, release: threading.Event) -> None:
        super().__init__()
        self.release = release

    def on_subscribe(self, subscription: Subscription) -> None:
        def late() -> None:
            if not self.release.wait(5):
                subscription.request(1)

        threading.Thread(target=late, name="tck-test-late-requester", daemon=True).start()


B201 = "required_spec201_blackbox_must_signal_demand_via_subscription_request"
B203C = "required_spec203_blackbox_must_not_call_methods_on_subscription_or_publisher_in_on_complete"
B203E = "required_spec203_blackbox_must_not_call_methods_on_subscription_or_publisher_in_on_error"
B205 = ("required_spec205_blackbox_must_call_subscription_cancel_if_it_already_has_an_subscription_and_"
        "receives_another_on_subscribe_signal")
B209P = "required_spec209_blackbox_must_be_prepared_to_receive_an_on_complete_signal_with_preceding_request_call"
B209N = ("required_spec209_blackbox_must_be_prepared_to_receive_an_on_complete_signal_without_preceding_"
         "request_call")
B210P = "required_spec210_blackbox_must_be_prepared_to_receive_an_on_error_signal_with_preceding_request_call"

BLACKBOX_BROKEN: list[tuple[str, Callable[[], Subscriber[Any]], str, str]] = [
    ("noop-201", NoopSubscriber, B201, "Did not receive expected `request` call within"),
    ("noop-209", NoopSubscriber, B209P, "Did not receive expected `request` call within"),
    ("request-in-on-complete", BbRequestsInOnComplete, B203C,
     "Subscription.request MUST NOT be called from Subscriber.on_complete (Rule 2.3)!"),
    ("cancel-in-on-complete", BbCancelsInOnComplete, B203C,
     "Subscription.cancel MUST NOT be called from Subscriber.on_complete (Rule 2.3)!"),
    ("request-in-on-error", BbRequestsInOnError, B203E,
     "Subscription.request MUST NOT be called from Subscriber.on_error (Rule 2.3)!"),
    ("cancel-in-on-error", BbCancelsInOnError, B203E,
     "Subscription.cancel MUST NOT be called from Subscriber.on_error (Rule 2.3)!"),
    ("requests-from-second-subscription", BbRequestsFromEverySubscription, B205,
     "illegally called `subscription.request(1)"),
    ("throws-from-on-error", BbThrowsFromOnError, B210P, "Test Exception: Boom!"),
    ("cannot-cope-with-its-demand", BbCannotCopeWithItsDemand, B201, "buffer of 2 overflowed"),
    ("noop-null-subscription", NoopSubscriber, BB_213_SUBSCRIBE, "on_subscribe(None) did not raise TypeError"),
    ("noop-null-item", NoopSubscriber, BB_213_NEXT, "on_next(None) did not raise TypeError"),
    ("noop-null-error", NoopSubscriber, BB_213_ERROR, "on_error(None) did not raise TypeError"),
]


@pytest.mark.parametrize(("factory", "rule", "message"), [b[1:] for b in BLACKBOX_BROKEN],
                         ids=[b[0] for b in BLACKBOX_BROKEN])
def test_blackbox_fails_on_a_broken_subscriber(factory: Callable[[], Subscriber[Any]], rule: str,
                                               message: str) -> None:
    result = run_rule(blackbox(factory), rule)
    assert result.failed, f"{factory.__name__} should fail {rule}, but: {result}"
    assert message in result.message, result.message


def test_blackbox_fails_on_a_subscriber_whose_request_is_stuck() -> None:
    release = threading.Event()
    try:
        result = run_rule(blackbox(lambda: BbRequestsTooLate(release)), B201)
    finally:
        release.set()
    assert result.failed and "Did not receive expected `request` call within" in result.message, str(result)


@pytest.mark.parametrize(("factory", "rule", "message"), [b[1:] for b in BLACKBOX_BROKEN],
                         ids=[b[0] for b in BLACKBOX_BROKEN])
def test_the_correct_blackbox_subscriber_passes_each_rule_a_broken_one_fails(
        factory: Callable[[], Subscriber[Any]], rule: str, message: str) -> None:
    result = run_rule(blackbox(OneByOneSubscriber), rule)
    assert result.passed, str(result)


def test_blackbox_trigger_request_reaches_a_subscriber_that_waits_for_it() -> None:
    """A Subscriber that requests only when told passes with trigger_request, fails without."""

    class OnDemand(KeepSubscription):
        def go(self) -> None:
            assert self.subscription is not None
            self.subscription.request(1)

    assert run_rule(blackbox(OnDemand, lambda s: s.go()), B209P).passed  # type: ignore[attr-defined]
    assert run_rule(blackbox(OnDemand), B209P).failed


def test_blackbox_second_subscription_cancelled_then_completion_is_delivered() -> None:
    completed = threading.Event()

    class CancelsTheSecond(KeepSubscription):
        def on_subscribe(self, subscription: Subscription) -> None:
            if self.subscription is None:
                super().on_subscribe(subscription)
                subscription.request(1)
            else:
                subscription.cancel()

        def on_complete(self) -> None:
            completed.set()

    assert run_rule(blackbox(CancelsTheSecond), B205).passed
    assert completed.is_set()


def test_blackbox_without_preceding_request_passes_on_a_noop_subscriber() -> None:
    assert run_rule(blackbox(NoopSubscriber), B209N).passed


# ---- the rule sets ------------------------------------------------------------------------------------


def test_rule_sets_match_the_official_classification() -> None:
    wb = SubscriberWhiteboxVerification.rules_by_kind()
    assert (len(wb["required"]), len(wb["optional"]), len(wb["stochastic"]), len(wb["untested"])) == (14, 0, 0, 13)
    bb = SubscriberBlackboxVerification.rules_by_kind()
    assert (len(bb["required"]), len(bb["optional"]), len(bb["stochastic"]), len(bb["untested"])) == (11, 0, 0, 15)
