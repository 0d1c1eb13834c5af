"""ParallelFlowable: dispatch under per-rail demand, the per-rail operators, the joins."""

from __future__ import annotations

import os
import random

import pytest
from probes import Manual
from probes import ManualSource
from probes import Recorded
from probes import RequestOneInOnNext
from probes import SyncFusedProbe
from probes import boom

from rxpy2 import Flowable
from rxpy2 import ParallelFlowable
from rxpy2 import UnicastProcessor
from rxpy2 import plugins
from rxpy2._internal.fuseable import ANY
from rxpy2._internal.fuseable import BOUNDARY
from rxpy2.exceptions import CompositeException
from rxpy2.exceptions import MissingBackpressureException
from rxpy2.reactivestreams import LONG_MAX
from rxpy2.reactivestreams import Subscriber
from rxpy2.reactivestreams import Subscription
from rxpy2.schedulers import TestScheduler
from rxpy2.testing import TestSubscriber


def inc(x: int) -> int:
    return x + 1


def even(x: int) -> bool:
    return x % 2 == 0


def add(a: int, b: int) -> int:
    return a + b


def rails(n: int, initial_request: int = LONG_MAX) -> list[TestSubscriber]:
    return [TestSubscriber(initial_request) for _ in range(n)]


def _flat_map_available() -> None:
    pytest.importorskip("rxpy2._internal.operators.flowable.flowable_flat_map",
                        reason="Flowable.flat_map is not written yet")


# ---------------------------------------------------------------- values


@pytest.mark.parametrize("n", [1, 2, 3, 7])
def test_sequential_gives_every_item_once(n):
    ts = Flowable.range(0, 100).parallel(n).sequential().test()
    ts.assert_complete().assert_no_errors().assert_protocol_ok()
    assert sorted(ts.values()) == list(range(100))


@pytest.mark.parametrize("n", [1, 2, 5])
def test_sequential_unfused_source(n):
    ts = Flowable.range(0, 1000).hide().parallel(n, prefetch=7).sequential(prefetch=3).test()
    ts.assert_complete().assert_no_errors()
    assert sorted(ts.values()) == list(range(1000))


def test_to_flowable_is_sequential():
    ts = Flowable.range(0, 10).parallel(2).to_flowable().test()
    assert sorted(ts.values()) == list(range(10))
    ts.assert_complete()


def test_parallelism_property_and_default():
    assert Flowable.range(0, 3).parallel(5).parallelism == 5
    assert Flowable.range(0, 3).parallel(5).map(inc).filter(even).parallelism == 5
    assert Flowable.range(0, 3).parallel().parallelism == (os.cpu_count() or 1)
    assert ParallelFlowable.from_publishers(Flowable.just(1), Flowable.just(2)).parallelism == 2


def test_empty_source_completes_every_rail():
    subs = rails(3)
    Flowable.empty().parallel(3).subscribe(subs)
    for ts in subs:
        ts.assert_result()


def test_map_filter_do_on_next_values():
    seen: list[int] = []
    ts = (Flowable.range(0, 100).parallel(3).map(inc).filter(even).do_on_next(seen.append)
          .sequential().test())
    ts.assert_complete()
    assert sorted(ts.values()) == [x for x in range(1, 101) if x % 2 == 0]
    assert sorted(seen) == sorted(ts.values())


def test_round_robin_when_every_rail_has_demand():
    subs = rails(3)
    Flowable.range(0, 9).parallel(3).subscribe(subs)
    assert [ts.values() for ts in subs] == [[0, 3, 6], [1, 4, 7], [2, 5, 8]]
    for ts in subs:
        ts.assert_complete()


def test_from_publishers_one_publisher_per_rail():
    subs = rails(2)
    ParallelFlowable.from_publishers(Flowable.just(1, 2), Flowable.range(10, 3)).subscribe(subs)
    subs[0].assert_result(1, 2)
    subs[1].assert_result(10, 11, 12)


def test_from_publisher_static():
    ts = ParallelFlowable.from_publisher(Flowable.range(0, 10), 4).sequential().test()
    assert sorted(ts.values()) == list(range(10))


def test_reduce_sums_every_item():
    Flowable.range(1, 100).parallel(3).reduce(add).test().assert_result(5050)


def test_reduce_of_an_empty_source_is_empty():
    Flowable.empty().parallel(3).reduce(add).test().assert_result()


def test_reduce_with_a_single_item_on_many_rails():
    Flowable.just(7).parallel(4).reduce(add).test().assert_result(7)


def test_reduce_waits_for_demand():
    ts = Flowable.range(1, 10).parallel(2).reduce(add).test(0)
    ts.assert_no_values().assert_not_complete()
    ts.request(1)
    ts.assert_result(55)


def test_reduce_with_per_rail():
    subs = rails(3)
    Flowable.range(0, 10).parallel(3).reduce_with(list, lambda acc, x: [*acc, x]).subscribe(subs)
    assert [ts.values() for ts in subs] == [[[0, 3, 6, 9]], [[1, 4, 7]], [[2, 5, 8]]]
    for ts in subs:
        ts.assert_complete()


def test_reduce_with_seed_per_rail_and_empty_rails_emit_the_seed():
    calls: list[int] = []

    def seed() -> int:
        calls.append(1)
        return 100

    ts = Flowable.just(1).parallel(3).reduce_with(seed, add).sequential().test()
    assert sorted(ts.values()) == [100, 100, 101]
    assert len(calls) == 3


def test_reduce_with_emits_under_rail_demand():
    subs = rails(2, 0)
    Flowable.range(0, 4).parallel(2).reduce_with(lambda: 0, add).subscribe(subs)
    subs[0].assert_no_values().assert_not_complete()
    subs[0].request(1)
    subs[0].assert_result(2)
    subs[1].assert_no_values()
    subs[1].request(5)
    subs[1].assert_result(4)


def test_collect_per_rail():
    ts = Flowable.range(0, 6).parallel(2).collect(list, list.append).sequential().test()
    assert sorted(ts.values()) == [[0, 2, 4], [1, 3, 5]]


def test_sorted_matches_sorted():
    rnd = random.Random(5)
    items = [rnd.randrange(1000) for _ in range(500)]
    Flowable.from_iterable(items).parallel(4).sorted().test().assert_value_sequence(
        sorted(items)).assert_complete()


def test_sorted_with_key_and_reverse():
    items = ["bbb", "a", "cc", "dddd", "eeeee", "ffffff"]  # distinct keys: one order
    Flowable.from_array(items).parallel(3).sorted(key=len, reverse=True).test() \
        .assert_value_sequence(sorted(items, key=len, reverse=True))
    Flowable.from_array(items).parallel(2).sorted(reverse=True).test() \
        .assert_value_sequence(sorted(items, reverse=True))


def test_sorted_equal_keys_go_to_the_lowest_rail_first():
    subs = ParallelFlowable.from_publishers(Flowable.just("b1", "b2"), Flowable.just("a1", "c1"))
    subs.sorted(key=lambda s: s[0]).test().assert_result("a1", "b1", "b2", "c1")
    ParallelFlowable.from_publishers(Flowable.just("x2"), Flowable.just("x1")) \
        .sorted(key=lambda s: s[0]).test().assert_result("x2", "x1")


def test_sorted_has_exact_backpressure():
    ts = Flowable.from_array([5, 3, 8, 1, 9, 2, 7]).parallel(3).sorted().test(0)
    ts.assert_no_values().assert_not_complete()
    ts.request(1)
    ts.assert_values(1).assert_not_complete()
    ts.request(3)
    ts.assert_values(1, 2, 3, 5).assert_not_complete()
    ts.request(3)  # the last items: completion needs no more demand
    ts.assert_result(1, 2, 3, 5, 7, 8, 9)


def test_sorted_empty():
    Flowable.empty().parallel(3).sorted().test().assert_result()


def test_to_sorted_list():
    rnd = random.Random(7)
    items = [rnd.randrange(100) for _ in range(300)]
    Flowable.from_iterable(items).parallel(3).to_sorted_list().test().assert_result(sorted(items))
    Flowable.from_iterable(items).parallel(3).to_sorted_list(key=lambda x: -x).test() \
        .assert_result(sorted(items, key=lambda x: -x))
    Flowable.from_iterable(items).parallel(4).to_sorted_list(reverse=True).test() \
        .assert_result(sorted(items, reverse=True))


def test_to_sorted_list_of_empty_source_is_one_empty_list():
    Flowable.empty().parallel(3).to_sorted_list().test().assert_result([])


def test_deep_synchronous_stream_with_one_by_one_requests():
    s = RequestOneInOnNext()
    Flowable.range(0, 20_000).parallel(3).sequential().subscribe(s)
    assert sorted(s.values) == list(range(20_000))
    assert s.completed == 1
    assert not s.errors


# ---------------------------------------------------------------- flat_map (Flowable.flat_map per rail)


def test_flat_map_values():
    _flat_map_available()
    ts = (Flowable.range(0, 10).parallel(3)
          .flat_map(lambda x: Flowable.range(x * 10, 3)).sequential().test())
    ts.assert_complete().assert_no_errors()
    assert sorted(ts.values()) == sorted(x * 10 + i for x in range(10) for i in range(3))


def test_flat_map_error_of_an_inner_ends_the_rail():
    _flat_map_available()
    subs = rails(2)
    err = ValueError("inner")
    Flowable.range(0, 4).parallel(2).flat_map(
        lambda x: Flowable.error(err) if x == 1 else Flowable.just(x)).subscribe(subs)
    subs[0].assert_result(0, 2, 3)  # rail 1 cancelled its rail: rail 0 gets the rest
    subs[1].assert_failure(ValueError)


def test_flat_map_delay_errors_and_max_concurrency():
    _flat_map_available()
    subs = rails(1)
    err = ValueError("inner")
    Flowable.range(0, 4).parallel(1).flat_map(
        lambda x: Flowable.error(err) if x == 1 else Flowable.just(x),
        delay_errors=True, max_concurrency=1).subscribe(subs)
    subs[0].assert_failure(ValueError, 0, 2, 3)


def test_flat_map_requests_max_concurrency_from_the_rail():
    _flat_map_available()
    rec = Recorded(0, 10)
    ts = (ParallelFlowable.from_publishers(rec.flowable)
          .flat_map(lambda x: Flowable.just(x), max_concurrency=2).sequential().test())
    ts.assert_complete()
    assert sorted(ts.values()) == list(range(10))
    assert rec.requests[0] == 2


# ---------------------------------------------------------------- request patterns


def test_source_gets_prefetch_then_75_percent():
    rec = Recorded(0, 100)
    ts = rec.flowable.parallel(2, prefetch=16).sequential().test()
    ts.assert_complete()
    assert rec.requests == [16] + [12] * (100 // 12)


def test_source_request_pattern_does_not_follow_rail_demand():
    rec = Recorded(0, 100)
    subs = rails(2, 0)
    rec.flowable.parallel(2, prefetch=16).subscribe(subs)
    assert rec.requests == [16]
    subs[0].request(5)
    subs[1].request(6)
    assert rec.requests == [16]  # 11 handed out: below the 12 of the replenish
    subs[1].request(1)
    assert rec.requests == [16, 12]
    assert len(subs[0].values()) == 5 and len(subs[1].values()) == 7


def test_rails_fed_round_robin_under_per_rail_demand():
    subs = rails(3, 0)
    Flowable.range(0, 10).hide().parallel(3).subscribe(subs)
    for ts in subs:
        ts.assert_no_values().assert_not_complete()
    subs[1].request(1)
    assert [ts.values() for ts in subs] == [[], [0], []]
    subs[0].request(2)
    assert [ts.values() for ts in subs] == [[1, 2], [0], []]
    subs[2].request(5)
    assert [ts.values() for ts in subs] == [[1, 2], [0], [3, 4, 5, 6, 7]]
    for ts in subs:
        ts.assert_not_complete()  # two items still wait
    subs[1].request(10)
    assert [ts.values() for ts in subs] == [[1, 2], [0, 8, 9], [3, 4, 5, 6, 7]]
    for ts in subs:
        ts.assert_complete()  # the queue is empty: completion reaches every rail


def test_fused_source_is_dispatched_under_demand_too():
    subs = rails(2, 0)
    Flowable.range(0, 4).parallel(2).subscribe(subs)
    subs[1].request(3)
    assert [ts.values() for ts in subs] == [[], [0, 1, 2]]
    subs[0].request(1)
    assert [ts.values() for ts in subs] == [[3], [0, 1, 2]]
    for ts in subs:
        ts.assert_complete()


def test_rail_requests_before_every_rail_is_subscribed_are_honoured():
    subs = rails(3, 2)
    Flowable.range(0, 6).parallel(3).subscribe(subs)
    assert [ts.values() for ts in subs] == [[0, 3], [1, 4], [2, 5]]


def test_filter_requests_one_per_dropped_item_on_its_rail():
    logs: list[list[int]] = [[], []]
    ts = (ParallelFlowable.from_publishers(
        Flowable.range(0, 10).do_on_request(logs[0].append),
        Flowable.range(10, 10).do_on_request(logs[1].append))
        .filter(lambda x: x % 3 == 0).sequential(prefetch=4).test())
    ts.assert_complete()
    assert sorted(ts.values()) == [0, 3, 6, 9, 12, 15, 18]
    for log in logs:
        assert log[0] == 4
        assert 1 in log  # a dropped item is replaced by request(1)


def test_filter_asks_its_rail_for_one_per_dropped_item_exactly():
    src = Manual()
    subs = rails(1, 2)
    ParallelFlowable.from_publishers(src).filter(even).subscribe(subs)
    assert src.probe.requests == [2]
    src.subscriber.on_next(1)
    assert src.probe.requests == [2, 1]
    src.subscriber.on_next(2)
    assert src.probe.requests == [2, 1]
    subs[0].assert_values(2)


def test_sequential_requests_prefetch_then_75_percent_per_rail():
    recs = [Recorded(0, 20), Recorded(100, 20)]
    ts = (ParallelFlowable.from_publishers(recs[0].flowable, recs[1].flowable)
          .sequential(prefetch=8).test())
    ts.assert_complete()
    assert sorted(ts.values()) == [*range(20), *range(100, 120)]
    for rec in recs:
        assert rec.requests == [8, 6, 6, 6]


def test_sequential_has_exact_backpressure():
    recs = [Recorded(0, 20), Recorded(100, 20)]
    ts = (ParallelFlowable.from_publishers(recs[0].flowable, recs[1].flowable)
          .sequential(prefetch=8).test(0))
    ts.assert_no_values()
    assert [r.requests for r in recs] == [[8], [8]]
    ts.request(3)
    assert len(ts.values()) == 3
    ts.request(10)
    assert len(ts.values()) == 13
    ts.assert_not_complete()
    ts.request(LONG_MAX)
    ts.assert_complete()
    assert sorted(ts.values()) == [*range(20), *range(100, 120)]


def test_sequential_keeps_each_rails_order():
    a, b = ManualSource(), ManualSource()
    ts = ParallelFlowable.from_publishers(a, b).sequential().test(0)
    a.emit(1, 2)
    b.emit(10)
    a.emit(3)
    ts.request(2)
    b.emit(11)
    a.emit(4)
    ts.request(LONG_MAX)
    a.emit(5)
    a.complete()
    b.complete()
    ts.assert_complete()
    values = ts.values()
    assert [x for x in values if x < 10] == [1, 2, 3, 4, 5]
    assert [x for x in values if x >= 10] == [10, 11]


# ---------------------------------------------------------------- errors


def test_upstream_error_reaches_every_rail():
    src = ManualSource()
    subs = rails(3)
    src.parallel(3).subscribe(subs)
    src.emit(1, 2)
    err = ValueError("up")
    src.error(err)
    subs[0].assert_failure(ValueError, 1)
    subs[1].assert_failure(ValueError, 2)
    subs[2].assert_failure(ValueError)
    assert all(ts.errors()[0] is err for ts in subs)


def test_upstream_error_overtakes_the_queued_items():
    src = ManualSource()
    subs = rails(2, 0)
    src.parallel(2).subscribe(subs)
    src.emit(1, 2, 3)
    src.error(ValueError("up"))
    for ts in subs:
        ts.assert_failure(ValueError)


def test_completion_waits_for_the_queued_items():
    src = ManualSource()
    subs = rails(2, 0)
    src.parallel(2).subscribe(subs)
    src.emit(1, 2)
    src.complete()
    for ts in subs:
        ts.assert_not_complete()
    subs[0].request(1)
    subs[0].assert_values(1).assert_not_complete()
    subs[1].request(1)
    subs[0].assert_result(1)
    subs[1].assert_result(2)


def test_sequential_error_cancels_the_other_rails():
    a, b = Manual(), Manual()
    ts = ParallelFlowable.from_publishers(a, b).sequential().test()
    a.subscriber.on_next(1)
    a.subscriber.on_error(ValueError("a"))
    ts.assert_failure(ValueError, 1)
    assert b.probe.cancelled == 1


def test_sequential_later_error_goes_to_plugins(plugin_errors):
    a, b = Manual(), Manual()
    ts = ParallelFlowable.from_publishers(a, b).sequential().test()
    a.subscriber.on_error(ValueError("a"))
    b.subscriber.on_error(KeyError("b"))
    ts.assert_failure(ValueError)
    assert [type(e) for e in plugin_errors.causes()] == [KeyError]


def test_sequential_same_upstream_error_from_every_rail_is_signalled_once():
    err = ValueError("up")
    ts = Flowable.error(err).parallel(3).sequential().test()
    ts.assert_failure(ValueError)
    assert ts.errors()[0] is err


def test_sequential_delay_error_keeps_the_other_rails_going():
    ts = ParallelFlowable.from_publishers(
        Flowable.just(1).concat_with(Flowable.error(ValueError("a"))),
        Flowable.range(10, 3)).sequential_delay_error().test()
    ts.assert_error(ValueError)
    assert sorted(ts.values()) == [1, 10, 11, 12]


def test_sequential_delay_error_collects_every_error():
    ts = ParallelFlowable.from_publishers(
        Flowable.error(ValueError("a")), Flowable.just(5),
        Flowable.error(KeyError("b"))).sequential_delay_error().test()
    ts.assert_error(CompositeException).assert_values(5)
    assert [type(e) for e in ts.errors()[0].exceptions] == [ValueError, KeyError]


def test_sequential_delay_error_same_upstream_error_kept_once():
    err = ValueError("up")
    ts = Flowable.error(err).parallel(3).sequential_delay_error().test()
    assert ts.errors() == [err]


def test_sequential_missing_backpressure():
    src = ManualSource()
    ts = ParallelFlowable.from_publishers(src).sequential(prefetch=2).test(0)
    src.emit(1, 2, 3)
    ts.assert_error(MissingBackpressureException).assert_no_values()
    assert src.cancelled


def test_sequential_delay_error_missing_backpressure():
    src = ManualSource()
    ts = ParallelFlowable.from_publishers(src, Flowable.just(9)).sequential_delay_error(
        prefetch=2).test(0)
    src.emit(1, 2, 3)
    assert src.cancelled
    ts.assert_not_complete().assert_no_errors()
    ts.request(10)
    ts.assert_error(MissingBackpressureException)
    assert sorted(ts.values()) == [1, 2, 9]


def test_dispatcher_missing_backpressure():
    src = ManualSource()
    subs = rails(2, 0)
    src.parallel(2, prefetch=2).subscribe(subs)
    src.emit(1, 2, 3)
    assert src.cancelled
    for ts in subs:
        ts.assert_error(MissingBackpressureException)


def test_reduce_rail_error_cancels_the_other_rails():
    a, b = Manual(), Manual()
    ts = ParallelFlowable.from_publishers(a, b).reduce(add).test()
    a.subscriber.on_error(ValueError("a"))
    ts.assert_failure(ValueError)
    assert b.probe.cancelled == 1


def test_sorted_rail_error():
    a, b = Manual(), Manual()
    ts = ParallelFlowable.from_publishers(a, b).sorted().test()
    b.subscriber.on_error(ValueError("b"))
    ts.assert_failure(ValueError)
    assert a.probe.cancelled == 1


# ---------------------------------------------------------------- user functions raising


def test_map_raising_ends_that_rail_and_cancels_its_upstream():
    subs = rails(2)
    Flowable.range(0, 4).parallel(2).map(lambda x: 1 // (x - 1)).subscribe(subs)
    subs[0].assert_result(-1, 1, 0)  # the other rail goes on and gets the rest
    subs[1].assert_failure(ZeroDivisionError)


def test_map_raising_through_sequential_cancels_the_source():
    rec = Recorded(0, 100)
    ts = rec.flowable.parallel(2).map(boom).sequential().test()
    ts.assert_failure(ZeroDivisionError)
    assert rec.cancels == [1]


def test_map_returning_none():
    ts = Flowable.range(0, 5).parallel(2).map(lambda x: None).sequential().test()
    ts.assert_failure(TypeError)


def test_filter_raising():
    rec = Recorded(0, 100)
    rec.flowable.parallel(3).filter(boom).sequential().test().assert_failure(ZeroDivisionError)
    assert rec.cancels == [1]


def test_do_on_next_raising():
    rec = Recorded(0, 100)
    rec.flowable.parallel(3).do_on_next(boom).sequential().test() \
        .assert_failure(ZeroDivisionError)
    assert rec.cancels == [1]


def test_reduce_reducer_raising():
    rec = Recorded(0, 100)
    rec.flowable.parallel(2).reduce(boom).test().assert_failure(ZeroDivisionError)
    assert rec.cancels == [1]


def test_reduce_reducer_raising_when_combining_rails():
    calls = []

    def reducer(a: int, b: int) -> int:
        calls.append(1)
        if len(calls) > 2:  # 2 items per rail: the third call combines two rails
            raise ZeroDivisionError("combine")
        return a + b

    Flowable.range(0, 4).parallel(2).reduce(reducer).test().assert_failure(ZeroDivisionError)


def test_reduce_reducer_returning_none():
    Flowable.range(0, 4).parallel(2).reduce(lambda a, b: None).test().assert_failure(TypeError)


def test_reduce_with_seed_supplier_raising_fails_every_rail():
    src = ManualSource()
    subs = rails(3)
    src.parallel(3).reduce_with(boom, add).subscribe(subs)
    for ts in subs:
        ts.assert_failure(ZeroDivisionError)
    assert src.subscriptions == 0


def test_reduce_with_seed_supplier_returning_none():
    subs = rails(2)
    Flowable.range(0, 4).parallel(2).reduce_with(lambda: None, add).subscribe(subs)
    for ts in subs:
        ts.assert_failure(TypeError)


def test_reduce_with_reducer_raising():
    rec = Recorded(0, 10)
    subs = rails(1)
    rec.flowable.parallel(1).reduce_with(lambda: 0, boom).subscribe(subs)
    subs[0].assert_failure(ZeroDivisionError)
    assert rec.cancels == [1]


def test_sorted_key_raising():
    rec = Recorded(0, 10)
    rec.flowable.parallel(2).sorted(key=boom).test().assert_failure(ZeroDivisionError)


def test_sorted_items_that_do_not_compare():
    Flowable.from_array([1, "a", 2, "b"]).parallel(2).sorted().test() \
        .assert_error(TypeError)


def test_sorted_merge_items_that_do_not_compare():
    # each rail sorts fine; only the merge compares an int with a str
    ParallelFlowable.from_publishers(Flowable.just(1, 2), Flowable.just("a")).sorted().test() \
        .assert_error(TypeError)


# ---------------------------------------------------------------- cancellation


def test_cancelling_one_rail_leaves_the_source_alone():
    src = ManualSource()
    subs = rails(2)
    src.parallel(2).subscribe(subs)
    subs[0].cancel()
    assert not src.cancelled
    src.emit(1, 2, 3)
    subs[0].assert_no_values()
    subs[1].assert_values(1, 2, 3)  # the cancelled rail is skipped


def test_cancelling_every_rail_cancels_the_source_once():
    src = ManualSource()
    subs = rails(3)
    src.parallel(3).subscribe(subs)
    subs[0].cancel()
    subs[1].cancel()
    subs[0].cancel()
    assert not src.cancelled
    subs[2].cancel()
    assert src.cancels == 1


def test_sequential_cancel_reaches_the_source():
    rec = Recorded(0, 100)
    ts = rec.flowable.parallel(3).map(inc).sequential().test(0)
    ts.request(5)
    ts.cancel()
    assert rec.cancels == [1]
    assert len(ts.values()) == 5


def test_sorted_and_reduce_cancel_reach_the_source():
    src = ManualSource()
    src.parallel(2).sorted().test().cancel()
    assert src.cancels == 1
    src2 = ManualSource()
    src2.parallel(2).reduce(add).test().cancel()
    assert src2.cancels == 1


def test_cancel_inside_on_subscribe_of_every_rail():
    src = ManualSource()
    subs = rails(2)
    for ts in subs:  # cancelled before subscribing: they cancel in on_subscribe
        ts.cancel()
    src.parallel(2).subscribe(subs)
    assert src.cancels == 1


# ---------------------------------------------------------------- fusion


def test_sync_fused_source_is_polled_without_requests():
    src = SyncFusedProbe(10)
    ts = src.parallel(3).sequential().test()
    ts.assert_complete()
    assert sorted(ts.values()) == list(range(10))
    assert src.modes == [ANY | BOUNDARY]
    assert src.requests == []


def test_sync_fused_source_poll_raising_fails_every_rail():
    src = SyncFusedProbe(10, fail_at=4)
    subs = rails(2)
    src.parallel(2).subscribe(subs)
    subs[0].assert_failure(ValueError, 0, 2)
    subs[1].assert_failure(ValueError, 1, 3)
    assert src.cancelled == 1


def test_async_fused_source():
    up: UnicastProcessor[int] = UnicastProcessor.create()
    subs = rails(2, 0)
    up.parallel(2).subscribe(subs)
    for i in range(5):
        up.on_next(i)
    up.on_complete()
    subs[1].request(1)
    subs[1].assert_values(0).assert_not_complete()
    subs[0].request(10)  # rail 1 has no demand left: rail 0 takes the rest
    subs[0].assert_result(1, 2, 3, 4)
    subs[1].assert_result(0)


# ---------------------------------------------------------------- subscribing


def test_subscriber_count_mismatch_errors_every_subscriber():
    src = ManualSource()
    subs = rails(2)
    src.parallel(3).subscribe(subs)
    for ts in subs:
        ts.assert_subscribed().assert_error(ValueError).assert_no_values()
    assert src.subscriptions == 0
    subs = rails(4)
    src.parallel(3).map(inc).subscribe(subs)
    for ts in subs:
        ts.assert_error(ValueError)


def test_subscribe_with_none():
    p = Flowable.range(0, 3).parallel(2)
    with pytest.raises(TypeError):
        p.subscribe(None)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        p.subscribe([TestSubscriber(), None])  # type: ignore[list-item]


class PlainSubscriber(Subscriber[int]):
    def __init__(self) -> None:
        self.values: list[int] = []
        self.done = False

    def on_subscribe(self, s: Subscription) -> None:
        s.request(LONG_MAX)

    def on_next(self, item: int) -> None:
        self.values.append(item)

    def on_error(self, error: BaseException) -> None:
        raise AssertionError(error)

    def on_complete(self) -> None:
        self.done = True


def test_plain_subscribers_are_accepted():
    subs = [PlainSubscriber(), PlainSubscriber()]
    Flowable.range(0, 4).parallel(2).subscribe(subs)
    assert [s.values for s in subs] == [[0, 2], [1, 3]]
    assert all(s.done for s in subs)


def test_assembly_hooks():
    seen: list[str] = []

    def hook(p):
        seen.append(type(p).__name__)
        return p

    plugins.set_on_parallel_assembly(hook)
    sched = TestScheduler()
    p = (Flowable.range(0, 3).parallel(2).map(inc).filter(even).do_on_next(inc)
         .run_on(sched).reduce_with(list, lambda a, b: a).collect(list, list.append))
    assert seen == ["ParallelFromPublisher", "ParallelMap", "ParallelFilter", "ParallelPeek",
                    "ParallelRunOn", "ParallelReduce", "ParallelReduce"]
    assert ParallelFlowable.from_publishers(Flowable.just(1)).parallelism == 1
    assert seen[-1] == "ParallelFromArray"
    flowables: list[str] = []
    plugins.set_on_flowable_assembly(lambda f: flowables.append(type(f).__name__) or f)
    p.sequential()
    p.sequential_delay_error()
    p.reduce(lambda a, b: a)
    assert flowables == ["ParallelJoin", "ParallelJoin", "ParallelReduceFull"]


def test_assembly_hook_replacement_is_used():
    replacement = ParallelFlowable.from_publishers(Flowable.just(42))
    plugins.set_on_parallel_assembly(lambda p: replacement)
    assert Flowable.range(0, 3).parallel(2) is replacement


# ---------------------------------------------------------------- bad arguments


def test_bad_arguments():
    f = Flowable.range(0, 3)
    p = f.parallel(2)
    with pytest.raises(ValueError):
        f.parallel(0)
    with pytest.raises(TypeError):
        f.parallel("2")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        f.parallel(2.0)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        f.parallel(2, prefetch=0)
    with pytest.raises(ValueError):
        ParallelFlowable.from_publisher(f, -1)
    with pytest.raises(TypeError):
        ParallelFlowable.from_publisher(None)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        ParallelFlowable.from_publishers()
    with pytest.raises(TypeError):
        ParallelFlowable.from_publishers(f, None)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        ParallelFlowable.from_publishers([1, 2])  # type: ignore[arg-type]
    for make in (p.map, p.filter, p.do_on_next, p.reduce, p.flat_map):
        with pytest.raises(TypeError):
            make(None)  # type: ignore[arg-type]
        with pytest.raises(TypeError):
            make(5)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        p.reduce_with(None, add)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        p.reduce_with(list, None)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        p.collect(list, None)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        p.run_on(None)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        p.run_on("computation")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        p.run_on(TestScheduler(), prefetch=0)
    with pytest.raises(ValueError):
        p.sequential(0)
    with pytest.raises(TypeError):
        p.sequential_delay_error("8")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        p.sorted(key=3)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        p.sorted(capacity_hint=0)
    with pytest.raises(TypeError):
        p.to_sorted_list(key="x")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        p.flat_map(lambda x: f, max_concurrency=0)
    with pytest.raises(ValueError):
        p.flat_map(lambda x: f, prefetch=0)


def test_no_operator_field_shadows_a_fluent_method():
    import importlib
    import inspect
    import pkgutil

    import rxpy2._internal.operators.parallel as operators

    flowable_methods = {n for n in dir(Flowable) if not n.startswith("_")}
    parallel_methods = {n for n in dir(ParallelFlowable) if not n.startswith("_")}
    clashes = []
    for info in pkgutil.iter_modules(operators.__path__):
        mod = importlib.import_module(f"{operators.__name__}.{info.name}")
        for cls in vars(mod).values():
            if not inspect.isclass(cls) or cls.__module__ != mod.__name__:
                continue
            if issubclass(cls, ParallelFlowable):
                methods = parallel_methods - {"parallelism"}  # a property on purpose
            elif issubclass(cls, Flowable):
                methods = flowable_methods
            else:
                continue
            fields: set[str] = set()
            for k in cls.__mro__:
                slots = getattr(k, "__slots__", ())
                fields |= {slots} if isinstance(slots, str) else set(slots)
            bad = sorted(fields & methods)
            if bad:
                clashes.append(f"{cls.__name__}: {bad}")
    assert not clashes


def test_subscribe_is_final():
    with pytest.raises(TypeError):
        class Bad(ParallelFlowable[int]):  # noqa: F841
            def subscribe(self, subscribers):  # type: ignore[override]
                pass


def test_subscribe_actual_raising_goes_to_plugins(plugin_errors):
    class Broken(ParallelFlowable[int]):
        @property
        def parallelism(self) -> int:
            return 1

        def subscribe_actual(self, subscribers):
            raise KeyError("broken")

    Broken().subscribe([TestSubscriber()])
    assert [type(e) for e in plugin_errors.causes()] == [KeyError]
