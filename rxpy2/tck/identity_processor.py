"""IdentityProcessorVerification: a Processor obeys the Publisher rules, the Subscriber rules, and §4.

The Processor under test is an *identity* one: it passes every item from its
upstream to its downstream unchanged and can buffer ``buffer_size`` items
(:meth:`IdentityProcessorVerification.create_identity_processor`). The verification

* runs every rule of :class:`~rxpy2.tck.PublisherVerification` on it, with
  ``create_publisher(n)`` = a new Processor subscribed to a helper Publisher of
  ``n`` elements (§4.1: a Processor is a Publisher);
* runs every rule of :class:`~rxpy2.tck.SubscriberWhiteboxVerification` on it,
  the probe being a Subscriber of the Processor's output (§4.1: a Processor is
  a Subscriber);
* adds the Processor's own rules: errors from upstream reach every downstream
  Subscriber, demand of a Subscriber that requested long ago reaches upstream.

Names and classification are those of the official ``IdentityProcessorVerification``
1.0.4 in snake_case; the official's unprefixed ``mustImmediatelyPassOnOnErrorEvents...``
test (which must pass there) is ``required_must_immediately_pass_on_on_error_events_...``
here, since every rule carries its classification in its name.
"""

from __future__ import annotations

import types
from collections.abc import Callable
from typing import TYPE_CHECKING
from typing import Any
from typing import Generic
from typing import TypeVar

from rxpy2.reactivestreams import LONG_MAX
from rxpy2.reactivestreams import Processor
from rxpy2.reactivestreams import Publisher
from rxpy2.reactivestreams import Subscriber
from rxpy2.reactivestreams import Subscription
from rxpy2.tck.environment import TEST_BUFFER_SIZE
from rxpy2.tck.environment import ManualPublisher
from rxpy2.tck.environment import ManualSubscriber
from rxpy2.tck.environment import ManualSubscriberWithSubscriptionSupport
from rxpy2.tck.environment import Promise
from rxpy2.tck.environment import TestEnvironment
from rxpy2.tck.operators import SubscriptionPuppet
from rxpy2.tck.publisher import PublisherVerification
from rxpy2.tck.subscriber_common import HelperFedVerification
from rxpy2.tck.subscriber_whitebox import SubscriberWhiteboxVerification
from rxpy2.tck.subscriber_whitebox import WhiteboxSubscriberProbe
from rxpy2.tck.support import not_verified

__all__ = [
    "IdentityProcessorVerification",
    "ManualSubscriberWithErrorCollection",
    "ProcessorTestSetup",
]

T = TypeVar("T")

_COORDINATION_HINT = (
    "If the Processor coordinates requests/emissions when having multiple Subscribers at once, "
    "please override does_coordinated_emission() to return True in this "
    "IdentityProcessorVerification to allow this test to pass.")


# ---- the delegates: a Processor "is a" Publisher and "is a" Subscriber ---------------------------


class _ProcessorAsPublisher(PublisherVerification[T], Generic[T]):
    """The PublisherVerification the publisher rules are delegated to."""

    __test__ = False

    def __init__(self, outer: IdentityProcessorVerification[T]) -> None:
        self._outer = outer

    def create_environment(self) -> TestEnvironment:
        return self._outer._env

    def create_publisher(self, elements: int) -> Publisher[T]:
        return self._outer.create_publisher(elements)

    def create_failed_publisher(self) -> Publisher[T] | None:
        return self._outer.create_failed_publisher()

    def max_elements_from_publisher(self) -> int:
        return self._outer.max_elements_from_publisher()

    def bounded_depth_of_on_next_and_request_recursion(self) -> int:
        return self._outer.bounded_depth_of_on_next_and_request_recursion()

    def skip_stochastic_tests(self) -> bool:
        return self._outer.skip_stochastic_tests()

    def reference_gc_timeout_ms(self) -> float:
        v = self._outer.publisher_reference_gc_timeout_ms
        if v is not None:
            return v
        return super().reference_gc_timeout_ms()


class _ProcessorAsSubscriber(SubscriberWhiteboxVerification[T], Generic[T]):
    """The SubscriberWhiteboxVerification the subscriber rules are delegated to."""

    __test__ = False

    def __init__(self, outer: IdentityProcessorVerification[T]) -> None:
        self._outer = outer

    def create_environment(self) -> TestEnvironment:
        return self._outer._env

    def create_subscriber(self, probe: WhiteboxSubscriberProbe[T]) -> Subscriber[T]:
        return self._outer.create_subscriber(probe)

    def create_element(self, element: int) -> T:
        return self._outer.create_element(element)

    def create_helper_publisher(self, elements: int) -> Publisher[T]:
        return self._outer.create_helper_publisher(elements)


def _delegate(target: str, name: str, doc: str | None) -> Callable[[Any], None]:
    def rule(self: IdentityProcessorVerification[Any]) -> None:
        getattr(getattr(self, target)(), name)()

    rule.__name__ = name
    rule.__qualname__ = f"IdentityProcessorVerification.{name}"
    rule.__doc__ = doc
    return rule


def _delegated_rules() -> dict[str, Any]:
    ns: dict[str, Any] = {"__test__": False, "__module__": __name__,
                          "__doc__": "The publisher and subscriber rules, delegated."}
    for name in PublisherVerification.rule_names():
        ns[name] = _delegate("publisher_verification", name,
                             getattr(PublisherVerification, name).__doc__)
    for name in SubscriberWhiteboxVerification.rule_names():
        ns[name] = _delegate("subscriber_verification", name,
                             getattr(SubscriberWhiteboxVerification, name).__doc__)
    return ns


# Built with types.new_class() so that Verification.__init_subclass__ sees the delegated rules in
# the class namespace and gives each its pytest alias, as for rules written out by hand (and so
# that the class stays generic in T, as the HelperFedVerification it extends).
if TYPE_CHECKING:
    _DelegatedProcessorRules = HelperFedVerification
else:
    _DelegatedProcessorRules = types.new_class("_DelegatedProcessorRules", (HelperFedVerification[T],),
                                               exec_body=lambda ns: ns.update(_delegated_rules()))


# ---- the processor's own set-up ---------------------------------------------------------------


class ManualSubscriberWithErrorCollection(ManualSubscriberWithSubscriptionSupport[T], Generic[T]):
    """A ManualSubscriber that keeps the error it receives (instead of flopping it)."""

    def __init__(self, env: TestEnvironment) -> None:
        super().__init__(env)
        self.error: Promise[BaseException] = Promise(env)

    def on_error(self, error: BaseException) -> None:
        """Keep ``error`` in :attr:`error` for :meth:`expect_error` (a second error flops)."""
        self.error.complete(error)

    def expect_error(self, cause: Any, timeout_ms: Any = None, msg: str | None = None,
                     poll_timeout_ms: float | None = None) -> Any:
        """Wait for ``on_error``; the error must equal ``cause``. Returns it."""
        timeout = self.env.default_timeout_ms if timeout_ms is None else timeout_ms
        self.error.expect_completion(timeout, "Did not receive expected error on downstream")
        got = self.error.value()
        if got != cause:
            self.env.flop(f"Expected error {cause!r} but got {got!r}")
        return got


class ProcessorTestSetup(ManualPublisher[T], Generic[T]):
    """A Processor under test subscribed to a ManualPublisher (this object), plus a supply of
    distinct elements to send through it."""

    def __init__(self, verification: IdentityProcessorVerification[T], env: TestEnvironment,
                 buffer_size: int) -> None:
        super().__init__(env)
        self.verification = verification
        self._tees: ManualSubscriber[T] = env.new_manual_subscriber(
            verification.create_helper_publisher(LONG_MAX))
        self._seen: list[T] = []
        self.processor: Processor[T, T] = verification._checked_processor(buffer_size)
        self.subscribe(self.processor)

    def new_subscriber(self) -> ManualSubscriber[T]:
        """A new ManualSubscriber of the Processor (subscribed, nothing requested)."""
        return self.env.new_manual_subscriber(self.processor)

    def next_t(self) -> T:
        """Return the next element of the helper publisher, to send through the Processor; flop if it repeats one."""
        t = self._tees.request_next_element()
        if t in self._seen:
            self.env.flop(f"Helper publisher illegally produced the same element {t!r} twice")
        self._seen.append(t)
        return t

    def expect_next_element(self, sub: ManualSubscriber[T], expected: T,
                            error_message_addendum: str | None = None) -> None:
        """Wait for the next item of ``sub``; flop unless it equals ``expected`` (flop and raise on timeout)."""
        msg = f"timeout while awaiting {expected!r}"
        if error_message_addendum:
            msg = f"{msg}. {error_message_addendum}"
        elem = sub.next_element(msg)
        if elem != expected:
            self.env.flop(f"Received `on_next({elem!r})` on downstream but expected `on_next({expected!r})`")

    def send_next_t_from_upstream(self) -> T:
        """Send :meth:`next_t` to the Processor as its upstream, ignoring demand, and return it."""
        x = self.next_t()
        self.send_next(x)
        return x


class _ProbeSubscriber(Subscriber[T], Generic[T]):
    """The downstream of the Processor in the subscriber rules: reports to the probe."""

    def __init__(self, env: TestEnvironment, probe: WhiteboxSubscriberProbe[T]) -> None:
        self._env = env
        self._probe = probe
        self._subscription: Subscription | None = None

    def on_subscribe(self, subscription: Subscription) -> None:
        self._env.debug(f"whitebox_subscriber.on_subscribe({subscription!r})")
        if self._subscription is not None:
            subscription.cancel()  # §2.5: this probe must pass the subscriber rules too
            return
        self._subscription = subscription
        self._probe.register_on_subscribe(SubscriptionPuppet(subscription))

    def on_next(self, item: T) -> None:
        self._env.debug(f"whitebox_subscriber.on_next({item!r})")
        self._probe.register_on_next(item)

    def on_error(self, error: BaseException) -> None:
        self._env.debug(f"whitebox_subscriber.on_error({error!r})")
        self._probe.register_on_error(error)

    def on_complete(self) -> None:
        self._env.debug("whitebox_subscriber.on_complete()")
        self._probe.register_on_complete()


# ---- the verification ------------------------------------------------------------------------


class IdentityProcessorVerification(_DelegatedProcessorRules[T], Generic[T]):
    """Verifies an identity Processor (subclass it; see the module doc)."""

    __test__ = False

    #: How many items the Processor must be able to buffer (``create_identity_processor``'s argument).
    processor_buffer_size: int = TEST_BUFFER_SIZE
    #: As :attr:`PublisherVerification.publisher_reference_gc_timeout_ms` (§3.13).
    publisher_reference_gc_timeout_ms: float | None = None

    # ---- what a subclass provides ------------------------------------------------------------

    def create_identity_processor(self, buffer_size: int) -> Processor[T, T]:
        """A new Processor that passes every item on unchanged and can buffer ``buffer_size``."""
        raise NotImplementedError(
            f"{type(self).__name__} must implement create_identity_processor(buffer_size)")

    def create_failed_publisher(self) -> Publisher[T] | None:
        """A Publisher that signals ``on_subscribe`` then ``on_error`` (§1.9), e.g. a Processor
        that received ``on_error``; None (default) skips the rules that need one."""
        return None

    def max_elements_from_publisher(self) -> int:
        """As :meth:`PublisherVerification.max_elements_from_publisher` (default ``LONG_MAX - 1``)."""
        return LONG_MAX - 1

    def bounded_depth_of_on_next_and_request_recursion(self) -> int:
        """As :meth:`PublisherVerification.bounded_depth_of_on_next_and_request_recursion` (§3.3)."""
        return 1

    def skip_stochastic_tests(self) -> bool:
        """Return True to skip the ``stochastic_`` rules."""
        return False

    def max_supported_subscribers(self) -> int:
        """How many Subscribers the Processor serves at once (default: unbounded). The rules
        that need more are skipped with the reason."""
        return LONG_MAX

    def does_coordinated_emission(self) -> bool:
        """Return True when the Processor emits an item only once every Subscriber requested it."""
        return False

    # ---- the Processor seen as a Publisher and as a Subscriber ----------------------------------

    def create_publisher(self, elements: int) -> Publisher[T]:
        """A new Processor fed by a helper Publisher of ``elements`` items (§4.1)."""
        processor = self._checked_processor(self.processor_buffer_size)
        self.create_helper_publisher(elements).subscribe(processor)
        return processor

    def create_subscriber(self, probe: WhiteboxSubscriberProbe[T]) -> Subscriber[T]:
        """A new Processor whose output goes to a Subscriber that reports to ``probe`` (§4.1)."""
        processor = self._checked_processor(self.processor_buffer_size)
        processor.subscribe(_ProbeSubscriber(self._env, probe))
        return processor

    def _checked_processor(self, buffer_size: int) -> Processor[T, T]:
        processor = self.create_identity_processor(buffer_size)
        if processor is None:
            raise AssertionError(f"create_identity_processor({buffer_size}) returned None")
        return processor

    # ---- lifecycle -----------------------------------------------------------------------------

    def publisher_verification(self) -> PublisherVerification[T]:
        """The PublisherVerification the publisher rules are delegated to."""
        d = self.__dict__.get("_rxpy2_tck_publisher_verification")
        if d is None:
            d = self.__dict__["_rxpy2_tck_publisher_verification"] = _ProcessorAsPublisher(self)
        d.env = self._env
        return d

    def subscriber_verification(self) -> SubscriberWhiteboxVerification[T]:
        """The SubscriberWhiteboxVerification the subscriber rules are delegated to."""
        d = self.__dict__.get("_rxpy2_tck_subscriber_verification")
        if d is None:
            d = self.__dict__["_rxpy2_tck_subscriber_verification"] = _ProcessorAsSubscriber(self)
        d.env = self._env
        return d

    def setup_method(self, method: Any = None) -> None:
        """Before each rule: set up this verification and the publisher and subscriber verifications it delegates to."""
        super().setup_method(method)
        self.publisher_verification().setup_method(method)
        self.subscriber_verification().setup_method(method)

    def teardown_method(self, method: Any = None) -> None:
        """Cancel every helper stream the rule started."""
        try:
            self.subscriber_verification().teardown_method(method)
            self.publisher_verification().teardown_method(method)
        finally:
            super().teardown_method(method)  # cancels every helper stream the rule started

    # ---- running a rule ------------------------------------------------------------------------

    def run_optional_multiple_subscribers_test(self, required_subscribers: int,
                                               body: Callable[[int], None]) -> None:
        """Run ``body(required_subscribers)`` unless the Processor serves fewer Subscribers
        (then the rule is skipped with the reason)."""
        if required_subscribers > self.max_supported_subscribers():
            not_verified(f"The Publisher under test only supports {self.max_supported_subscribers()} "
                         f"subscribers, while this test requires at least {required_subscribers} to run.")
        body(required_subscribers)

    # ---- §4 Processor ----------------------------------------------------------------------------

    def required_spec104_must_call_on_error_on_all_its_subscribers_if_it_encounters_a_non_recoverable_error(self) -> None:
        """§1.4/§4.1: an error from upstream reaches each of two Subscribers, whatever they requested."""
        env = self._env

        def body(_: int) -> None:
            setup: ProcessorTestSetup[T] = ProcessorTestSetup(self, env, self.processor_buffer_size)
            sub1: ManualSubscriberWithErrorCollection[T] = ManualSubscriberWithErrorCollection(env)
            env.subscribe(setup.processor, sub1)
            sub2: ManualSubscriberWithErrorCollection[T] = ManualSubscriberWithErrorCollection(env)
            env.subscribe(setup.processor, sub2)
            ex = RuntimeError("Test exception")
            if self.does_coordinated_emission():
                sub1.request(1)
                sub2.request(1)
                setup.expect_request()
                x = setup.send_next_t_from_upstream()
                setup.expect_next_element(sub1, x)
                setup.expect_next_element(sub2, x)
                sub1.request(1)
                sub2.request(1)
            else:
                sub1.request(1)
                setup.expect_request(env.default_timeout_ms, _COORDINATION_HINT)
                x = setup.send_next_t_from_upstream()
                setup.expect_next_element(sub1, x, _COORDINATION_HINT)
                sub1.request(1)
                # sub1 got one element and has one more requested; sub2 requested nothing
            setup.send_error(ex)
            sub1.expect_error(ex)
            sub2.expect_error(ex)
            env.verify_no_async_errors_no_delay()

        self.run_optional_multiple_subscribers_test(2, body)

    def required_must_immediately_pass_on_on_error_events_received_from_its_upstream_to_its_downstream(self) -> None:
        """§4.1: an error from upstream reaches the Subscriber without any request first."""
        env = self._env
        setup: ProcessorTestSetup[T] = ProcessorTestSetup(self, env, self.processor_buffer_size)
        sub: ManualSubscriberWithErrorCollection[T] = ManualSubscriberWithErrorCollection(env)
        env.subscribe(setup.processor, sub)
        ex = RuntimeError("Test exception")
        setup.send_error(ex)
        sub.expect_error(ex)  # "immediately": nothing was requested
        env.verify_no_async_errors_no_delay()

    def required_must_request_from_upstream_for_elements_that_have_been_requested_long_ago(self) -> None:
        """§2.1 with two Subscribers: what a Subscriber requested long ago is still requested
        upstream and delivered, whatever the other Subscriber does."""
        env = self._env

        def body(_: int) -> None:
            setup: ProcessorTestSetup[T] = ProcessorTestSetup(self, env, self.processor_buffer_size)
            sub1 = setup.new_subscriber()
            sub1.request(20)
            total_requests = setup.expect_request()
            x = setup.send_next_t_from_upstream()
            setup.expect_next_element(sub1, x)
            if total_requests == 1:
                total_requests += setup.expect_request()
            y = setup.send_next_t_from_upstream()
            setup.expect_next_element(sub1, y)
            if total_requests == 2:
                total_requests += setup.expect_request()

            sub2 = setup.new_subscriber()
            # sub1 has 18 requested and pending, sub2 nothing
            if self.does_coordinated_emission():
                sub2.expect_none()  # sub2 requested nothing yet
                sub2.request(1)
                z = setup.send_next_t_from_upstream()
                setup.expect_next_element(sub1, z)
                setup.expect_next_element(sub2, z)
            else:
                z = setup.send_next_t_from_upstream()
                setup.expect_next_element(sub1, z, _COORDINATION_HINT)
                sub2.expect_none()  # sub2 requested nothing yet
                sub2.request(1)
                setup.expect_next_element(sub2, z)
            if total_requests == 3:
                setup.expect_request()

            # end the streams so that nothing is left running
            setup.send_completion()
            sub1.expect_completion(env.default_timeout_ms)
            sub2.expect_completion(env.default_timeout_ms)
            env.verify_no_async_errors_no_delay()

        self.run_optional_multiple_subscribers_test(2, body)
