"""window_time: exact (unbounded/bounded, restart) and skip windows on virtual time."""

from __future__ import annotations

import pytest
from _window_probes import collect
from probes import ManualSource

from rxpy2 import Flowable
from rxpy2.exceptions import MissingBackpressureException
from rxpy2.reactivestreams import LONG_MAX

# ------------------------------------------------------------------------- exact, unbounded


def test_exact_windows_follow_the_timer(sched):
    src = ManualSource()
    c = collect(src.window_time(1.0, scheduler=sched))
    assert c.values() == [[]]  # the first window opens at subscription
    src.emit(1, 2)
    sched.advance_time_by(1.0)
    src.emit(3)
    sched.advance_time_by(1.0)
    sched.advance_time_by(1.0)
    src.emit(4)
    src.complete()
    assert c.values() == [[1, 2], [3], [], [4]]
    assert c.completed == 1
    for ts in c.subs:
        ts.assert_complete()
    assert sched.pending_count() == 0  # the timer is gone


def test_upstream_is_requested_without_bound(sched):
    src = ManualSource()
    collect(src.window_time(1.0, scheduler=sched), outer_request=1)
    assert src.requests == [LONG_MAX]


def test_error_reaches_window_and_outer(sched):
    src = ManualSource()
    c = collect(src.window_time(1.0, scheduler=sched))
    src.emit(1)
    src.error(ValueError("x"))
    c.subs[0].assert_failure(ValueError, 1)
    assert isinstance(c.errors[0], ValueError)
    assert sched.pending_count() == 0


def test_no_demand_for_the_first_window(sched):
    src = ManualSource()
    ts = src.window_time(1.0, scheduler=sched).test(0)
    ts.assert_error(MissingBackpressureException).assert_no_values()
    assert src.cancelled and src.requests == []
    assert sched.pending_count() == 0


def test_no_demand_for_a_later_window(sched):
    src = ManualSource()
    c = collect(src.window_time(1.0, scheduler=sched), outer_request=2)
    src.emit(1)
    sched.advance_time_by(1.0)
    src.emit(2)
    assert c.errors == []
    sched.advance_time_by(1.0)
    assert len(c.errors) == 1 and isinstance(c.errors[0], MissingBackpressureException)
    assert c.values() == [[1], [2]]
    c.subs[1].assert_complete()
    assert src.cancels == 1
    assert sched.pending_count() == 0


def test_windows_consumed_late_keep_their_items(sched):
    src = ManualSource()
    ts = src.window_time(1.0, scheduler=sched).test()
    src.emit(1, 2)
    sched.advance_time_by(1.0)
    src.emit(3)
    src.complete()
    assert [w.test().values() for w in ts.values()] == [[1, 2], [3]]


def test_outer_cancel_keeps_the_window_until_the_timer_closes_it(sched):
    src = ManualSource()
    c = collect(src.window_time(1.0, scheduler=sched))
    src.emit(1)
    c.cancel()
    assert not src.cancelled
    src.emit(2)
    assert c.values() == [[1, 2]]
    sched.advance_time_by(1.0)
    c.subs[0].assert_result(1, 2)
    assert src.cancels == 1
    assert len(c.subs) == 1
    assert sched.pending_count() == 0


def test_outer_then_window_cancel_cancels_upstream(sched):
    src = ManualSource()
    c = collect(src.window_time(1.0, scheduler=sched))
    c.cancel()
    assert not src.cancelled
    c.subs[0].cancel()
    assert src.cancels == 1
    assert sched.pending_count() == 0


def test_window_cancel_alone_keeps_the_outer(sched):
    src = ManualSource()
    c = collect(src.window_time(1.0, scheduler=sched))
    c.subs[0].cancel()
    src.emit(1)
    sched.advance_time_by(1.0)
    src.emit(2)
    assert c.values() == [[], [2]]
    assert not src.cancelled


def test_deep_synchronous_stream(sched):
    c = collect(Flowable.range(0, 100_000).window_time(1.0, scheduler=sched))
    assert c.values() == [list(range(100_000))]
    assert c.completed == 1


# ------------------------------------------------------------------------- exact, bounded


def test_count_closes_windows_timer_keeps_its_period(sched):
    src = ManualSource()
    c = collect(src.window_time(1.0, scheduler=sched, count=2))
    src.emit(1, 2, 3)
    sched.advance_time_by(0.5)
    src.emit(4)  # full again: a third window opens at t=0.5
    sched.advance_time_by(0.5)  # t=1: the timer's tick closes it, empty
    src.emit(5)
    src.complete()
    assert c.values() == [[1, 2], [3, 4], [], [5]]
    assert c.completed == 1


def test_count_with_restart(sched):
    src = ManualSource()
    c = collect(src.window_time(1.0, scheduler=sched, count=2, restart=True))
    sched.advance_time_by(0.5)
    src.emit(1, 2)  # t=0.5: full, the new window's timer runs until 1.5
    sched.advance_time_by(0.7)  # t=1.2: the old period would have closed it at 1.0
    src.emit(3)
    sched.advance_time_by(0.3)  # t=1.5
    src.emit(4)
    src.complete()
    assert c.values() == [[1, 2], [3], [4]]
    assert sched.pending_count() == 0


def test_count_without_restart_ticks_at_the_old_period(sched):
    src = ManualSource()
    c = collect(src.window_time(1.0, scheduler=sched, count=2))
    sched.advance_time_by(0.5)
    src.emit(1, 2)
    sched.advance_time_by(0.7)
    src.emit(3)
    src.complete()
    assert c.values() == [[1, 2], [], [3]]


def test_count_no_demand_for_the_next_window(sched):
    src = ManualSource()
    c = collect(src.window_time(1.0, scheduler=sched, count=2), outer_request=1)
    src.emit(1, 2)
    assert isinstance(c.errors[0], MissingBackpressureException)
    assert src.cancelled
    c.subs[0].assert_result(1, 2)
    assert sched.pending_count() == 0


def test_count_outer_cancel_keeps_window_until_full(sched):
    src = ManualSource()
    c = collect(src.window_time(10.0, scheduler=sched, count=3, restart=True))
    src.emit(1)
    c.cancel()
    src.emit(2, 3)
    c.subs[0].assert_result(1, 2, 3)
    assert src.cancels == 1
    src.emit(4)
    assert len(c.subs) == 1
    assert sched.pending_count() == 0


def test_count_error(sched):
    src = ManualSource()
    c = collect(src.window_time(1.0, scheduler=sched, count=5))
    src.emit(1)
    src.error(ValueError("x"))
    c.subs[0].assert_failure(ValueError, 1)
    assert isinstance(c.errors[0], ValueError)


# ------------------------------------------------------------------------- skip


def test_overlapping_windows(sched):
    src = ManualSource()
    c = collect(src.window_time(2.0, 1.0, scheduler=sched))
    for i in range(6):  # item i at t = i / 2
        src.emit(i)
        sched.advance_time_by(0.5)
    src.complete()
    assert c.values() == [[0, 1, 2, 3], [2, 3, 4, 5], [4, 5], []]
    assert c.completed == 1
    for ts in c.subs:
        ts.assert_complete()
    assert sched.pending_count() == 0


def test_windows_with_gaps(sched):
    src = ManualSource()
    c = collect(src.window_time(1.0, 2.0, scheduler=sched))
    for i in range(8):  # item i at t = i / 2
        src.emit(i)
        sched.advance_time_by(0.5)
    src.complete()  # t=4: a window opened just before
    assert c.values() == [[0, 1], [4, 5], []]


def test_skip_error_reaches_every_open_window(sched):
    src = ManualSource()
    c = collect(src.window_time(3.0, 1.0, scheduler=sched))
    src.emit(1)
    sched.advance_time_by(1.0)
    src.emit(2)
    src.error(ValueError("x"))
    c.subs[0].assert_failure(ValueError, 1, 2)
    c.subs[1].assert_failure(ValueError, 2)
    assert isinstance(c.errors[0], ValueError)
    assert sched.pending_count() == 0


def test_skip_no_demand_for_a_window(sched):
    src = ManualSource()
    c = collect(src.window_time(3.0, 1.0, scheduler=sched), outer_request=1)
    src.emit(1)
    sched.advance_time_by(1.0)
    assert isinstance(c.errors[0], MissingBackpressureException)
    c.subs[0].assert_failure(MissingBackpressureException, 1)
    assert src.cancelled
    assert sched.pending_count() == 0


def test_skip_first_window_needs_demand(sched):
    src = ManualSource()
    src.window_time(3.0, 1.0, scheduler=sched).test(0).assert_error(MissingBackpressureException)
    assert src.cancelled and sched.pending_count() == 0


def test_skip_outer_cancel_keeps_open_windows(sched):
    src = ManualSource()
    c = collect(src.window_time(2.0, 1.0, scheduler=sched))
    sched.advance_time_by(1.0)
    assert len(c.subs) == 2
    c.cancel()
    src.emit(1)
    sched.advance_time_by(1.0)  # t=2: the first closes, no new one opens
    assert len(c.subs) == 2 and not src.cancelled
    src.emit(2)
    sched.advance_time_by(1.0)  # t=3: the second closes: all gone
    assert c.values() == [[1], [1, 2]]
    assert src.cancels == 1
    assert sched.pending_count() == 0


# ------------------------------------------------------------------------- assembly


def test_bad_arguments(sched):
    f = Flowable.range(0, 3)
    with pytest.raises(ValueError):
        f.window_time(0, scheduler=sched)
    with pytest.raises(ValueError):
        f.window_time(-1, scheduler=sched)
    with pytest.raises(ValueError):
        f.window_time(1, 0, scheduler=sched)
    with pytest.raises(ValueError):
        f.window_time(1, 2, scheduler=sched, count=3)
    with pytest.raises(ValueError):
        f.window_time(1, scheduler=sched, count=0)
    with pytest.raises(TypeError):
        f.window_time("1", scheduler=sched)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        f.window_time(1, scheduler=object())  # type: ignore[arg-type]


# ------------------------------------------------------------------------- races


@pytest.mark.parametrize("count", [None, 2])
def test_race_timer_vs_items(race_runner, race_rounds, sched, count):
    for _ in range(race_rounds // 4):
        src = ManualSource()
        c = collect(src.window_time(1.0, scheduler=sched, count=count))

        def produce(src=src):
            src.emit(1, 2, 3, 4)

        race_runner.race(produce, lambda: sched.advance_time_by(1.0))
        src.complete()
        assert [v for vs in c.values() for v in vs] == [1, 2, 3, 4]
        assert c.completed == 1 and c.errors == []


def test_race_outer_cancel_vs_window_cancel(race_runner, race_rounds, sched):
    for _ in range(race_rounds // 2):
        src = ManualSource()
        c = collect(src.window_time(1.0, scheduler=sched))
        race_runner.race(c.cancel, c.subs[0].cancel)
        assert src.cancels == 1


@pytest.mark.parametrize(("timeskip", "count"), [(None, None), (None, 3), (0.5, None)])
def test_error_after_outer_cancel_goes_to_the_open_window_only(sched, timeskip, count):
    src = ManualSource()
    c = collect(src.window_time(1.0, timeskip, scheduler=sched, count=count))
    src.emit(1)
    c.cancel()
    src.error(ValueError("x"))
    c.subs[0].assert_failure(ValueError, 1)
    assert c.errors == [] and c.completed == 0
    assert sched.pending_count() == 0
