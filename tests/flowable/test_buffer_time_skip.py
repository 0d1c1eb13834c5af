"""buffer_time(timespan, timeskip=, restart_timer_on_max_size=, buffer_factory=)."""

from __future__ import annotations

import pytest
from probes import Boom
from probes import ManualSource

from rxpy2 import Flowable
from rxpy2.exceptions import MissingBackpressureException
from rxpy2.reactivestreams import LONG_MAX

pytestmark = pytest.mark.usefixtures("shutdown_schedulers")


def ticks(sched, n=10):
    """Items 0..n-1 at t = 1..n."""
    return Flowable.interval(1.0, scheduler=sched).take(n)


def test_overlapping_buffers(sched):
    ts = ticks(sched).buffer_time(3.0, sched, timeskip=2.0).test()
    sched.advance_time_by(20)
    # open at 0, 2, 4, ...; each closes 3 s after it opened; completion emits the open ones
    ts.assert_result([0, 1], [1, 2, 3], [3, 4, 5], [5, 6, 7], [7, 8, 9], [9])


def test_gapped_buffers(sched):
    ts = ticks(sched).buffer_time(2.0, sched, timeskip=3.0).test()
    sched.advance_time_by(20)
    ts.assert_result([0], [2, 3], [5, 6], [8, 9])


def test_skip_open_buffers_emitted_oldest_first_at_completion(sched):
    src = ManualSource()
    ts = src.buffer_time(5.0, sched, timeskip=1.0).test()
    src.emit("a")
    sched.advance_time_by(2.0)
    src.emit("b")
    src.complete()
    ts.assert_result(["a", "b"], ["b"], ["b"])


def test_skip_error_drops_open_buffers(sched):
    src = ManualSource()
    ts = src.buffer_time(5.0, sched, timeskip=1.0).test()
    src.emit(1)
    sched.advance_time_by(1.0)
    src.error(Boom())
    ts.assert_failure(Boom)
    sched.advance_time_by(10)
    ts.assert_failure(Boom)


def test_skip_is_requested_without_bound_and_fails_without_demand(sched):
    src = ManualSource()
    ts = src.buffer_time(2.0, sched, timeskip=1.0).test(1)
    assert src.requests == [LONG_MAX]
    sched.advance_time_by(2.0)
    ts.assert_value_count(1)
    sched.advance_time_by(1.0)
    ts.assert_error(MissingBackpressureException)
    assert src.cancelled


def test_skip_cancel_stops_the_timer(sched):
    src = ManualSource()
    ts = src.buffer_time(2.0, sched, timeskip=1.0).test()
    src.emit(1)
    ts.cancel()
    assert src.cancelled
    sched.advance_time_by(10)
    ts.assert_empty()


def test_skip_buffer_factory(sched):
    ts = ticks(sched, 4).buffer_time(2.0, sched, timeskip=1.0, buffer_factory=set).test()
    sched.advance_time_by(10)
    ts.assert_result({0}, {0, 1}, {1, 2}, {2, 3}, {3})


def test_skip_factory_error_on_open(sched):
    calls = []

    def factory():
        calls.append(1)
        if len(calls) == 2:
            raise Boom()
        return []

    src = ManualSource()
    ts = src.buffer_time(3.0, sched, timeskip=1.0, buffer_factory=factory).test()
    sched.advance_time_by(1.0)
    ts.assert_failure(Boom)
    assert src.cancelled
    sched.advance_time_by(10)
    ts.assert_failure(Boom)


@pytest.mark.parametrize("timeskip", [None, 1.0])
def test_factory_error_at_subscription(sched, timeskip):
    src = ManualSource()
    ts = src.buffer_time(2.0, sched, timeskip=timeskip, buffer_factory=lambda: 1 / 0).test()
    ts.assert_failure(ZeroDivisionError)
    assert src.cancelled and src.requests == []
    sched.advance_time_by(10)
    ts.assert_failure(ZeroDivisionError)


def test_exact_factory_error_on_tick(sched):
    calls = []

    def factory():
        calls.append(1)
        if len(calls) == 2:
            raise Boom()
        return []

    src = ManualSource()
    ts = src.buffer_time(1.0, sched, buffer_factory=factory).test()
    src.emit(1)
    sched.advance_time_by(1.0)
    ts.assert_failure(Boom)
    assert src.cancelled


def test_exact_factory_error_after_count(sched):
    calls = []

    def factory():
        calls.append(1)
        if len(calls) == 2:
            raise Boom()
        return []

    src = ManualSource()
    ts = src.buffer_time(10.0, sched, count=2, buffer_factory=factory).test()
    src.emit(1, 2)
    ts.assert_failure(Boom, [1, 2])  # as RxJava: the full buffer goes out first
    assert src.cancelled


def test_exact_buffer_factory(sched):
    made = []

    def factory():
        made.append(set())
        return made[-1]

    ts = ticks(sched, 5).buffer_time(2.0, sched, buffer_factory=factory).test()
    sched.advance_time_by(10)
    ts.assert_result({0}, {1, 2}, {3, 4})
    assert len(made) == 3


def test_count_keeps_the_period_by_default(sched):
    ts = ticks(sched).buffer_time(3.0, sched, count=2).test()
    sched.advance_time_by(20)
    # t=2 full; the tick at 3 (before the item at 3) -> []; t=4 full; tick at 6 -> [4]; ...
    ts.assert_result([0, 1], [], [2, 3], [4], [5, 6], [7], [8, 9], [])


def test_restart_timer_on_max_size(sched):
    ts = ticks(sched).buffer_time(3.0, sched, count=2, restart_timer_on_max_size=True).test()
    sched.advance_time_by(20)
    # each full buffer restarts the 3 s period, so the timer never fires
    ts.assert_result([0, 1], [2, 3], [4, 5], [6, 7], [8, 9], [])


def test_restart_timer_then_timer_fires(sched):
    src = ManualSource()
    ts = src.buffer_time(3.0, sched, count=2, restart_timer_on_max_size=True).test()
    sched.advance_time_by(2.0)
    src.emit(1, 2)  # at t=2: the timer restarts, next tick at t=5 (not t=3)
    sched.advance_time_by(1.0)
    ts.assert_values([1, 2])
    src.emit(3)
    sched.advance_time_by(2.0)
    ts.assert_values([1, 2], [3])
    sched.advance_time_by(3.0)
    ts.assert_values([1, 2], [3], [])


def test_bad_arguments(sched):
    f = Flowable.never()
    with pytest.raises(ValueError):
        f.buffer_time(1.0, timeskip=0)
    with pytest.raises(ValueError):
        f.buffer_time(1.0, timeskip=-1)
    with pytest.raises(TypeError):
        f.buffer_time(1.0, timeskip="1")
    with pytest.raises(ValueError):
        f.buffer_time(1.0, count=2, timeskip=2.0)
    with pytest.raises(ValueError):
        f.buffer_time(1.0, restart_timer_on_max_size=True)
    with pytest.raises(TypeError):
        f.buffer_time(1.0, buffer_factory=3)


def test_race_open_close_vs_items(race_runner, race_rounds, sched):
    for _ in range(race_rounds // 2):
        src = ManualSource()
        ts = src.buffer_time(2.0, sched, timeskip=1.0).test()

        def produce(src=src):
            src.emit(1, 2, 3)

        race_runner.race(produce, lambda: sched.advance_time_by(2.0))
        src.complete()
        vals = ts.values()
        assert len({id(b) for b in vals}) == len(vals)  # none emitted twice
        assert sorted(set(v for b in vals for v in b)) == [1, 2, 3]
        for b in vals:
            assert b == sorted(b)
        ts.assert_complete()


def test_race_count_vs_timer(race_runner, race_rounds, sched):
    for _ in range(race_rounds // 2):
        src = ManualSource()
        ts = src.buffer_time(1.0, sched, count=2, restart_timer_on_max_size=True).test()

        def produce(src=src):
            src.emit(1, 2, 3, 4, 5)

        race_runner.race(produce, lambda: sched.advance_time_by(1.0))
        src.complete()
        vals = ts.values()
        assert [v for b in vals for v in b] == [1, 2, 3, 4, 5]
        assert len({id(b) for b in vals}) == len(vals)
        ts.assert_complete()


def test_real_scheduler_overlap():
    ts = Flowable.range(1, 5).buffer_time(0.05, timeskip=0.01).test()
    ts.await_done(5)
    ts.assert_complete()
    assert ts.values()[0] == [1, 2, 3, 4, 5]
