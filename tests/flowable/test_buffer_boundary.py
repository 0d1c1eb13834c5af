"""buffer(boundary), buffer(openings=, closing_selector=) and buffer(count, skip, buffer_factory)."""

from __future__ import annotations

from collections import deque

import pytest
from probes import Boom
from probes import ManualSource

from rxpy2 import Flowable
from rxpy2.exceptions import MissingBackpressureException
from rxpy2.reactivestreams import LONG_MAX


def boundary_setup(request: int = LONG_MAX, factory=None):
    src, boundary = ManualSource(), ManualSource()
    ts = src.buffer(boundary, buffer_factory=factory).test(request)
    return src, boundary, ts


# ---------------------------------------------------------------- buffer(boundary)

def test_boundary_emits_the_current_list_at_each_item_empty_ones_too():
    src, boundary, ts = boundary_setup()
    src.emit(1, 2)
    boundary.emit("b")
    boundary.emit("b")
    src.emit(3)
    src.complete()
    ts.assert_result([1, 2], [], [3])
    assert boundary.cancelled


def test_boundary_final_list_is_emitted_even_empty():
    src, boundary, ts = boundary_setup()
    src.emit(1)
    boundary.emit("b")
    src.complete()
    ts.assert_result([1], [])


def test_both_sides_requested_without_bound_source_first():
    src, boundary, ts = boundary_setup(request=1)
    assert src.requests == [LONG_MAX] and boundary.requests == [LONG_MAX]


def test_synchronous_source_finishes_before_the_boundary_starts():
    # as RxJava: the source is requested before the boundary is subscribed
    Flowable.range(1, 3).buffer(Flowable.just(0)).test().assert_result([1, 2, 3])


def test_boundary_completion_emits_and_cancels_the_source():
    src, boundary, ts = boundary_setup()
    src.emit(1)
    boundary.complete()
    ts.assert_result([1])
    assert src.cancelled


def test_boundary_error_drops_the_list_and_cancels_the_source():
    src, boundary, ts = boundary_setup()
    src.emit(1)
    boundary.error(Boom())
    ts.assert_failure(Boom)
    assert src.cancelled


def test_source_error_cancels_the_boundary():
    src, boundary, ts = boundary_setup()
    src.emit(1)
    boundary.emit("b")
    src.error(Boom())
    ts.assert_failure(Boom, [1])
    assert boundary.cancelled


def test_boundary_without_demand_is_missing_backpressure():
    src, boundary, ts = boundary_setup(request=1)
    boundary.emit("b")
    src.emit(1)
    boundary.emit("b")
    ts.assert_failure(MissingBackpressureException, [])
    assert src.cancelled and boundary.cancelled


def test_boundary_cancel():
    src, boundary, ts = boundary_setup()
    src.emit(1)
    ts.cancel()
    assert src.cancelled and boundary.cancelled
    boundary.emit("b")
    src.complete()
    ts.assert_empty()


def test_boundary_cancel_before_subscription():
    src, boundary = ManualSource(), ManualSource()
    src.buffer(boundary).test(cancel=True).assert_empty()
    assert src.cancelled and boundary.subscriptions == 0 and src.requests == []


def test_boundary_with_buffer_factory():
    src, boundary, ts = boundary_setup(factory=set)
    src.emit(1, 1, 2)
    boundary.emit("b")
    src.complete()
    ts.assert_result({1, 2}, set())


def test_boundary_factory_error_at_subscription():
    src, boundary = ManualSource(), ManualSource()
    ts = src.buffer(boundary, buffer_factory=lambda: 1 / 0).test()
    ts.assert_failure(ZeroDivisionError)
    assert src.cancelled and boundary.subscriptions == 0


def test_boundary_factory_error_later_cancels_both():
    calls = []

    def factory():
        calls.append(1)
        if len(calls) > 1:
            raise Boom()
        return []

    src, boundary, ts = boundary_setup(factory=factory)
    src.emit(1)
    boundary.emit("b")
    ts.assert_failure(Boom)
    assert src.cancelled and boundary.cancelled


def test_boundary_factory_returning_none():
    src, boundary, ts = boundary_setup(factory=lambda: None)
    ts.assert_failure(TypeError)
    assert "returned None" in str(ts.errors()[0])


def test_boundary_with_time(sched):
    ts = (Flowable.interval(1.0, scheduler=sched).take(10)
          .buffer(Flowable.interval(3.5, scheduler=sched)).test())
    sched.advance_time_by(20)
    ts.assert_result([0, 1, 2], [3, 4, 5], [6, 7, 8, 9])


# ---------------------------------------------------------------- buffer(count, buffer_factory)

def test_count_buffer_factory_exact_counts_items_not_len():
    # RxJava's exact buffer counts the items added; a set may hold fewer
    Flowable.from_iterable([1, 1, 2, 3]).buffer(2, buffer_factory=set).test() \
        .assert_result({1}, {2, 3})


def test_count_buffer_factory_skip_and_overlap():
    Flowable.range(1, 7).buffer(2, 3, deque).test().assert_result(
        deque([1, 2]), deque([4, 5]), deque([7]))
    Flowable.range(1, 4).buffer(2, 1, buffer_factory=deque).test() \
        .assert_result(deque([1, 2]), deque([2, 3]), deque([3, 4]), deque([4]))


@pytest.mark.parametrize("count,skip", [(2, 2), (2, 3), (3, 1)])
def test_count_buffer_factory_error(count, skip):
    src = ManualSource()
    ts = src.buffer(count, skip, buffer_factory=lambda: 1 / 0).test()
    src.emit(1)
    ts.assert_failure(ZeroDivisionError)
    assert src.cancelled


def test_count_buffer_factory_none():
    Flowable.range(1, 3).buffer(2, buffer_factory=lambda: None).test().assert_failure(TypeError)


# ---------------------------------------------------------------- buffer(openings=, closing_selector=)

def selector_setup(request: int = LONG_MAX, factory=None):
    src, opens = ManualSource(), ManualSource()
    closes: dict[object, ManualSource] = {}

    def closing(o):
        closes[o] = ManualSource()
        return closes[o]

    ts = src.buffer(openings=opens, closing_selector=closing, buffer_factory=factory).test(request)
    return src, opens, closes, ts


def test_selector_overlapping_and_gapped_buffers():
    src, opens, closes, ts = selector_setup()
    src.emit(0)  # no open buffer: dropped
    opens.emit("a")
    src.emit(1)
    opens.emit("b")
    src.emit(2)
    closes["a"].emit("x")
    src.emit(3)
    closes["b"].complete()
    src.emit(4)
    ts.assert_values([1, 2], [2, 3])
    assert closes["a"].cancelled
    opens.emit("c")
    src.emit(5)
    src.complete()
    ts.assert_result([1, 2], [2, 3], [5])
    assert opens.cancelled and closes["c"].cancelled


def test_selector_honours_downstream_demand():
    src, opens, closes, ts = selector_setup(request=0)
    opens.emit("a")
    opens.emit("b")
    src.emit(1)
    closes["a"].emit(0)
    closes["b"].emit(0)
    ts.assert_no_values()
    ts.request(1)
    ts.assert_values([1])
    src.complete()
    ts.assert_not_complete()
    ts.request(1)
    ts.assert_result([1], [1])


def test_selector_openings_complete_then_last_close_completes():
    src, opens, closes, ts = selector_setup()
    opens.emit("a")
    src.emit(1)
    opens.complete()
    ts.assert_not_complete()
    assert not src.cancelled
    closes["a"].complete()
    ts.assert_result([1])
    assert src.cancelled


def test_selector_openings_complete_without_open_buffers():
    src, opens, closes, ts = selector_setup()
    opens.complete()
    ts.assert_result()
    assert src.cancelled


@pytest.mark.parametrize("which", ["source", "openings", "closing"])
def test_selector_errors_cancel_everything(which):
    src, opens, closes, ts = selector_setup()
    opens.emit("a")
    src.emit(1)
    {"source": src, "openings": opens, "closing": closes["a"]}[which].error(Boom())
    ts.assert_failure(Boom)
    assert src.cancelled or which == "source"
    assert opens.cancelled or which == "openings"
    assert closes["a"].cancelled or which == "closing"


def test_selector_closing_selector_raises():
    src, opens = ManualSource(), ManualSource()
    ts = src.buffer(openings=opens, closing_selector=lambda o: 1 / 0).test()
    opens.emit("a")
    ts.assert_failure(ZeroDivisionError)
    assert src.cancelled and opens.cancelled


def test_selector_closing_selector_returns_none():
    src, opens = ManualSource(), ManualSource()
    ts = src.buffer(openings=opens, closing_selector=lambda o: None).test()
    opens.emit("a")
    ts.assert_failure(TypeError)
    assert src.cancelled and opens.cancelled


def test_selector_factory_error():
    src, opens, closes, ts = selector_setup(factory=lambda: 1 / 0)
    opens.emit("a")
    ts.assert_failure(ZeroDivisionError)
    assert src.cancelled and opens.cancelled


def test_selector_cancel():
    src, opens, closes, ts = selector_setup()
    opens.emit("a")
    ts.cancel()
    assert src.cancelled and opens.cancelled and closes["a"].cancelled
    src.emit(1)
    src.complete()
    ts.assert_empty()


def test_selector_with_time(sched):
    ts = (Flowable.interval(1.0, scheduler=sched).take(10)
          .buffer(openings=Flowable.interval(3.0, scheduler=sched),
                  closing_selector=lambda _: Flowable.timer(2.0, sched))
          .test())
    sched.advance_time_by(20)
    ts.assert_result([2, 3], [5, 6], [8, 9])


# ---------------------------------------------------------------- assembly

def test_bad_arguments():
    f = Flowable.range(0, 3)
    with pytest.raises(TypeError):
        f.buffer()
    with pytest.raises(TypeError):
        f.buffer(Flowable.never(), 2)
    with pytest.raises(TypeError):
        f.buffer(2, buffer_factory=1)
    with pytest.raises(TypeError):
        f.buffer(openings=Flowable.never())
    with pytest.raises(TypeError):
        f.buffer(closing_selector=lambda o: Flowable.never())
    with pytest.raises(TypeError):
        f.buffer(openings=1, closing_selector=lambda o: Flowable.never())
    with pytest.raises(TypeError):
        f.buffer(2, openings=Flowable.never(), closing_selector=lambda o: Flowable.never())
    with pytest.raises(TypeError):
        f.buffer(openings=Flowable.never(), closing_selector=1)
    with pytest.raises(ValueError):
        f.buffer(0)


# ---------------------------------------------------------------- races

def test_race_boundary_vs_items(race_runner, race_rounds):
    for _ in range(race_rounds // 2):
        src, boundary, ts = boundary_setup()

        def produce(src=src):
            src.emit(1, 2, 3, 4)

        race_runner.race(produce, lambda b=boundary: b.emit("b", "b"))
        src.complete()
        vals = ts.values()
        assert [v for b in vals for v in b] == [1, 2, 3, 4]
        assert len(vals) == 3
        assert len({id(b) for b in vals}) == 3  # no list emitted twice
        ts.assert_complete()


def test_race_boundary_complete_vs_source_complete(race_runner, race_rounds):
    for _ in range(race_rounds // 2):
        src, boundary, ts = boundary_setup()
        src.emit(1)
        race_runner.race(src.complete, boundary.complete)
        ts.assert_result([1])


def test_race_boundary_vs_cancel(race_runner, race_rounds):
    for _ in range(race_rounds // 2):
        src, boundary, ts = boundary_setup()
        src.emit(1)
        race_runner.race(ts.cancel, lambda b=boundary: b.emit("b"))
        assert ts.values() in ([], [[1]])
        assert ts.completions() == 0 and ts.errors() == []
        assert src.cancelled and boundary.cancelled


def test_race_selector_close_vs_items(race_runner, race_rounds):
    for _ in range(race_rounds // 2):
        src, opens, closes, ts = selector_setup()
        opens.emit("a")

        def produce(src=src):
            src.emit(1, 2, 3)

        race_runner.race(produce, lambda c=closes["a"]: c.emit("x"))
        src.complete()
        vals = ts.values()
        assert len(vals) == 1 and vals[0] == [1, 2, 3][:len(vals[0])]
        ts.assert_complete()


def test_race_selector_open_vs_source_complete(race_runner, race_rounds):
    for _ in range(race_rounds // 2):
        src, opens, closes, ts = selector_setup()
        race_runner.race(src.complete, lambda o=opens: o.emit("a"))
        ts.assert_complete()
        assert ts.values() in ([], [[]])


# ---------------------------------------------------------------- buffer(boundary_supplier)

def supplier_setup(request: int = LONG_MAX, factory=None):
    src = ManualSource()
    boundaries: list[ManualSource] = []

    def supplier():
        boundaries.append(ManualSource())
        return boundaries[-1]

    ts = src.buffer(supplier, buffer_factory=factory).test(request)
    return src, boundaries, ts


def test_supplier_each_boundary_signals_once_then_a_new_one():
    src, bs, ts = supplier_setup()
    assert len(bs) == 1 and src.requests == [LONG_MAX] and bs[0].requests == [LONG_MAX]
    src.emit(1, 2)
    bs[0].emit("x")
    assert bs[0].cancelled and len(bs) == 2
    src.emit(3)
    bs[1].complete()  # as RxJava 2: a boundary's completion is a boundary too
    assert len(bs) == 3
    src.emit(4)
    src.complete()
    ts.assert_result([1, 2], [3], [4])
    assert bs[2].cancelled


def test_supplier_boundary_error():
    src, bs, ts = supplier_setup()
    src.emit(1)
    bs[0].error(Boom())
    ts.assert_failure(Boom)
    assert src.cancelled


def test_supplier_raises_at_subscription():
    src = ManualSource()
    ts = src.buffer(lambda: 1 / 0).test()
    ts.assert_failure(ZeroDivisionError)
    assert src.cancelled and src.requests == []


def test_supplier_raises_later():
    first = ManualSource()
    supplied = []

    def supplier():
        supplied.append(1)
        if len(supplied) > 1:
            raise Boom()
        return first

    src = ManualSource()
    ts = src.buffer(supplier).test()
    src.emit(1)
    first.emit("x")
    ts.assert_failure(Boom)
    assert src.cancelled


def test_supplier_returns_none():
    src = ManualSource()
    src.buffer(lambda: None).test().assert_failure(TypeError)


def test_supplier_synchronous_boundaries_are_stack_safe():
    ts = Flowable.never().buffer(lambda: Flowable.just(1)).test(100_000)
    assert len(ts.values()) == 100_000
    ts.assert_error(MissingBackpressureException)


def test_supplier_cancel():
    src, bs, ts = supplier_setup()
    ts.cancel()
    assert src.cancelled and bs[0].cancelled


def test_supplier_with_time(sched):
    ts = (Flowable.interval(1.0, scheduler=sched).take(10)
          .buffer(lambda: Flowable.timer(3.5, sched)).test())
    sched.advance_time_by(20)
    ts.assert_result([0, 1, 2], [3, 4, 5], [6, 7, 8, 9])


def test_race_supplier_boundary_vs_items(race_runner, race_rounds):
    for _ in range(race_rounds // 2):
        src, bs, ts = supplier_setup()

        def produce(src=src):
            src.emit(1, 2, 3, 4)

        race_runner.race(produce, lambda b=bs[0]: b.emit("x"))
        src.complete()
        vals = ts.values()
        assert [v for b in vals for v in b] == [1, 2, 3, 4] and len(vals) == 2
        ts.assert_complete()


def test_selector_100_000_synchronous_openings_and_closings():
    ts = Flowable.never().buffer(openings=Flowable.range(0, 100_000),
                                 closing_selector=lambda _: Flowable.empty()).test()
    assert len(ts.values()) == 100_000
    ts.assert_complete()  # openings completed and every buffer closed
