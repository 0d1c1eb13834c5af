"""rxpy2.operator_kit: its frozen names, the Drain primitive under races (both backends),
OperatorSubscriber's protocol, and the TCK Subscriber verifications on operator subscribers
(the base, the library's MapSubscriber, and MapSubscriber facing a foreign Publisher)."""

from __future__ import annotations

import threading
from collections import deque
from typing import Any

import pytest
from probes import ProbeSubscription

import rxpy2.operator_kit as ops
from rxpy2 import Flowable
from rxpy2._internal.drain import GilDrain
from rxpy2._internal.drain import LockDrain
from rxpy2._internal.operators.flowable.flowable_map import MapSubscriber
from rxpy2.exceptions import ProtocolViolationException
from rxpy2.operator_kit import UNSUBSCRIBED
from rxpy2.operator_kit import OperatorSubscriber
from rxpy2.reactivestreams import Publisher
from rxpy2.reactivestreams import Subscriber
from rxpy2.tck import ProbeDownstream
from rxpy2.tck import RequestingDownstream
from rxpy2.tck import SubscriberBlackboxVerification
from rxpy2.tck import SubscriberWhiteboxVerification
from rxpy2.tck import TestEnvironment
from rxpy2.testing import RaceRunner

# ---- the public names are a promise: changing them is an API change ---------------------------

EXPORTED = [
    "ABSENT", "BUFFER_SIZE", "CANCELLED", "DRAIN_BACKEND", "LONG_MAX", "UNSUBSCRIBED",
    "AtomicBoolean", "AtomicInteger", "AtomicLong", "AtomicReference", "AtomicThrowable",
    "BackpressureHelper", "Callable", "ConditionalSubscriber", "DeferredScalarSubscription",
    "DirectSink", "ChecksItems", "BatchSink", "relay_on_next",
    "Drain", "EmptySubscription", "FusionMode", "HalfSerializer", "MissingBackpressureException",
    "MpscLinkedQueue", "OperatorSubscriber", "ProtocolViolationException", "QueueSubscription",
    "ScalarCallable", "SinglePostCompleteSubscriber", "SpscArrayQueue", "SpscLinkedArrayQueue",
    "SubscriptionArbiter", "SubscriptionHelper", "add_cap", "add_request", "deferred_request",
    "deferred_set_once", "multiply_cap", "null_error", "null_item", "null_or_late_error", "null_or_late_item",
    "null_subscription",
    "produced", "require", "require_callable", "require_duration", "require_non_negative", "require_positive",
    "require_publisher", "require_scheduler", "subscribe_tail", "validate_request",
    "validate_upstream",
]


def test_exported_names_are_frozen() -> None:
    assert sorted(ops.__all__) == sorted(EXPORTED)
    for name in EXPORTED:
        assert getattr(ops, name) is not None, name


def test_every_export_is_documented() -> None:
    for name in ops.__all__:
        obj = getattr(ops, name)
        if isinstance(obj, type) or callable(obj):
            assert (obj.__doc__ or "").strip(), f"rxpy2.operator_kit.{name} has no docstring"


def test_relay_on_next_gives_a_checking_downstream_its_own_on_next() -> None:
    class Checking(ops.ChecksItems):
        def on_next(self, item: object) -> None:
            pass

    class Plain:
        def __init__(self) -> None:
            self.items: list[object] = []

        def on_next(self, item: object) -> None:
            self.items.append(item)

    checking = Checking()
    assert ops.relay_on_next(checking) == checking.on_next
    plain = Plain()
    relay = ops.relay_on_next(plain)
    relay(1)
    with pytest.raises(TypeError, match="2.13"):
        relay(None)
    assert plain.items == [1]


def test_fusion_modes_are_flags_with_the_internal_values() -> None:
    from rxpy2._internal import fuseable

    assert ops.FusionMode.ANY == ops.FusionMode.SYNC | ops.FusionMode.ASYNC
    for name in ("NONE", "SYNC", "ASYNC", "ANY", "BOUNDARY"):
        assert getattr(ops.FusionMode, name) == getattr(fuseable, name)


def test_demand_arithmetic(plugin_errors: list[BaseException]) -> None:
    assert ops.add_cap(ops.LONG_MAX, 1) == ops.LONG_MAX
    assert ops.add_cap(2, 3) == 5
    assert ops.multiply_cap(ops.LONG_MAX // 2, 3) == ops.LONG_MAX
    r = ops.AtomicLong(5)
    assert ops.add_request(r, 3) == 5 and r.get() == 8
    assert ops.produced(r, 8) == 0
    assert not ops.validate_request(0)
    assert isinstance(plugin_errors[0], ValueError) and "§3.9" in str(plugin_errors[0])
    assert ops.validate_request(4) == 4
    assert ops.validate_request(2.5) == 0  # type: ignore[arg-type]  # not an int: never demand
    assert isinstance(plugin_errors[1], TypeError) and "float" in str(plugin_errors[1])


def test_null_or_late_signals(plugin_errors: list[BaseException]) -> None:
    """The terminal guard of on_next/on_error: None raises to the caller (§2.13); a late item
    is dropped; a late error reaches plugins.on_error (§1.7), never lost."""
    with pytest.raises(TypeError, match="§2.13.*on_next"):
        ops.null_or_late_item(None)
    with pytest.raises(TypeError, match="§2.13.*on_error"):
        ops.null_or_late_error(None)
    ops.null_or_late_item(1)
    assert plugin_errors == []
    late = RuntimeError("late")
    ops.null_or_late_error(late)
    assert [e.__cause__ for e in plugin_errors] == [late]


def test_an_error_after_complete_reaches_plugins(plugin_errors: list[BaseException]) -> None:
    class Source(Flowable[int]):
        def subscribe_actual(self, subscriber: Subscriber[int]) -> None:
            subscriber.on_subscribe(ProbeSubscription())
            subscriber.on_next(1)
            subscriber.on_complete()
            subscriber.on_next(2)
            late = RuntimeError("late")
            subscriber.on_error(late)
            with pytest.raises(TypeError, match="§2.13"):
                subscriber.on_next(None)  # type: ignore[arg-type]

    ts = Source().any(lambda x: x > 5).test()
    ts.assert_result(False)
    assert [repr(e.__cause__) for e in plugin_errors] == ["RuntimeError('late')"]


# ---- Drain: the contract, then races under both backends ----------------------------------------

BACKENDS = [GilDrain, LockDrain]


@pytest.mark.parametrize("backend", BACKENDS, ids=lambda b: b.__name__)
def test_drain_contract(backend: Any) -> None:
    d = backend()
    assert d.is_free()
    assert d.enter() is True
    assert not d.is_free()
    assert d.enter() is False           # counted: the owner runs again
    assert d.enter() is False
    assert d.leave() is True            # one more pass covers both signals
    assert d.leave() is False           # free
    assert d.is_free()
    assert d.enter() is True and d.leave() is False
    assert d.enter() is True            # kept for good: nobody else ever enters
    assert d.enter() is False and d.enter() is False
    assert "owned" in repr(d)


class _Worker:
    """Work units added by two threads, consumed only by the owner of the drain."""

    def __init__(self, drain: Any, per_side: int) -> None:
        self.d = drain
        self.per_side = per_side
        self.lock = threading.Lock()  # guards the test's own counters only
        self.pending = 0
        self.consumed = 0
        self.owners = 0
        self.overlap = False
        self.passes = 0
        self.stale = False

    def drain(self) -> None:
        d = self.d
        if not d.enter():
            return
        mine = -1
        while True:
            if mine != -1 and mine != self.passes:
                self.stale = True  # leave() returned True but another owner ran meanwhile
            self.passes += 1
            mine = self.passes
            self.owners += 1
            if self.owners != 1:
                self.overlap = True
            with self.lock:
                n, self.pending = self.pending, 0
            self.consumed += n
            self.owners -= 1
            if not d.leave():
                return

    def side(self) -> None:
        for _ in range(self.per_side):
            with self.lock:
                self.pending += 1
            self.drain()

    def direct_side(self, use_enter: bool = False) -> None:
        """Half-serialized: emit directly when the drain is free, else queue and drain."""
        d = self.d
        take = d.enter if use_enter else d.try_enter
        for _ in range(self.per_side):
            if take():
                self.owners += 1
                if self.owners != 1:
                    self.overlap = True
                self.consumed += 1
                self.owners -= 1
                if d.leave():
                    self.drain_loop_owned()
            else:
                with self.lock:
                    self.pending += 1
                self.drain()

    def drain_loop_owned(self) -> None:
        d = self.d
        while True:
            with self.lock:
                n, self.pending = self.pending, 0
            self.consumed += n
            if not d.leave():
                return


@pytest.mark.parametrize("backend", BACKENDS, ids=lambda b: b.__name__)
def test_drain_race_nothing_lost_no_two_owners(backend: Any) -> None:
    """Two threads signal (add work, then drain); every unit of work is consumed by an
    owner, never by two owners at once, and the drain ends free."""
    with RaceRunner() as runner:
        for _ in range(300):
            w = _Worker(backend(), 50)
            runner.race(w.side, w.side)
            assert not w.overlap
            assert not w.stale
            assert w.consumed == 100
            assert w.pending == 0
            assert w.d.is_free()


@pytest.mark.parametrize("use_enter", [False, True], ids=["try_enter", "enter"])
@pytest.mark.parametrize("backend", BACKENDS, ids=lambda b: b.__name__)
def test_drain_race_direct_emission_vs_drain(backend: Any, use_enter: bool) -> None:
    """Direct emissions (which read no state) against full passes: nothing lost, one
    owner. A successful enter() must not erase a concurrent caller's signal."""
    with RaceRunner() as runner:
        for _ in range(300):
            w = _Worker(backend(), 50)
            runner.race(lambda: w.direct_side(use_enter), w.side)  # noqa: B023
            assert not w.overlap
            assert w.consumed == 100
            assert w.pending == 0
            assert w.d.is_free()


class _Ordered:
    """One producer emits 0, 1, 2 ... directly (try_enter) or through a queue; another
    thread only signals. The consumer must see them in order."""

    def __init__(self, drain: Any, n: int) -> None:
        self.d = drain
        self.n = n
        self.queue: deque[int] = deque()
        self.out: list[int] = []

    def loop(self) -> None:
        while True:
            q = self.queue
            while q:
                self.out.append(q.popleft())
            if not self.d.leave():
                return

    def drain(self) -> None:
        if self.d.enter():
            self.loop()

    def producer(self) -> None:
        d = self.d
        for i in range(self.n):
            if d.try_enter():
                self.out.append(i)
                if d.leave():
                    self.loop()
            else:
                self.queue.append(i)
                self.drain()

    def signaller(self) -> None:
        for _ in range(self.n):
            self.drain()

    def hinted_producer(self) -> None:
        """Queue every item; skip enter() while a pass is due (``Drain.missed``)."""
        d = self.d
        for i in range(self.n):
            self.queue.append(i)
            if not d.missed and d.enter():
                self.loop()


@pytest.mark.parametrize("backend", BACKENDS, ids=lambda b: b.__name__)
def test_drain_race_producer_skipping_enter_while_a_pass_is_due(backend: Any) -> None:
    """The observe_on shape: a producer that trusts ``missed`` loses nothing."""
    with RaceRunner() as runner:
        for _ in range(300):
            o = _Ordered(backend(), 60)
            runner.race(o.hinted_producer, o.signaller)
            assert o.out == list(range(60))  # none lost, none twice, in order
            assert not o.queue
            assert o.d.is_free()
            assert o.d.missed is False


def test_missed_set_by_a_counted_enter_and_cleared_by_the_pass_it_starts() -> None:
    d = GilDrain()
    assert d.missed is False
    assert d.enter()
    assert d.missed is False  # owning is not a signal
    assert not d.enter()
    assert d.missed is True  # counted: a pass is due
    assert d.leave()  # ... and this is it: the caller still owns the drain
    assert d.missed is False
    assert not d.leave()
    assert d.is_free()


def test_missed_never_claims_a_pass_on_the_lock_backend() -> None:
    d = LockDrain()
    assert d.enter()
    assert not d.enter()
    assert d.missed is False  # False tells nothing: the caller must enter()
    assert d.leave()
    assert not d.leave()


@pytest.mark.parametrize("backend", BACKENDS, ids=lambda b: b.__name__)
def test_drain_race_direct_emission_keeps_order(backend: Any) -> None:
    """A try_enter() that succeeds while a pass is still due would let an item overtake
    the producer's own queued ones."""
    with RaceRunner() as runner:
        for _ in range(1500):
            o = _Ordered(backend(), 40)
            runner.race(o.producer, o.signaller)
            assert o.out == list(range(40))


@pytest.mark.parametrize("backend", BACKENDS, ids=lambda b: b.__name__)
def test_try_enter_is_not_counted(backend: Any) -> None:
    d = backend()
    assert d.try_enter() is True
    assert d.try_enter() is False       # not counted
    assert d.leave() is False
    assert d.enter() is True
    assert d.try_enter() is False
    assert d.leave() is False and d.is_free()


@pytest.mark.parametrize("backend", BACKENDS, ids=lambda b: b.__name__)
def test_drain_reentrant_signal_runs_another_pass(backend: Any) -> None:
    d = backend()
    passes = []

    def drain() -> None:
        if not d.enter():
            return
        while True:
            passes.append(1)
            if len(passes) == 1:
                drain()  # a request from inside on_next: counted, not nested
            if not d.leave():
                return

    drain()
    assert len(passes) == 2
    assert d.is_free()


def test_backend_switch_in_a_subprocess() -> None:
    import os
    import subprocess
    import sys

    code = "import rxpy2.operator_kit as o; print(o.DRAIN_BACKEND, o.Drain.__name__)"
    for name, cls in (("lock", "LockDrain"), ("gil", "GilDrain")):
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                             env={**os.environ, "RXPY2_DRAIN": name}, check=True, timeout=60)
        assert out.stdout.split() == [name, cls]
    bad = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env={**os.environ, "RXPY2_DRAIN": "spin"}, timeout=60)
    assert bad.returncode != 0 and "RXPY2_DRAIN" in bad.stderr


# ---- OperatorSubscriber ------------------------------------------------------------------------


class PassThrough(OperatorSubscriber[Any, Any]):
    def hook_on_next(self, item: Any) -> None:
        self.downstream.on_next(item)


class Doubler(OperatorSubscriber[int, int]):
    def hook_on_next(self, item: int) -> None:
        try:
            v = item * 2 if item != 3 else 1 // 0
        except Exception as e:  # a user function raised: cancel upstream, on_error
            self.fail(e)
            return
        self.downstream.on_next(v)


def test_operator_subscriber_upstream_is_never_none() -> None:
    s = PassThrough(RequestingDownstream())
    assert s.upstream is UNSUBSCRIBED
    s.request(5)   # goes nowhere, does not raise
    s.cancel()
    assert "unsubscribed" in repr(s)


def test_operator_subscriber_rule_213_raises() -> None:
    s = PassThrough(RequestingDownstream())
    with pytest.raises(TypeError, match="§2.13"):
        s.on_subscribe(None)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="§2.13"):
        s.on_next(None)
    with pytest.raises(TypeError, match="§2.13"):
        s.on_error(None)  # type: ignore[arg-type]


def test_operator_subscriber_second_subscription_is_cancelled_and_reported(
        plugin_errors: list[BaseException]) -> None:
    s = PassThrough(RequestingDownstream())
    first, second = ops.EmptySubscription.INSTANCE, ProbeSubscription()
    s.on_subscribe(first)
    s.on_subscribe(second)
    assert s.upstream is first
    assert second.cancelled
    assert isinstance(plugin_errors[0], ProtocolViolationException)


def test_operator_subscriber_in_a_chain_fail_and_late_error(
        plugin_errors: list[BaseException]) -> None:
    ts = Flowable.range(1, 5).lift(Doubler).test()
    ts.assert_failure(ZeroDivisionError, 2, 4)
    s = PassThrough(RequestingDownstream())
    s.on_subscribe(ProbeSubscription())
    s.on_complete()
    s.on_error(ValueError("late"))
    s.on_next(1)  # dropped after the terminal signal
    assert [type(e) for e in plugin_errors] == [ValueError]


# ---- the TCK Subscriber verifications on operator subscribers ----------------------------------

ENV = TestEnvironment(default_timeout_ms=500, default_no_signals_timeout_ms=50)


class _Capture(Publisher[Any]):
    """A foreign Publisher (not a Flowable): keeps the Subscriber it is given."""

    def __init__(self) -> None:
        self.subscriber: Subscriber[Any] | None = None

    def subscribe(self, subscriber: Subscriber[Any]) -> None:
        self.subscriber = subscriber


def map_facing_foreign_publisher(downstream: Subscriber[Any]) -> Subscriber[Any]:
    """The subscriber ``Flowable.from_publisher(p).map(f)`` hands a foreign Publisher."""
    p = _Capture()
    Flowable.from_publisher(p).map(lambda x: x).subscribe(downstream)
    assert p.subscriber is not None
    return p.subscriber


@pytest.mark.usefixtures("plugin_errors")  # §2.5 rules report the second Subscription
class _Whitebox(SubscriberWhiteboxVerification):
    """The subscriber under test: ``operator(downstream)`` in front of a ProbeDownstream."""
    env = ENV
    __test__ = False  # an intermediate class: its subclasses are the tests
    operator: Any

    def create_subscriber(self, probe: Any) -> Any:
        return self.operator(ProbeDownstream(probe))


@pytest.mark.usefixtures("plugin_errors")  # §2.5 rules report the second Subscription
class _Blackbox(SubscriberBlackboxVerification):
    """The subscriber under test: ``operator(downstream)`` in front of a RequestingDownstream."""
    env = ENV
    __test__ = False  # an intermediate class: its subclasses are the tests
    operator: Any

    def create_subscriber(self) -> Any:
        return self.operator(RequestingDownstream())


class TestBaseWhitebox(_Whitebox):
    operator = PassThrough


class TestBaseBlackbox(_Blackbox):
    operator = PassThrough


class TestMapSubscriberWhitebox(_Whitebox):
    operator = staticmethod(lambda downstream: MapSubscriber(downstream, lambda x: x))


class TestMapFacingForeignPublisherWhitebox(_Whitebox):
    operator = staticmethod(map_facing_foreign_publisher)


class TestMapFacingForeignPublisherBlackbox(_Blackbox):
    operator = staticmethod(map_facing_foreign_publisher)
