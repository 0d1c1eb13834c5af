"""SubscriberWhiteboxVerification: the Subscriber rules (§2, and §3 as a Subscriber uses them).

A whitebox test sees inside the Subscriber under test: the user's
:meth:`SubscriberWhiteboxVerification.create_subscriber` receives a
:class:`WhiteboxSubscriberProbe` and returns a Subscriber that reports to it:

* in ``on_subscribe(s)``: ``probe.register_on_subscribe(puppet)``, where the
  :class:`SubscriberPuppet` lets the test make the Subscriber request
  (``trigger_request(n)``) and cancel (``signal_cancel()``);
* in ``on_next(item)``: ``probe.register_on_next(item)``;
* in ``on_error(e)``: ``probe.register_on_error(e)``;
* in ``on_complete()``: ``probe.register_on_complete()``.

Each rule then plays a scene on a :class:`WhiteboxTestStage`: the stage is the
Publisher the Subscriber is subscribed to (a :class:`~rxpy2.tck.ManualPublisher`
that records requests and cancellation and sends what the test tells it to),
fed with items made by :meth:`SubscriberWhiteboxVerification.create_element`
through an asynchronous helper Publisher (:class:`~rxpy2.tck.helper_publisher.HelperPublisher`).

Every rule of the official ``SubscriberWhiteboxVerification`` 1.0.4 is here under
its snake_case name with the same classification (``required_``: must pass;
``untested_``: always skipped with "untested: ..."). ``TypeError`` stands in for
Java's ``NullPointerException`` (§2.13).
"""

from __future__ import annotations

from abc import ABC
from abc import abstractmethod
from collections.abc import Callable
from typing import Any
from typing import Generic
from typing import TypeVar

from rxpy2.reactivestreams import Subscriber
from rxpy2.reactivestreams import Subscription
from rxpy2.tck.environment import Latch
from rxpy2.tck.environment import Promise
from rxpy2.tck.environment import Receptacle
from rxpy2.tck.environment import TestEnvironment
from rxpy2.tck.subscriber_common import HelperFedStage
from rxpy2.tck.subscriber_common import HelperFedVerification
from rxpy2.tck.support import TestException
from rxpy2.tck.support import not_verified
from rxpy2.tck.support import untested

__all__ = [
    "BlackboxProbe",
    "BlackboxSubscriberProxy",
    "SubscriberProbe",
    "SubscriberPuppet",
    "SubscriberPuppeteer",
    "SubscriberWhiteboxVerification",
    "WhiteboxSubscriberProbe",
    "WhiteboxTestStage",
]

T = TypeVar("T")
E = TypeVar("E", bound=BaseException)

_UNTESTED = "cannot be meaningfully tested"


# ---- the probe API ---------------------------------------------------------------------------


class SubscriberPuppet(ABC):
    """What the test may ask the Subscriber under test to do; implemented by the user.

    ``trigger_request(n)``: make the Subscriber eventually request at least ``n``
    more elements in total. It need not be one ``request(n)`` call: a Subscriber
    that requests one element at a time, waiting for each before asking for the
    next, fulfils it too (the TCK waits for each request before sending).
    ``signal_cancel()``: make the Subscriber cancel its Subscription; it may be
    merged with outstanding triggered requests, so that only the cancel is seen.
    """

    @abstractmethod
    def trigger_request(self, elements: int) -> None:
        """Make the Subscriber under test eventually request at least ``elements`` more items in total."""

    @abstractmethod
    def signal_cancel(self) -> None:
        """Make the Subscriber under test cancel its Subscription."""


class SubscriberPuppeteer(ABC):
    """Receives the puppet: the Subscriber calls this once it stored its Subscription."""

    @abstractmethod
    def register_on_subscribe(self, puppet: SubscriberPuppet) -> None:
        """Receive the puppet of the Subscriber under test; it calls this in ``on_subscribe``, after storing its Subscription."""


class SubscriberProbe(ABC, Generic[T]):
    """What the Subscriber under test reports: every ``on_next``/``on_error``/``on_complete``."""

    @abstractmethod
    def register_on_next(self, element: T) -> None:
        """Report that the Subscriber under test received ``on_next(element)``."""

    @abstractmethod
    def register_on_complete(self) -> None:
        """Report that the Subscriber under test received ``on_complete()``."""

    @abstractmethod
    def register_on_error(self, cause: BaseException) -> None:
        """Report that the Subscriber under test received ``on_error(cause)``."""


class BlackboxProbe(SubscriberProbe[T], Generic[T]):
    """Records reported signals and lets the test expect them (with timeouts).

    ``subscriber`` is a :class:`~rxpy2.tck.Promise` of the Subscriber under test
    (used in failure messages).
    """

    def __init__(self, env: TestEnvironment, subscriber: Promise[Subscriber[T]]) -> None:
        self.env = env
        self.subscriber = subscriber
        self.elements: Receptacle[T] = Receptacle(env)
        self.error: Promise[BaseException] = Promise(env)

    # ---- reporting ----

    def register_on_next(self, element: T) -> None:
        """Record ``element`` for :meth:`expect_next`; a full buffer flops and raises :class:`~rxpy2.tck.SubscriberBufferOverflowException`."""
        self.elements.add(element)

    def register_on_complete(self) -> None:
        """Record the completion for :meth:`expect_completion`; a second one flops (§1.7)."""
        if self.elements.is_completed():
            self.env.flop("Subscriber.on_complete was called a second time, which is illegal "
                          "according to Rule 1.7")
            return
        self.elements.complete()

    def register_on_error(self, cause: BaseException) -> None:
        """Record ``cause`` for :meth:`expect_error`; a second error flops (§1.7) and is dropped."""
        if self.error.is_completed():
            self.env.flop("Subscriber.on_error was called a second time, which is illegal "
                          "according to Rule 1.7")
            return
        self.error.complete(cause)

    # ---- expectations ----

    def sub(self) -> Subscriber[T] | None:
        """Return the Subscriber under test; before it was subscribed, flop and return None."""
        return self.subscriber.value()

    def _sub_name(self) -> str:
        return repr(self.subscriber.value()) if self.subscriber.is_completed() else "<not subscribed>"

    def expect_next(self, expected: Any = ..., timeout_ms: float | None = None) -> T:
        """The next reported item (which must equal ``expected`` when that is given)."""
        timeout = self.env.default_timeout_ms if timeout_ms is None else timeout_ms
        if expected is ...:
            return self.elements.next(timeout, f"Subscriber {self._sub_name()} did not call "
                                               "`register_on_next(_)`")
        received = self.elements.next(timeout, f"Subscriber {self._sub_name()} did not call "
                                               f"`register_on_next({expected!r})`")
        if received != expected:
            self.env.flop(f"Subscriber {self._sub_name()} called `register_on_next({received!r})` "
                          f"rather than `register_on_next({expected!r})`")
        return received

    def expect_completion(self, timeout_ms: Any = None, msg: str | None = None) -> None:
        """Wait up to ``timeout_ms`` for the next reported signal; flop unless it is the completion (``msg`` alone is accepted too)."""
        if isinstance(timeout_ms, str):
            timeout_ms, msg = None, timeout_ms
        timeout = self.env.default_timeout_ms if timeout_ms is None else timeout_ms
        if msg is None:
            msg = f"Subscriber {self._sub_name()} did not call `register_on_complete()`"
        self.elements.expect_completion(timeout, msg)

    def expect_error(self, expected: type[E] | BaseException, timeout_ms: float | None = None) -> Any:
        """Wait for the reported error: an instance of ``expected`` (a type), or ``expected``
        itself (an exception instance). Returns the reported error."""
        timeout = self.env.default_timeout_ms if timeout_ms is None else timeout_ms
        name = expected.__name__ if isinstance(expected, type) else repr(expected)
        self.error.expect_completion(timeout, f"Subscriber {self._sub_name()} did not call "
                                              f"`register_on_error({name})`")
        if not self.error.is_completed():
            return self.env.flop_and_fail(f"Subscriber {self._sub_name()} did not call "
                                          f"`register_on_error({name})`")
        got = self.error.value()
        if isinstance(expected, type):
            if isinstance(got, expected):
                return got
            return self.env.flop_and_fail(f"Subscriber {self._sub_name()} called "
                                          f"`register_on_error({got!r})` rather than "
                                          f"`register_on_error({name})`")
        if got is not expected:
            self.env.flop(f"Subscriber {self._sub_name()} called `register_on_error({got!r})` "
                          f"rather than `register_on_error({name})`")
        return got

    def expect_error_with_message(self, expected: type[E], required_message_part: str) -> E:
        """Wait for a reported ``expected`` error (see :meth:`expect_error`) whose message contains ``required_message_part``; otherwise raise ``AssertionError``."""
        err = self.expect_error(expected)
        if required_message_part not in str(err):
            raise AssertionError(f"Got expected exception {type(err).__name__} but missing message "
                                 f"[{required_message_part}], was: {err}")
        return err  # type: ignore[no-any-return]  # expect_error returns the error it was asked for (an E)

    def expect_none(self, within_ms: float | None = None) -> None:
        """No item and no completion is reported within ``within_ms`` (default: no-signals timeout)."""
        within = self.env.default_no_signals_timeout_ms if within_ms is None else within_ms
        self.elements.expect_none(within, "Expected nothing")


class WhiteboxSubscriberProbe(BlackboxProbe[T], SubscriberPuppeteer, Generic[T]):
    """The probe handed to :meth:`SubscriberWhiteboxVerification.create_subscriber`."""

    def __init__(self, env: TestEnvironment, subscriber: Promise[Subscriber[T]]) -> None:
        super().__init__(env, subscriber)
        self.puppet_promise: Promise[SubscriberPuppet] = Promise(env)

    def register_on_subscribe(self, puppet: SubscriberPuppet) -> None:
        """Keep ``puppet`` for :meth:`puppet`; a later registration is ignored."""
        if not self.puppet_promise.is_completed():
            self.puppet_promise.complete(puppet)

    def puppet(self) -> SubscriberPuppet:
        """Return the registered puppet; before ``register_on_subscribe``, flop and raise ``AssertionError``."""
        p = self.puppet_promise.value()
        if p is None:
            self.env.flop_and_fail(f"Subscriber {self._sub_name()} did not `register_on_subscribe`")
        return p


class BlackboxSubscriberProxy(BlackboxProbe[T], Subscriber[T], Generic[T]):
    """Wraps a Subscriber: forwards every signal to it and records it as a probe would."""

    def __init__(self, env: TestEnvironment, subscriber: Subscriber[T]) -> None:
        super().__init__(env, Promise.completed(env, subscriber))

    def on_subscribe(self, subscription: Subscription) -> None:
        """Pass ``subscription`` on to the wrapped Subscriber (the proxy records no Subscription)."""
        s = self.subscriber.value()  # completed at construction: never None
        if s is not None:
            s.on_subscribe(subscription)

    def on_next(self, item: T) -> None:
        """Record ``item`` (as :meth:`register_on_next`), then pass it on to the wrapped Subscriber."""
        self.register_on_next(item)
        s = self.subscriber.value()  # completed at construction: never None
        if s is not None:
            s.on_next(item)

    def on_error(self, error: BaseException) -> None:
        """Record ``error`` (as :meth:`register_on_error`), then pass it on to the wrapped Subscriber."""
        self.register_on_error(error)
        s = self.subscriber.value()  # completed at construction: never None
        if s is not None:
            s.on_error(error)

    def on_complete(self) -> None:
        """Record the completion (as :meth:`register_on_complete`), then pass it on to the wrapped Subscriber."""
        self.register_on_complete()
        s = self.subscriber.value()  # completed at construction: never None
        if s is not None:
            s.on_complete()

    def __repr__(self) -> str:
        return f"BlackboxSubscriberProxy({self.subscriber.value()!r})"


# ---- the stage -------------------------------------------------------------------------------


class WhiteboxTestStage(HelperFedStage[T], Generic[T]):
    """The Publisher the Subscriber under test is subscribed to, plus the probe and a supply of items.

    With ``run_default_init`` (the usual case) the stage subscribes
    ``verification.create_subscriber(probe)`` to itself and fails unless the
    Subscriber calls ``probe.register_on_subscribe`` within the default timeout.
    """

    verification: SubscriberWhiteboxVerification[T]

    def __init__(self, verification: SubscriberWhiteboxVerification[T], env: TestEnvironment,
                 run_default_init: bool = True) -> None:
        super().__init__(verification, env, run_default_init)
        self.probe: WhiteboxSubscriberProbe[T] | None = None
        if run_default_init:
            self.probe = WhiteboxSubscriberProbe(env, self.subscriber)
            self.subscribe(verification.create_subscriber(self.probe))
            self.probe.puppet_promise.expect_completion(
                env.default_timeout_ms, f"Subscriber {self.sub()!r} did not `register_on_subscribe`")
            env.verify_no_async_errors_no_delay()

    def puppet(self) -> SubscriberPuppet:
        """Return the puppet the Subscriber under test registered with the probe (see :meth:`WhiteboxSubscriberProbe.puppet`)."""
        return self.the_probe().puppet()

    def the_probe(self) -> WhiteboxSubscriberProbe[T]:
        """The probe (set when the stage starts)."""
        probe = self.probe
        assert probe is not None
        return probe

    def create_whitebox_subscriber_probe(self, env: TestEnvironment) -> WhiteboxSubscriberProbe[T]:
        """Return a new probe of this stage's Subscriber (for rules that subscribe by hand)."""
        return WhiteboxSubscriberProbe(env, self.subscriber)

    def verify_no_async_errors(self) -> None:
        """Wait the no-signals timeout, failing if the test recorded an asynchronous error (see :meth:`TestEnvironment.verify_no_async_errors`)."""
        self.env.verify_no_async_errors()


# ---- §2.3: recognisable frames for the stack check --------------------------------------------


def _rxpy2_tck_spec203_on_complete_call(sub: Subscriber[Any]) -> None:
    sub.on_complete()


def _rxpy2_tck_spec203_on_error_call(sub: Subscriber[Any]) -> None:
    sub.on_error(TestException())


class _Spec203Subscription(Subscription):
    """Flops when ``request``/``cancel`` is called from inside the marked signal call."""

    def __init__(self, env: TestEnvironment, marker: str, signal: str) -> None:
        self.env = env
        self.marker = marker
        self.signal = signal

    def _check(self, method: str) -> None:
        frame = self.env.find_caller_method_in_stack_trace(self.marker)
        if frame is not None:
            self.env.flop(f"Subscription.{method} MUST NOT be called from Subscriber.{self.signal} "
                          f"(Rule 2.3)! (Caller: {frame.filename}:{frame.name} line {frame.lineno})")

    def request(self, n: int) -> None:
        self._check("request")

    def cancel(self) -> None:
        self._check("cancel")

    def __repr__(self) -> str:
        return f"Spec203Subscription({self.signal})"


def spec203_scene(env: TestEnvironment, signal: str) -> tuple[Subscription, Callable[[Subscriber[Any]], None]]:
    """The Subscription that watches for §2.3 violations and the call that delivers ``signal``
    (``"on_complete"`` or ``"on_error"``) under a recognisable frame."""
    if signal == "on_complete":
        return (_Spec203Subscription(env, _rxpy2_tck_spec203_on_complete_call.__name__, signal),
                _rxpy2_tck_spec203_on_complete_call)
    return (_Spec203Subscription(env, _rxpy2_tck_spec203_on_error_call.__name__, signal),
            _rxpy2_tck_spec203_on_error_call)


def expect_type_error(env: TestEnvironment, call: Callable[[], Any], what: str) -> None:
    """§2.13: ``call()`` must raise TypeError (Java's NullPointerException)."""
    got = False
    try:
        call()
    except TypeError:
        got = True
    if not got:
        raise AssertionError(f"{what} did not raise TypeError (§2.13: a None argument MUST raise "
                             "TypeError, the NullPointerException of Python)")
    env.verify_no_async_errors_no_delay()


class SecondSubscription(Subscription):
    """The §2.5 probe: closes ``latch`` when cancelled; ``on_request`` sees any request."""

    def __init__(self, latch: Latch, on_request: Callable[[int], None] | None = None) -> None:
        self._latch = latch
        self._on_request = on_request

    def request(self, n: int) -> None:
        """Pass ``n`` to ``on_request`` when one was given; otherwise ignore it."""
        if self._on_request is not None:
            self._on_request(n)

    def cancel(self) -> None:
        """Close the latch: the Subscriber cancelled the second Subscription, as §2.5 requires."""
        self._latch.close()

    def __repr__(self) -> str:
        return "SecondSubscription(should get cancelled)"


# ---- the verification ------------------------------------------------------------------------

StageRun = Callable[[WhiteboxTestStage[Any]], None]


class SubscriberWhiteboxVerification(HelperFedVerification[T], Generic[T]):
    """Verifies a Subscriber that reports to a probe (subclass it; see the module doc)."""

    __test__ = False

    # ---- what a subclass provides ------------------------------------------------------------

    def create_subscriber(self, probe: WhiteboxSubscriberProbe[T]) -> Subscriber[T]:
        """A new Subscriber under test that reports to ``probe``."""
        raise NotImplementedError(f"{type(self).__name__} must implement create_subscriber(probe)")

    # ---- running a rule ------------------------------------------------------------------------

    def subscriber_test(self, body: StageRun) -> None:
        """Subscribe a new Subscriber under test to a fresh stage, then run ``body(stage)``."""
        body(WhiteboxTestStage(self, self._env, True))

    def subscriber_test_without_setup(self, body: StageRun) -> None:
        """Run ``body(stage)`` on a stage with nothing subscribed (the body subscribes)."""
        body(WhiteboxTestStage(self, self._env, False))

    def run_optional_subscriber_test_without_setup(self, body: StageRun) -> None:
        """As :meth:`subscriber_test_without_setup`, for a MAY rule: a failure becomes a skip."""
        try:
            self.subscriber_test_without_setup(body)
        except Exception:
            not_verified("Skipped because tested publisher does NOT implement this OPTIONAL requirement.")

    # ---- set-up check --------------------------------------------------------------------------

    def required_exercise_whitebox_happy_path(self) -> None:
        """The probe works: demand reaches the Publisher, items reach the probe, cancel reaches it."""

        def run(stage: WhiteboxTestStage[T]) -> None:
            stage.puppet().trigger_request(1)
            stage.puppet().trigger_request(1)
            received_requests = stage.expect_request()
            stage.signal_next()
            stage.the_probe().expect_next(stage.last_t)
            stage.puppet().trigger_request(1)
            if received_requests == 1:
                stage.expect_request()
            stage.signal_next()
            stage.the_probe().expect_next(stage.last_t)
            stage.puppet().signal_cancel()
            stage.expect_cancelling()
            stage.verify_no_async_errors()

        self.subscriber_test(run)

    # ---- §2 Subscriber ---------------------------------------------------------------------------

    def required_spec201_must_signal_demand_via_subscription_request(self) -> None:
        """§2.1: demand is signalled with Subscription.request."""

        def run(stage: WhiteboxTestStage[T]) -> None:
            stage.puppet().trigger_request(1)
            stage.expect_request()
            stage.signal_next()

        self.subscriber_test(run)

    def untested_spec202_should_asynchronously_dispatch(self) -> None:
        """§2.2 (untested)."""
        untested(f"§2.2 {_UNTESTED}")

    def required_spec203_must_not_call_methods_on_subscription_or_publisher_in_on_complete(self) -> None:
        """§2.3: on_complete calls neither request nor cancel (checked on the calling stack)."""
        env = self._env

        def run(stage: WhiteboxTestStage[T]) -> None:
            subs, deliver = spec203_scene(env, "on_complete")
            stage.probe = stage.create_whitebox_subscriber_probe(env)
            sub = self.create_subscriber(stage.probe)
            sub.on_subscribe(subs)
            deliver(sub)
            env.verify_no_async_errors_no_delay()

        self.subscriber_test_without_setup(run)

    def required_spec203_must_not_call_methods_on_subscription_or_publisher_in_on_error(self) -> None:
        """§2.3: on_error calls neither request nor cancel (checked on the calling stack)."""
        env = self._env

        def run(stage: WhiteboxTestStage[T]) -> None:
            subs, deliver = spec203_scene(env, "on_error")
            stage.probe = stage.create_whitebox_subscriber_probe(env)
            sub = self.create_subscriber(stage.probe)
            sub.on_subscribe(subs)
            deliver(sub)
            env.verify_no_async_errors_no_delay()

        self.subscriber_test_without_setup(run)

    def untested_spec204_must_consider_the_subscription_as_cancelled_in_after_recieving_on_complete_or_on_error(self) -> None:
        """§2.4 (untested)."""
        untested(f"§2.4 {_UNTESTED}")

    def required_spec205_must_call_subscription_cancel_if_it_already_has_an_subscription_and_receives_another_on_subscribe_signal(self) -> None:
        """§2.5: a second Subscription is cancelled."""
        env = self._env

        def run(stage: WhiteboxTestStage[T]) -> None:
            cancelled = Latch(env)
            stage.sub().on_subscribe(SecondSubscription(cancelled))
            cancelled.expect_close("Expected 2nd Subscription given to subscriber to be cancelled, "
                                   "but `Subscription.cancel()` was not called")
            env.verify_no_async_errors()

        self.subscriber_test(run)

    def untested_spec206_must_call_subscription_cancel_if_it_is_no_longer_valid(self) -> None:
        """§2.6 (untested)."""
        untested(f"§2.6 {_UNTESTED}")

    def untested_spec207_must_ensure_all_calls_on_its_subscription_take_place_from_the_same_thread_or_take_care_of_synchronization(self) -> None:
        """§2.7 (untested)."""
        untested(f"§2.7 {_UNTESTED}")

    def required_spec208_must_be_prepared_to_receive_on_next_signals_after_having_called_subscription_cancel(self) -> None:
        """§2.8: an on_next after cancel is accepted, and later requests do no harm."""

        def run(stage: WhiteboxTestStage[T]) -> None:
            stage.puppet().trigger_request(1)
            stage.expect_request()
            stage.puppet().signal_cancel()
            stage.expect_cancelling()
            stage.signal_next()
            stage.puppet().trigger_request(1)
            stage.puppet().trigger_request(1)
            stage.verify_no_async_errors()

        self.subscriber_test(run)

    def required_spec209_must_be_prepared_to_receive_an_on_complete_signal_with_preceding_request_call(self) -> None:
        """§2.9: on_complete after a request is received."""

        def run(stage: WhiteboxTestStage[T]) -> None:
            stage.puppet().trigger_request(1)
            stage.send_completion()
            stage.the_probe().expect_completion()
            stage.verify_no_async_errors()

        self.subscriber_test(run)

    def required_spec209_must_be_prepared_to_receive_an_on_complete_signal_without_preceding_request_call(self) -> None:
        """§2.9: on_complete without any request is received."""

        def run(stage: WhiteboxTestStage[T]) -> None:
            stage.send_completion()
            stage.the_probe().expect_completion()
            stage.verify_no_async_errors()

        self.subscriber_test(run)

    def required_spec210_must_be_prepared_to_receive_an_on_error_signal_with_preceding_request_call(self) -> None:
        """§2.10: on_error after requests is received."""
        env = self._env

        def run(stage: WhiteboxTestStage[T]) -> None:
            stage.puppet().trigger_request(1)
            stage.puppet().trigger_request(1)
            ex = TestException()
            stage.send_error(ex)
            stage.the_probe().expect_error(ex)
            env.verify_no_async_errors_no_delay()

        self.subscriber_test(run)

    def required_spec210_must_be_prepared_to_receive_an_on_error_signal_without_preceding_request_call(self) -> None:
        """§2.10: on_error without any request is received."""
        env = self._env

        def run(stage: WhiteboxTestStage[T]) -> None:
            ex = TestException()
            stage.send_error(ex)
            stage.the_probe().expect_error(ex)
            env.verify_no_async_errors_no_delay()

        self.subscriber_test(run)

    def untested_spec211_must_make_sure_that_all_calls_on_its_methods_happen_before_the_processing_of_the_respective_events(self) -> None:
        """§2.11 (untested)."""
        untested(f"§2.11 {_UNTESTED}")

    def untested_spec212_must_not_call_on_subscribe_more_than_once_based_on_object_equality_spec_violation(self) -> None:
        """§2.12 (untested)."""
        untested(f"§2.12 {_UNTESTED}")

    def untested_spec213_failing_on_signal_invocation(self) -> None:
        """§2.13 (untested): a failing signal method."""
        untested(f"§2.13 {_UNTESTED}")

    def required_spec213_on_subscribe_must_throw_null_pointer_exception_when_parameters_are_null(self) -> None:
        """§2.13: on_subscribe(None) raises TypeError."""
        env = self._env

        def run(stage: WhiteboxTestStage[T]) -> None:
            sub = stage.sub()
            expect_type_error(env, lambda: sub.on_subscribe(None), "on_subscribe(None)")  # type: ignore[arg-type]  # deliberately None: the §2.13 check

        self.subscriber_test(run)

    def required_spec213_on_next_must_throw_null_pointer_exception_when_parameters_are_null(self) -> None:
        """§2.13: on_next(None) raises TypeError."""
        env = self._env

        def run(stage: WhiteboxTestStage[T]) -> None:
            sub = stage.sub()
            expect_type_error(env, lambda: sub.on_next(None), "on_next(None)")  # type: ignore[arg-type]  # deliberately None: the §2.13 check

        self.subscriber_test(run)

    def required_spec213_on_error_must_throw_null_pointer_exception_when_parameters_are_null(self) -> None:
        """§2.13: on_error(None) raises TypeError."""
        env = self._env

        def run(stage: WhiteboxTestStage[T]) -> None:
            sub = stage.sub()
            expect_type_error(env, lambda: sub.on_error(None), "on_error(None)")  # type: ignore[arg-type]  # deliberately None: the §2.13 check

        self.subscriber_test(run)

    # ---- §3 Subscription, as the Subscriber uses it -------------------------------------------------

    def untested_spec301_must_not_be_called_outside_subscriber_context(self) -> None:
        """§3.1 (untested)."""
        untested(f"§3.1 {_UNTESTED}")

    def required_spec308_request_must_register_given_number_elements_to_be_produced(self) -> None:
        """§3.8: the triggered demand is what the Subscriber requests, and gets."""

        def run(stage: WhiteboxTestStage[T]) -> None:
            probe = stage.probe
            assert probe is not None
            stage.puppet().trigger_request(2)
            requested = stage.expect_request()
            probe.expect_next(stage.signal_next())
            if requested < 2:  # a Subscriber may ask for one element at a time
                stage.expect_request()
            probe.expect_next(stage.signal_next())
            probe.expect_none()
            stage.puppet().trigger_request(3)
            stage.verify_no_async_errors()

        self.subscriber_test(run)

    def untested_spec310_request_may_synchronously_call_on_next_on_subscriber(self) -> None:
        """§3.10 (untested)."""
        untested(f"§3.10 {_UNTESTED}")

    def untested_spec311_request_may_synchronously_call_on_complete_or_on_error(self) -> None:
        """§3.11 (untested)."""
        untested(f"§3.11 {_UNTESTED}")

    def untested_spec314_cancel_may_cause_the_publisher_to_shutdown_if_no_other_subscription_exists(self) -> None:
        """§3.14 (untested)."""
        untested(f"§3.14 {_UNTESTED}")

    def untested_spec315_cancel_must_not_throw_exception_and_must_signal_on_error(self) -> None:
        """§3.15 (untested)."""
        untested(f"§3.15 {_UNTESTED}")

    def untested_spec316_request_must_not_throw_exception_and_must_on_error_the_subscriber(self) -> None:
        """§3.16 (untested)."""
        untested(f"§3.16 {_UNTESTED}")
