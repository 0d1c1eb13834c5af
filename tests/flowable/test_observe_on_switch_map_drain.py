"""observe_on and switch_map on a Drain: races of the producer against request/cancel, of an
inner switch against request; the drain stays closed after a terminal signal or a cancel."""

from __future__ import annotations

import pytest
from _async_probes import CapturingSource
from probes import ManualSource
from probes import switch_between

from rxpy2 import Flowable
from rxpy2.schedulers import Schedulers

pytestmark = pytest.mark.usefixtures("shutdown_schedulers")


# ---------------------------------------------------------------- observe_on

def test_observe_on_drain_closed_after_completion_and_cancel():
    src = CapturingSource()
    ts = src.observe_on(Schedulers.trampoline(), buffer_size=4).test()
    parent = src.subscriber
    src.emit(1, 2)
    src.complete()
    ts.assert_result(1, 2)
    assert not parent.gate.is_free()  # type: ignore[union-attr]  # owned for good

    src2 = CapturingSource()
    ts2 = src2.observe_on(Schedulers.trampoline(), buffer_size=4).test(0)
    parent2 = src2.subscriber
    src2.emit(1)
    ts2.cancel()
    assert not parent2.gate.is_free()  # type: ignore[union-attr]
    ts2.request(5)
    ts2.assert_no_values().assert_not_terminated()


@pytest.mark.parametrize("delay_error", [False, True])
def test_race_observe_on_items_and_error_vs_requests(race_runner, race_rounds, delay_error):
    for _ in range(race_rounds):
        src = CapturingSource()
        ts = src.observe_on(Schedulers.trampoline(), delay_error=delay_error,
                            buffer_size=8).test(0)
        err = ValueError("boom")

        def produce(src=src, err=err):
            src.emit(*range(6))
            src.error(err)

        def consume(ts=ts):
            for _ in range(3):
                ts.request(2)

        race_runner.race(produce, consume)
        n = ts.value_count()
        ts.assert_value_sequence(list(range(n))).assert_error(ValueError).assert_protocol_ok()
        if delay_error:
            assert n == 6  # every item went out before the error
        ts.request(10)
        assert ts.value_count() == n  # nothing after the terminal signal


def test_race_observe_on_producer_vs_cancel_real_worker(race_runner, race_rounds):
    for _ in range(race_rounds // 4):
        src = CapturingSource()
        ts = src.observe_on(Schedulers.single(), buffer_size=16).test()
        parent = src.subscriber

        def produce(src=src):
            src.emit(*range(10))

        race_runner.race(produce, ts.cancel)
        assert src.cancelled == 1
        n = ts.value_count()
        ts.assert_value_sequence(list(range(n))).assert_not_terminated()
        ts.await_count(0, timeout=0.01)
        assert not parent.gate.is_free()  # type: ignore[union-attr]


def test_race_observe_on_many_items_vs_requests_real_worker():
    # a long run: every item arrives once, in order, with small batches of demand
    src = Flowable.range(0, 5000).hide()
    ts = src.observe_on(Schedulers.computation(), buffer_size=8).test(0)
    for _ in range(1000):
        ts.request(5)
    ts.await_done(10).assert_value_sequence(list(range(5000))).assert_complete()


# ---------------------------------------------------------------- switch_map

def test_race_switch_map_inner_switch_vs_request(race_runner, race_rounds):
    for _ in range(race_rounds):
        src, a, b, ts = switch_between(0)
        a.emit(*range(5))  # queued in the first inner: no demand yet

        def switch(src=src, b=b):
            src.emit(1)
            b.emit(100, 101, 102)

        def consume(ts=ts):
            for _ in range(4):
                ts.request(1)

        race_runner.race(switch, consume)
        values = ts.values()
        assert len(values) <= 4  # never more than requested
        k = next((i for i, v in enumerate(values) if v >= 100), len(values))
        assert values[:k] == list(range(k))  # an in-order prefix of the first inner
        assert values[k:] == [100, 101, 102][:len(values) - k]  # then the second, in order
        ts.request(10)  # the rest of the second inner, once; nothing of the first one
        assert ts.values() == list(range(k)) + [100, 101, 102]
        assert a.cancelled
        b.complete()
        src.complete()
        ts.assert_complete().assert_protocol_ok()


def test_race_switch_map_inner_switch_vs_cancel(race_runner, race_rounds):
    for _ in range(race_rounds):
        src, a, b, ts = switch_between()
        a.emit(1, 2)

        def switch(src=src, b=b):
            src.emit(1)
            if b.subscriber is not None:  # else the cancel came first: b never subscribed
                b.emit(100, 101)
                b.complete()
            src.complete()

        race_runner.race(switch, ts.cancel)
        values = ts.values()
        assert values[:2] == [1, 2]
        assert values[2:] == [100, 101][:len(values) - 2]
        if ts.completions():
            assert values == [1, 2, 100, 101]  # the end was on its way before the cancel
        else:
            assert src.cancelled
        ts.assert_no_errors().assert_protocol_ok()
        assert a.cancelled


# ---------------------------------------------------------------- §2.13

def test_observe_on_and_switch_map_raise_on_null_signals():
    src = CapturingSource()
    src.observe_on(Schedulers.trampoline()).test()
    with pytest.raises(TypeError, match="2.13"):
        src.subscriber.on_next(None)  # type: ignore[union-attr]
    with pytest.raises(TypeError, match="2.13"):
        src.subscriber.on_error(None)  # type: ignore[union-attr]
    with pytest.raises(TypeError, match="2.13"):
        src.subscriber.on_subscribe(None)  # type: ignore[union-attr]

    outer, inner = ManualSource(), ManualSource()
    ts = outer.switch_map(lambda _: inner).test()
    with pytest.raises(TypeError, match="2.13"):
        outer.emit(None)
    outer.emit(1)
    with pytest.raises(TypeError, match="2.13"):
        inner.emit(None)
    with pytest.raises(TypeError, match="2.13"):
        inner.subscriber.on_error(None)  # type: ignore[union-attr]
    inner.emit(5)
    ts.assert_values(5).assert_not_terminated()


def test_observe_on_async_fused_upstream_ready_signals_still_work():
    from rxpy2.processors import UnicastProcessor

    up = UnicastProcessor()
    ts = up.observe_on(Schedulers.trampoline()).test()
    up.on_next(1)
    up.on_next(2)
    up.on_complete()
    ts.assert_result(1, 2)
