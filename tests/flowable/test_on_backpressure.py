"""on_backpressure_buffer / _drop / _latest / _error."""

from __future__ import annotations

import pytest
from _async_probes import CapturingSource

from rxpy2 import BackpressureOverflowStrategy
from rxpy2 import Flowable
from rxpy2.exceptions import MissingBackpressureException
from rxpy2.reactivestreams import LONG_MAX
from rxpy2.schedulers import Schedulers

DROP_OLDEST = BackpressureOverflowStrategy.DROP_OLDEST
DROP_LATEST = BackpressureOverflowStrategy.DROP_LATEST


pytestmark = pytest.mark.usefixtures("shutdown_schedulers")


def probe():
    log: list[int] = []
    return Flowable.range(0, 10).do_on_request(log.append), log


# ---------------------------------------------------------------- buffer (unbounded)

def test_buffer_unbounded_requests_everything_and_serves_demand():
    f, log = probe()
    ts = f.on_backpressure_buffer().test(0)
    assert log == [LONG_MAX]
    ts.assert_no_values()
    ts.request(3)
    ts.assert_values(0, 1, 2)
    ts.request(LONG_MAX)
    ts.assert_result(*range(10))


def test_buffer_completion_waits_for_demand():
    ts = Flowable.range(0, 2).on_backpressure_buffer().test(1)
    ts.assert_values(0).assert_not_complete()
    ts.request(1)
    ts.assert_result(0, 1)


def test_buffer_error_overtakes_items():
    src = CapturingSource()
    ts = src.on_backpressure_buffer().test(0)
    src.emit(1, 2)
    src.error(ValueError("x"))
    ts.assert_failure(ValueError)


def test_buffer_delay_error():
    src = CapturingSource()
    ts = src.on_backpressure_buffer(delay_error=True).test(0)
    src.emit(1, 2)
    src.error(ValueError("x"))
    ts.assert_no_values().assert_not_terminated()
    ts.request(2)
    ts.assert_failure(ValueError, 1, 2)


def test_buffer_large_unbounded():
    ts = Flowable.range(0, 100_000).on_backpressure_buffer().test(0)
    ts.request(50_000)
    ts.assert_value_count(50_000)
    ts.request(LONG_MAX)
    ts.assert_value_count(100_000).assert_complete()


def test_buffer_cancel_reaches_source_and_clears():
    src = CapturingSource()
    ts = src.on_backpressure_buffer().test(0)
    parent = src.subscriber
    src.emit(1, 2, 3)
    ts.cancel()
    assert src.cancelled == 1
    assert parent.queue.is_empty()  # type: ignore[union-attr]
    ts.request(5)
    ts.assert_no_values()


# ---------------------------------------------------------------- buffer (bounded, ERROR)

def test_bounded_buffer_overflow_errors_and_cancels():
    src = CapturingSource()
    calls: list[int] = []
    ts = src.on_backpressure_buffer(3, on_overflow=lambda: calls.append(1)).test(0)
    src.emit(1, 2, 3)
    assert src.cancelled == 0
    src.emit(4)
    assert src.cancelled == 1
    assert calls == [1]
    ts.assert_error(MissingBackpressureException).assert_error_message(
        "on_backpressure_buffer: the buffer of 3 items is full (the downstream is slower than "
        "the upstream); increase capacity, choose the DROP_OLDEST/DROP_LATEST overflow "
        "strategy, or use on_backpressure_drop()/on_backpressure_latest()")
    ts.assert_no_values()


def test_bounded_buffer_capacity_is_exact():
    src = CapturingSource()
    ts = src.on_backpressure_buffer(5, delay_error=True).test(0)
    src.emit(*range(6))  # 5 is not a power of two: the sixth overflows
    ts.request(10)
    ts.assert_failure(MissingBackpressureException, 0, 1, 2, 3, 4)


def test_bounded_buffer_under_capacity_is_fine():
    ts = Flowable.range(0, 5).on_backpressure_buffer(5).test(0)
    ts.request(10)
    ts.assert_result(*range(5))


def test_bounded_buffer_on_overflow_raising_is_the_cause():
    src = CapturingSource()
    err = RuntimeError("overflow callback")

    def bad():
        raise err

    ts = src.on_backpressure_buffer(1, on_overflow=bad).test(0)
    src.emit(1, 2)
    ts.assert_error(MissingBackpressureException)
    assert ts.errors()[0].__cause__ is err


def test_buffer_late_signals_after_overflow(plugin_errors):
    src = CapturingSource()
    ts = src.on_backpressure_buffer(1).test(0)
    src.emit(1, 2, 3)  # items after the failure are ignored
    late = ValueError("late")
    src.error(late)
    ts.assert_error(MissingBackpressureException)
    assert plugin_errors.causes() == [late]


# ---------------------------------------------------------------- buffer (DROP_OLDEST / DROP_LATEST)

def test_drop_oldest():
    src = CapturingSource()
    calls: list[int] = []
    ts = src.on_backpressure_buffer(3, lambda: calls.append(1), DROP_OLDEST).test(0)
    src.emit(1, 2, 3, 4, 5)
    src.complete()
    assert calls == [1, 1]
    assert src.cancelled == 0
    ts.request(10)
    ts.assert_result(3, 4, 5)


def test_drop_latest_replaces_the_newest_buffered_item():
    src = CapturingSource()
    calls: list[int] = []
    ts = src.on_backpressure_buffer(3, lambda: calls.append(1), DROP_LATEST).test(0)
    src.emit(1, 2, 3, 4, 5)
    src.complete()
    assert calls == [1, 1]
    ts.request(10)
    ts.assert_result(1, 2, 5)


def test_drop_strategy_without_callback():
    ts = Flowable.range(0, 10).on_backpressure_buffer(2, overflow_strategy=DROP_OLDEST).test(0)
    ts.request(5)
    ts.assert_result(8, 9)


def test_drop_strategy_callback_raising_fails_and_cancels():
    src = CapturingSource()

    def bad():
        raise RuntimeError("cb")

    ts = src.on_backpressure_buffer(1, bad, DROP_OLDEST).test(0)
    src.emit(1, 2)
    assert src.cancelled == 1
    ts.assert_error(RuntimeError)


def test_drop_strategy_error_not_delayed_by_default():
    src = CapturingSource()
    ts = src.on_backpressure_buffer(4, overflow_strategy=DROP_LATEST).test(0)
    src.emit(1, 2)
    src.error(ValueError("x"))
    ts.assert_failure(ValueError)


def test_drop_strategy_delay_error():
    src = CapturingSource()
    ts = src.on_backpressure_buffer(4, overflow_strategy=DROP_LATEST, delay_error=True).test(0)
    src.emit(1, 2)
    src.error(ValueError("x"))
    ts.request(5)
    ts.assert_failure(ValueError, 1, 2)


def test_drop_strategy_requests_everything_and_cancel():
    src = CapturingSource()
    ts = src.on_backpressure_buffer(2, overflow_strategy=DROP_OLDEST).test(0)
    assert src.requests == [LONG_MAX]
    src.emit(1, 2, 3)
    ts.cancel()
    assert src.cancelled == 1
    assert src.subscriber.buffer_empty()  # type: ignore[union-attr]
    ts.request(5)
    ts.assert_no_values()


def test_buffer_bad_arguments():
    f = Flowable.range(0, 1)
    with pytest.raises(ValueError):
        f.on_backpressure_buffer(0)
    with pytest.raises(TypeError):
        f.on_backpressure_buffer(1.5)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        f.on_backpressure_buffer(2, on_overflow=5)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        f.on_backpressure_buffer(2, overflow_strategy="drop")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        f.on_backpressure_buffer(overflow_strategy=DROP_OLDEST)


# ---------------------------------------------------------------- drop

def test_drop_requests_everything_and_drops_without_demand():
    f, log = probe()
    dropped: list[int] = []
    ts = f.on_backpressure_drop(dropped.append).test(0)
    assert log == [LONG_MAX]
    ts.assert_result()
    assert dropped == list(range(10))


def test_drop_serves_demand():
    src = CapturingSource()
    dropped: list[int] = []
    ts = src.on_backpressure_drop(dropped.append).test(2)
    src.emit(1, 2, 3)
    ts.request(1)
    src.emit(4, 5)
    src.complete()
    ts.assert_result(1, 2, 4)
    assert dropped == [3, 5]


def test_drop_callback_raises():
    src = CapturingSource()

    def bad(_):
        raise RuntimeError("drop")

    ts = src.on_backpressure_drop(bad).test(0)
    src.emit(1)
    assert src.cancelled == 1
    ts.assert_error(RuntimeError)
    src.emit(2)
    src.complete()
    ts.assert_error(RuntimeError).assert_not_complete()


def test_drop_error_passthrough_and_cancel():
    ts = Flowable.error(ValueError("x")).on_backpressure_drop().test(0)
    ts.assert_failure(ValueError)
    src = CapturingSource()
    ts2 = src.on_backpressure_drop().test()
    ts2.cancel()
    assert src.cancelled == 1


def test_drop_bad_argument():
    with pytest.raises(TypeError):
        Flowable.range(0, 1).on_backpressure_drop(3)  # type: ignore[arg-type]


def test_drop_race_request_vs_on_next(race_runner, race_rounds):
    for _ in range(race_rounds):
        src = CapturingSource()
        ts = src.on_backpressure_drop().test(0)
        race_runner.race(lambda src=src: src.emit(*range(10)), lambda ts=ts: ts.request(5))
        v = ts.values()
        assert len(v) <= 5 and v == sorted(set(v))


# ---------------------------------------------------------------- latest

def test_latest_keeps_only_the_latest():
    src = CapturingSource()
    ts = src.on_backpressure_latest().test(1)
    assert src.requests == [LONG_MAX]
    src.emit(1, 2, 3, 4)
    ts.assert_values(1)
    ts.request(1)
    ts.assert_values(1, 4)
    src.emit(5)
    src.complete()
    ts.assert_values(1, 4).assert_not_complete()
    ts.request(1)
    ts.assert_result(1, 4, 5)


def test_latest_error_overtakes_the_kept_item():
    src = CapturingSource()
    ts = src.on_backpressure_latest().test(0)
    src.emit(1)
    src.error(ValueError("x"))
    ts.assert_failure(ValueError)


def test_latest_cancel():
    src = CapturingSource()
    ts = src.on_backpressure_latest().test(0)
    src.emit(1)
    ts.cancel()
    assert src.cancelled == 1
    ts.request(1)
    ts.assert_no_values()


def test_latest_unbounded_passes_everything():
    ts = Flowable.range(0, 1000).on_backpressure_latest().test()
    ts.assert_result(*range(1000))


def test_latest_race_request_vs_on_next(race_runner, race_rounds):
    for _ in range(race_rounds):
        src = CapturingSource()
        ts = src.on_backpressure_latest().test(0)

        def produce(src=src):
            src.emit(*range(10))
            src.complete()

        def consume(ts=ts):
            for _ in range(3):
                ts.request(1)

        race_runner.race(produce, consume)
        ts.request(LONG_MAX)
        v = ts.values()
        assert v == sorted(set(v)) and v[-1] == 9
        ts.assert_complete().assert_protocol_ok()


# ---------------------------------------------------------------- error

def test_error_strategy_fails_without_demand():
    src = CapturingSource()
    ts = src.on_backpressure_error().test(2)
    assert src.requests == [LONG_MAX]
    src.emit(1, 2, 3)
    assert src.cancelled == 1
    ts.assert_failure(MissingBackpressureException, 1, 2)
    src.emit(4)
    ts.assert_value_count(2)


def test_error_strategy_passes_under_demand():
    ts = Flowable.range(0, 5).on_backpressure_error().test()
    ts.assert_result(*range(5))


def test_error_strategy_error_passthrough(plugin_errors):
    src = CapturingSource()
    ts = src.on_backpressure_error().test(0)
    src.emit(1)
    late = ValueError("late")
    src.error(late)
    ts.assert_error(MissingBackpressureException)
    assert plugin_errors.causes() == [late]


# ---------------------------------------------------------------- with observe_on (real threads)

def test_buffer_then_observe_on_real_thread():
    ts = (Flowable.range(0, 5000).on_backpressure_buffer()
          .observe_on(Schedulers.computation(), buffer_size=16).test())
    ts.await_done(5).assert_value_sequence(list(range(5000))).assert_complete()
