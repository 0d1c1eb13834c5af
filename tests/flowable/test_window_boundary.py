"""window(boundary): a new window at each boundary item; termination from either side."""

from __future__ import annotations

import pytest
from _window_probes import WindowCollector
from probes import ManualSource

from rxpy2 import Flowable
from rxpy2.exceptions import MissingBackpressureException
from rxpy2.reactivestreams import LONG_MAX


def setup(outer_request: int = LONG_MAX) -> tuple[ManualSource, ManualSource, WindowCollector]:
    src, boundary = ManualSource(), ManualSource()
    c = WindowCollector(outer_request)
    src.window(boundary).subscribe(c)
    return src, boundary, c


def test_a_new_window_at_each_boundary_item():
    src, boundary, c = setup()
    assert c.values() == [[]]  # the first window opens at subscription
    src.emit(1, 2)
    boundary.emit("b")
    src.emit(3)
    boundary.emit("b")
    boundary.emit("b")
    src.emit(4)
    src.complete()
    assert c.values() == [[1, 2], [3], [], [4]]
    assert c.completed == 1
    for ts in c.subs:
        ts.assert_complete()
    assert boundary.cancelled and not src.cancelled


def test_both_sides_are_requested_without_bound():
    src, boundary, _ = setup(outer_request=1)
    assert src.requests == [LONG_MAX]
    assert boundary.requests == [LONG_MAX]


def test_boundary_completion_completes_and_cancels_the_source():
    src, boundary, c = setup()
    src.emit(1)
    boundary.complete()
    c.subs[0].assert_result(1)
    assert c.completed == 1 and src.cancelled


def test_boundary_error():
    src, boundary, c = setup()
    src.emit(1)
    boundary.error(ValueError("b"))
    c.subs[0].assert_failure(ValueError, 1)
    assert isinstance(c.errors[0], ValueError) and src.cancelled


def test_source_error_cancels_the_boundary():
    src, boundary, c = setup()
    src.emit(1)
    src.error(ValueError("s"))
    c.subs[0].assert_failure(ValueError, 1)
    assert isinstance(c.errors[0], ValueError) and boundary.cancelled


def test_both_fail(plugin_errors):
    src, boundary, c = setup()
    boundary.error(ValueError("b"))
    src.error(KeyError("s"))  # after the stream failed: undeliverable
    assert isinstance(c.errors[0], ValueError)
    assert [type(e) for e in plugin_errors.causes()] == [KeyError]


def test_never_boundary_gives_one_window():
    c = WindowCollector()
    Flowable.range(0, 5).window(Flowable.never()).subscribe(c)
    assert c.values() == [[0, 1, 2, 3, 4]] and c.completed == 1


def test_no_demand_for_the_first_window():
    src, boundary = ManualSource(), ManualSource()
    ts = src.window(boundary).test(0)
    ts.assert_error(MissingBackpressureException).assert_no_values()
    assert src.cancelled and boundary.cancelled


def test_no_demand_for_a_later_window():
    src, boundary, c = setup(outer_request=1)
    src.emit(1)
    boundary.emit("b")
    assert isinstance(c.errors[0], MissingBackpressureException)
    c.subs[0].assert_result(1)
    assert src.cancelled and boundary.cancelled


def test_windows_wait_for_the_outer_demand_given_later():
    src, boundary, c = setup(outer_request=1)
    c.request(1)
    boundary.emit("b")
    src.emit(1)
    assert c.values() == [[], [1]] and c.errors == []


def test_windows_consumed_late():
    src, boundary = ManualSource(), ManualSource()
    ts = src.window(boundary).test()
    src.emit(1, 2)
    boundary.emit("b")
    src.emit(3)
    src.complete()
    assert [w.test().values() for w in ts.values()] == [[1, 2], [3]]


def test_outer_cancel_stops_the_boundary_and_keeps_the_window():
    src, boundary, c = setup()
    src.emit(1)
    c.cancel()
    assert boundary.cancelled and not src.cancelled
    src.emit(2)
    assert c.values() == [[1, 2]]
    c.subs[0].cancel()
    assert src.cancels == 1


def test_window_cancel_then_outer_cancel():
    src, boundary, c = setup()
    c.subs[0].cancel()
    assert not src.cancelled
    boundary.emit("b")
    src.emit(1)
    assert c.values() == [[], [1]]
    c.cancel()
    assert not src.cancelled
    c.subs[1].cancel()
    assert src.cancels == 1


def test_deep_synchronous_stream():
    c = WindowCollector()
    Flowable.range(0, 100_000).window(Flowable.never()).subscribe(c)
    assert len(c.values()[0]) == 100_000 and c.completed == 1


def test_bad_arguments():
    with pytest.raises(TypeError):
        Flowable.range(0, 3).window(Flowable.never(), 2)
    with pytest.raises(ValueError):
        Flowable.range(0, 3).window(Flowable.never(), buffer_size=0)


def test_race_outer_cancel_vs_window_cancel(race_runner, race_rounds):
    for _ in range(race_rounds // 2):
        src, boundary, c = setup()
        race_runner.race(c.cancel, c.subs[0].cancel)
        assert src.cancels == 1 and boundary.cancels == 1


def test_race_boundary_vs_items(race_runner, race_rounds):
    for _ in range(race_rounds // 2):
        src, boundary, c = setup()

        def produce(src=src):
            src.emit(1, 2, 3, 4)

        race_runner.race(produce, lambda boundary=boundary: boundary.emit("b", "b"))
        src.complete()
        assert [v for vs in c.values() for v in vs] == [1, 2, 3, 4]
        assert len(c.subs) == 3 and c.completed == 1


def test_error_after_outer_cancel_goes_to_the_open_window_only():
    src, boundary, c = setup()
    src.emit(1)
    c.cancel()
    src.error(ValueError("x"))
    c.subs[0].assert_failure(ValueError, 1)
    assert c.errors == [] and c.completed == 0
