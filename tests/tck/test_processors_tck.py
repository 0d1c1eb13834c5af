"""The TCK on rxpy2's processors: each as a Publisher, and the identity ones as Processors.

As a Publisher (``PublisherVerification``), every processor: ``create_publisher(n)``
is a new processor fed by a thread (:func:`fed_processor`) that waits until a
subscriber is there, emits ``n`` items and completes. PublishProcessor and
BehaviorProcessor are fed with ``offer`` (retried until every subscriber has
demand), since an item that finds a subscriber without demand fails that
subscriber with MissingBackpressureException by design; the others are fed with
``on_next``: they keep items for a subscriber until it requests them. The failed
Publisher is a processor that received ``on_error``.

As a Processor (``IdentityProcessorVerification``): UnicastProcessor and the
ReplayProcessors pass every item on under their subscriber's demand, so they are
identity processors. A processor, by design, does not cancel its upstream when
its subscribers leave (it is a hot source; leaving it is the job of ``ref_count``)
and requests everything from any upstream it is subscribed to; the verification
wants both (§2.5, and the whitebox happy path cancels upstream through the
Processor), so each is verified inside :class:`RefCountProcessor`, a test wrapper
that subscribes once upstream and cancels it when the last subscriber leaves — as
RxJava's own TCK tests of its processors do. Where a processor differs from an
identity Processor on purpose, the rule is skipped with the reason (see the
overrides below). PublishProcessor, BehaviorProcessor and AsyncProcessor are not
identity processors (the first two cannot buffer for a subscriber without demand,
the last emits one item only): they are verified as Publishers.

MulticastProcessor is the one verified as it is, with no wrapper:
``MulticastProcessor.create(buffer_size, ref_count=True)`` takes a single upstream
(a second one is cancelled, and reported to ``plugins.on_error`` as RxJava 2 does:
the §2.5 rule's test accepts exactly that report), requests only ``buffer_size``
items and more as they go out, and cancels the upstream when its last subscriber
leaves. It emits in lockstep (``does_coordinated_emission()``).

Skipped with a reason, besides the TCK's own ``untested_`` rules and the rules
needing more items than a processor emits (AsyncProcessor: one):

* ReplayProcessor as identity Processor: two multi-subscriber rules, because it
  replays history to a late subscriber and replays an error after the items; a
  test below runs both rules without the skip and checks that they fail for
  exactly that reason (so the skip cannot hide another failure);
* UnicastProcessor: the multi-subscriber rules (``max_supported_subscribers()``
  is 1; optional §1.11 rules skip with the ProtocolViolationException a second
  subscriber gets);
* PublishProcessor/BehaviorProcessor as Publishers: two optional §1.11 rules in
  which one subscriber requests while another has no demand: ``offer`` then
  waits (by design it emits only when every subscriber has demand), so the
  requesting one times out.
* MulticastProcessor (as a Publisher and as an identity Processor): the same
  optional §1.11 rules (and ``registered_subscribers_must_receive_on_next_or_on_complete``):
  an item goes out only when every subscriber has demand, by design.

The feeders and :func:`failed_processor` are also what the library-wide registry
(``library_publishers.py``) needs to add the processors there.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

from probes import Forwarding

from rxpy2 import AsyncProcessor
from rxpy2 import BehaviorProcessor
from rxpy2 import FlowableProcessor
from rxpy2 import MulticastProcessor
from rxpy2 import PublishProcessor
from rxpy2 import ReplayProcessor
from rxpy2 import UnicastProcessor
from rxpy2._internal.atomic import AtomicReference
from rxpy2._internal.helpers.subscription_helper import CANCELLED
from rxpy2._internal.subscriptions.empty import EmptySubscription
from rxpy2.exceptions import ProtocolViolationException
from rxpy2.reactivestreams import Publisher
from rxpy2.reactivestreams import Subscriber
from rxpy2.reactivestreams import Subscription
from rxpy2.tck import IdentityProcessorVerification
from rxpy2.tck import PublisherVerification
from rxpy2.tck import SkipRule
from rxpy2.tck import TestEnvironment
from rxpy2.tck import TestException
from rxpy2.tck import run_rules

#: The TCK's timeouts here: an expected signal comes from another thread (the feeder or the
#: helper publisher); "nothing more arrives" is checked for 25 ms.
ENV = {"default_timeout_ms": 1000, "default_no_signals_timeout_ms": 25,
       "default_poll_timeout_ms": 2}

#: How long a feeder waits for its first subscriber, and how long it retries a refused
#: ``offer`` without progress, before it gives up (a leak guard for rules that never
#: subscribe or stop requesting; no rule needs either wait to end).
FEED_WAIT_S = 2.0
FEED_IDLE_S = 5.0


# ---- feeding a processor once it has a subscriber --------------------------------------------------


def _feed(processor: Any, elements: int, use_offer: bool) -> None:
    deadline = time.monotonic() + FEED_WAIT_S
    while not processor.has_subscribers():
        if time.monotonic() > deadline:
            return
        time.sleep(0.0005)
    i = 0
    idle_since = time.monotonic()
    while i < elements:
        if not processor.has_subscribers():
            return  # every subscriber left (an endless stream ends here)
        if use_offer:
            if not processor.offer(i):
                if time.monotonic() - idle_since > FEED_IDLE_S:
                    return
                time.sleep(0.0001)
                continue
            idle_since = time.monotonic()
        else:
            processor.on_next(i)
        i += 1
    processor.on_complete()


def fed_processor(make: Callable[[], FlowableProcessor[int]], elements: int,
                  use_offer: bool = False) -> FlowableProcessor[int]:
    """A new processor that a thread feeds ``0 .. elements-1`` and completion, starting once a
    subscriber is there (with ``offer``, each item waits until every subscriber has demand)."""
    p = make()
    threading.Thread(target=_feed, args=(p, elements, use_offer), name="tck-processor-feed",
                     daemon=True).start()
    return p


def failed_processor(make: Callable[[], FlowableProcessor[Any]]) -> FlowableProcessor[Any]:
    p = make()
    p.on_error(TestException())
    return p


# ---- RefCountProcessor: the test wrapper of the identity verifications -----------------------------


class RefCountProcessor(FlowableProcessor[Any], Subscription):
    """Wraps a processor: takes one upstream Subscription (a second one is cancelled, §2.5)
    and cancels it when the last subscriber leaves."""

    def __init__(self, actual: FlowableProcessor[Any]) -> None:
        self.actual = actual
        self.upstream: AtomicReference[Subscription] = AtomicReference()
        self._lock = threading.Lock()
        self._subscribers: list[_RefCountSubscriber] | None = []  # None: no subscriber any more

    def on_subscribe(self, s: Subscription) -> None:
        if s is None:
            raise TypeError("on_subscribe called with None")  # §2.13
        if self.upstream.compare_and_set(None, s):
            self.actual.on_subscribe(self)
        else:
            s.cancel()  # §2.5

    def on_next(self, item: Any) -> None:
        self.actual.on_next(item)

    def on_error(self, error: BaseException) -> None:
        self.upstream.lazy_set(CANCELLED)
        self.actual.on_error(error)

    def on_complete(self) -> None:
        self.upstream.lazy_set(CANCELLED)
        self.actual.on_complete()

    def subscribe_actual(self, subscriber: Subscriber[Any]) -> None:
        rcs = _RefCountSubscriber(subscriber, self)
        with self._lock:
            ok = self._subscribers is not None
            if ok:
                self._subscribers.append(rcs)  # type: ignore[union-attr]
        if not ok:
            EmptySubscription.error(ProtocolViolationException("RefCountProcessor terminated"),
                                    subscriber)
            return
        self.actual.subscribe(rcs)

    def _remove(self, rcs: _RefCountSubscriber) -> None:
        with self._lock:
            subs = self._subscribers
            if subs is None or rcs not in subs:
                return
            subs.remove(rcs)
            last = not subs
            if last:
                self._subscribers = None
        if last:
            self.cancel()

    # the Subscription the wrapped processor sees
    def request(self, n: int) -> None:
        self.upstream.get().request(n)  # type: ignore[union-attr]

    def cancel(self) -> None:
        s = self.upstream.get_and_set(CANCELLED)
        if s is not None and s is not CANCELLED:
            s.cancel()

    def has_subscribers(self) -> bool:
        return self.actual.has_subscribers()

    def has_throwable(self) -> bool:
        return self.actual.has_throwable()

    def has_complete(self) -> bool:
        return self.actual.has_complete()

    def get_throwable(self) -> BaseException | None:
        return self.actual.get_throwable()


class _RefCountSubscriber(Forwarding, Subscription):
    def __init__(self, downstream: Subscriber[Any], parent: RefCountProcessor) -> None:
        super().__init__(downstream)
        self.parent = parent

    def request(self, n: int) -> None:
        self.upstream.request(n)

    def cancel(self) -> None:
        self.upstream.cancel()
        self.parent._remove(self)


# ---- the verifications -----------------------------------------------------------------------------


class _ProcessorAsPublisher(PublisherVerification[int]):
    __test__ = False

    make: Callable[[], FlowableProcessor[int]]
    use_offer = False

    def create_environment(self) -> TestEnvironment:
        return TestEnvironment(**ENV)

    def create_publisher(self, elements: int) -> Publisher[int]:
        return fed_processor(type(self).make, elements, self.use_offer)

    def create_failed_publisher(self) -> Publisher[int] | None:
        return failed_processor(type(self).make)


class TestPublishProcessorAsPublisher(_ProcessorAsPublisher):
    make = staticmethod(PublishProcessor.create)
    use_offer = True


class TestBehaviorProcessorAsPublisher(_ProcessorAsPublisher):
    make = staticmethod(BehaviorProcessor.create)
    use_offer = True


class TestReplayProcessorAsPublisher(_ProcessorAsPublisher):
    make = staticmethod(ReplayProcessor.create)


class TestReplayProcessorSizeBoundAsPublisher(_ProcessorAsPublisher):
    make = staticmethod(lambda: ReplayProcessor.create_with_size(1000))


class TestReplayProcessorTimeBoundAsPublisher(_ProcessorAsPublisher):
    make = staticmethod(lambda: ReplayProcessor.create_with_time(60.0))


class TestUnicastProcessorAsPublisher(_ProcessorAsPublisher):
    make = staticmethod(UnicastProcessor.create)


class TestAsyncProcessorAsPublisher(_ProcessorAsPublisher):
    """Fed ``n`` items, it emits only the last: a stream of at most one item."""

    make = staticmethod(AsyncProcessor.create)

    def max_elements_from_publisher(self) -> int:
        return 1


class TestSerializedPublishProcessorAsPublisher(_ProcessorAsPublisher):
    """``to_serialized()`` changes nothing a subscriber sees."""

    make = staticmethod(lambda: PublishProcessor.create().to_serialized())

    def create_publisher(self, elements: int) -> Publisher[int]:
        # offer is PublishProcessor's: feed the wrapped one, subscribe through the wrapper
        pp: PublishProcessor[int] = PublishProcessor.create()
        threading.Thread(target=_feed, args=(pp, elements, True), name="tck-processor-feed",
                         daemon=True).start()
        return pp.to_serialized()


_REPLAYS_HISTORY = (
    "ReplayProcessor replays the items it received earlier to a subscriber that arrives "
    "later, by design; this rule expects a late subscriber to see only the items sent after "
    "it subscribed")
_ERROR_AFTER_ITEMS = (
    "ReplayProcessor replays an error after the buffered items, under each subscriber's "
    "demand, by design; this rule expects the error to overtake an item that a subscriber "
    "without demand has not taken yet")


class _IdentityProcessor(IdentityProcessorVerification[int]):
    __test__ = False

    make: Callable[[], FlowableProcessor[int]]

    def create_environment(self) -> TestEnvironment:
        return TestEnvironment(**ENV)

    def create_identity_processor(self, buffer_size: int) -> RefCountProcessor:
        return RefCountProcessor(type(self).make())

    def create_failed_publisher(self) -> Publisher[int] | None:
        return failed_processor(type(self).make)


class TestUnicastProcessorIdentity(_IdentityProcessor):
    make = staticmethod(UnicastProcessor.create)

    def max_supported_subscribers(self) -> int:
        return 1  # a second subscriber gets on_error(ProtocolViolationException) by design


class _ReplayIdentity(_IdentityProcessor):
    __test__ = False

    def required_must_request_from_upstream_for_elements_that_have_been_requested_long_ago(self) -> None:
        raise SkipRule(_REPLAYS_HISTORY)

    def required_spec104_must_call_on_error_on_all_its_subscribers_if_it_encounters_a_non_recoverable_error(self) -> None:
        raise SkipRule(_ERROR_AFTER_ITEMS)


class TestReplayProcessorIdentity(_ReplayIdentity):
    make = staticmethod(ReplayProcessor.create)


class TestReplayProcessorSizeBoundIdentity(_ReplayIdentity):
    make = staticmethod(lambda: ReplayProcessor.create_with_size(16))


class TestReplayProcessorTimeBoundIdentity(_ReplayIdentity):
    make = staticmethod(lambda: ReplayProcessor.create_with_time(60.0))


# ---- MulticastProcessor: an identity Processor as it is, no wrapper ---------------------------------


def _started_multicast() -> MulticastProcessor[int]:
    mp: MulticastProcessor[int] = MulticastProcessor.create()
    mp.start()  # without an upstream, a queue for offer/on_error
    return mp


class TestMulticastProcessorAsPublisher(_ProcessorAsPublisher):
    """Started without an upstream and fed with ``offer`` (False while its bounded queue is full)."""

    make = staticmethod(_started_multicast)
    use_offer = True


class TestMulticastProcessorIdentity(IdentityProcessorVerification[int]):
    """``MulticastProcessor.create(buffer_size, ref_count=True)`` verified directly: it takes one
    upstream (§2.5), requests ``buffer_size`` from it and more as items go out, emits in lockstep
    (coordinated emission) and cancels the upstream when its last subscriber leaves."""

    def create_environment(self) -> TestEnvironment:
        return TestEnvironment(**ENV)

    def create_identity_processor(self, buffer_size: int) -> MulticastProcessor[int]:
        return MulticastProcessor.create(buffer_size, ref_count=True)

    def create_failed_publisher(self) -> Publisher[int] | None:
        return failed_processor(_started_multicast)  # unstarted, it has no queue to drain

    def does_coordinated_emission(self) -> bool:
        return True

    def test_required_spec205_must_call_subscription_cancel_if_it_already_has_an_subscription_and_receives_another_on_subscribe_signal(  # noqa: E501
            self, plugin_errors: list[BaseException]) -> None:
        """The rule as it is; the second Subscription is cancelled and, as in RxJava 2, also
        reported to ``plugins.on_error`` (which the test suite's guard would take for a bug)."""
        self.required_spec205_must_call_subscription_cancel_if_it_already_has_an_subscription_and_receives_another_on_subscribe_signal()  # noqa: E501
        assert [type(e) for e in plugin_errors] == [ProtocolViolationException]
        assert "§2.5" in str(plugin_errors[0])


# ---- the skips above are by design: without them, these rules fail for exactly that reason ---------


class _PlainReplayIdentity(_IdentityProcessor):
    """ReplayProcessor without the two overrides (not collected: run by the test below)."""

    __test__ = False
    make = staticmethod(lambda: ReplayProcessor.create_with_size(1))

    def create_environment(self) -> TestEnvironment:
        return TestEnvironment(**{**ENV, "default_timeout_ms": 200})


def test_replay_skips_are_the_documented_behaviour() -> None:
    results = {r.name: r for r in run_rules(_PlainReplayIdentity, only=[
        "required_must_request_from_upstream_for_elements_that_have_been_requested_long_ago",
        "required_spec104_must_call_on_error_on_all_its_subscribers_if_it_encounters_a_non_recoverable_error",
    ])}
    late = results["required_must_request_from_upstream_for_elements_that_have_been_requested_long_ago"]
    # the late subscriber is replayed the item before it subscribed (1) instead of the next (2)
    assert late.outcome == "failed" and "on_next(1)" in late.message and "on_next(2)" in late.message
    error = results["required_spec104_must_call_on_error_on_all_its_subscribers_if_it_encounters_a_non_recoverable_error"]
    # the subscriber without demand still has an item to take before the error
    assert error.outcome == "failed" and "Did not receive expected error" in error.message
