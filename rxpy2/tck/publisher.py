"""PublisherVerification: the Publisher rules (§1, and §3 as seen from a Publisher) of the TCK.

A subclass provides :meth:`PublisherVerification.create_publisher` (a stream of
exactly ``elements`` items; ``LONG_MAX`` means infinite) and, optionally,
:meth:`PublisherVerification.create_failed_publisher` (a Publisher that signals
``on_subscribe`` then ``on_error``; ``None`` skips the rules that need one).
Every rule of the official ``PublisherVerification`` 1.0.4 is here under its
snake_case name, with the same classification:

* ``required_``: must pass;
* ``optional_``: a failure becomes a skip that carries the reason;
* ``stochastic_``: run many times, may miss a rare violation; skipped when
  :meth:`PublisherVerification.skip_stochastic_tests` returns True;
* ``untested_``: the TCK has no test for the rule; always skipped, "untested: ...".

Python stands in for Java as rxpy2 does everywhere: ``TypeError`` for
``NullPointerException`` (``subscribe(None)``, §1.9), ``ValueError`` for
``IllegalArgumentException`` (``request(n <= 0)``, §3.9), ``LONG_MAX`` for
``Long.MAX_VALUE`` (§3.17). Only the four interfaces of
:mod:`rxpy2.reactivestreams` are used.
"""

from __future__ import annotations

import gc
import os
import random
import threading
import time
import weakref
from collections.abc import Callable
from typing import Any
from typing import Generic
from typing import TypeVar

from rxpy2.reactivestreams import LONG_MAX
from rxpy2.reactivestreams import Publisher
from rxpy2.reactivestreams import Subscriber
from rxpy2.reactivestreams import Subscription
from rxpy2.tck.environment import BlackholeSubscriberWithSubscriptionSupport
from rxpy2.tck.environment import Latch
from rxpy2.tck.environment import ManualSubscriber
from rxpy2.tck.environment import ManualSubscriberWithSubscriptionSupport
from rxpy2.tck.environment import TestEnvironment
from rxpy2.tck.environment import TestSubscriber
from rxpy2.tck.support import SkipRule
from rxpy2.tck.support import is_skip
from rxpy2.tck.support import not_verified
from rxpy2.tck.support import untested
from rxpy2.tck.verification import Verification

__all__ = [
    "DEFAULT_PUBLISHER_REFERENCE_GC_TIMEOUT_MS",
    "ENV_PUBLISHER_REFERENCE_GC_TIMEOUT_MS",
    "PublisherVerification",
    "SKIPPING_NO_ERROR_PUBLISHER_AVAILABLE",
    "SKIPPING_OPTIONAL_TEST_FAILED",
]

T = TypeVar("T")

#: Java's Integer.MAX_VALUE: the length of the "practically endless" stream of the §3.17 overflow rule.
INT_MAX = 2**31 - 1

ENV_PUBLISHER_REFERENCE_GC_TIMEOUT_MS = "RXPY2_TCK_PUBLISHER_REFERENCE_GC_TIMEOUT_MS"
DEFAULT_PUBLISHER_REFERENCE_GC_TIMEOUT_MS = 300

SKIPPING_NO_ERROR_PUBLISHER_AVAILABLE = (
    "Skipping because no error state Publisher provided, and the test requires it. "
    "Implement PublisherVerification.create_failed_publisher to run this test.")
SKIPPING_OPTIONAL_TEST_FAILED = (
    "Skipping, because provided Publisher does not pass this *additional* verification.")
_OPTIONAL_NOT_IMPLEMENTED = (
    "Skipped because tested publisher does NOT implement this OPTIONAL requirement.")

PublisherTestRun = Callable[[Publisher[Any]], None]


def _assert_true(condition: bool, msg: str) -> None:
    if not condition:
        raise AssertionError(msg)


def _assert_equals(actual: Any, expected: Any, msg: str) -> None:
    if actual != expected:
        raise AssertionError(f"{msg}: {actual!r} != {expected!r}")


class _ConcurrentAccessBarrier:
    """Detects two signals running at once on different threads (§1.3).

    A synchronous Publisher may signal from inside a signal on the same thread
    (``on_next`` from ``request`` called in ``on_subscribe``): that nesting is not
    concurrent access and is let through.
    """

    def __init__(self, env: TestEnvironment) -> None:
        self.env = env
        self._lock = threading.Lock()
        self._current: threading.Thread | None = None
        self._previous: str | None = None

    def enter(self, signal: str) -> None:
        me = threading.current_thread()
        with self._lock:
            current = self._current
            if current is None:
                self._current = me
                ok = True
            else:
                ok = self._previous is not None and current is me
        if not ok:
            self.env.flop(
                "Illegal concurrent access detected (entering critical section)! "
                f"{me.name} emitted {signal} signal, before {getattr(current, 'name', current)} "
                f"finished its {self._previous} signal.")
        self._previous = signal

    def leave(self, signal: str) -> None:
        with self._lock:
            self._current = None
        self._previous = signal


class PublisherVerification(Verification, Generic[T]):
    """Verifies a Publisher against the Publisher rules (subclass it; see the module doc)."""

    __test__ = False

    #: How long (ms) a Publisher may keep a cancelled Subscriber reachable (§3.13);
    #: ``None``: ``RXPY2_TCK_PUBLISHER_REFERENCE_GC_TIMEOUT_MS`` or 300.
    publisher_reference_gc_timeout_ms: float | None = None

    # ---- what a subclass provides ------------------------------------------------------------

    def create_publisher(self, elements: int) -> Publisher[T]:
        """A Publisher of exactly ``elements`` items (``LONG_MAX``: an infinite stream)."""
        raise NotImplementedError(f"{type(self).__name__} must implement create_publisher(elements)")

    def create_failed_publisher(self) -> Publisher[T] | None:
        """A Publisher that signals ``on_subscribe`` then ``on_error`` (§1.9), or None to
        skip the rules that need one."""
        return None

    def max_elements_from_publisher(self) -> int:
        """The most items the Publisher can produce; ``LONG_MAX - 1`` (default) means "huge but
        finite"; :meth:`publisher_unable_to_signal_on_complete` (``LONG_MAX``) means it never
        completes, which skips every rule that needs ``on_complete``."""
        return LONG_MAX - 1

    def skip_stochastic_tests(self) -> bool:
        """Return True to skip the ``stochastic_`` rules."""
        return False

    def bounded_depth_of_on_next_and_request_recursion(self) -> int:
        """How deep ``request`` → ``on_next`` → ``request`` ... may nest on one stack (§3.3)."""
        return 1

    def publisher_unable_to_signal_on_complete(self) -> int:
        """The value of :meth:`max_elements_from_publisher` for a Publisher that never completes."""
        return LONG_MAX

    def reference_gc_timeout_ms(self) -> float:
        """Return how long (ms) a cancelled Subscriber may stay reachable from the Publisher (§3.13).

        :attr:`publisher_reference_gc_timeout_ms` when set, else ``RXPY2_TCK_PUBLISHER_REFERENCE_GC_TIMEOUT_MS``,
        else 300; an unparsable environment value raises ``ValueError``.
        """
        v = self.publisher_reference_gc_timeout_ms
        if v is not None:
            return v
        raw = os.environ.get(ENV_PUBLISHER_REFERENCE_GC_TIMEOUT_MS)
        if raw is None or not raw.strip():
            return DEFAULT_PUBLISHER_REFERENCE_GC_TIMEOUT_MS
        try:
            return float(raw)
        except ValueError:
            raise ValueError(f"Unable to parse the {ENV_PUBLISHER_REFERENCE_GC_TIMEOUT_MS} "
                             f"environment value {raw!r} as milliseconds") from None

    # ---- running a rule ------------------------------------------------------------------------

    def _checked_publisher(self, elements: int) -> Publisher[T]:
        pub = self.create_publisher(elements)
        if pub is None:
            raise AssertionError(f"create_publisher({elements}) returned None")
        return pub

    def _preconditions(self, elements: int, completion_signal_required: bool) -> None:
        max_elements = self.max_elements_from_publisher()
        if elements > max_elements:
            raise SkipRule(f"Unable to run this test, as required elements nr: {elements} is higher "
                           f"than supported by given producer: {max_elements}")
        if completion_signal_required and max_elements == LONG_MAX:
            raise SkipRule("Unable to run this test, as it requires an on_complete signal, which this "
                           "Publisher is unable to provide (as signalled by returning LONG_MAX from "
                           "max_elements_from_publisher())")

    def active_publisher_test(self, elements: int, completion_signal_required: bool,
                              body: PublisherTestRun) -> None:
        """Run ``body`` on ``create_publisher(elements)``, then check for async errors.

        Skipped when the Publisher cannot produce ``elements`` items, or cannot
        complete and ``completion_signal_required``.
        """
        self._preconditions(elements, completion_signal_required)
        body(self._checked_publisher(elements))
        self._env.verify_no_async_errors_no_delay()

    def optional_active_publisher_test(self, elements: int, completion_signal_required: bool,
                                       body: PublisherTestRun) -> None:
        """As :meth:`active_publisher_test`, for a MAY rule: a failure becomes a skip with the reason."""
        self._preconditions(elements, completion_signal_required)
        pub = self._checked_publisher(elements)
        try:
            self.potentially_pending_test(pub, body)
        except SkipRule:
            raise
        except AssertionError as e:
            not_verified(f"{_OPTIONAL_NOT_IMPLEMENTED} Reason for skipping was: {e}")
        except Exception as e:
            not_verified(f"{_OPTIONAL_NOT_IMPLEMENTED} Reason for skipping was: "
                         f"{type(e).__name__}: {e}")

    def when_has_error_publisher_test(self, body: PublisherTestRun) -> None:
        """Run ``body`` on :meth:`create_failed_publisher`; skipped when that returns None."""
        self.potentially_pending_test(self.create_failed_publisher(), body,
                                      SKIPPING_NO_ERROR_PUBLISHER_AVAILABLE)

    def potentially_pending_test(self, pub: Publisher[T] | None, body: PublisherTestRun,
                                 message: str = SKIPPING_OPTIONAL_TEST_FAILED) -> None:
        """Run ``body(pub)``, or raise :class:`SkipRule` with ``message`` when ``pub`` is None."""
        if pub is None:
            raise SkipRule(message)
        body(pub)

    def stochastic_test(self, n: int, body: Callable[[int], None]) -> None:
        """Run ``body(i)`` for ``i`` in ``range(n)``; all runs must pass."""
        if self.skip_stochastic_tests():
            not_verified("Skipping @Stochastic test because skip_stochastic_tests() returned True!")
        for i in range(n):
            body(i)

    # ---- set-up checks -------------------------------------------------------------------------

    def required_create_publisher1_must_produce_a_stream_of_exactly1_element(self) -> None:
        """create_publisher(1) gives one item, then completion."""
        env = self._env

        def run(pub: Publisher[T]) -> None:
            sub = env.new_manual_subscriber(pub)
            got = sub.request_next_element_or_end_of_stream(
                f"Timeout while waiting for next element from Publisher {pub!r}")
            _assert_true(got is not None, f"Publisher {pub!r} produced no elements")
            sub.request_end_of_stream()

        self.active_publisher_test(1, True, run)

    def required_create_publisher3_must_produce_a_stream_of_exactly3_elements(self) -> None:
        """create_publisher(3) gives three items, then completion."""
        env = self._env

        def run(pub: Publisher[T]) -> None:
            sub = env.new_manual_subscriber(pub)
            for produced in ("no elements", "only 1 element", "only 2 elements"):
                got = sub.request_next_element_or_end_of_stream(
                    f"Timeout while waiting for next element from Publisher {pub!r}")
                _assert_true(got is not None, f"Publisher {pub!r} produced {produced}")
            sub.request_end_of_stream()

        self.active_publisher_test(3, True, run)

    def required_validate_max_elements_from_publisher(self) -> None:
        """max_elements_from_publisher() is >= 0."""
        _assert_true(self.max_elements_from_publisher() >= 0,
                     "max_elements_from_publisher MUST return a number >= 0")

    def required_validate_bounded_depth_of_on_next_and_request_recursion(self) -> None:
        """bounded_depth_of_on_next_and_request_recursion() is >= 1."""
        _assert_true(self.bounded_depth_of_on_next_and_request_recursion() >= 1,
                     "bounded_depth_of_on_next_and_request_recursion must return a number >= 1")

    # ---- §1 Publisher --------------------------------------------------------------------------

    def required_spec101_subscription_request_must_result_in_the_correct_number_of_produced_elements(self) -> None:
        """§1.1: no more items than requested, and the requested ones arrive."""
        env = self._env

        def run(pub: Publisher[T]) -> None:
            sub = env.new_manual_subscriber(pub)
            try:
                sub.expect_none(f"Publisher {pub!r} produced value before the first `request`: ")
                sub.request(1)
                sub.next_element(f"Publisher {pub!r} produced no element after first `request`")
                sub.expect_none(f"Publisher {pub!r} produced unrequested: ")
                sub.request(1)
                sub.request(2)
                sub.next_elements(3, env.default_timeout_ms,
                                  f"Publisher {pub!r} produced less than 3 elements after two "
                                  "respective `request` calls")
                sub.expect_none(f"Publisher {pub!r} produced unrequested ")
            finally:
                sub.cancel()

        self.active_publisher_test(5, False, run)

    def required_spec102_may_signal_less_than_requested_and_terminate_subscription(self) -> None:
        """§1.2: a stream shorter than the demand ends with on_complete."""
        env = self._env
        elements, requested = 3, 10

        def run(pub: Publisher[T]) -> None:
            sub = env.new_manual_subscriber(pub)
            sub.request(requested)
            sub.next_elements(elements)
            sub.expect_completion()

        self.active_publisher_test(elements, True, run)

    def stochastic_spec103_must_signal_on_methods_sequentially(self) -> None:
        """§1.3: signals never overlap (100 runs of a 10-item stream, requesting one by one)."""
        env = self._env
        iterations, elements = 100, 10

        def one_run(run_number: int) -> None:
            def run(pub: Publisher[T]) -> None:
                completion = Latch(env)
                barrier = _ConcurrentAccessBarrier(env)
                counter_lock = threading.Lock()
                got = [0]
                holder: list[Subscription] = []

                class SequentialProbe(Subscriber[Any]):
                    def on_subscribe(self, s: Subscription) -> None:
                        barrier.enter("on_subscribe()")
                        holder.append(s)
                        s.request(1)
                        barrier.leave("on_subscribe()")

                    def on_next(self, item: Any) -> None:
                        signal = f"on_next({item!r})"
                        barrier.enter(signal)
                        with counter_lock:
                            got[0] += 1
                            more = got[0] <= elements  # one more than the stream holds
                        if more:
                            holder[0].request(1)
                        barrier.leave(signal)

                    def on_error(self, error: BaseException) -> None:
                        signal = f"on_error({error!r})"
                        barrier.enter(signal)
                        barrier.leave(signal)

                    def on_complete(self) -> None:
                        barrier.enter("on_complete()")
                        barrier.leave("on_complete()")
                        completion.close()

                pub.subscribe(SequentialProbe())
                completion.expect_close(
                    elements * env.default_timeout_ms,
                    f"Failed in iteration {run_number} of {iterations}. Expected completion signal "
                    f"after signalling {elements} elements (signalled {got[0]}), yet did not receive it")

            self.active_publisher_test(elements, True, run)

        self.stochastic_test(iterations, one_run)

    def optional_spec104_must_signal_on_error_when_fails(self) -> None:
        """§1.4: a failed Publisher signals on_error (after on_subscribe), once."""
        env = self._env

        def run(pub: Publisher[T]) -> None:
            on_error_latch = Latch(env)
            on_subscribe_latch = Latch(env)

            class FailureProbe(TestSubscriber[Any]):
                def on_subscribe(self, subscription: Subscription) -> None:
                    on_subscribe_latch.assert_open("Only one on_subscribe call expected")
                    on_subscribe_latch.close()

                def on_error(self, error: BaseException) -> None:
                    on_subscribe_latch.assert_closed("on_subscribe should be called prior to on_error always")
                    on_error_latch.assert_open(
                        f"Error-state Publisher {pub!r} called `on_error` twice on new Subscriber")
                    on_error_latch.close()

            pub.subscribe(FailureProbe(env))
            on_subscribe_latch.expect_close("Should have received on_subscribe")
            on_error_latch.expect_close(
                f"Error-state Publisher {pub!r} did not call `on_error` on new Subscriber")
            env.verify_no_async_errors()

        try:
            self.when_has_error_publisher_test(run)
        except (KeyboardInterrupt, SystemExit):
            raise
        except BaseException as e:  # pytest's outcomes are BaseExceptions; fatal ones re-raised above
            if is_skip(e):
                raise
            # an assertion, or anything the Publisher raised from subscribe instead of signalling it
            raise AssertionError(f"Publisher threw exception ({type(e).__name__}: {e}) instead of "
                                 "signalling error via on_error!") from e

    def required_spec105_must_signal_on_complete_when_finite_stream_terminates(self) -> None:
        """§1.5: a finite stream ends with on_complete."""
        env = self._env

        def run(pub: Publisher[T]) -> None:
            sub = env.new_manual_subscriber(pub)
            sub.request_next_element()
            sub.request_next_element()
            sub.request_next_element()
            sub.request_end_of_stream()
            sub.expect_none()

        self.active_publisher_test(3, True, run)

    def optional_spec105_empty_stream_must_terminate_by_signalling_on_complete(self) -> None:
        """§1.5: an empty stream ends with on_complete."""
        env = self._env

        def run(pub: Publisher[T]) -> None:
            sub = env.new_manual_subscriber(pub)
            sub.request(1)
            sub.expect_completion()
            sub.expect_none()

        self.optional_active_publisher_test(0, True, run)

    def untested_spec106_must_consider_subscription_cancelled_after_on_error_or_on_complete_has_been_called(self) -> None:
        """§1.6 (untested)."""
        untested("§1.6 is not testable without more control over the Publisher")

    def required_spec107_must_not_emit_further_signals_once_on_complete_has_been_signalled(self) -> None:
        """§1.7: nothing after on_complete, even when more is requested."""
        env = self._env

        def run(pub: Publisher[T]) -> None:
            sub = env.new_manual_subscriber(pub)
            sub.request(10)
            sub.next_element()
            sub.expect_completion()
            sub.request(10)
            sub.expect_none()

        self.active_publisher_test(1, True, run)

    def untested_spec107_must_not_emit_further_signals_once_on_error_has_been_signalled(self) -> None:
        """§1.7 after on_error (untested)."""
        untested("§1.7 after on_error is not testable without more control over the Publisher")

    def untested_spec108_possibly_canceled_subscription_should_not_receive_on_error_or_on_complete_signals(self) -> None:
        """§1.8 (untested)."""
        untested("§1.8 cannot be tested meaningfully from outside the Publisher")

    def required_spec109_must_issue_on_subscribe_for_non_null_subscriber(self) -> None:
        """§1.9: subscribe calls on_subscribe, before any other signal, once."""
        env = self._env

        def run(pub: Publisher[T]) -> None:
            on_subscribe_latch = Latch(env)
            received: list[Subscription] = []

            class OnSubscribeProbe(Subscriber[Any]):
                def on_error(self, error: BaseException) -> None:
                    on_subscribe_latch.assert_closed("on_subscribe should be called prior to on_error always")

                def on_subscribe(self, subscription: Subscription) -> None:
                    received.append(subscription)
                    on_subscribe_latch.assert_open("Only one on_subscribe call expected")
                    on_subscribe_latch.close()

                def on_next(self, item: Any) -> None:
                    on_subscribe_latch.assert_closed("on_subscribe should be called prior to on_next always")

                def on_complete(self) -> None:
                    on_subscribe_latch.assert_closed("on_subscribe should be called prior to on_complete always")

            try:
                pub.subscribe(OnSubscribeProbe())
                on_subscribe_latch.expect_close("Should have received on_subscribe")
                env.verify_no_async_errors_no_delay()
            finally:
                if received:
                    received.pop(0).cancel()

        self.active_publisher_test(0, False, run)

    def untested_spec109_subscribe_should_not_throw_non_fatal_throwable(self) -> None:
        """§1.9 "subscribe returns normally" (untested)."""
        untested("§1.9 (subscribe must return normally) cannot be tested meaningfully")

    def required_spec109_subscribe_throw_npe_on_null_subscriber(self) -> None:
        """§1.9: subscribe(None) raises TypeError (Python's NullPointerException)."""
        env = self._env

        def run(pub: Publisher[T]) -> None:
            try:
                pub.subscribe(None)  # type: ignore[arg-type]  # deliberately None: the §1.9 check
                env.flop("Publisher did not raise TypeError when given a None Subscriber in subscribe")
            except TypeError:
                pass  # the required behaviour
            except Exception as e:
                env.flop(f"Publisher raised {type(e).__name__} ({e}) instead of TypeError when given "
                         "a None Subscriber in subscribe")
            env.verify_no_async_errors_no_delay()

        self.active_publisher_test(0, False, run)

    def required_spec109_may_reject_calls_to_subscribe_if_publisher_is_unable_or_unwilling_to_serve_them_rejection_must_trigger_on_error_after_on_subscribe(self) -> None:
        """§1.9: a rejecting Publisher signals on_subscribe, then on_error."""
        env = self._env

        def run(pub: Publisher[T]) -> None:
            on_error_latch = Latch(env)
            on_subscribe_latch = Latch(env)

            class RejectionProbe(ManualSubscriberWithSubscriptionSupport[Any]):
                def on_error(self, error: BaseException) -> None:
                    on_subscribe_latch.assert_closed("on_subscribe should be called prior to on_error always")
                    on_error_latch.assert_open("Only one on_error call expected")
                    on_error_latch.close()

                def on_subscribe(self, subscription: Subscription) -> None:
                    on_subscribe_latch.assert_open("Only one on_subscribe call expected")
                    on_subscribe_latch.close()

            pub.subscribe(RejectionProbe(env))
            on_subscribe_latch.expect_close("Should have received on_subscribe")
            on_error_latch.expect_close("Should have received on_error")
            env.verify_no_async_errors_no_delay()

        self.when_has_error_publisher_test(run)

    def untested_spec110_reject_a_subscription_request_if_the_same_subscriber_subscribes_twice(self) -> None:
        """§1.10 (untested)."""
        untested("§1.10 cannot be tested meaningfully (the same Subscriber subscribing twice)")

    def optional_spec111_may_support_multi_subscribe(self) -> None:
        """§1.11: two Subscribers may subscribe."""
        env = self._env

        def run(pub: Publisher[T]) -> None:
            sub1 = env.new_manual_subscriber(pub)
            sub2 = env.new_manual_subscriber(pub)
            try:
                env.verify_no_async_errors()
            finally:
                try:
                    sub1.cancel()
                finally:
                    sub2.cancel()

        self.optional_active_publisher_test(1, False, run)

    def optional_spec111_registered_subscribers_must_receive_on_next_or_on_complete_signals(self) -> None:
        """§1.11: each of two Subscribers gets on_next or on_complete (unicast or multicast)."""
        env = self._env

        def run(pub: Publisher[T]) -> None:
            sub1 = env.new_manual_subscriber(pub)
            sub2 = env.new_manual_subscriber(pub)
            # which Subscriber gets the item and which only completion is the Publisher's choice
            sub1.request_next_element_or_end_of_stream()
            sub2.request_next_element_or_end_of_stream()
            try:
                env.verify_no_async_errors()
            finally:
                try:
                    sub1.cancel()
                finally:
                    sub2.cancel()

        self.optional_active_publisher_test(1, False, run)

    def optional_spec111_multicast_must_produce_the_same_elements_in_the_same_sequence_to_all_of_its_subscribers_when_requesting_one_by_one(self) -> None:
        """§1.11: three Subscribers requesting in interleaved steps see the same sequence."""
        env = self._env

        def run(pub: Publisher[T]) -> None:
            sub1 = env.new_manual_subscriber(pub)
            sub2 = env.new_manual_subscriber(pub)
            sub3 = env.new_manual_subscriber(pub)

            def on(n: int) -> str:
                return f"on {('1st', '2nd', '3rd')[n - 1]} subscriber"

            sub1.request(1)
            x1 = sub1.next_element(f"Publisher {pub!r} did not produce the requested 1 element {on(1)}")
            sub2.request(2)
            y1 = sub2.next_elements(2, f"Publisher {pub!r} did not produce the requested 2 elements {on(2)}")
            sub1.request(1)
            x2 = sub1.next_element(f"Publisher {pub!r} did not produce the requested 1 element {on(1)}")
            sub3.request(3)
            z1 = sub3.next_elements(3, f"Publisher {pub!r} did not produce the requested 3 elements {on(3)}")
            sub3.request(1)
            z2 = sub3.next_element(f"Publisher {pub!r} did not produce the requested 1 element {on(3)}")
            sub3.request(1)
            z3 = sub3.next_element(f"Publisher {pub!r} did not produce the requested 1 element {on(3)}")
            sub3.request_end_of_stream(f"Publisher {pub!r} did not complete the stream as expected {on(3)}")
            sub2.request(3)
            y2 = sub2.next_elements(3, f"Publisher {pub!r} did not produce the requested 3 elements {on(2)}")
            sub2.request_end_of_stream(f"Publisher {pub!r} did not complete the stream as expected {on(2)}")
            sub1.request(2)
            x3 = sub1.next_elements(2, f"Publisher {pub!r} did not produce the requested 2 elements {on(1)}")
            sub1.request(1)
            x4 = sub1.next_element(f"Publisher {pub!r} did not produce the requested 1 element {on(1)}")
            sub1.request_end_of_stream(f"Publisher {pub!r} did not complete the stream as expected {on(1)}")

            r = [x1, x2, *x3, x4]
            _assert_equals(r, [*y1, *y2],
                           f"Publisher {pub!r} did not produce the same element sequence for subscribers 1 and 2")
            _assert_equals(r, [*z1, z2, z3],
                           f"Publisher {pub!r} did not produce the same element sequence for subscribers 1 and 3")

        self.optional_active_publisher_test(5, True, run)

    def _three_subscribers_request_upfront(self, pub: Publisher[T], expect_completion: bool) -> None:
        env = self._env
        sub1 = env.new_manual_subscriber(pub)
        sub2 = env.new_manual_subscriber(pub)
        sub3 = env.new_manual_subscriber(pub)
        # one more than the stream holds: some Publishers notice the end only when asked for more
        sub1.request(4)
        sub2.request(4)
        sub3.request(4)
        received1 = sub1.next_elements(3)
        received2 = sub2.next_elements(3)
        received3 = sub3.next_elements(3)
        if expect_completion:
            sub1.expect_completion()
            sub2.expect_completion()
            sub3.expect_completion()
        _assert_equals(received1, received2,
                       "Expected elements to be signaled in the same sequence to 1st and 2nd subscribers")
        _assert_equals(received2, received3,
                       "Expected elements to be signaled in the same sequence to 2nd and 3rd subscribers")

    def optional_spec111_multicast_must_produce_the_same_elements_in_the_same_sequence_to_all_of_its_subscribers_when_requesting_many_upfront(self) -> None:
        """§1.11: three Subscribers requesting everything at once see the same sequence."""
        self.optional_active_publisher_test(
            3, False, lambda pub: self._three_subscribers_request_upfront(pub, False))

    def optional_spec111_multicast_must_produce_the_same_elements_in_the_same_sequence_to_all_of_its_subscribers_when_requesting_many_upfront_and_complete_as_expected(self) -> None:
        """§1.11: as above, and all three complete."""
        self.optional_active_publisher_test(
            3, True, lambda pub: self._three_subscribers_request_upfront(pub, True))

    # ---- §3 Subscription (as the Publisher implements it) ----------------------------------------

    def required_spec302_must_allow_synchronous_request_calls_from_on_next_and_on_subscribe(self) -> None:
        """§3.2: request may be called from on_subscribe and on_next."""
        env = self._env

        elements = 6

        def run(pub: Publisher[T]) -> None:
            class SyncRequester(ManualSubscriber[Any]):
                seen = 0

                def on_subscribe(self, subscription: Subscription) -> None:
                    self.subscription.complete(subscription)
                    subscription.request(1)
                    subscription.request(1)
                    subscription.request(1)

                def on_next(self, item: Any) -> None:
                    # one request per item; stopping after the stream's length ends the
                    # exchange with a Publisher that never completes
                    self.seen += 1
                    s = self.subscription.value()
                    if s is not None and self.seen <= elements:
                        s.request(1)

            sub = SyncRequester(env)
            try:
                env.subscribe(pub, sub)
                env.verify_no_async_errors()
            finally:
                if sub.subscription.is_completed():
                    sub.cancel()

        self.active_publisher_test(elements, False, run)

    def required_spec303_must_not_allow_unbounded_recursion(self) -> None:
        """§3.3: request inside on_next must not recurse deeper than
        bounded_depth_of_on_next_and_request_recursion()."""
        env = self._env
        bound = self.bounded_depth_of_on_next_and_request_recursion()
        one_more_than_bound = bound + 1

        def run(pub: Publisher[T]) -> None:
            depth = threading.local()
            run_completed = Latch(env)

            class RecursionProbe(ManualSubscriberWithSubscriptionSupport[Any]):
                signals_received = 0

                def on_next(self, item: Any) -> None:
                    # items are not kept: only the stack depth matters here
                    self.signals_received += 1
                    current = getattr(depth, "value", 0) + 1
                    depth.value = current
                    try:
                        if env.debug_enabled:
                            env.debug(f"{self!r}(recursion depth: {current}).on_next({item!r})")
                        if current > bound:
                            env.flop(f"Got {current} on_next calls within thread: "
                                     f"{threading.current_thread().name}, yet expected recursive "
                                     f"bound was {bound}")
                            run_completed.close()  # stop the chain
                            return
                        if self.signals_received >= one_more_than_bound:
                            run_completed.close()  # enough signals within the bound: success
                            return
                        s = self.subscription.value()
                        if s is not None:
                            s.request(1)  # the Publisher must break this recursion
                    finally:
                        depth.value = current - 1

                def on_complete(self) -> None:
                    super().on_complete()
                    run_completed.close()

                def on_error(self, error: BaseException) -> None:
                    super().on_error(error)
                    run_completed.close()

            sub = RecursionProbe(env)
            try:
                env.subscribe(pub, sub)
                sub.request(1)  # starts request -> on_next -> request -> ...
                run_completed.expect_close(
                    env.default_timeout_ms,
                    "Unable to validate call stack depth safety, awaited at-most "
                    f"{one_more_than_bound} signals (bounded_depth_of_on_next_and_request_recursion() "
                    "+ 1) or completion")
                env.verify_no_async_errors_no_delay()
            finally:
                # the request/on_next chain may keep a Publisher going: stop it
                sub.cancel()

        self.active_publisher_test(one_more_than_bound, False, run)

    def untested_spec304_request_should_not_perform_heavy_computations(self) -> None:
        """§3.4 (untested)."""
        untested("§3.4 (request should not perform heavy computations) cannot be tested meaningfully")

    def untested_spec305_cancel_must_not_synchronously_perform_heavy_computation(self) -> None:
        """§3.5 (untested)."""
        untested("§3.5 (cancel must not perform heavy computations) cannot be tested meaningfully")

    def required_spec306_after_subscription_is_cancelled_request_must_be_nops(self) -> None:
        """§3.6: request after cancel does nothing."""
        env = self._env

        def run(pub: Publisher[T]) -> None:
            # keeps the cancelled Subscription and goes on requesting from it
            sub: ManualSubscriberWithSubscriptionSupport[T] = ManualSubscriberWithSubscriptionSupport(env)
            env.subscribe(pub, sub)
            sub.cancel()
            sub.request(1)
            sub.request(1)
            sub.request(1)
            sub.expect_none()
            env.verify_no_async_errors_no_delay()

        self.active_publisher_test(3, False, run)

    def required_spec307_after_subscription_is_cancelled_additional_cancelations_must_be_nops(self) -> None:
        """§3.7: cancel after cancel does nothing."""
        env = self._env

        def run(pub: Publisher[T]) -> None:
            sub = env.new_manual_subscriber(pub)
            subscription = sub.subscription.value()
            assert subscription is not None
            subscription.cancel()
            subscription.cancel()
            subscription.cancel()
            sub.expect_none()
            env.verify_no_async_errors_no_delay()

        self.active_publisher_test(1, False, run)

    def required_spec309_request_zero_must_signal_illegal_argument_exception(self) -> None:
        """§3.9: request(0) ends the stream with on_error(ValueError)."""
        env = self._env

        def run(pub: Publisher[T]) -> None:
            sub = env.new_manual_subscriber(pub)
            sub.request(0)
            sub.expect_error(ValueError)

        self.active_publisher_test(10, False, run)

    def required_spec309_request_negative_number_must_signal_illegal_argument_exception(self) -> None:
        """§3.9: request(negative) ends the stream with on_error(ValueError)."""
        env = self._env

        def run(pub: Publisher[T]) -> None:
            sub = env.new_manual_subscriber(pub)
            sub.request(-random.randrange(1, INT_MAX + 1))
            sub.expect_error(ValueError)

        self.active_publisher_test(10, False, run)

    def optional_spec309_request_negative_number_may_signal_illegal_argument_exception_with_specific_message(self) -> None:
        """§3.9: the ValueError's message names the rule (or "non-positive subscription request")."""
        env = self._env

        def run(pub: Publisher[T]) -> None:
            sub = env.new_manual_subscriber(pub)
            sub.request(-random.randrange(1, INT_MAX + 1))
            sub.expect_error_with_message(
                ValueError, ["3.9", "non-positive subscription request", "negative subscription request"])

        self.optional_active_publisher_test(10, False, run)

    def required_spec312_cancel_must_make_the_publisher_to_eventually_stop_signaling(self) -> None:
        """§3.12: after cancel the Publisher stops; it never signals more than was requested."""
        env = self._env
        publisher_elements, demand1, demand2 = 20, 10, 5
        total_demand = demand1 + demand2

        def run(pub: Publisher[T]) -> None:
            sub = env.new_manual_subscriber(pub)
            sub.request(demand1)
            sub.request(demand2)
            # Take an item before cancelling: an asynchronous Publisher may legally handle a
            # cancel that arrives before it started emitting by never emitting at all.
            sub.next_element()
            sub.cancel()

            def new_signals() -> int:
                # items and completion queued since the last look, plus flopped errors
                count = len(sub.received.drain())
                while env.drop_async_error() is not None:
                    count += 1
                return count

            signalled = 1
            while True:
                new = new_signals()
                if new == 0:
                    time.sleep(env.default_no_signals_timeout_ms / 1000.0)
                    new = new_signals()
                    if new == 0:
                        break
                signalled += new
                _assert_true(signalled <= total_demand,
                             f"Publisher signalled [{signalled}] elements, which is more than the "
                             f"signalled demand: {total_demand}")

        self.active_publisher_test(publisher_elements, False, run)
        env.verify_no_async_errors_no_delay()

    def required_spec313_cancel_must_make_the_publisher_eventually_drop_all_references_to_the_subscriber(self) -> None:
        """§3.13: after cancel the Publisher lets go of the Subscriber (it becomes collectable)."""
        env = self._env
        gc_timeout_ms = self.reference_gc_timeout_ms()

        def subscribe_take_one_cancel(pub: Publisher[T]) -> weakref.ref[ManualSubscriber[T]]:
            sub = env.new_manual_subscriber(pub)
            ref = weakref.ref(sub)
            sub.request(1)
            sub.next_element()
            sub.cancel()
            return ref

        def run(pub: Publisher[T]) -> None:
            # With the automatic collector paused, everything the rule allocates from here on
            # stays in the youngest generation, so the first looks need to collect only that
            # generation, cheap whatever the size of the process's heap (a test process holds
            # thousands of results). A full collection comes after them: it is what decides.
            was_enabled = gc.isenabled()
            gc.disable()
            try:
                await_release(subscribe_take_one_cancel(pub), pub)
            finally:
                if was_enabled:
                    gc.enable()
            env.verify_no_async_errors_no_delay()

        def await_release(ref: weakref.ref[ManualSubscriber[T]], pub: Publisher[T]) -> None:
            # cancel may take effect asynchronously: poll until the deadline
            deadline = time.monotonic() + (gc_timeout_ms + 100) / 1000.0
            poll = max(env.default_poll_timeout_ms, 1) / 1000.0
            for generation in (0, 1):  # (a survivor of each moves one generation up)
                if ref() is None:
                    return
                gc.collect(generation)
                if ref() is None:
                    return
                time.sleep(poll)
            while True:
                # sleep at least twice as long as a full collection took, so a thread that
                # still has to let go of the Subscriber gets the GIL
                start = time.monotonic()
                gc.collect()
                if ref() is None:
                    return
                now = time.monotonic()
                if now >= deadline:
                    env.flop(f"Publisher {pub!r} did not drop reference to test subscriber after "
                             "subscription cancellation")
                    return
                time.sleep(max(poll, 2 * (now - start)))

        self.active_publisher_test(3, False, run)

    def required_spec317_must_support_a_pending_element_count_up_to_long_max_value(self) -> None:
        """§3.17: request(LONG_MAX) works."""
        env = self._env
        total = 3

        def run(pub: Publisher[T]) -> None:
            sub = env.new_manual_subscriber(pub)
            sub.request(LONG_MAX)
            sub.next_elements(total)
            sub.expect_completion()
            env.verify_no_async_errors_no_delay()

        self.active_publisher_test(total, True, run)

    def required_spec317_must_support_a_cumulative_pending_element_count_up_to_long_max_value(self) -> None:
        """§3.17: requests adding up to exactly LONG_MAX work."""
        env = self._env
        total = 3

        def run(pub: Publisher[T]) -> None:
            sub = env.new_manual_subscriber(pub)
            sub.request(LONG_MAX // 2)  # pending LONG_MAX // 2
            sub.request(LONG_MAX // 2)  # pending LONG_MAX - 1
            sub.request(1)  # pending LONG_MAX
            sub.next_elements(total)
            sub.expect_completion()
            try:
                env.verify_no_async_errors_no_delay()
            finally:
                sub.cancel()

        self.active_publisher_test(total, True, run)

    def required_spec317_must_not_signal_on_error_when_pending_above_long_max_value(self) -> None:
        """§3.17: demand beyond LONG_MAX is "unbounded", not an error."""
        env = self._env

        def run(pub: Publisher[T]) -> None:
            class OverflowingRequester(BlackholeSubscriberWithSubscriptionSupport[Any]):
                # two such requests already overflow; ten is a safe margin
                calls_left = 10

                def on_next(self, item: Any) -> None:
                    if env.debug_enabled:
                        env.debug(f"{self!r}.on_next({item!r})")
                    if not self.subscription.is_completed():
                        env.flop(f"Subscriber.on_next({item!r}) called before Subscriber.on_subscribe")
                        return
                    s = self.subscription.value()
                    assert s is not None
                    if self.calls_left > 0:
                        self.calls_left -= 1
                        s.request(LONG_MAX - 1)
                    else:
                        s.cancel()

            sub = OverflowingRequester(env)
            env.subscribe(pub, sub, env.default_timeout_ms)
            sub.request(1)  # on_next then requests LONG_MAX - 1 up to ten times
            try:
                env.verify_no_async_errors()  # no on_error may come
            finally:
                sub.cancel()

        self.active_publisher_test(INT_MAX, False, run)

