"""SubscriberBlackboxVerification: the Subscriber rules that can be checked from outside.

The Subscriber under test is used as it is: :meth:`SubscriberBlackboxVerification.create_subscriber`
returns it, and the TCK wraps it in a :class:`~rxpy2.tck.subscriber_whitebox.BlackboxSubscriberProxy`
that records what it is sent. A Subscriber that only requests after some
outside event gets it from :meth:`SubscriberBlackboxVerification.trigger_request`.

Far fewer rules can be verified this way than with
:class:`~rxpy2.tck.SubscriberWhiteboxVerification`; every rule of the official
``SubscriberBlackboxVerification`` 1.0.4 is here under its snake_case name with
the same classification (``required_`` must pass; ``untested_`` is always
skipped with "untested: ..."). ``TypeError`` stands in for Java's
``NullPointerException`` (§2.13).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from typing import Generic
from typing import TypeVar

from rxpy2.reactivestreams import Subscriber
from rxpy2.reactivestreams import Subscription
from rxpy2.tck.environment import Latch
from rxpy2.tck.environment import TestEnvironment
from rxpy2.tck.subscriber_common import HelperFedStage
from rxpy2.tck.subscriber_common import HelperFedVerification
from rxpy2.tck.subscriber_whitebox import BlackboxSubscriberProxy
from rxpy2.tck.subscriber_whitebox import SecondSubscription
from rxpy2.tck.subscriber_whitebox import expect_type_error
from rxpy2.tck.subscriber_whitebox import spec203_scene
from rxpy2.tck.support import TestException
from rxpy2.tck.support import untested

__all__ = ["BlackboxTestStage", "SubscriberBlackboxVerification"]

T = TypeVar("T")

_UNTESTED = "cannot be meaningfully tested"
_UNTESTED_BLACKBOX = "cannot be meaningfully tested as black box"

#: At most this many elements are sent in answer to one request (a Subscriber may ask for LONG_MAX).
MAX_SIGNALS_PER_REQUEST = 512


class _NoopSubscription(Subscription):
    def request(self, n: int) -> None:
        pass

    def cancel(self) -> None:
        pass

    def __repr__(self) -> str:
        return "NoopSubscription"


class BlackboxTestStage(HelperFedStage[T], Generic[T]):
    """The Publisher the Subscriber under test is subscribed to, plus a supply of items.

    With ``run_default_init`` (the usual case) the stage subscribes
    ``verification.create_subscriber()``, wrapped in a recording proxy, to itself.
    """

    verification: SubscriberBlackboxVerification[T]

    def __init__(self, verification: SubscriberBlackboxVerification[T], env: TestEnvironment,
                 run_default_init: bool = True) -> None:
        super().__init__(verification, env, run_default_init)
        self._sub_proxy: BlackboxSubscriberProxy[T] | None = None
        if run_default_init:
            self._sub_proxy = self.create_blackbox_subscriber_proxy(env, verification.create_subscriber())
            self.subscribe(self._sub_proxy)

    def sub_proxy(self) -> BlackboxSubscriberProxy[T]:
        """The recording proxy around the Subscriber under test (``.sub()`` is that Subscriber)."""
        if self._sub_proxy is None:
            raise AssertionError("this stage was made without the default set-up: it has no proxy")
        return self._sub_proxy

    def create_blackbox_subscriber_proxy(self, env: TestEnvironment,
                                         sub: Subscriber[T]) -> BlackboxSubscriberProxy[T]:
        """Return the :class:`BlackboxSubscriberProxy` that records the signals ``sub`` receives from this stage (override to wrap differently)."""
        return BlackboxSubscriberProxy(env, sub)


BlackboxStageRun = Callable[[BlackboxTestStage[Any]], None]


class SubscriberBlackboxVerification(HelperFedVerification[T], Generic[T]):
    """Verifies a Subscriber as it is, from outside (subclass it; see the module doc)."""

    __test__ = False

    # ---- what a subclass provides ------------------------------------------------------------

    def create_subscriber(self) -> Subscriber[T]:
        """A new Subscriber under test."""
        raise NotImplementedError(f"{type(self).__name__} must implement create_subscriber()")

    def trigger_request(self, subscriber: Subscriber[T]) -> None:
        """Override when the Subscriber needs an outside signal before it requests (default: nothing)."""

    # ---- running a rule ------------------------------------------------------------------------

    def blackbox_subscriber_test(self, body: BlackboxStageRun) -> None:
        """Subscribe a new Subscriber under test to a fresh stage, then run ``body(stage)``."""
        body(BlackboxTestStage(self, self._env, True))

    def blackbox_subscriber_without_setup_test(self, body: BlackboxStageRun) -> None:
        """Run ``body(stage)`` on a stage with nothing subscribed (the body subscribes)."""
        body(BlackboxTestStage(self, self._env, False))

    # ---- §2 Subscriber ---------------------------------------------------------------------------

    def required_spec201_blackbox_must_signal_demand_via_subscription_request(self) -> None:
        """§2.1: the Subscriber requests, and copes with up to what it requested (at most 512
        elements are sent), then with completion (§1.2 allows completing early)."""

        def run(stage: BlackboxTestStage[T]) -> None:
            self.trigger_request(stage.sub_proxy().sub())  # type: ignore[arg-type]  # set before the stage runs
            requested = stage.expect_request()
            to_emit = min(requested, MAX_SIGNALS_PER_REQUEST)
            proxy = stage.sub_proxy()
            for i in range(to_emit):
                # cancellation is sampled every 10th element: some skid is allowed
                if i % 10 == 0 and stage.is_cancelled():
                    break
                proxy.expect_next(stage.signal_next())  # keeps the proxy's record short
            stage.send_completion()

        self.blackbox_subscriber_test(run)

    def untested_spec202_blackbox_should_asynchronously_dispatch(self) -> None:
        """§2.2 (untested)."""
        untested(f"§2.2 {_UNTESTED}")

    def required_spec203_blackbox_must_not_call_methods_on_subscription_or_publisher_in_on_complete(self) -> None:
        """§2.3: on_complete calls neither request nor cancel (checked on the calling stack)."""
        env = self._env

        def run(stage: BlackboxTestStage[T]) -> None:
            subs, deliver = spec203_scene(env, "on_complete")
            sub = self.create_subscriber()
            sub.on_subscribe(subs)
            deliver(sub)
            env.verify_no_async_errors_no_delay()

        self.blackbox_subscriber_without_setup_test(run)

    def required_spec203_blackbox_must_not_call_methods_on_subscription_or_publisher_in_on_error(self) -> None:
        """§2.3: on_error calls neither request nor cancel (checked on the calling stack)."""
        env = self._env

        def run(stage: BlackboxTestStage[T]) -> None:
            subs, deliver = spec203_scene(env, "on_error")
            sub = self.create_subscriber()
            sub.on_subscribe(subs)
            deliver(sub)
            env.verify_no_async_errors_no_delay()

        self.blackbox_subscriber_without_setup_test(run)

    def untested_spec204_blackbox_must_consider_the_subscription_as_cancelled_in_after_recieving_on_complete_or_on_error(self) -> None:
        """§2.4 (untested)."""
        untested(f"§2.4 {_UNTESTED}")

    def required_spec205_blackbox_must_call_subscription_cancel_if_it_already_has_an_subscription_and_receives_another_on_subscribe_signal(self) -> None:
        """§2.5: a second Subscription is cancelled, and never requested from."""
        env = self._env

        def run(stage: BlackboxTestStage[T]) -> None:
            cancelled = Latch(env)

            def illegal_request(n: int) -> None:
                env.flop(f"Subscriber {stage.sub()!r} illegally called `subscription.request({n})`!")

            stage.sub().on_subscribe(SecondSubscription(cancelled, illegal_request))
            cancelled.expect_close("Expected SecondSubscription given to subscriber to be cancelled, "
                                   "but `Subscription.cancel()` was not called.")
            env.verify_no_async_errors_no_delay()
            stage.send_completion()  # done: complete the Subscriber under test

        self.blackbox_subscriber_test(run)

    def untested_spec206_blackbox_must_call_subscription_cancel_if_it_is_no_longer_valid(self) -> None:
        """§2.6 (untested)."""
        untested(f"§2.6 {_UNTESTED}")

    def untested_spec207_blackbox_must_ensure_all_calls_on_its_subscription_take_place_from_the_same_thread_or_take_care_of_synchronization(self) -> None:
        """§2.7 (untested)."""
        untested(f"§2.7 {_UNTESTED}")

    def untested_spec208_blackbox_must_be_prepared_to_receive_on_next_signals_after_having_called_subscription_cancel(self) -> None:
        """§2.8 (untested as black box; see the whitebox verification)."""
        untested(f"§2.8 {_UNTESTED_BLACKBOX}")

    def required_spec209_blackbox_must_be_prepared_to_receive_an_on_complete_signal_with_preceding_request_call(self) -> None:
        """§2.9: on_complete after a request is received."""

        def run(stage: BlackboxTestStage[T]) -> None:
            self.trigger_request(stage.sub_proxy().sub())  # type: ignore[arg-type]  # set before the stage runs
            stage.expect_request()
            stage.sub().on_complete()
            stage.sub_proxy().expect_completion()

        self.blackbox_subscriber_test(run)

    def required_spec209_blackbox_must_be_prepared_to_receive_an_on_complete_signal_without_preceding_request_call(self) -> None:
        """§2.9: on_complete without any request is received."""

        def run(stage: BlackboxTestStage[T]) -> None:
            stage.sub().on_complete()
            stage.sub_proxy().expect_completion()

        self.blackbox_subscriber_test(run)

    def required_spec210_blackbox_must_be_prepared_to_receive_an_on_error_signal_with_preceding_request_call(self) -> None:
        """§2.10: on_error after a request is received."""

        def run(stage: BlackboxTestStage[T]) -> None:
            self.trigger_request(stage.sub_proxy().sub())  # type: ignore[arg-type]  # set before the stage runs
            stage.expect_request()
            stage.sub().on_error(TestException())
            stage.sub_proxy().expect_error(BaseException)

        self.blackbox_subscriber_test(run)

    def required_spec210_blackbox_must_be_prepared_to_receive_an_on_error_signal_without_preceding_request_call(self) -> None:
        """§2.10: on_error without any request is received."""

        def run(stage: BlackboxTestStage[T]) -> None:
            stage.sub().on_error(TestException())
            stage.sub_proxy().expect_error(BaseException)

        self.blackbox_subscriber_test(run)

    def untested_spec211_blackbox_must_make_sure_that_all_calls_on_its_methods_happen_before_the_processing_of_the_respective_events(self) -> None:
        """§2.11 (untested)."""
        untested(f"§2.11 {_UNTESTED}")

    def untested_spec212_blackbox_must_not_call_on_subscribe_more_than_once_based_on_object_equality(self) -> None:
        """§2.12 (untested as black box)."""
        untested(f"§2.12 {_UNTESTED_BLACKBOX}")

    def untested_spec213_blackbox_failing_on_signal_invocation(self) -> None:
        """§2.13 (untested): a failing signal method."""
        untested(f"§2.13 {_UNTESTED}")

    def required_spec213_blackbox_on_subscribe_must_throw_null_pointer_exception_when_parameters_are_null(self) -> None:
        """§2.13: on_subscribe(None) raises TypeError."""
        env = self._env

        def run(stage: BlackboxTestStage[T]) -> None:
            sub = self.create_subscriber()
            expect_type_error(env, lambda: sub.on_subscribe(None), "on_subscribe(None)")  # type: ignore[arg-type]  # deliberately None: the §2.13 check

        self.blackbox_subscriber_without_setup_test(run)

    def required_spec213_blackbox_on_next_must_throw_null_pointer_exception_when_parameters_are_null(self) -> None:
        """§2.13: on_next(None) raises TypeError."""
        env = self._env

        def run(stage: BlackboxTestStage[T]) -> None:
            sub = self.create_subscriber()
            sub.on_subscribe(_NoopSubscription())
            expect_type_error(env, lambda: sub.on_next(None), "on_next(None)")  # type: ignore[arg-type]  # deliberately None: the §2.13 check

        self.blackbox_subscriber_without_setup_test(run)

    def required_spec213_blackbox_on_error_must_throw_null_pointer_exception_when_parameters_are_null(self) -> None:
        """§2.13: on_error(None) raises TypeError."""
        env = self._env

        def run(stage: BlackboxTestStage[T]) -> None:
            sub = self.create_subscriber()
            sub.on_subscribe(_NoopSubscription())
            expect_type_error(env, lambda: sub.on_error(None), "on_error(None)")  # type: ignore[arg-type]  # deliberately None: the §2.13 check

        self.blackbox_subscriber_without_setup_test(run)

    # ---- §3 Subscription, as the Subscriber uses it -------------------------------------------------

    def untested_spec301_blackbox_must_not_be_called_outside_subscriber_context(self) -> None:
        """§3.1 (untested)."""
        untested(f"§3.1 {_UNTESTED}")

    def untested_spec308_blackbox_request_must_register_given_number_elements_to_be_produced(self) -> None:
        """§3.8 (untested as black box; see the whitebox verification)."""
        untested(f"§3.8 {_UNTESTED_BLACKBOX}")

    def untested_spec310_blackbox_request_may_synchronously_call_on_next_on_subscriber(self) -> None:
        """§3.10 (untested)."""
        untested(f"§3.10 {_UNTESTED}")

    def untested_spec311_blackbox_request_may_synchronously_call_on_complete_or_on_error(self) -> None:
        """§3.11 (untested)."""
        untested(f"§3.11 {_UNTESTED}")

    def untested_spec314_blackbox_cancel_may_cause_the_publisher_to_shutdown_if_no_other_subscription_exists(self) -> None:
        """§3.14 (untested)."""
        untested(f"§3.14 {_UNTESTED}")

    def untested_spec315_blackbox_cancel_must_not_throw_exception_and_must_signal_on_error(self) -> None:
        """§3.15 (untested)."""
        untested(f"§3.15 {_UNTESTED}")

    def untested_spec316_blackbox_request_must_not_throw_exception_and_must_on_error_the_subscriber(self) -> None:
        """§3.16 (untested)."""
        untested(f"§3.16 {_UNTESTED}")
