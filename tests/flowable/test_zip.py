"""zip, zip_iterable, zip_with (Publisher and iterable): values, shortest source, prefetch
request pattern, fusion, errors (immediate and delayed), cancellation, races."""

from __future__ import annotations

import threading

import pytest
from _async_probes import SyncFusedProbe
from _async_probes import race_items_vs_requests
from probes import ManualSource
from probes import Recorded
from probes import Spy
from probes import boom
from probes import failing

from rxpy2 import Flowable
from rxpy2._internal.fuseable import ANY
from rxpy2._internal.fuseable import ASYNC
from rxpy2._internal.fuseable import BOUNDARY
from rxpy2._internal.fuseable import SYNC
from rxpy2.exceptions import CompositeException
from rxpy2.exceptions import MissingBackpressureException
from rxpy2.reactivestreams import LONG_MAX
from rxpy2.schedulers import Schedulers
from rxpy2.schedulers import TestScheduler
from rxpy2.testing import TestSubscriber

pytestmark = pytest.mark.usefixtures("shutdown_schedulers")


def add(*xs: int) -> int:
    return sum(xs)


# ---------------------------------------------------------------- values


def test_two_sources_tuples():
    Flowable.zip(Flowable.range(0, 3), Flowable.range(10, 3)).test() \
        .assert_result((0, 10), (1, 11), (2, 12)).assert_protocol_ok()


def test_two_sources_zipper():
    Flowable.zip(Flowable.range(0, 3), Flowable.range(10, 3), zipper=lambda a, b: a * b).test() \
        .assert_result(0, 11, 24)


def test_three_sources():
    Flowable.zip(Flowable.just(1, 2), Flowable.just("a", "b"), Flowable.just(True, False)).test() \
        .assert_result((1, "a", True), (2, "b", False))
    Flowable.zip(Flowable.range(0, 3), Flowable.range(0, 3).hide(), Flowable.range(0, 3),
                 zipper=add).test().assert_result(0, 3, 6)


def test_ten_sources():
    sources = [Flowable.range(i * 10, 4).hide() if i % 2 else Flowable.range(i * 10, 4)
               for i in range(10)]
    Flowable.zip(*sources).test() \
        .assert_result(*[tuple(i * 10 + k for i in range(10)) for k in range(4)])
    Flowable.zip(*sources, zipper=add).test() \
        .assert_result(*[sum(i * 10 + k for i in range(10)) for k in range(4)])


def test_zipper_gets_one_argument_per_source():
    seen = []

    def zipper(*args):
        seen.append(args)
        return len(args)

    Flowable.zip(Flowable.just(1), Flowable.just(2), Flowable.just(3), zipper=zipper).test() \
        .assert_result(3)
    assert seen == [(1, 2, 3)]


def test_zip_with_publisher():
    Flowable.range(0, 3).zip_with(Flowable.range(5, 10)).test().assert_result((0, 5), (1, 6), (2, 7))
    Flowable.range(0, 3).zip_with(Flowable.range(5, 10), lambda a, b: a - b).test() \
        .assert_result(-5, -5, -5)


def test_zip_iterable_of_sources():
    Flowable.zip_iterable([Flowable.range(0, 2), Flowable.range(5, 2)]).test() \
        .assert_result((0, 5), (1, 6))
    Flowable.zip_iterable((Flowable.just(x) for x in (1, 2, 3)), zipper=add).test().assert_result(6)


def test_zip_iterable_is_iterated_at_each_subscription():
    calls = []

    class Sources:
        def __iter__(self):
            calls.append(1)
            return iter([Flowable.just(1), Flowable.just(2)])

    f = Flowable.zip_iterable(Sources())
    assert calls == []
    f.test().assert_result((1, 2))
    f.test().assert_result((1, 2))
    assert calls == [1, 1]


def test_zero_sources_complete():
    Flowable.zip().test().assert_result()
    Flowable.zip_iterable([]).test().assert_result()


def test_one_source():
    Flowable.zip(Flowable.range(0, 3)).test().assert_result((0,), (1,), (2,))
    Flowable.zip(Flowable.range(0, 3), zipper=lambda x: x * 2).test().assert_result(0, 2, 4)


# ---------------------------------------------------------------- shortest source


def test_ends_with_the_shortest_and_cancels_the_longer():
    long_ = Spy(Flowable.range(0, 100))
    short = Spy(Flowable.range(0, 3))
    Flowable.zip(long_, short).test().assert_result((0, 0), (1, 1), (2, 2))
    assert long_.cancels == 1


def test_empty_and_never_completes_at_once():
    never = ManualSource()
    Flowable.zip(Flowable.empty(), never).test().assert_result()
    assert never.subscriptions == 0  # the zip ended before it was its turn


def test_never_first_and_empty_completes_and_cancels_never():
    never = ManualSource()
    Flowable.zip(never, Flowable.empty()).test().assert_result()
    assert never.cancelled


def test_finite_source_and_endless_one_completes_after_the_pairs():
    endless = ManualSource()
    ts = Flowable.zip(Flowable.range(0, 3), endless).test()
    endless.emit("a", "b")
    ts.assert_values((0, "a"), (1, "b")).assert_not_complete()
    endless.emit("c")
    ts.assert_result((0, "a"), (1, "b"), (2, "c"))
    assert endless.cancelled


def test_finite_source_and_never_does_not_complete_without_a_pair():
    never = ManualSource()
    ts = Flowable.zip(Flowable.range(0, 3), never).test()
    ts.assert_empty()
    assert not never.cancelled


def test_completion_waits_for_queued_items_of_the_done_source():
    a, b = ManualSource(), ManualSource()
    ts = Flowable.zip(a, b).test()
    a.emit(1, 2)
    a.complete()
    ts.assert_empty()
    b.emit(10)
    ts.assert_values((1, 10)).assert_not_complete()
    b.emit(20)
    ts.assert_result((1, 10), (2, 20))
    assert b.cancelled


def test_completion_needs_no_demand():
    a, b = ManualSource(), ManualSource()
    ts = Flowable.zip(a, b).test(0)
    a.complete()
    ts.assert_result()
    assert b.cancelled


# ---------------------------------------------------------------- requests


def test_prefetch_then_75_percent_replenish():
    a, b = ManualSource(), ManualSource()
    ts = Flowable.zip(a, b, buffer_size=4).test(0)
    assert a.requests == [4] and b.requests == [4]
    a.emit(1, 2, 3, 4)
    b.emit(1, 2, 3, 4)
    ts.request(2)
    assert a.requests == [4] and b.requests == [4]
    ts.request(1)  # 3 taken: 75% of 4
    assert a.requests == [4, 3] and b.requests == [4, 3]
    ts.assert_values((1, 1), (2, 2), (3, 3))


def test_default_request_pattern_unbounded():
    a, b = Spy(Flowable.range(0, 1000)), Spy(Flowable.range(0, 1000))
    Flowable.zip(a, b).test().assert_value_count(1000).assert_complete()
    assert a.requests == [128] + [96] * 10
    assert b.requests == [128] + [96] * 10


def test_request_pattern_does_not_follow_downstream_demand():
    a = Recorded(0, 100)
    b = Recorded(0, 100)
    ts = Flowable.zip(a.flowable, b.flowable, buffer_size=8).test(1)
    assert a.requests == [8] and b.requests == [8]
    ts.assert_values((0, 0))
    ts.request(LONG_MAX)
    ts.assert_value_count(100).assert_complete()
    assert a.requests[0] == 8 and all(r >= 6 for r in a.requests[1:])
    assert sum(a.requests) <= 100 + 8


def test_backpressure_exact():
    ts = Flowable.zip(Flowable.range(0, 10).hide(), Flowable.range(0, 10)).test(0)
    ts.assert_empty()
    ts.request(1)
    ts.assert_values((0, 0))
    ts.request(2)
    ts.assert_values((0, 0), (1, 1), (2, 2)).assert_not_complete()
    ts.request(7)
    ts.assert_value_count(10).assert_complete()


def test_request_one_in_on_next():
    from probes import RequestOneInOnNext
    s = RequestOneInOnNext()
    Flowable.zip(Flowable.range(0, 5).hide(), Flowable.range(0, 5).hide()).subscribe(s)
    assert s.values == [(i, i) for i in range(5)]
    assert s.completed == 1


def test_non_positive_request_is_reported(plugin_errors):
    ts = Flowable.zip(Flowable.range(0, 3), Flowable.range(0, 3)).test(0)
    ts.request(0)
    assert len(plugin_errors) == 1 and isinstance(plugin_errors[0], ValueError)
    assert "3.9" in str(plugin_errors[0])


# ---------------------------------------------------------------- fusion


def test_sync_fused_range_gets_no_request():
    fused = SyncFusedProbe(5)
    hidden = Spy(Flowable.range(0, 5))
    Flowable.zip(fused, hidden).test().assert_result(*[(i, i) for i in range(5)])
    assert fused.modes == [ANY | BOUNDARY]  # as RxJava 2.2.21's ZipSubscriber asks
    assert fused.requests == []
    assert hidden.requests == [128]  # the same range, hidden: it is asked for items


def test_plain_range_is_fused_without_requests():
    log: list[int] = []
    # do_on_request over a range hides the range's QueueSubscription
    Flowable.zip(Flowable.range(0, 3), Flowable.range(0, 3).do_on_request(log.append)).test() \
        .assert_result((0, 0), (1, 1), (2, 2))
    assert log == [128]


def test_sync_fused_poll_error_cancels_the_others():
    other = ManualSource()
    ts = Flowable.zip(SyncFusedProbe(5, fail_at=2), other).test()
    other.emit("a")
    ts.assert_values((0, "a")).assert_not_terminated()
    other.emit("b")  # the drain takes the next head at once: poll raises
    ts.assert_failure(ValueError, (0, "a"), (1, "b"))
    assert other.cancelled


def test_sync_fused_poll_error_delayed_ends_at_once():
    other = ManualSource()
    ts = Flowable.zip(SyncFusedProbe(5, fail_at=1), other, delay_error=True).test()
    other.emit("a")  # the failed source has no more items: the zip cannot go on
    ts.assert_failure(ValueError, (0, "a"))
    assert other.cancelled


def test_a_map_is_not_fused_into_zip_and_its_error_ends_the_zip_at_once():
    """zip asks ANY | BOUNDARY: the map (user code) runs on its own, before the second source
    is subscribed, so its error comes before any pair (RxJava 2.2.21: no value, the error)."""
    ts = Flowable.zip(Flowable.range(0, 5).map(lambda x: 1 // (2 - x)), Flowable.range(0, 5)).test()
    ts.assert_failure(ZeroDivisionError)


def test_async_fused_source():
    s = TestScheduler()
    ts = Flowable.zip(Flowable.range(0, 300).hide().observe_on(s, buffer_size=16),
                      Flowable.range(0, 300)).test()
    coordinator = ts._upstream.get()
    assert [z.fusion_mode for z in coordinator.subscribers] == [ASYNC, SYNC]
    s.trigger_actions()
    ts.assert_value_sequence([(i, i) for i in range(300)]).assert_complete()


def test_async_fused_request_pattern():
    s = TestScheduler()
    log: list[int] = []
    ts = Flowable.zip(Flowable.range(0, 50).do_on_request(log.append).observe_on(s, buffer_size=16),
                      Flowable.range(0, 50), buffer_size=8).test()
    s.trigger_actions()
    ts.assert_value_count(50).assert_complete()
    assert log[0] == 16  # observe_on's own prefetch; zip asks observe_on, which is fused


# ---------------------------------------------------------------- errors


def test_error_is_immediate_and_cancels_the_others():
    a, b = ManualSource(), ManualSource()
    ts = Flowable.zip(a, b).test()
    a.emit(1, 2)
    b.emit(10)
    a.error(ValueError("x"))
    ts.assert_failure(ValueError, (1, 10))
    assert b.cancelled


def test_error_overtakes_queued_items():
    a, b = ManualSource(), ManualSource()
    ts = Flowable.zip(a, b).test(0)
    a.emit(1, 2)
    b.emit(10, 20)
    b.error(ValueError("x"))
    ts.assert_failure(ValueError)
    assert a.cancelled


def test_immediate_error_during_subscription_skips_later_sources():
    later = ManualSource()
    Flowable.zip(Flowable.error(ValueError("x")), later).test().assert_failure(ValueError)
    assert later.subscriptions == 0


def test_delay_error_keeps_zipping_queued_items():
    a, b = ManualSource(), ManualSource()
    ts = Flowable.zip(a, b, delay_error=True).test()
    a.emit(1, 2)
    a.error(ValueError("x"))
    ts.assert_empty()
    b.emit(10)
    ts.assert_values((1, 10)).assert_not_terminated()
    b.emit(20)
    ts.assert_failure(ValueError, (1, 10), (2, 20))
    assert b.cancelled


def test_delay_error_collects_every_cause():
    e1, e2 = ValueError("1"), KeyError("2")
    ts = Flowable.zip(failing(1, 2, error=e1), failing(10, error=e2), delay_error=True).test()
    ts.assert_failure(CompositeException, (1, 10))
    assert ts.errors()[0].exceptions == [e1, e2]


def test_delay_error_failed_empty_source_ends_at_once():
    later = ManualSource()
    ts = Flowable.zip(Flowable.error(ValueError("x")), later, delay_error=True).test()
    # the failed source is done and empty: the zip cannot go on
    ts.assert_failure(ValueError)
    assert later.subscriptions == 0


def test_delay_error_keeps_subscribing_after_an_error_with_items():
    later = ManualSource()
    ts = Flowable.zip(failing(1, 2), later, delay_error=True).test()
    assert later.subscriptions == 1
    later.emit("a", "b")
    ts.assert_failure(ValueError, (1, "a"), (2, "b"))
    assert later.cancelled


def test_missing_backpressure():
    a, b = ManualSource(), ManualSource()
    ts = Flowable.zip(a, b, buffer_size=2).test()
    a.emit(1, 2)  # asked for 2: the first waits for its pair, the second in the queue
    ts.assert_empty()
    a.emit(3, 4)
    ts.assert_failure(MissingBackpressureException)
    assert a.cancelled and b.cancelled


def test_late_error_goes_to_plugins(plugin_errors):
    a, b = ManualSource(), ManualSource()
    ts = Flowable.zip(a, b).test()
    a.complete()
    ts.assert_result()
    err = ValueError("late")
    b.error(err)
    assert plugin_errors.causes() == [err]


# ---------------------------------------------------------------- user function


@pytest.mark.parametrize("zipper, error", [(boom, ZeroDivisionError),
                                           (lambda x, y: None, TypeError)],
                         ids=["raising", "returning_none"])
def test_zipper_failing_cancels_every_source(zipper, error):
    a, b = ManualSource(), ManualSource()
    ts = Flowable.zip(a, b, zipper=zipper).test()
    a.emit(1)
    b.emit(2)
    ts.assert_failure(error)
    assert a.cancelled and b.cancelled


def test_zipper_raising_with_delay_error_adds_the_earlier_errors():
    a, b = ManualSource(), ManualSource()
    ts = Flowable.zip(a, b, zipper=boom, delay_error=True).test()
    a.emit(1)
    a.error(ValueError("x"))
    b.emit(2)
    ts.assert_failure(CompositeException)
    assert [type(e) for e in ts.errors()[0].exceptions] == [ValueError, ZeroDivisionError]


# ---------------------------------------------------------------- cancellation


def test_cancel_reaches_every_source():
    srcs = [ManualSource() for _ in range(3)]
    ts = Flowable.zip(*srcs).test()
    srcs[0].emit(1)
    ts.cancel()
    assert all(s.cancels == 1 for s in srcs)
    srcs[1].emit(1)
    srcs[2].emit(1)
    ts.assert_empty()


def test_cancel_before_subscription_stops_subscribing():
    later = ManualSource()
    Flowable.zip(Flowable.never(), later).test(cancel=True).assert_empty()
    assert later.subscriptions == 0


def test_cancel_inside_on_next():
    a = Spy(Flowable.range(0, 100))
    ts: TestSubscriber = TestSubscriber()
    Flowable.zip(a, Flowable.range(0, 100)).do_on_next(lambda v: v[0] == 2 and ts.cancel()) \
        .subscribe(ts)
    ts.assert_values((0, 0), (1, 1), (2, 2)).assert_not_terminated()
    assert a.cancels == 1


# ---------------------------------------------------------------- iterable of sources


def test_zip_iterable_raising():
    def sources():
        yield Flowable.just(1)
        raise KeyError("k")

    Flowable.zip_iterable(sources()).test().assert_failure(KeyError)


def test_zip_iterable_with_none_or_non_publisher():
    Flowable.zip_iterable([Flowable.just(1), None]).test().assert_failure(TypeError)
    Flowable.zip_iterable([Flowable.just(1), 5]).test().assert_failure(TypeError)
    # a user's tuple is checked at subscription too
    Flowable.zip_iterable((Flowable.just(1), None)).test().assert_failure(TypeError)


# ---------------------------------------------------------------- deep synchronous


def test_deep_synchronous_fused():
    Flowable.zip(Flowable.range(0, 100_000), Flowable.range(0, 100_000), zipper=add).test() \
        .assert_value_count(100_000).assert_complete()


def test_deep_synchronous_unfused():
    ts = Flowable.zip(Flowable.range(0, 100_000).hide(), Flowable.range(0, 100_000).hide()).test()
    ts.assert_value_count(100_000).assert_complete()
    assert ts.values()[-1] == (99_999, 99_999)


def test_deep_synchronous_one_at_a_time():
    ts = Flowable.zip(Flowable.range(0, 20_000).hide(), Flowable.range(0, 20_000)).test(0)
    for _ in range(20_000):
        ts.request(1)
    ts.assert_value_count(20_000).assert_complete()


# ---------------------------------------------------------------- zip_with(iterable)


class CountingIterable:
    """Counts how many elements were taken from it."""

    def __init__(self, items):
        self.items = list(items)
        self.pulled = 0

    def __iter__(self):
        for x in self.items:
            self.pulled += 1
            yield x


def test_zip_with_iterable_values():
    Flowable.range(0, 3).zip_with(["a", "b", "c", "d"]).test() \
        .assert_result((0, "a"), (1, "b"), (2, "c"))
    Flowable.range(1, 3).zip_with([10, 20, 30], lambda a, b: a * b).test().assert_result(10, 40, 90)


def test_zip_with_iterable_pulls_one_per_item():
    it = CountingIterable(range(100))
    ts = Flowable.range(0, 100).zip_with(it).test(0)
    assert it.pulled == 1  # the first element, to know whether there is one
    ts.request(3)
    assert it.pulled == 4
    ts.assert_values((0, 0), (1, 1), (2, 2))


def test_zip_with_iterable_exhaustion_completes_and_cancels_upstream():
    up = Spy(Flowable.range(0, 100))
    ts = up.zip_with([1, 2, 3]).test()
    ts.assert_result((0, 1), (1, 2), (2, 3))
    assert up.cancels == 1


def test_zip_with_iterable_exhaustion_needs_no_more_upstream_items():
    up = ManualSource()
    ts = up.zip_with([1, 2]).test()
    up.emit("a", "b")
    ts.assert_result(("a", 1), ("b", 2))
    assert up.cancelled


def test_zip_with_empty_iterable_completes_without_subscribing():
    up = ManualSource()
    up.zip_with([]).test().assert_result()
    assert up.subscriptions == 0


def test_zip_with_iterable_requests_pass_through():
    r = Recorded(0, 10)
    ts = r.flowable.zip_with(range(100)).test(2)
    ts.request(3)
    assert r.requests == [2, 3]
    ts.assert_value_count(5)


def test_zip_with_iterable_shorter_upstream_completes():
    Flowable.range(0, 2).zip_with(range(10)).test().assert_result((0, 0), (1, 1))


def test_zip_with_iterable_errors():
    def bad_iter():
        yield 1
        raise KeyError("k")

    up = Spy(Flowable.range(0, 10))
    up.zip_with(bad_iter()).test().assert_failure(KeyError, (0, 1))
    assert up.cancels == 1

    class BadIterable:
        def __iter__(self):
            raise KeyError("iter")

    up = ManualSource()
    up.zip_with(BadIterable()).test().assert_failure(KeyError)
    assert up.subscriptions == 0

    up = Spy(Flowable.range(0, 10))
    up.zip_with([1, None, 3]).test().assert_failure(TypeError, (0, 1))
    assert up.cancels == 1


def test_zip_with_iterable_zipper_raising_or_none():
    up = Spy(Flowable.range(0, 10))
    up.zip_with(range(10), boom).test().assert_failure(ZeroDivisionError)
    assert up.cancels == 1
    up = Spy(Flowable.range(0, 10))
    up.zip_with(range(10), lambda a, b: None).test().assert_failure(TypeError)
    assert up.cancels == 1


def test_zip_with_iterable_upstream_error():
    failing(1, 2).zip_with(range(10)).test().assert_failure(ValueError, (1, 0), (2, 1))


def test_zip_with_endless_iterable_deep():
    import itertools
    Flowable.range(0, 100_000).zip_with(itertools.count()).test() \
        .assert_value_count(100_000).assert_complete()


# ---------------------------------------------------------------- arguments


def test_bad_arguments():
    with pytest.raises(TypeError):
        Flowable.zip(Flowable.just(1), None)
    with pytest.raises(TypeError):
        Flowable.zip(Flowable.just(1), 5)
    with pytest.raises(TypeError):
        Flowable.zip(Flowable.just(1), zipper=5)
    with pytest.raises(ValueError):
        Flowable.zip(Flowable.just(1), buffer_size=0)
    with pytest.raises(TypeError):
        Flowable.zip_iterable(None)
    with pytest.raises(TypeError):
        Flowable.just(1).zip_with(None)
    with pytest.raises(TypeError):
        Flowable.just(1).zip_with(5)
    with pytest.raises(TypeError):
        Flowable.just(1).zip_with([1], zipper=5)


# ---------------------------------------------------------------- races


def test_race_two_sources_on_two_threads(race_runner, race_rounds):
    n = 10
    for _ in range(race_rounds // 2):
        a, b = ManualSource(), ManualSource()
        ts = Flowable.zip(a, b).test()

        def produce(src):
            src.emit(*range(n))
            src.complete()

        race_runner.race(lambda a=a: produce(a), lambda b=b: produce(b))
        ts.assert_value_sequence([(i, i) for i in range(n)]).assert_complete().assert_protocol_ok()


def test_race_request_vs_on_next(race_runner, race_rounds):
    for _ in range(race_rounds):
        a, b = ManualSource(), ManualSource()
        ts = Flowable.zip(a, b, buffer_size=8).test(0)
        b.emit(*range(5))
        race_items_vs_requests(race_runner, a, tuple(range(5)), ts)
        ts.assert_result(*[(i, i) for i in range(5)]).assert_protocol_ok()
        assert b.cancelled


def test_race_cancel_vs_on_next(race_runner, race_rounds):
    for _ in range(race_rounds):
        a, b = ManualSource(), ManualSource()
        ts = Flowable.zip(a, b).test()
        b.emit(*range(5))

        def produce(a=a):
            a.emit(*range(5))

        race_runner.race(produce, ts.cancel)
        k = ts.value_count()
        ts.assert_value_sequence([(i, i) for i in range(k)]).assert_not_terminated()
        assert a.cancels == 1 and b.cancels == 1
        a.emit(9)
        assert ts.value_count() == k


def test_race_error_vs_error_delay_error(race_runner, race_rounds, plugin_errors):
    for _ in range(race_rounds // 4):
        a, b = ManualSource(), ManualSource()
        ts = Flowable.zip(a, b, delay_error=True).test()
        e1, e2 = ValueError("a"), KeyError("b")
        race_runner.race(lambda a=a, e=e1: a.error(e), lambda b=b, e=e2: b.error(e))
        ts.assert_not_complete().assert_protocol_ok()
        err = ts.errors()[0]
        # both together, or the first ends the zip and the second is undeliverable
        delivered = err.exceptions if isinstance(err, CompositeException) else [err]
        assert sorted(map(id, delivered + plugin_errors.causes())) == sorted((id(e1), id(e2)))
        plugin_errors.clear()


# ---------------------------------------------------------------- real threads


def test_end_to_end_on_computation():
    a = Flowable.range(0, 2000).observe_on(Schedulers.computation())
    b = Flowable.range(0, 2000).hide().observe_on(Schedulers.computation())
    ts = Flowable.zip(a, b, zipper=lambda x, y: x + y, buffer_size=16).test()
    ts.await_done(10).assert_value_sequence([2 * i for i in range(2000)]).assert_complete()


def test_end_to_end_two_threads_slow_requester():
    a = Flowable.range(0, 300).observe_on(Schedulers.computation(), buffer_size=4)
    b = Flowable.range(0, 300).observe_on(Schedulers.single(), buffer_size=4)
    ts = Flowable.zip(a, b, buffer_size=4).test(0)
    done = threading.Event()

    def requester():
        for _ in range(300):
            ts.request(1)
        done.set()

    t = threading.Thread(target=requester)
    t.start()
    t.join(10)
    ts.await_done(10).assert_value_sequence([(i, i) for i in range(300)]).assert_complete()
    assert done.is_set()


# ---------------------------------------------------------------- RxJava 2's zip(source1, source2, zipper)

def test_zipper_last_positionally():
    """A callable is never a Publisher: the last positional one is the zipper."""
    a, b, c = Flowable.range(1, 3), Flowable.just("a", "b"), Flowable.just(0.5, 1.5, 2.5)
    Flowable.zip(a, b, lambda i, s: f"{s}{i}").test().assert_result("a1", "b2")
    Flowable.zip(a, b, c, lambda i, s, x: (s, i + x)).test().assert_result(("a", 1.5), ("b", 3.5))
    Flowable.zip(a, zipper=lambda i: -i).test().assert_result(-1, -2, -3)
    Flowable.zip(a, a, a, a, a, lambda *v: sum(v)).test().assert_result(5, 10, 15)
    Flowable.zip(a, b).test().assert_result((1, "a"), (2, "b"))


def test_zipper_last_positionally_takes_the_keywords():
    err = ValueError("boom")
    Flowable.zip(Flowable.just(1, 2), Flowable.just(1).concat_with(Flowable.error(err)),
                 lambda x, y: x + y, delay_error=True).test().assert_failure(ValueError, 2)
    requests: list[int] = []
    Flowable.zip(Flowable.range(1, 9).do_on_request(requests.append), Flowable.just(1),
                 lambda x, y: x, buffer_size=4).test().assert_result(1)
    assert requests[0] == 4


def test_zipper_given_twice_or_not_callable():
    a = Flowable.just(1)
    with pytest.raises(TypeError, match="zipper given twice"):
        Flowable.zip(a, a, lambda x, y: x, zipper=lambda x, y: y)
    with pytest.raises(TypeError, match="source 1 must be a Publisher, not int"):
        Flowable.zip(a, 3)


def test_one_source_and_a_positional_zipper_is_refused():
    """RxJava 2's zip(Publisher<Publisher>, zipper) zips the inner Publishers, rxpy2's
    zip(source, zipper=fn) zips the one source: the positional form could be either."""
    with pytest.raises(TypeError, match=r"write zip\(source, zipper=fn\) to zip the one source, "
                                        r"or zip_iterable\(sources, fn\)"):
        Flowable.zip(Flowable.just(Flowable.just(1)), lambda *v: v)


def test_an_iterable_of_sources_names_the_iterable_form():
    a = Flowable.just(1)
    with pytest.raises(TypeError, match=r"source 0 must be a Publisher, not list: did you mean "
                                        r"zip_iterable\(sources, fn\)\?"):
        Flowable.zip([a, a], zipper=lambda x, y: x)
    with pytest.raises(TypeError, match=r"did you mean combine_latest_iterable\(sources, fn\)\?"):
        Flowable.combine_latest([a, a], lambda x, y: x)
    Flowable.zip_iterable([a, a], lambda x, y: x + y).test().assert_result(2)
