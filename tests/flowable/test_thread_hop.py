"""The thread hop ``subscribe_on(a).observe_on(b)``: batches, contracts, races, stress.

Over a source that fuses in SYNC mode, subscribe_on polls batches on its worker
straight into observe_on's queue (``range``: ``poll_many``, one ``deque.extend``
per batch); observe_on drains in runs and calls a ``LambdaSubscriber``'s function
directly. Every test here compares with what the ordinary (unfused) path gives:
``hide()`` before ``subscribe_on`` keeps the source from fusing.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable

import pytest

from rxpy2 import Flowable
from rxpy2._internal.fuseable import NONE
from rxpy2._internal.fuseable import SYNC
from rxpy2._internal.fuseable import QueueSubscription
from rxpy2._internal.operators.flowable.flowable_observe_on import ObserveOnSubscriber
from rxpy2._internal.operators.flowable.flowable_range import _BaseRangeSubscription
from rxpy2._internal.operators.flowable.flowable_subscribe_on import SubscribeOnSubscriber
from rxpy2.reactivestreams import LONG_MAX
from rxpy2.reactivestreams import Publisher
from rxpy2.reactivestreams import Subscriber
from rxpy2.reactivestreams import Subscription
from rxpy2.schedulers import Schedulers
from rxpy2.schedulers import TestScheduler
from rxpy2.schedulers.new_thread_scheduler import NewThreadScheduler

pytestmark = pytest.mark.usefixtures("shutdown_schedulers")

#: items per stress run (RXPY2_HOP_STRESS_ITEMS for longer hunts)
STRESS = int(os.environ.get("RXPY2_HOP_STRESS_ITEMS", "400000"))


@pytest.fixture
def two_threads():
    a, b = NewThreadScheduler(), NewThreadScheduler()
    yield a, b
    a.shutdown()
    b.shutdown()


@pytest.fixture
def polls(monkeypatch):
    """Every ``poll_many(k)`` call on a range subscription, as (index before, k)."""
    log: list[tuple[int, int]] = []
    original = _BaseRangeSubscription.poll_many

    def spy(self, limit):
        log.append((self.index, limit))
        return original(self, limit)

    monkeypatch.setattr(_BaseRangeSubscription, "poll_many", spy)
    return log


@pytest.fixture
def range_requests(monkeypatch):
    """Every ``request(n)`` a range subscription receives."""
    log: list[int] = []
    original = _BaseRangeSubscription.request

    def spy(self, n):
        log.append(n)
        return original(self, n)

    monkeypatch.setattr(_BaseRangeSubscription, "request", spy)
    return log


def outcome(ts) -> tuple[list, list[str], int]:
    return ts.values(), [f"{type(e).__name__}: {e}" for e in ts.errors()], ts.completions()


def rxpy2_threads() -> set[str]:
    return {t.name for t in threading.enumerate() if t.is_alive() and t.name.startswith("rxpy2-")}


# ---------------------------------------------------------------- the batched path

def test_fused_hop_polls_batches_on_the_producer_thread(two_threads, polls, range_requests):
    a, b = two_threads
    seen: set[str] = set()
    ts = (Flowable.range(0, 10_000).subscribe_on(a).observe_on(b)
          .do_on_next(lambda _: seen.add(threading.current_thread().name)).test())
    ts.await_done(10).assert_value_sequence(list(range(10_000))).assert_complete()
    assert range_requests == []  # SYNC fusion: the consumer pulls, nothing requests
    assert polls[0] == (0, 128) and all(k == 96 for _, k in polls[1:])
    assert len(seen) == 1 and next(iter(seen)).startswith("rxpy2-newthread-")


def test_fused_chain_runs_its_functions_on_the_subscribe_on_thread(two_threads):
    a, b = two_threads
    for fuse in (True, False):
        mapped_on: set[str] = set()
        consumed_on: set[str] = set()

        def f(x: int, mapped_on=mapped_on) -> int:
            mapped_on.add(threading.current_thread().name)
            return x * 2

        src = Flowable.range(0, 1000) if fuse else Flowable.range(0, 1000).hide()
        ts = src.map(f).filter(lambda x: x % 3 != 0).subscribe_on(a).observe_on(b) \
            .do_on_next(lambda _, c=consumed_on: c.add(threading.current_thread().name)).test()
        ts.await_done(10).assert_value_sequence(
            [x * 2 for x in range(1000) if (x * 2) % 3 != 0]).assert_complete()
        # the functions run on subscribe_on's thread (its worker polls), the consumer on
        # observe_on's: fused or not
        assert len(mapped_on) == 1 and len(consumed_on) == 1 and mapped_on != consumed_on
        assert all(n.startswith("rxpy2-newthread-") for n in mapped_on | consumed_on)


def test_request_pattern_in_virtual_time(polls):
    s1, s2 = TestScheduler(), TestScheduler()
    ts = Flowable.range(0, 1000).subscribe_on(s1).observe_on(s2).test(0)
    s1.trigger_actions()
    assert polls == [(0, 128)]  # observe_on's prefetch, polled on the worker
    s2.trigger_actions()
    ts.assert_no_values()
    ts.request(95)
    s2.trigger_actions()
    assert ts.value_count() == 95 and polls == [(0, 128)]
    ts.request(1)
    s2.trigger_actions()  # the 96th item: the replenishing request, on this very thread
    assert polls == [(0, 128), (128, 96)]
    ts.request(10_000)
    for _ in range(40):
        s2.trigger_actions()
        s1.trigger_actions()
    ts.assert_value_sequence(list(range(1000))).assert_complete()
    assert sum(k for _, k in polls) >= 1000


def test_completion_at_a_batch_boundary_needs_no_more_demand(polls):
    s1, s2 = TestScheduler(), TestScheduler()
    ts = Flowable.range(0, 128).subscribe_on(s1).observe_on(s2).test(0)
    s1.trigger_actions()
    ts.request(128)
    s2.trigger_actions()
    ts.assert_value_sequence(list(range(128))).assert_complete()
    assert polls == [(0, 128)]


def test_requests_before_the_upstream_arrives_are_polled_once_it_does(polls):
    s1, s2 = TestScheduler(), TestScheduler()
    ts = Flowable.range(0, 10).subscribe_on(s1).observe_on(s2, buffer_size=4).test()
    assert polls == []  # observe_on's request(4) waits for the upstream
    s1.trigger_actions()
    assert polls[0] == (0, 4)
    for _ in range(10):
        s2.trigger_actions()
        s1.trigger_actions()
    ts.assert_result(*range(10))


def test_the_subscriber_sees_fused_only_under_observe_on():
    s1 = TestScheduler()
    grabbed: list[SubscribeOnSubscriber] = []
    original = SubscribeOnSubscriber.run

    def run(self):
        grabbed.append(self)
        original(self)

    SubscribeOnSubscriber.run = run  # type: ignore[method-assign]
    try:
        Flowable.range(0, 5).subscribe_on(s1).test()
        Flowable.range(0, 5).subscribe_on(s1).observe_on(Schedulers.trampoline()).test()
        Flowable.range(0, 5).hide().subscribe_on(s1).observe_on(Schedulers.trampoline()).test()
        s1.trigger_actions()
    finally:
        SubscribeOnSubscriber.run = original  # type: ignore[method-assign]
    assert [p.fused is not None for p in grabbed] == [False, True, False]


# ---------------------------------------------------------------- fused equals unfused

def _failing_generator():
    yield from range(200)
    raise OSError("gone")


SOURCES: dict[str, Callable[[], Flowable[int]]] = {
    "range": lambda: Flowable.range(0, 1000),
    "empty-range": lambda: Flowable.range(5, 0),
    "just": lambda: Flowable.just(7),
    "from_iterable": lambda: Flowable.from_iterable(list(range(300))),
    "generator": lambda: Flowable.from_iterable(x for x in range(300)),
    "range.map": lambda: Flowable.range(0, 500).map(lambda x: x + 1),
    "range.filter": lambda: Flowable.range(0, 500).filter(lambda x: x % 7 == 0),
    "map-raises": lambda: Flowable.range(0, 500).map(lambda x: 1 // (x - 250)),
    "filter-ends-short": lambda: Flowable.range(0, 200).filter(lambda x: x < 130),
    "generator-raises": lambda: Flowable.from_iterable(_failing_generator()),
}


@pytest.mark.parametrize("delay_error", [False, True])
@pytest.mark.parametrize("prefetch", [1, 2, 3, 16, 128])
@pytest.mark.parametrize("name", list(SOURCES))
def test_fused_equals_unfused(two_threads, name, prefetch, delay_error):
    a, b = two_threads
    make = SOURCES[name]
    fused = make().subscribe_on(a).observe_on(b, delay_error, prefetch).test()
    plain = make().hide().subscribe_on(a).observe_on(b, delay_error, prefetch).test()
    fv, fe, fc = outcome(fused.await_done(20))
    pv, pe, pc = outcome(plain.await_done(20))
    assert (fe, fc) == (pe, pc)
    if delay_error or not pe:
        assert fv == pv
    else:  # the error may overtake queued items: both are prefixes of the same sequence
        assert fv == pv[:len(fv)] or pv == fv[:len(pv)]
    fused.assert_protocol_ok()


def test_poll_error_after_items_with_delay_error(two_threads):
    a, b = two_threads
    ts = Flowable.range(0, 300).map(lambda x: 1 // (x - 200) and x) \
        .subscribe_on(a).observe_on(b, delay_error=True).test()
    ts.await_done(10).assert_failure(ZeroDivisionError, *range(200))


def test_poll_error_cancels_the_source(two_threads):
    a, b = two_threads
    calls = [0]

    def f(x: int) -> int:
        calls[0] += 1
        if x == 10:
            raise ValueError("ten")
        return x

    ts = Flowable.range(0, 1000).map(f).subscribe_on(a).observe_on(b, True).test()
    ts.await_done(10).assert_failure(ValueError, *range(10))
    time.sleep(0.05)
    assert calls[0] == 11  # nothing is polled after the error


class _StopIterationAt(Flowable[int]):
    """0..n-1, SYNC-fusable, whose ``poll`` raises ``StopIteration`` at ``at`` (an error
    there, as a user function's would be: not the end)."""

    def __init__(self, n: int, at: int) -> None:
        self.n, self.at = n, at

    def subscribe_actual(self, subscriber: Subscriber[int]) -> None:
        subscriber.on_subscribe(_StopIterationSubscription(self))


class _StopIterationSubscription(QueueSubscription[int]):
    def __init__(self, parent: _StopIterationAt) -> None:
        self.parent = parent
        self.index = 0

    def request_fusion(self, mode: int) -> int:
        return SYNC if mode & SYNC else NONE

    def poll(self) -> int | None:
        i = self.index
        if i == self.parent.n:
            return None
        self.index = i + 1
        if i == self.parent.at:
            raise StopIteration(f"at {i}")
        return i

    def is_empty(self) -> bool:
        return self.index == self.parent.n

    def clear(self) -> None:
        self.index = self.parent.n

    def request(self, n: int) -> None:
        raise AssertionError("a SYNC-fused source is never requested from")

    def cancel(self) -> None:
        pass


def test_a_stop_iteration_from_poll_is_an_error_not_the_end(two_threads):
    a, b = two_threads
    ts = _StopIterationAt(500, 250).subscribe_on(a).observe_on(b, delay_error=True).test()
    ts.await_done(10).assert_failure(StopIteration, *range(250))


# ---------------------------------------------------------------- cancellation, threads

def test_take_cancels_the_hop_and_its_threads_end(two_threads, polls):
    a, b = two_threads
    before = rxpy2_threads()
    ts = Flowable.range(0, 1_000_000).subscribe_on(a).observe_on(b).take(300).test()
    ts.await_done(10).assert_value_sequence(list(range(300))).assert_complete()
    deadline = time.monotonic() + 5
    while rxpy2_threads() - before and time.monotonic() < deadline:
        time.sleep(0.01)
    assert not (rxpy2_threads() - before)  # both new threads ended (workers disposed)
    assert sum(k for _, k in polls) <= 300 + 128 + 96  # stopped within a batch or two


def test_cancel_before_the_worker_runs_polls_nothing(polls):
    s1 = TestScheduler()
    ts = Flowable.range(0, 100).subscribe_on(s1).observe_on(Schedulers.trampoline()).test()
    ts.cancel()
    s1.trigger_actions()
    assert polls == []
    ts.assert_no_values().assert_not_terminated()


def test_cancel_between_batches_stops_polling(polls):
    s1 = TestScheduler()
    ts = Flowable.range(0, 1000).subscribe_on(s1) \
        .observe_on(Schedulers.trampoline(), buffer_size=8).test(0)
    s1.trigger_actions()  # this thread is the worker's now
    # from another thread: the 6th item asks for 6 more, a request scheduled on s1
    t = threading.Thread(target=lambda: ts.request(6))
    t.start()
    t.join()
    ts.cancel()
    s1.trigger_actions()  # the worker was disposed: the request never runs
    assert polls == [(0, 8)]
    ts.assert_value_sequence(list(range(6))).assert_not_terminated()


# ---------------------------------------------------------------- LambdaSubscriber direct

def test_subscribe_with_functions_gets_every_item(two_threads):
    a, b = two_threads
    got: list[int] = []
    done = threading.Event()
    Flowable.range(0, 5000).hide().observe_on(b).subscribe(got.append, None, done.set)
    assert done.wait(10)
    assert got == list(range(5000))
    got2: list[int] = []
    done2 = threading.Event()
    Flowable.range(0, 5000).subscribe_on(a).observe_on(b).subscribe(got2.append, None, done2.set)
    assert done2.wait(10)
    assert got2 == list(range(5000))


HOPS: dict[str, Callable[[Flowable[int], NewThreadScheduler], Flowable[int]]] = {
    "batched": lambda f, a: f.subscribe_on(a),  # run_queue, fed by subscribe_on's batches
    "queue": lambda f, a: f.hide(),  # run_queue, fed item by item
    "sync": lambda f, a: f,  # run_sync: observe_on's worker polls the source itself
}


@pytest.mark.parametrize("hop", list(HOPS))
def test_on_next_function_raising_goes_to_on_error_and_cancels(two_threads, plugin_errors,
                                                               hop):
    a, b = two_threads
    got: list[int] = []
    errors: list[BaseException] = []
    done = threading.Event()
    polled = [0]

    def on_next(x: int) -> None:
        if x == 50:
            raise KeyError("fifty")
        got.append(x)

    def count(x: int) -> int:
        polled[0] += 1
        return x

    def on_error(e: BaseException) -> None:
        errors.append(e)
        done.set()

    HOPS[hop](Flowable.range(0, 100_000).map(count), a).observe_on(b).subscribe(
        on_next, on_error, lambda: errors.append(AssertionError("completed")))
    assert done.wait(10)
    time.sleep(0.05)
    assert got == list(range(50))
    assert len(errors) == 1 and isinstance(errors[0], KeyError)
    assert polled[0] <= 128 + 96 + 96  # the upstream was cancelled
    assert plugin_errors == []


@pytest.mark.parametrize("hop", list(HOPS))
def test_dispose_inside_the_function_stops_at_once(two_threads, hop):
    a, b = two_threads
    got: list[int] = []
    holder: list = []
    stopped = threading.Event()

    def on_next(x: int) -> None:
        got.append(x)
        if x == 4:
            holder[0].dispose()
            stopped.set()

    holder.append(HOPS[hop](Flowable.range(0, 10_000), a).observe_on(b).subscribe(on_next))
    assert stopped.wait(10)
    time.sleep(0.05)
    assert got == [0, 1, 2, 3, 4]


# ---------------------------------------------------------------- §2.13 without the layer

class _Raw(Publisher[int]):
    def __init__(self) -> None:
        self.subscriber: Subscriber[int] | None = None

    def subscribe(self, subscriber: Subscriber[int]) -> None:
        self.subscriber = subscriber
        subscriber.on_subscribe(_NoOp())


class _NoOp(Subscription):
    def request(self, n: int) -> None:
        pass

    def cancel(self) -> None:
        pass


@pytest.mark.parametrize("under_observe_on", [False, True])
def test_a_none_item_is_refused(under_observe_on):
    s1 = TestScheduler()
    raw = _Raw()
    f = Flowable.from_publisher(raw).subscribe_on(s1)
    if under_observe_on:
        f = f.observe_on(Schedulers.trampoline())
    f.test()
    s1.trigger_actions()
    assert raw.subscriber is not None
    sub = raw.subscriber
    while not isinstance(sub, SubscribeOnSubscriber):  # the layer right above the source
        sub = sub.downstream  # type: ignore[attr-defined]
    with pytest.raises(TypeError):
        sub.on_next(None)  # type: ignore[arg-type]
    if under_observe_on:
        assert isinstance(sub.downstream, ObserveOnSubscriber)


# ---------------------------------------------------------------- races

def test_race_cancel_vs_pull(race_runner, race_rounds):
    for _ in range(race_rounds):
        s1 = TestScheduler()
        ts = Flowable.range(0, 64).subscribe_on(s1) \
            .observe_on(Schedulers.trampoline(), buffer_size=16).test()
        race_runner.race(s1.trigger_actions, ts.cancel)
        n = ts.value_count()
        ts.assert_value_sequence(list(range(n))).assert_no_errors().assert_not_complete()
        s1.trigger_actions()
        assert ts.value_count() == n  # nothing after the cancel
        ts.assert_protocol_ok()


def test_race_request_vs_complete(race_runner, race_rounds):
    for _ in range(race_rounds):
        s1 = TestScheduler()
        ts = Flowable.range(0, 10).subscribe_on(s1) \
            .observe_on(Schedulers.trampoline(), buffer_size=16).test(0)
        race_runner.race(s1.trigger_actions, lambda ts=ts: ts.request(10))
        ts.assert_result(*range(10)).assert_protocol_ok()


def test_race_pull_vs_consumer_parking(race_runner, race_rounds):
    # each trigger of s1 polls a batch into the queue (this thread), racing the demand of
    # the other thread and observe_on's real worker leaving its drain; the replenishing
    # requests come from that worker's thread, so they wait on s1 for the next trigger.
    # No item may be stranded in the queue (a missed wake-up), none lost or doubled.
    worker = NewThreadScheduler()
    try:
        for _ in range(race_rounds // 4):
            s1 = TestScheduler()
            ts = Flowable.range(0, 24).subscribe_on(s1).observe_on(worker, buffer_size=4).test(0)
            s1.trigger_actions()  # subscribes, polls the first 4
            for _ in range(12):
                race_runner.race(s1.trigger_actions, lambda ts=ts: ts.request(3))
            ts.request(LONG_MAX)
            deadline = time.monotonic() + 5
            while not ts.is_terminated() and time.monotonic() < deadline:
                s1.trigger_actions()
                time.sleep(0.0005)
            ts.assert_result(*range(24)).assert_protocol_ok()
    finally:
        worker.shutdown()


def test_race_cancel_vs_drain_with_function_subscriber(race_runner, race_rounds):
    for _ in range(race_rounds):
        s1 = TestScheduler()
        got: list[int] = []
        d = Flowable.range(0, 32).subscribe_on(s1) \
            .observe_on(Schedulers.trampoline(), buffer_size=8).subscribe(got.append)
        race_runner.race(s1.trigger_actions, d.dispose)
        n = len(got)
        assert got == list(range(n))
        s1.trigger_actions()
        assert len(got) == n


# ---------------------------------------------------------------- stress

@pytest.mark.timeout(600)
@pytest.mark.parametrize("fused", [True, False], ids=["fused", "queue"])
@pytest.mark.parametrize("prefetch", [2, 3, 128])
def test_stress_across_the_hop(two_threads, prefetch, fused):
    a, b = two_threads
    n = STRESS if prefetch == 128 else STRESS // 4
    src = Flowable.range(0, n) if fused else Flowable.range(0, n).hide()
    count = [0]
    total = [0]
    done = threading.Event()
    errors: list[BaseException] = []

    def on_next(x: int) -> None:
        if x != count[0]:
            errors.append(AssertionError(f"item {x} at position {count[0]}"))
        count[0] += 1
        total[0] += x

    def on_error(e: BaseException) -> None:
        errors.append(e)
        done.set()

    src.subscribe_on(a).observe_on(b, buffer_size=prefetch).subscribe(on_next, on_error, done.set)
    assert done.wait(500), f"stalled at {count[0]} of {n}: a missed wake-up"
    assert errors == []
    assert count[0] == n and total[0] == n * (n - 1) // 2


@pytest.mark.parametrize("prefetch", [1, 3, 128])
def test_batches_into_an_output_fused_observe_on(two_threads, prefetch):
    # the second observe_on fuses ASYNC with the first, which is fed by subscribe_on's
    # batches: its poll replenishes (75% of prefetch) through subscribe_on's pull
    a, b = two_threads
    c = NewThreadScheduler()
    try:
        ts = Flowable.range(0, 5000).subscribe_on(a).observe_on(b, buffer_size=prefetch) \
            .observe_on(c, buffer_size=prefetch).test()
        ts.await_done(20).assert_value_sequence(list(range(5000))).assert_complete()
        ts2 = Flowable.range(0, 500).map(lambda x: 1 // (x - 300) and x).subscribe_on(a) \
            .observe_on(b, True, prefetch).observe_on(c, True, prefetch).test()
        ts2.await_done(20).assert_failure(ZeroDivisionError, *range(300))
    finally:
        c.shutdown()
