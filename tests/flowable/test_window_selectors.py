"""window(openings=, closing_selector=): windows opened and closed by Publishers."""

from __future__ import annotations

import pytest
from _window_probes import WindowCollector
from probes import Boom
from probes import ManualSource

from rxpy2 import Flowable
from rxpy2.exceptions import MissingBackpressureException
from rxpy2.reactivestreams import LONG_MAX


def setup(outer_request: int = LONG_MAX):
    src, opens = ManualSource(), ManualSource()
    closes: dict[object, ManualSource] = {}

    def closing(o):
        closes[o] = ManualSource()
        return closes[o]

    c = WindowCollector(outer_request)
    src.window(openings=opens, closing_selector=closing).subscribe(c)
    return src, opens, closes, c


def test_overlapping_and_gapped_windows():
    src, opens, closes, c = setup()
    src.emit(0)  # no window open: dropped
    opens.emit("a")
    src.emit(1)
    opens.emit("b")
    src.emit(2)
    closes["a"].emit("x")
    assert closes["a"].cancelled
    src.emit(3)
    closes["b"].complete()
    src.emit(4)
    opens.emit("c")
    src.emit(5)
    src.complete()
    assert c.values() == [[1, 2], [2, 3], [5]]
    for ts in c.subs:
        ts.assert_complete()
    assert c.completed == 1
    assert opens.cancelled and closes["c"].cancelled


def test_requested_without_bound():
    src, opens, closes, c = setup(outer_request=1)
    assert src.requests == [LONG_MAX] and opens.requests == [LONG_MAX]


def test_window_without_demand_is_missing_backpressure():
    src, opens, closes, c = setup(outer_request=1)
    opens.emit("a")
    src.emit(1)
    opens.emit("b")
    assert isinstance(c.errors[0], MissingBackpressureException)
    c.subs[0].assert_failure(MissingBackpressureException, 1)
    assert src.cancelled and opens.cancelled and closes["a"].cancelled


def test_openings_completion_waits_for_the_open_windows():
    src, opens, closes, c = setup()
    opens.emit("a")
    src.emit(1)
    opens.complete()
    assert c.completed == 0 and not src.cancelled
    src.emit(2)
    closes["a"].complete()
    c.subs[0].assert_result(1, 2)
    assert c.completed == 1 and src.cancelled


def test_openings_completion_without_windows_completes_at_once():
    src, opens, closes, c = setup()
    opens.complete()
    assert c.completed == 1 and src.cancelled


@pytest.mark.parametrize("which", ["source", "openings", "closing"])
def test_errors_reach_the_open_windows_and_the_outer(which):
    src, opens, closes, c = setup()
    opens.emit("a")
    opens.emit("b")
    src.emit(1)
    {"source": src, "openings": opens, "closing": closes["a"]}[which].error(Boom())
    assert len(c.errors) == 1 and isinstance(c.errors[0], Boom)
    for ts in c.subs:
        ts.assert_failure(Boom, 1)
    assert src.cancelled or which == "source"
    assert opens.cancelled or which == "openings"
    assert closes["b"].cancelled


def test_closing_selector_raises():
    src, opens = ManualSource(), ManualSource()
    c = WindowCollector()
    src.window(openings=opens, closing_selector=lambda o: 1 / 0).subscribe(c)
    opens.emit("a")
    assert isinstance(c.errors[0], ZeroDivisionError)
    assert src.cancelled and opens.cancelled


def test_closing_selector_returns_none():
    src, opens = ManualSource(), ManualSource()
    c = WindowCollector()
    src.window(openings=opens, closing_selector=lambda o: None).subscribe(c)
    opens.emit("a")
    assert isinstance(c.errors[0], TypeError) and src.cancelled


def test_outer_cancel_keeps_the_open_windows():
    src, opens, closes, c = setup()
    opens.emit("a")
    src.emit(1)
    c.cancel()
    assert opens.cancelled and not src.cancelled
    src.emit(2)
    closes["a"].emit("x")
    c.subs[0].assert_result(1, 2)
    assert src.cancelled  # the last window closed
    assert c.completed == 0


def test_outer_cancel_then_window_cancel_cancels_the_source():
    src, opens, closes, c = setup()
    opens.emit("a")
    c.cancel()
    assert not src.cancelled
    c.subs[0].cancel()
    assert src.cancelled and closes["a"].cancelled


def test_source_completion_after_outer_cancel_goes_to_the_windows_only():
    src, opens, closes, c = setup()
    opens.emit("a")
    c.cancel()
    src.error(Boom())
    c.subs[0].assert_failure(Boom)
    assert c.errors == [] and c.completed == 0


def test_with_time(sched):
    f = (Flowable.interval(1.0, scheduler=sched).take(10)
         .window(openings=Flowable.interval(3.0, scheduler=sched),
                 closing_selector=lambda _: Flowable.timer(2.0, sched))
         .flat_map(lambda w: w.to_list().to_flowable()))
    ts = f.test()
    sched.advance_time_by(20)
    ts.assert_result([2, 3], [5, 6], [8, 9])


def test_bad_arguments():
    f = Flowable.range(0, 3)
    with pytest.raises(TypeError):
        f.window()
    with pytest.raises(TypeError):
        f.window(openings=Flowable.never())
    with pytest.raises(TypeError):
        f.window(closing_selector=lambda o: Flowable.never())
    with pytest.raises(TypeError):
        f.window(2, openings=Flowable.never(), closing_selector=lambda o: Flowable.never())
    with pytest.raises(TypeError):
        f.window(openings=[1], closing_selector=lambda o: Flowable.never())
    with pytest.raises(ValueError):
        f.window(openings=Flowable.never(), closing_selector=lambda o: Flowable.never(),
                 buffer_size=0)


def test_race_close_vs_items(race_runner, race_rounds):
    for _ in range(race_rounds // 2):
        src, opens, closes, c = setup()
        opens.emit("a")
        opens.emit("b")

        def produce(src=src):
            src.emit(1, 2, 3)

        race_runner.race(produce, lambda cl=closes["a"]: cl.emit("x"))
        src.complete()
        a, b = c.values()
        assert b == [1, 2, 3] and a == [1, 2, 3][:len(a)]
        assert c.completed == 1
        for ts in c.subs:
            ts.assert_complete()


def test_race_open_vs_items(race_runner, race_rounds):
    for _ in range(race_rounds // 2):
        src, opens, closes, c = setup()
        opens.emit("a")

        def produce(src=src):
            src.emit(1, 2, 3)

        race_runner.race(produce, lambda o=opens: o.emit("b"))
        src.complete()
        a, b = c.values()
        assert a == [1, 2, 3] and b == [1, 2, 3][3 - len(b):]
        assert c.completed == 1


def test_race_outer_cancel_vs_window_cancel(race_runner, race_rounds):
    for _ in range(race_rounds // 2):
        src, opens, closes, c = setup()
        opens.emit("a")
        race_runner.race(c.cancel, c.subs[0].cancel)
        assert src.cancels == 1 and opens.cancelled


def test_race_source_complete_vs_close(race_runner, race_rounds):
    for _ in range(race_rounds // 2):
        src, opens, closes, c = setup()
        opens.emit("a")
        src.emit(1)
        race_runner.race(src.complete, lambda cl=closes["a"]: cl.complete())
        c.subs[0].assert_result(1)
        assert c.completed == 1 and c.errors == []


# ---------------------------------------------------------------- window(boundary_supplier)

def supplier_setup(outer_request: int = LONG_MAX):
    src = ManualSource()
    boundaries: list[ManualSource] = []

    def supplier():
        boundaries.append(ManualSource())
        return boundaries[-1]

    c = WindowCollector(outer_request)
    src.window(supplier).subscribe(c)
    return src, boundaries, c


def test_supplier_first_boundary_item_starts_the_next_window():
    src, bs, c = supplier_setup()
    assert len(bs) == 1 and len(c.subs) == 1
    src.emit(1, 2)
    bs[0].emit("x")
    assert bs[0].cancelled and len(bs) == 2
    src.emit(3)
    src.complete()
    assert c.values() == [[1, 2], [3]]
    assert c.completed == 1 and bs[1].cancelled


def test_supplier_boundary_completion_completes():
    src, bs, c = supplier_setup()
    src.emit(1)
    bs[0].complete()
    c.subs[0].assert_result(1)
    assert c.completed == 1 and src.cancelled


def test_supplier_boundary_error():
    src, bs, c = supplier_setup()
    src.emit(1)
    bs[0].error(Boom())
    c.subs[0].assert_failure(Boom, 1)
    assert isinstance(c.errors[0], Boom) and src.cancelled


def test_supplier_raises_cancels_the_source():
    calls = []
    b0 = ManualSource()

    def supplier():
        calls.append(1)
        if len(calls) > 1:
            raise Boom()
        return b0

    src = ManualSource()
    c = WindowCollector()
    src.window(supplier).subscribe(c)
    src.emit(1)
    b0.emit("x")
    assert isinstance(c.errors[0], Boom)
    c.subs[0].assert_result(1)
    assert src.cancelled  # RxJava 2 leaves the source running here


def test_supplier_without_demand_is_missing_backpressure():
    src, bs, c = supplier_setup(outer_request=1)
    bs[0].emit("x")
    assert isinstance(c.errors[0], MissingBackpressureException)
    assert src.cancelled


def test_supplier_outer_cancel_keeps_the_open_window():
    src, bs, c = supplier_setup()
    c.cancel()
    assert bs[0].cancelled and not src.cancelled
    src.emit(1)
    src.complete()
    c.subs[0].assert_result(1)


def test_supplier_synchronous_boundaries_are_stack_safe():
    c = WindowCollector(20_000)  # 20x the recursion limit: a recursion would overflow
    Flowable.never().window(lambda: Flowable.just(1)).subscribe(c)
    assert len(c.subs) == 20_000
    assert isinstance(c.errors[0], MissingBackpressureException)


def test_supplier_bad_arguments():
    with pytest.raises(TypeError):
        Flowable.never().window(lambda: Flowable.never(), 2)
    with pytest.raises(ValueError):
        Flowable.never().window(lambda: Flowable.never(), buffer_size=0)


def test_race_supplier_boundary_vs_items(race_runner, race_rounds):
    for _ in range(race_rounds // 2):
        src, bs, c = supplier_setup()

        def produce(src=src):
            src.emit(1, 2, 3, 4)

        race_runner.race(produce, lambda b=bs[0]: b.emit("x"))
        src.complete()
        assert [v for vs in c.values() for v in vs] == [1, 2, 3, 4]
        assert len(c.subs) == 2 and c.completed == 1


def test_selector_20_000_synchronous_openings_and_closings():
    c = WindowCollector()  # 20x the recursion limit: a recursion would overflow
    Flowable.never().window(openings=Flowable.range(0, 20_000),
                            closing_selector=lambda _: Flowable.empty()).subscribe(c)
    assert len(c.subs) == 20_000 and c.completed == 1
