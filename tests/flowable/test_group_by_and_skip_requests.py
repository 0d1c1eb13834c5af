"""RxJava 2.2.21 fidelity of group_by (and skip): items, order, terminal events and the
exact upstream requests under scripted demand (issue 15, causes 6 and 8).

rebatch_requests' RxJava 2 signals and requests (cause 5) are pinned in
``test_hide_serialize_detach_rebatch.py`` (``test_rebatch_requests_pattern_*``,
``test_rebatch_requests_error_waits_behind_the_queued_items``,
``test_rebatch_requests_overflow_is_missing_backpressure``).
"""

from __future__ import annotations

from typing import Any

from probes import ManualSource

from rxpy2 import Flowable
from rxpy2.reactivestreams import LONG_MAX
from rxpy2.schedulers import Schedulers
from rxpy2.testing import TestSubscriber

# ------------------------------------------------------------------------- group_by


def test_group_by_groups_subscribed_after_observe_on_get_all_their_items():
    """RxJava 2.2.21 FlowableGroupBy: a group keeps its items until its subscriber
    comes, however late; so the groups flattened after ``observe_on`` are whole: three
    groups of ten (RxJava 3 would abandon each group: thirty groups of one)."""
    ts = Flowable.range(0, 30).group_by(lambda x: x % 3) \
        .observe_on(Schedulers.computation()) \
        .flat_map(lambda g: g.to_list().to_flowable()).test()
    ts.await_done(10)
    ts.assert_complete().assert_no_errors()
    assert sorted(ts.values()) == [list(range(k, 30, 3)) for k in range(3)]


def test_group_by_late_subscriber_requests_as_rxjava2():
    """RxJava 2.2.21 FlowableGroupBy: ``request(bufferSize)`` in ``onSubscribe``; each
    drain pass requests as many as it emitted (groups by the outer, items by a group);
    a group subscribed after the outer's ``onNext`` gets every item; the pass that
    delivers the completion requests nothing."""
    src = ManualSource()
    outer = src.group_by(lambda x: x % 2, buffer_size=4).test()
    assert src.requests == [4]
    src.emit(0, 1, 2)
    assert [g.key for g in outer.values()] == [0, 1]
    assert src.requests == [4, 1, 1]  # one per group emitted
    g0, g1 = outer.values()
    ts0 = g0.test(0)  # subscribed late, outside the outer's on_next
    assert src.requests == [4, 1, 1]
    ts0.request(1)
    ts0.assert_values(0)
    assert src.requests == [4, 1, 1, 1]
    ts0.request(5)
    ts0.assert_values(0, 2).assert_not_complete()
    assert src.requests == [4, 1, 1, 1, 1]
    ts1 = g1.test()
    ts1.assert_values(1)
    assert src.requests == [4, 1, 1, 1, 1, 1]
    src.emit(3, 4)
    assert src.requests == [4, 1, 1, 1, 1, 1, 1, 1]
    src.complete()
    ts0.assert_result(0, 2, 4)
    ts1.assert_result(1, 3)
    outer.assert_complete().assert_value_count(2)
    assert src.requests == [4, 1, 1, 1, 1, 1, 1, 1]


def test_group_by_items_wait_for_the_late_subscriber_then_completion():
    """RxJava 2.2.21 FlowableGroupBy: a completed group that was never subscribed keeps
    its items; its late subscriber gets them, under demand, then ``onComplete``, and the
    pass that completes asks the (finished) upstream for nothing."""
    src = ManualSource()
    outer = src.group_by(lambda x: x % 2, buffer_size=8).test()
    src.emit(0, 2, 4)
    src.complete()
    outer.assert_complete()
    assert src.requests == [8, 1]
    ts = outer.values()[0].test(2)
    ts.assert_values(0, 2).assert_not_complete()
    assert src.requests == [8, 1, 2]
    ts.request(1)
    ts.assert_result(0, 2, 4)
    assert src.requests == [8, 1, 2]


def test_group_by_error_drops_the_group_items_without_replenishing():
    """RxJava 2.2.21 FlowableGroupBy: without ``delayError`` a group's queued items are
    cleared at the error, and nothing is requested for them."""
    src = ManualSource()
    outer = src.group_by(lambda x: 0, buffer_size=8).test()
    src.emit(1, 2)
    src.error(ValueError("x"))
    outer.assert_error(ValueError)
    outer.values()[0].test().assert_failure(ValueError)
    assert src.requests == [8, 1]


class _CancelAfter(TestSubscriber[Any]):
    """Requests ``n`` and cancels from inside its ``k``-th ``on_next``."""

    def __init__(self, n: int, k: int) -> None:
        super().__init__(n)
        self.k = k

    def on_next(self, item: Any) -> None:
        super().on_next(item)
        if len(self.values()) == self.k:
            self.cancel()


def test_group_by_group_cancelled_in_on_next_replenishes_consumed_and_discarded_at_once():
    """RxJava 2.2.21 FlowableGroupBy: a group cancelled during its drain requests the
    items it emitted in that pass and the ones it discards in ONE request. (RxJava 2
    forgets the item it polled just before seeing the cancel; rxpy2 counts it, as
    RxJava 3 does: see docs/rxjava-differences.md.)"""
    src = ManualSource()
    outer = src.group_by(lambda x: 0, buffer_size=8).test()
    src.emit(1, 2, 3, 4)
    assert src.requests == [8, 1]
    ts = _CancelAfter(10, 2)
    outer.values()[0].subscribe(ts)
    ts.assert_values(1, 2)
    assert src.requests == [8, 1, 4]  # RxJava 2: [8, 1, 3]
    src.emit(5)  # a new group for the key
    assert len(outer.values()) == 2
    assert src.requests == [8, 1, 4, 1]


def test_group_by_unsubscribed_group_holds_the_upstream_as_in_rxjava2():
    """RxJava 2.2.21 FlowableGroupBy: a group nobody subscribes to keeps its items, so
    after ``bufferSize`` items the upstream is asked for nothing more; with
    ``abandon_unsubscribed=True`` (RxJava 3's rule) each group is abandoned instead."""
    requests: list[int] = []
    ts = Flowable.range(0, 100).do_on_request(requests.append) \
        .group_by(lambda x: x % 2, buffer_size=16).test()
    ts.assert_value_count(2).assert_not_complete()
    assert requests == [16, 1, 1]
    # the evens go out and are replenished; the odds stay with the other group, each
    # one demand unit the upstream never gets back, until the odds fill it
    ts.values()[0].test().assert_values(*range(0, 36, 2)).assert_not_complete()
    assert requests == [16, 1, 1, 9, 5, 2, 1, 1]
    requests2: list[int] = []
    ts2 = Flowable.range(0, 100).do_on_request(requests2.append) \
        .group_by(lambda x: x % 2, buffer_size=16, abandon_unsubscribed=True).test()
    ts2.assert_value_count(100).assert_complete()


def test_group_by_race_late_subscribe_vs_items_of_its_key(race_runner, race_rounds):
    """A group subscribed on another thread while items of its key arrive: every item,
    in order, once; every item and the group replenished exactly once."""
    for _ in range(race_rounds):
        src = ManualSource()
        outer = src.group_by(lambda x: 0, buffer_size=16).test()
        src.emit(1)
        g = outer.values()[0]
        ts: TestSubscriber[Any] = TestSubscriber(LONG_MAX)
        race_runner.race(lambda g=g, ts=ts: g.subscribe(ts), lambda src=src: src.emit(2, 3, 4))
        ts.assert_values(1, 2, 3, 4)
        src.complete()
        ts.assert_result(1, 2, 3, 4).assert_protocol_ok()
        assert sum(src.requests) == 16 + 1 + 4


def test_group_by_race_late_request_vs_items_and_completion(race_runner, race_rounds):
    """A late subscriber's requests race the items and the completion: every item once,
    then one completion, whatever the interleaving."""
    for _ in range(race_rounds):
        src = ManualSource()
        outer = src.group_by(lambda x: 0, buffer_size=16).test()
        src.emit(1)
        ts = outer.values()[0].test(0)

        def produce(src=src):
            src.emit(2, 3)
            src.complete()

        def consume(ts=ts):
            for _ in range(3):
                ts.request(1)

        race_runner.race(produce, consume)
        ts.assert_result(1, 2, 3).assert_protocol_ok()
        assert sum(src.requests) <= 16 + 1 + 3


def test_group_by_race_items_straight_out_vs_requests_one_by_one(race_runner, race_rounds):
    """An item that finds its group's queue empty and demand there goes out at once (no
    queue round trip), on the emitting thread; a request on another thread drains what
    queued meanwhile. Every item once and in order, each replenished exactly once."""
    for _ in range(race_rounds):
        src = ManualSource()
        outer = src.group_by(lambda x: 0, buffer_size=16).test()
        src.emit(0)
        ts = outer.values()[0].test(0)

        def produce(src=src):
            for i in range(1, 12):
                src.emit(i)

        def consume(ts=ts):
            for _ in range(12):
                ts.request(1)

        race_runner.race(produce, consume)
        ts.assert_values(*range(12)).assert_protocol_ok()
        assert sum(src.requests) == 16 + 1 + 12  # the prefetch, the group, one per item


def test_group_by_race_items_straight_out_vs_group_cancel(race_runner, race_rounds):
    """The group's cancel on another thread races items going straight out: once cancel()
    returned, at most the one item already past the cancelled check arrives (§3.12: the
    signals stop eventually; no lock is held across on_next), none twice or out of order."""
    for _ in range(race_rounds):
        src = ManualSource()
        outer = src.group_by(lambda x: 0, buffer_size=16).test()
        src.emit(0)
        ts = outer.values()[0].test()
        after: list[int] = []

        def produce(src=src):
            for i in range(1, 8):
                src.emit(i)

        def cancel(ts=ts, after=after):
            ts.cancel()
            after.append(ts.value_count())

        race_runner.race(produce, cancel)
        assert ts.value_count() <= after[0] + 1  # at most the item in flight
        assert ts.values() == list(range(ts.value_count()))
        ts.assert_protocol_ok()


# ------------------------------------------------------------------------- skip


def test_skip_source_ending_within_the_skipped_items_completes_without_demand():
    """RxJava 2.2.21 FlowableSkip requests ``n`` in ``onSubscribe``: ``range(1, 1).skip(1)``
    after ``start_with(5)`` completes with ``request(1)`` (the skipped item needs no
    demand); rxpy2 used to wait for a request that never came."""
    Flowable.range(1, 1).skip(1).start_with(5).test(1).assert_result(5)
    Flowable.range(1, 1).skip(1).test(0).assert_result()
    Flowable.from_iterable([1, 2]).skip(2).test(0).assert_result()


def test_skip_requests_n_in_on_subscribe_then_passes_requests_through():
    """RxJava 2.2.21 FlowableSkip: the downstream's ``onSubscribe`` first (its request goes
    upstream as is), then ``request(n)``; later requests unchanged."""
    src = ManualSource()
    ts = src.skip(2).test(0)
    assert src.requests == [2]
    src.emit(1, 2)
    ts.assert_empty()
    ts.request(3)
    assert src.requests == [2, 3]
    src.emit(3, 4, 5)
    ts.assert_values(3, 4, 5)
    requests: list[int] = []
    Flowable.range(1, 5).do_on_request(requests.append).skip(2).test(1).assert_values(3)
    assert requests == [1, 2]


def test_skip_over_a_longer_range_fuses_and_agrees_with_the_operator():
    """Over a bare range longer than ``n`` the fused chain is indistinguishable from
    RxJava 2's operator (no user code or end within the skipped items)."""
    fused = Flowable.range(0, 6).skip(2)
    plain = Flowable.range(0, 6).hide().skip(2)
    for f in (fused, plain):
        ts = f.test(0)
        ts.assert_empty()
        ts.request(3)
        ts.assert_values(2, 3, 4).assert_not_complete()
        ts.request(1)
        ts.assert_result(2, 3, 4, 5)
