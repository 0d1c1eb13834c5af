"""combine_latest (+ _delay_error, _iterable): values, completion rules, request pattern,
errors (immediate and delayed), cancellation, races."""

from __future__ import annotations

import pytest
from _async_probes import race_items_vs_requests
from probes import ManualSource
from probes import Recorded
from probes import Spy
from probes import boom
from probes import failing

from rxpy2 import Flowable
from rxpy2.exceptions import CompositeException
from rxpy2.schedulers import Schedulers

pytestmark = pytest.mark.usefixtures("shutdown_schedulers")


def add(*xs: int) -> int:
    return sum(xs)


# ---------------------------------------------------------------- values


def test_two_sources_latest_pairs():
    a, b = ManualSource(), ManualSource()
    ts = Flowable.combine_latest(a, b).test()
    a.emit(1)
    ts.assert_empty()
    a.emit(2)
    b.emit(10)
    ts.assert_values((2, 10))
    a.emit(3)
    b.emit(20)
    ts.assert_values((2, 10), (3, 10), (3, 20))
    a.complete()
    b.emit(30)
    ts.assert_values((2, 10), (3, 10), (3, 20), (3, 30)).assert_not_complete()
    b.complete()
    ts.assert_result((2, 10), (3, 10), (3, 20), (3, 30)).assert_protocol_ok()


def test_combiner_function():
    a, b = ManualSource(), ManualSource()
    ts = Flowable.combine_latest(a, b, combiner=lambda x, y: f"{x}{y}").test()
    a.emit("a")
    b.emit(1, 2)
    ts.assert_values("a1", "a2")


def test_synchronous_sources():
    Flowable.combine_latest(Flowable.range(0, 3), Flowable.range(10, 3)).test() \
        .assert_result((2, 10), (2, 11), (2, 12))
    Flowable.combine_latest(Flowable.range(0, 3).hide(), Flowable.range(10, 3).hide(),
                            combiner=add).test().assert_result(12, 13, 14)


def test_three_sources():
    a, b, c = ManualSource(), ManualSource(), ManualSource()
    ts = Flowable.combine_latest(a, b, c).test()
    a.emit(1)
    b.emit(2)
    ts.assert_empty()
    c.emit(3)
    a.emit(4)
    ts.assert_values((1, 2, 3), (4, 2, 3))


def test_ten_sources():
    sources = [Flowable.just(i) for i in range(10)]
    Flowable.combine_latest(*sources).test().assert_result(tuple(range(10)))
    Flowable.combine_latest(*sources, combiner=add).test().assert_result(45)
    Flowable.combine_latest(*sources[:9], Flowable.range(100, 3), combiner=add).test() \
        .assert_result(136, 137, 138)


def test_combiner_gets_one_argument_per_source():
    seen = []

    def combiner(*args):
        seen.append(args)
        return 0

    Flowable.combine_latest(Flowable.just(1), Flowable.just(2), Flowable.just(3),
                            combiner=combiner).test().assert_result(0)
    assert seen == [(1, 2, 3)]


def test_zero_and_one_source():
    Flowable.combine_latest().test().assert_result()
    Flowable.combine_latest_iterable([]).test().assert_result()
    Flowable.combine_latest(Flowable.range(0, 3)).test().assert_result((0,), (1,), (2,))
    Flowable.combine_latest(Flowable.range(0, 3), combiner=lambda x: x * 10).test() \
        .assert_result(0, 10, 20)
    Flowable.combine_latest(Flowable.range(0, 3), combiner=lambda x: None).test() \
        .assert_failure(TypeError)


def test_iterable_of_sources():
    Flowable.combine_latest_iterable([Flowable.just(1), Flowable.just(2)]).test() \
        .assert_result((1, 2))
    Flowable.combine_latest_iterable((Flowable.just(x) for x in range(3)), combiner=add).test() \
        .assert_result(3)


def test_iterable_errors():
    def sources():
        yield Flowable.just(1)
        raise KeyError("k")

    Flowable.combine_latest_iterable(sources()).test().assert_failure(KeyError)
    Flowable.combine_latest_iterable([Flowable.just(1), None]).test().assert_failure(TypeError)
    Flowable.combine_latest_iterable([Flowable.just(1), "x"]).test().assert_failure(TypeError)
    # a user's tuple is checked at subscription too
    Flowable.combine_latest_iterable((Flowable.just(1), "x")).test().assert_failure(TypeError)


# ---------------------------------------------------------------- completion


def test_completes_when_every_source_completed():
    a, b = ManualSource(), ManualSource()
    ts = Flowable.combine_latest(a, b).test()
    a.emit(1)
    b.emit(2)
    a.complete()
    ts.assert_values((1, 2)).assert_not_complete()
    b.complete()
    ts.assert_result((1, 2))


def test_source_completing_without_item_completes_and_cancels_the_others():
    a, b, c = ManualSource(), ManualSource(), ManualSource()
    ts = Flowable.combine_latest(a, b, c).test()
    a.emit(1)
    b.complete()
    ts.assert_result()
    assert a.cancelled and c.cancelled


def test_empty_source_first_skips_subscribing_the_rest():
    later = ManualSource()
    Flowable.combine_latest(Flowable.empty(), later).test().assert_result()
    assert later.subscriptions == 0


def test_completion_waits_for_demand_for_queued_items():
    a, b = ManualSource(), ManualSource()
    ts = Flowable.combine_latest(a, b).test(0)
    a.emit(1)
    b.emit(2, 3)
    a.complete()
    b.complete()
    ts.assert_empty()
    ts.request(1)
    ts.assert_values((1, 2)).assert_not_complete()
    ts.request(1)
    ts.assert_result((1, 2), (1, 3))


# ---------------------------------------------------------------- requests


def test_prefetch_then_75_percent_replenish():
    a, b = ManualSource(), ManualSource()
    ts = Flowable.combine_latest(a, b, buffer_size=4).test(0)
    assert a.requests == [4] and b.requests == [4]
    a.emit(1, 2, 3)  # b has no item yet: each one only replaces the previous, used up at once
    assert a.requests == [4, 3]
    b.emit(10, 11, 12, 13)  # queued: used when they go downstream
    assert b.requests == [4]
    ts.request(2)
    assert b.requests == [4]
    ts.request(1)
    assert b.requests == [4, 3]
    ts.assert_values((3, 10), (3, 11), (3, 12))
    assert a.requests == [4, 3]


def test_default_request_pattern_unbounded():
    a, b = Spy(Flowable.range(0, 1000)), Spy(Flowable.range(0, 1000))
    Flowable.combine_latest(a, b).test().assert_value_count(1000).assert_complete()
    assert a.requests == [128] + [96] * 10
    assert b.requests == [128] + [96] * 10


def test_backpressure_exact():
    ts = Flowable.combine_latest(Flowable.just(0), Flowable.range(0, 10).hide()).test(0)
    ts.assert_empty()
    ts.request(1)
    ts.assert_values((0, 0))
    ts.request(2)
    ts.assert_values((0, 0), (0, 1), (0, 2)).assert_not_complete()
    ts.request(7)
    ts.assert_value_count(10).assert_complete()


def test_non_positive_request_is_reported(plugin_errors):
    ts = Flowable.combine_latest(Flowable.just(1), Flowable.just(2)).test(0)
    ts.request(-1)
    assert len(plugin_errors) == 1 and "3.9" in str(plugin_errors[0])
    ts.request(1)
    ts.assert_result((1, 2))


# ---------------------------------------------------------------- errors


def test_error_is_immediate_drops_queued_and_cancels_others():
    a, b = ManualSource(), ManualSource()
    ts = Flowable.combine_latest(a, b).test(0)
    a.emit(1)
    b.emit(2, 3)
    a.error(ValueError("x"))
    ts.assert_failure(ValueError)
    assert b.cancelled


def test_error_before_every_source_emitted():
    later = ManualSource()
    Flowable.combine_latest(Flowable.error(ValueError("x")), later).test().assert_failure(ValueError)
    assert later.subscriptions == 0


def test_delay_error_keeps_combining_until_every_source_ended():
    a, b = ManualSource(), ManualSource()
    e1, e2 = ValueError("a"), KeyError("b")
    ts = Flowable.combine_latest_delay_error(a, b).test()
    a.emit(1)
    b.emit(10)
    a.error(e1)
    b.emit(11)
    ts.assert_values((1, 10), (1, 11)).assert_not_terminated()
    b.error(e2)
    ts.assert_failure(CompositeException, (1, 10), (1, 11))
    assert ts.errors()[0].exceptions == [e1, e2]


def test_delay_error_single_error_is_not_wrapped():
    a, b = ManualSource(), ManualSource()
    ts = Flowable.combine_latest_delay_error(a, b).test()
    a.emit(1)
    b.emit(2)
    a.error(ValueError("x"))
    b.complete()
    ts.assert_failure(ValueError, (1, 2))


def test_delay_error_waits_for_demand_for_queued_items():
    a, b = ManualSource(), ManualSource()
    ts = Flowable.combine_latest_delay_error(a, b).test(0)
    a.emit(1)
    b.emit(2)
    a.error(ValueError("x"))
    b.complete()
    ts.assert_empty()
    ts.request(1)
    ts.assert_failure(ValueError, (1, 2))


def test_delay_error_source_failing_without_item_ends_at_once():
    a, b = ManualSource(), ManualSource()
    ts = Flowable.combine_latest_delay_error(a, b).test()
    a.emit(1)
    b.error(ValueError("x"))
    ts.assert_failure(ValueError)
    assert a.cancelled


def test_late_error_goes_to_plugins(plugin_errors):
    a, b = ManualSource(), ManualSource()
    ts = Flowable.combine_latest(a, b).test()
    a.complete()
    ts.assert_result()
    err = ValueError("late")
    b.error(err)
    assert plugin_errors.causes() == [err]


def test_upstream_error_passthrough_after_items():
    Flowable.combine_latest(Flowable.just(0), failing(1, 2)).test() \
        .assert_failure(ValueError, (0, 1), (0, 2))


# ---------------------------------------------------------------- user function


@pytest.mark.parametrize("combiner, error", [(boom, ZeroDivisionError),
                                             (lambda x, y: None, TypeError)],
                         ids=["raising", "returning_none"])
def test_combiner_failing_cancels_every_source(combiner, error):
    a, b = ManualSource(), ManualSource()
    ts = Flowable.combine_latest(a, b, combiner=combiner).test()
    a.emit(1)
    b.emit(2)
    ts.assert_failure(error)
    assert a.cancelled and b.cancelled
    a.emit(3)  # a source that missed the cancel: nothing more arrives
    ts.assert_failure(error)


# ---------------------------------------------------------------- cancellation


def test_cancel_reaches_every_source():
    srcs = [ManualSource() for _ in range(3)]
    ts = Flowable.combine_latest(*srcs).test()
    srcs[0].emit(1)
    ts.cancel()
    assert all(s.cancels == 1 for s in srcs)
    srcs[1].emit(2)
    srcs[2].emit(3)
    ts.assert_empty()


def test_cancel_clears_queue():
    a, b = ManualSource(), ManualSource()
    ts = Flowable.combine_latest(a, b).test(0)
    a.emit(1)
    b.emit(2, 3)
    parent = ts._upstream.get()
    assert len(parent.queue) == 4  # two (source, snapshot) pairs
    ts.cancel()
    assert parent.queue.is_empty()


def test_cancel_before_subscription_stops_subscribing():
    later = ManualSource()
    Flowable.combine_latest(Flowable.never(), later).test(cancel=True).assert_empty()
    assert later.subscriptions == 0


# ---------------------------------------------------------------- deep synchronous


def test_deep_synchronous():
    Flowable.combine_latest(Flowable.just(0), Flowable.range(0, 100_000), combiner=add).test() \
        .assert_value_count(100_000).assert_complete()
    ts = Flowable.combine_latest(Flowable.range(0, 100_000).hide(), Flowable.just(1)).test()
    ts.assert_value_count(1).assert_complete()
    assert ts.values() == [(99_999, 1)]


def test_requests_reach_recorded_source():
    r = Recorded(0, 10)
    ts = Flowable.combine_latest(Flowable.just(0), r.flowable, buffer_size=4).test()
    ts.assert_value_count(10).assert_complete()
    assert r.requests == [4, 3, 3, 3]


# ---------------------------------------------------------------- arguments


def test_bad_arguments():
    with pytest.raises(TypeError):
        Flowable.combine_latest(Flowable.just(1), None)
    with pytest.raises(TypeError):
        Flowable.combine_latest(Flowable.just(1), [1])
    with pytest.raises(TypeError):
        Flowable.combine_latest(Flowable.just(1), combiner=1)
    with pytest.raises(ValueError):
        Flowable.combine_latest(Flowable.just(1), buffer_size=0)
    with pytest.raises(TypeError):
        Flowable.combine_latest_iterable(None)
    with pytest.raises(ValueError):
        Flowable.combine_latest_delay_error(Flowable.just(1), buffer_size=-1)


# ---------------------------------------------------------------- races


def _check_combined(values, n):
    """Each output changes one component by one step; the last has both final items."""
    assert values[-1] == (n - 1, n - 1)
    x0, y0 = values[0]
    # the first output, then one per item after it, of either source
    assert len(values) == 1 + (n - 1 - x0) + (n - 1 - y0)
    for (x1, y1), (x2, y2) in zip(values, values[1:], strict=False):
        assert (x2 - x1, y2 - y1) in ((1, 0), (0, 1))


def test_race_two_sources_on_two_threads(race_runner, race_rounds):
    n = 10
    for _ in range(race_rounds // 2):
        a, b = ManualSource(), ManualSource()
        ts = Flowable.combine_latest(a, b).test()

        def produce(src):
            src.emit(*range(n))
            src.complete()

        race_runner.race(lambda a=a: produce(a), lambda b=b: produce(b))
        ts.assert_complete().assert_no_errors().assert_protocol_ok()
        _check_combined(ts.values(), n)


def test_race_request_vs_on_next(race_runner, race_rounds):
    for _ in range(race_rounds):
        a, b = ManualSource(), ManualSource()
        ts = Flowable.combine_latest(a, b).test(0)
        a.emit(0)
        race_items_vs_requests(race_runner, b, tuple(range(5)), ts)
        ts.assert_value_sequence([(0, i) for i in range(5)]).assert_not_complete()
        a.complete()
        ts.assert_complete().assert_protocol_ok()


def test_race_cancel_vs_on_next(race_runner, race_rounds):
    for _ in range(race_rounds):
        a, b = ManualSource(), ManualSource()
        ts = Flowable.combine_latest(a, b).test()
        a.emit(0)
        parent = ts._upstream.get()

        def produce(b=b):
            b.emit(*range(5))

        race_runner.race(produce, ts.cancel)
        k = ts.value_count()
        ts.assert_value_sequence([(0, i) for i in range(k)]).assert_not_terminated()
        assert a.cancels == 1 and b.cancels == 1
        assert parent.queue.is_empty()
        b.emit(9)
        assert ts.value_count() == k


def test_end_to_end_on_computation():
    n = 1000
    a = Flowable.range(0, n).observe_on(Schedulers.computation())
    b = Flowable.range(0, n).hide().observe_on(Schedulers.computation())
    ts = Flowable.combine_latest(a, b, buffer_size=16).test()
    ts.await_done(10).assert_complete().assert_no_errors()
    _check_combined(ts.values(), n)


# ---------------------------------------------------------------- RxJava 2's combineLatest(s1, s2, combiner)

@pytest.mark.parametrize("name", ["combine_latest", "combine_latest_delay_error"])
def test_combiner_last_positionally(name):
    """A callable is never a Publisher: the last positional one is the combiner."""
    combine = getattr(Flowable, name)
    a, b = Flowable.just(1, 2), Flowable.just("a")
    combine(a, b, lambda i, s: f"{s}{i}").test().assert_result("a2")
    combine(a, b, a, lambda i, s, j: i + j).test().assert_result(3, 4)
    combine(a, a, a, a, a, lambda *v: sum(v)).test().assert_result(9, 10)
    combine(a, b).test().assert_result((2, "a"))
    with pytest.raises(TypeError, match="combiner given twice"):
        combine(a, b, lambda i, s: s, combiner=lambda i, s: i)
    with pytest.raises(TypeError, match="source 1 must be a Publisher, not int"):
        combine(a, 1)


def test_combiner_last_positionally_keeps_buffer_size():
    Flowable.combine_latest(Flowable.just(1), Flowable.just(2), lambda x, y: x + y,
                            buffer_size=1).test().assert_result(3)
    with pytest.raises(ValueError, match="buffer_size"):
        Flowable.combine_latest(Flowable.just(1), Flowable.just(2), lambda x, y: x + y,
                                buffer_size=0)
