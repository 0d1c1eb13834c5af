"""window(count, skip): exact, skip and overlapping windows; requests, cancellation, races."""

from __future__ import annotations

from typing import Any

import pytest
from _window_probes import WindowCollector
from _window_probes import collect
from probes import ManualSource
from probes import Spy
from probes import failing

from rxpy2 import Flowable
from rxpy2 import UnicastProcessor
from rxpy2.exceptions import ProtocolViolationException
from rxpy2.reactivestreams import LONG_MAX

# ------------------------------------------------------------------------- values


@pytest.mark.parametrize(("count", "skip", "expected"), [
    (3, 3, [[0, 1, 2], [3, 4, 5], [6]]),
    (2, 3, [[0, 1], [3, 4], [6]]),
    (3, 1, [[0, 1, 2], [1, 2, 3], [2, 3, 4], [3, 4, 5], [4, 5, 6], [5, 6], [6]]),
    (3, 2, [[0, 1, 2], [2, 3, 4], [4, 5, 6], [6]]),
])
def test_values(count, skip, expected):
    c = collect(Flowable.range(0, 7).window(count, skip))
    assert c.values() == expected
    assert c.completed == 1
    for ts in c.subs:
        ts.assert_complete()


def test_windows_are_unicast_processors():
    c = collect(Flowable.range(0, 2).window(2))
    assert isinstance(c.windows[0], UnicastProcessor)


@pytest.mark.parametrize(("count", "skip"), [(3, 3), (2, 3), (3, 1)])
def test_windows_consumed_late_keep_their_items(count, skip):
    ts = Flowable.range(0, 7).window(count, skip).test()
    ts.assert_complete()
    late = [w.test().values() for w in ts.values()]
    assert late == collect(Flowable.range(0, 7).window(count, skip)).values()


def test_second_subscriber_of_a_window_gets_an_error():
    c = collect(Flowable.range(0, 2).window(2))
    c.windows[0].test().assert_error(ProtocolViolationException)


def test_empty_source_emits_no_window():
    for count, skip in [(2, 2), (2, 3), (3, 1)]:
        c = collect(Flowable.empty().window(count, skip))
        assert c.windows == [] and c.completed == 1


def test_deep_synchronous_stream():
    # 20 000 windows: twenty times the recursion limit, were anything to recurse per window
    c = collect(Flowable.range(0, 20_000).window(1))
    assert len(c.windows) == 20_000 and c.completed == 1
    assert c.values()[-1] == [19_999]
    c2 = collect(Flowable.range(0, 100_000).window(1000, 500))
    assert len(c2.windows) == 200 and c2.values()[-1] == list(range(99_500, 100_000))


def test_deep_synchronous_one_window_at_a_time():
    class OneAtATime(WindowCollector):
        def on_next(self, w: Flowable[Any]) -> None:
            super().on_next(w)
            self.request(1)

    spy = Spy(Flowable.range(0, 40_000))
    c = OneAtATime(outer_request=1)
    spy.window(2).subscribe(c)
    assert len(c.windows) == 20_000 and c.completed == 1
    assert set(spy.requests) == {2}


# ------------------------------------------------------------------------- requests


@pytest.mark.parametrize(("count", "skip", "first", "later"), [
    # exact: n * count
    (3, 3, lambda n: 3 * n, lambda n: 3 * n),
    # skip: n * count + (n - 1) * (skip - count) first, then n * skip
    (2, 5, lambda n: 2 * n + (n - 1) * 3, lambda n: 5 * n),
    # overlap: count + skip * (n - 1) first, then skip * n
    (4, 1, lambda n: 4 + (n - 1), lambda n: n),
    (5, 2, lambda n: 5 + 2 * (n - 1), lambda n: 2 * n),
])
@pytest.mark.parametrize("n", [1, 2, 5])
def test_request_translation(count, skip, first, later, n):
    src = ManualSource()
    c = collect(src.window(count, skip), outer_request=0)
    assert src.requests == []
    c.request(n)
    assert src.requests == [first(n)]
    c.request(n)
    c.request(1)
    assert src.requests == [first(n), later(n), later(1)]


@pytest.mark.parametrize(("count", "skip"), [(3, 3), (2, 5), (4, 1)])
def test_unbounded_request_is_capped(count, skip):
    src = ManualSource()
    collect(src.window(count, skip))
    assert src.requests == [LONG_MAX]


def test_overlap_windows_wait_for_demand():
    src = ManualSource()
    c = collect(src.window(3, 1), outer_request=0)
    c.request(1)
    src.emit(0, 1, 2)
    assert c.values() == [[0, 1, 2]]
    c.request(2)
    assert c.values() == [[0, 1, 2], [1, 2], [2]]
    src.complete()
    assert c.completed == 1


def test_bad_request_is_reported(plugin_errors):
    src = ManualSource()
    c = collect(src.window(2), outer_request=0)
    c.request(0)
    assert len(plugin_errors) == 1 and "3.9" in str(plugin_errors[0])
    assert src.requests == []


# ------------------------------------------------------------------------- errors


@pytest.mark.parametrize(("count", "skip", "items", "values"), [
    (2, 2, (1, 2, 3), [[1, 2], [3]]),
    (2, 3, (1, 2, 3, 4), [[1, 2], [4]]),
    (3, 1, (1, 2, 3), [[1, 2, 3], [2, 3], [3]]),
])
def test_error_reaches_open_windows_and_outer(count, skip, items, values):
    c = collect(failing(*items).window(count, skip))
    assert c.values() == values
    assert len(c.errors) == 1 and isinstance(c.errors[0], ValueError)
    open_windows = [ts for ts in c.subs if ts.errors()]
    assert open_windows
    for ts in c.subs:
        assert ts.completions() + len(ts.errors()) == 1


def test_late_error_goes_to_plugins(plugin_errors):
    src = ManualSource()
    collect(src.window(2))
    src.complete()
    src.error(ValueError("late"))
    assert [type(e) for e in plugin_errors.causes()] == [ValueError]


def test_overlap_late_error_goes_to_plugins(plugin_errors):
    src = ManualSource()
    collect(src.window(2, 1))
    src.complete()
    src.error(ValueError("late"))
    assert [type(e) for e in plugin_errors.causes()] == [ValueError]


# ------------------------------------------------------------------------- cancellation


@pytest.mark.parametrize(("count", "skip"), [(3, 3), (3, 5)])
def test_outer_cancel_keeps_the_open_window_running(count, skip):
    src = ManualSource()
    c = collect(src.window(count, skip))
    src.emit(0)
    c.cancel()
    assert not src.cancelled
    src.emit(1)
    assert c.values() == [[0, 1]]
    src.emit(2)  # the window is full: it completes, nothing else is left
    c.subs[0].assert_result(0, 1, 2)
    assert src.cancels == 1
    src.emit(3, 4)  # no new window after the outer was cancelled
    assert len(c.windows) == 1


@pytest.mark.parametrize(("count", "skip"), [(3, 3), (3, 5), (3, 1)])
def test_outer_then_window_cancel_cancels_upstream(count, skip):
    src = ManualSource()
    c = collect(src.window(count, skip))
    src.emit(0)
    c.cancel()
    assert not src.cancelled
    for ts in c.subs:
        ts.cancel()
    assert src.cancels == 1


@pytest.mark.parametrize(("count", "skip"), [(3, 3), (3, 5)])
def test_window_cancel_then_outer_cancel(count, skip):
    src = ManualSource()
    c = collect(src.window(count, skip))
    src.emit(0)
    c.subs[0].cancel()
    assert not src.cancelled
    src.emit(1, 2, 3)  # the outer goes on: a new window
    expected = [[0], [3]] if skip == count else [[0]]  # skip: 3 falls in the gap
    assert c.values() == expected
    c.cancel()
    if skip == count:
        assert not src.cancelled
        c.subs[1].cancel()
    assert src.cancels == 1


def test_overlap_outer_cancel_keeps_open_windows_until_they_complete():
    src = ManualSource()
    c = collect(src.window(3, 1))
    src.emit(0, 1)
    assert c.values() == [[0, 1], [1]]
    c.cancel()
    src.emit(2)  # closes the first window; no new windows
    assert c.values() == [[0, 1, 2], [1, 2]]
    assert not src.cancelled
    src.emit(3)  # closes the second: everything is gone
    assert c.values() == [[0, 1, 2], [1, 2, 3]]
    assert src.cancels == 1


def test_outer_cancel_with_no_open_window_cancels_upstream():
    src = ManualSource()
    src.window(2).test().cancel()
    assert src.cancels == 1


def test_window_not_consumed_keeps_the_outer_going():
    src = ManualSource()
    ts = src.window(2).test()
    src.emit(1, 2, 3)
    assert len(ts.values()) == 2
    ts.values()[0].test().assert_result(1, 2)


# ------------------------------------------------------------------------- assembly


def test_bad_arguments():
    f = Flowable.range(0, 3)
    with pytest.raises(ValueError):
        f.window(0)
    with pytest.raises(ValueError):
        f.window(2, 0)
    with pytest.raises(TypeError):
        f.window("2")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        f.window(Flowable.never(), 2)
    with pytest.raises(ValueError):
        f.window(2, buffer_size=0)


# ------------------------------------------------------------------------- races


@pytest.mark.parametrize(("count", "skip"), [(3, 3), (3, 5), (3, 1)])
def test_race_outer_cancel_vs_window_cancel(race_runner, race_rounds, count, skip):
    for _ in range(race_rounds // 2):
        src = ManualSource()
        c = collect(src.window(count, skip))
        src.emit(0)
        w = c.subs[0]
        race_runner.race(c.cancel, w.cancel)
        assert src.cancels == 1


def test_race_outer_cancel_vs_window_completion(race_runner, race_rounds):
    for _ in range(race_rounds // 2):
        src = ManualSource()
        c = collect(src.window(2))
        src.emit(0)
        race_runner.race(c.cancel, lambda src=src: src.emit(1))
        c.subs[0].assert_result(0, 1)
        assert src.cancels == 1


@pytest.mark.parametrize(("count", "skip"), [(3, 3), (3, 5), (3, 1)])
def test_error_after_outer_cancel_goes_to_the_open_window_only(count, skip):
    src = ManualSource()
    c = collect(src.window(count, skip))
    src.emit(0)
    c.cancel()
    src.error(ValueError("x"))
    c.subs[0].assert_failure(ValueError, 0)
    assert c.errors == [] and c.completed == 0


def test_a_float_count_points_at_window_time():
    with pytest.raises(TypeError, match=r"count must be an int, not float: did you mean "
                                        r"window_time\(0\.5\)\?"):
        Flowable.just(1).window(0.5)
    with pytest.raises(TypeError, match=r"did you mean window_time\(1\.0, timeskip=0\.5\)\?"):
        Flowable.just(1).window(1.0, 0.5)
