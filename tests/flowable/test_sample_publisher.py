"""sample(sampler: Publisher, emit_last=)."""

from __future__ import annotations

import pytest
from probes import Boom
from probes import ManualSource

from rxpy2 import Flowable
from rxpy2.exceptions import MissingBackpressureException
from rxpy2.reactivestreams import LONG_MAX


def setup(request: int = LONG_MAX, emit_last: bool = False):
    src, sampler = ManualSource(), ManualSource()
    ts = src.sample(sampler, emit_last=emit_last).test(request)
    return src, sampler, ts


def test_latest_item_at_each_sampler_item():
    src, sampler, ts = setup()
    sampler.emit(0)  # nothing yet
    src.emit(1, 2)
    sampler.emit(0)
    sampler.emit(0)  # nothing new
    src.emit(3)
    sampler.emit(0)
    src.emit(4)
    src.complete()
    ts.assert_result(2, 3)  # 4 is dropped without emit_last
    assert sampler.cancelled


def test_emit_last_on_source_completion():
    src, sampler, ts = setup(emit_last=True)
    src.emit(1)
    src.complete()
    ts.assert_result(1)


@pytest.mark.parametrize("emit_last,expected", [(False, ()), (True, (1,))])
def test_sampler_completion_completes_and_cancels_the_source(emit_last, expected):
    src, sampler, ts = setup(emit_last=emit_last)
    src.emit(1)
    sampler.complete()
    ts.assert_result(*expected)
    assert src.cancelled


def test_sampler_error_cancels_the_source():
    src, sampler, ts = setup()
    src.emit(1)
    sampler.error(Boom())
    ts.assert_failure(Boom)
    assert src.cancelled


def test_source_error_cancels_the_sampler():
    src, sampler, ts = setup(emit_last=True)
    src.emit(1)
    src.error(Boom())
    ts.assert_failure(Boom)
    assert sampler.cancelled


def test_order_downstream_then_sampler_then_source():
    src, sampler, ts = setup(request=0)
    assert sampler.requests == [LONG_MAX] and src.requests == [LONG_MAX]


def test_sample_without_demand_is_missing_backpressure():
    src, sampler, ts = setup(request=1)
    src.emit(1)
    sampler.emit(0)
    src.emit(2)
    sampler.emit(0)
    ts.assert_failure(MissingBackpressureException, 1)
    assert src.cancelled and sampler.cancelled


def test_cancel():
    src, sampler, ts = setup()
    src.emit(1)
    ts.cancel()
    assert src.cancelled and sampler.cancelled
    sampler.emit(0)
    ts.assert_empty()


def test_cancel_before_subscription():
    src, sampler = ManualSource(), ManualSource()
    src.sample(sampler).test(cancel=True).assert_empty()
    assert sampler.subscriptions == 0 and src.requests == []


def test_with_time(sched):
    ts = (Flowable.interval(1.0, scheduler=sched).take(10)
          .sample(Flowable.interval(3.0, scheduler=sched)).test())
    sched.advance_time_by(20)
    ts.assert_result(1, 4, 7)


def test_timed_sample_and_throttle_last_still_work(sched):
    ts = Flowable.interval(1.0, scheduler=sched).take(10).throttle_last(3.0, sched).test()
    sched.advance_time_by(20)
    ts.assert_result(1, 4, 7)


def test_bad_arguments():
    f = Flowable.range(0, 3)
    with pytest.raises(TypeError):
        f.sample(None)
    with pytest.raises(TypeError):
        f.sample(Flowable.never(), object())
    with pytest.raises(TypeError):
        f.throttle_last(Flowable.never())


def test_race_sampler_vs_items(race_runner, race_rounds):
    for _ in range(race_rounds // 2):
        src, sampler, ts = setup(emit_last=True)

        def produce(src=src):
            src.emit(1, 2, 3)

        race_runner.race(produce, lambda s=sampler: s.emit(0, 0))
        src.complete()
        vals = ts.values()
        assert vals == sorted(set(vals)) and vals[-1] == 3  # increasing, none twice, last kept
        ts.assert_complete()


def test_race_sampler_vs_source_complete(race_runner, race_rounds):
    for _ in range(race_rounds // 2):
        src, sampler, ts = setup(emit_last=True)
        src.emit(1)
        race_runner.race(src.complete, lambda s=sampler: s.emit(0))
        ts.assert_result(1)


def test_race_sampler_complete_vs_source_complete(race_runner, race_rounds):
    for _ in range(race_rounds // 2):
        src, sampler, ts = setup(emit_last=True)
        src.emit(1)
        race_runner.race(src.complete, sampler.complete)
        ts.assert_result(1)
