"""Flowable.create: the five backpressure strategies, the emitter contract, serialize()."""

from __future__ import annotations

import threading
import time

import pytest
from probes import RequestOneInOnNext

from rxpy2 import LONG_MAX
from rxpy2 import BackpressureStrategy
from rxpy2 import Disposables
from rxpy2 import Emitter
from rxpy2 import Flowable
from rxpy2 import FlowableEmitter
from rxpy2 import FlowableSubscriber
from rxpy2 import MissingBackpressureException
from rxpy2.testing import TestSubscriber

B = BackpressureStrategy
ALL = list(BackpressureStrategy)


def emit_range(n, complete=True):
    def source(e):
        for i in range(n):
            e.on_next(i)
        if complete:
            e.on_complete()
    return source


# ---------------------------------------------------------------- strategies

@pytest.mark.parametrize("mode", ALL)
def test_unbounded_demand_every_strategy(mode):
    Flowable.create(emit_range(10), mode).test().assert_result(*range(10))


def test_missing_emits_regardless_of_demand():
    ts = Flowable.create(emit_range(10), B.MISSING).test(3)
    # MISSING breaks §1.1 by design (the consumer is responsible): the kit says so
    ts.assert_protocol_violation("§1.1: on_next #4").assert_result(*range(10))


def test_error_strategy_signals_missing_backpressure():
    cancels = []

    def source(e):
        e.set_cancellable(lambda: cancels.append(1))
        for i in range(10):
            e.on_next(i)
        e.on_complete()

    ts = Flowable.create(source, B.ERROR).test(3)
    ts.assert_failure(MissingBackpressureException, 0, 1, 2)
    assert cancels == [1]
    ts.request(5)
    ts.assert_value_count(3)


def test_drop_strategy_drops_unrequested_items():
    ts = Flowable.create(emit_range(10), B.DROP).test(3)
    ts.assert_result(0, 1, 2)


def test_drop_strategy_emits_again_when_demand_returns():
    holder = []
    ts = Flowable.create(holder.append, B.DROP).test(1)
    e = holder[0]
    e.on_next(1)
    e.on_next(2)  # dropped
    ts.request(1)
    e.on_next(3)
    e.on_next(4)  # dropped
    e.on_complete()
    ts.assert_result(1, 3)


def test_buffer_strategy_keeps_everything():
    ts = Flowable.create(emit_range(10), B.BUFFER).test(3)
    ts.assert_values(0, 1, 2).assert_not_complete()
    ts.request(4)
    ts.assert_values(*range(7)).assert_not_complete()
    ts.request(3)
    ts.assert_result(*range(10))


def test_buffer_strategy_error_after_buffered_items():
    def source(e):
        for i in range(3):
            e.on_next(i)
        e.on_error(OSError("late"))

    ts = Flowable.create(source, B.BUFFER).test(1)
    ts.assert_values(0).assert_not_terminated()
    ts.request(2)
    ts.assert_failure(OSError, 0, 1, 2)


def test_buffer_strategy_capacity_hint():
    from rxpy2._internal.operators.flowable.flowable_create import FlowableCreate
    FlowableCreate(emit_range(100), B.BUFFER, 16).test(50).request_more(50) \
        .assert_result(*range(100))


def test_latest_strategy_keeps_the_latest():
    ts = Flowable.create(emit_range(10), B.LATEST).test(3)
    ts.assert_values(0, 1, 2).assert_not_complete()
    ts.request(1)
    ts.assert_result(0, 1, 2, 9)


def test_latest_strategy_replaces_while_waiting():
    holder = []
    ts = Flowable.create(holder.append, B.LATEST).test(0)
    e = holder[0]
    e.on_next(1)
    e.on_next(2)
    ts.assert_empty()
    ts.request(1)
    ts.assert_values(2)
    e.on_next(3)
    e.on_next(4)
    e.on_error(OSError("x"))
    ts.assert_values(2).assert_not_terminated()
    ts.request(5)
    ts.assert_failure(OSError, 2, 4)


@pytest.mark.parametrize("mode", ALL)
def test_requested_reflects_demand(mode):
    seen = []

    def source(e):
        seen.append(e.requested())
        e.on_next(1)
        seen.append(e.requested())

    Flowable.create(source, mode).test(5)
    assert seen == [5, 4]
    seen.clear()
    Flowable.create(source, mode).test()
    assert seen == [LONG_MAX, LONG_MAX]


@pytest.mark.parametrize("mode", ALL)
def test_emitter_is_a_flowable_emitter(mode):
    holder = []
    Flowable.create(holder.append, mode).test()
    assert isinstance(holder[0], FlowableEmitter) and isinstance(holder[0], Emitter)
    assert isinstance(holder[0].serialize(), FlowableEmitter)


@pytest.mark.parametrize("mode", ALL)
def test_on_next_none_is_type_error(mode):
    def source(e):
        e.on_next(1)
        e.on_next(None)
        e.on_next(2)

    Flowable.create(source, mode).test().assert_failure(TypeError, 1)


@pytest.mark.parametrize("mode", ALL)
def test_source_raising_signals_error(mode):
    def source(e):
        e.on_next(1)
        raise KeyError("boom")

    Flowable.create(source, mode).test().assert_failure(KeyError, 1)


@pytest.mark.parametrize("mode", ALL)
def test_source_raising_after_complete_goes_to_plugins(mode, plugin_errors):
    def source(e):
        e.on_complete()
        raise KeyError("late")

    Flowable.create(source, mode).test().assert_result()
    assert [type(x) for x in plugin_errors.causes()] == [KeyError]


@pytest.mark.parametrize("mode", ALL)
def test_terminal_signals_once(mode, plugin_errors):
    results = []

    def source(e):
        e.on_complete()
        e.on_complete()
        e.on_next(5)
        results.append(e.try_on_error(OSError("a")))
        e.on_error(OSError("b"))

    Flowable.create(source, mode).test().assert_result().assert_protocol_ok()
    assert results == [False]
    assert [str(x) for x in plugin_errors.causes()] == ["b"]


@pytest.mark.parametrize("mode", ALL)
def test_try_on_error_when_live(mode):
    results = []

    def source(e):
        results.append(e.try_on_error(OSError("x")))

    Flowable.create(source, mode).test().assert_failure(OSError)
    assert results == [True]


@pytest.mark.parametrize("mode", ALL)
def test_cancellable_called_once_on_cancel(mode):
    calls = []
    holder = []

    def source(e):
        holder.append(e)
        e.set_cancellable(lambda: calls.append(1))

    ts = Flowable.create(source, mode).test(1)
    assert calls == [] and not holder[0].is_cancelled()
    ts.cancel()
    ts.cancel()
    assert calls == [1]
    assert holder[0].is_cancelled()
    holder[0].on_next(1)
    holder[0].on_complete()
    ts.assert_empty()


@pytest.mark.parametrize("mode", ALL)
def test_cancellable_called_once_on_complete_and_error(mode):
    calls = []

    def completing(e):
        e.set_cancellable(lambda: calls.append("c"))
        e.on_complete()

    def failing(e):
        e.set_cancellable(lambda: calls.append("e"))
        e.on_error(OSError())

    ts = Flowable.create(completing, mode).test()
    ts.cancel()
    ts = Flowable.create(failing, mode).test()
    ts.cancel()
    assert calls == ["c", "e"]


def test_set_disposable_replaces_and_disposes_previous():
    holder = []
    ts = Flowable.create(holder.append, B.BUFFER).test(0)
    e = holder[0]
    d1 = Disposables.empty()
    d2 = Disposables.empty()
    e.set_disposable(d1)
    e.set_disposable(d2)
    assert d1.is_disposed() and not d2.is_disposed()
    ts.cancel()
    assert d2.is_disposed()
    d3 = Disposables.empty()
    e.set_disposable(d3)  # after cancellation: disposed at once
    assert d3.is_disposed()
    calls = []
    e.set_cancellable(lambda: calls.append(1))
    assert calls == [1]


def test_cancellable_raising_goes_to_plugins(plugin_errors):
    def source(e):
        e.set_cancellable(lambda: 1 // 0)

    Flowable.create(source, B.BUFFER).test().cancel()
    assert [type(x) for x in plugin_errors.causes()] == [ZeroDivisionError]


def test_set_cancellable_not_callable():
    def source(e):
        e.set_cancellable(42)

    Flowable.create(source, B.BUFFER).test().assert_failure(TypeError)


@pytest.mark.parametrize("mode", [B.BUFFER, B.LATEST])
def test_cancel_clears_the_store(mode):
    holder = []
    ts = Flowable.create(holder.append, mode).test(0)
    e = holder[0]
    e.on_next(1)
    ts.cancel()
    ts.request(1)
    ts.assert_empty()
    store = e.queue if mode is B.BUFFER else None
    if store is not None:
        assert store.is_empty()
    else:
        assert e.latest.get() is None


def test_cancel_reaches_through_operators():
    calls = []

    def source(e):
        e.set_cancellable(lambda: calls.append(1))
        e.on_next(1)
        e.on_next(2)

    ts = Flowable.create(source, B.BUFFER).map(lambda x: x * 10).test(1)
    ts.assert_values(10)
    ts.cancel()
    assert calls == [1]


@pytest.mark.parametrize("mode", ALL)
def test_request_amounts_reach_emitter(mode):
    requests = []
    ts = Flowable.create(lambda e: None, mode).do_on_request(requests.append).test(0)
    ts.request(1)
    ts.request(3)
    assert requests == [1, 3]


def test_non_positive_request_reported(plugin_errors):
    holder = []
    ts = Flowable.create(holder.append, B.BUFFER).test(0)
    ts.request(-1)
    assert holder[0].requested() == 0
    assert len(plugin_errors) == 1 and isinstance(plugin_errors[0], ValueError)


@pytest.mark.parametrize("mode", [B.BUFFER, B.LATEST, B.ERROR, B.DROP])
def test_request_in_on_next_does_not_recurse(mode):
    s = RequestOneInOnNext()
    n = 20_000 if mode is B.BUFFER else 2000
    Flowable.create(emit_range(n), mode).subscribe(s)
    assert s.errors == [] and s.completed == 1
    if mode is B.BUFFER:
        assert s.values == list(range(n))


def test_buffer_drained_by_late_requests_without_recursion():
    s = RequestOneInOnNext()
    holder = []
    Flowable.create(holder.append, B.BUFFER).subscribe(TestSubscriber(0, downstream=s))
    # items were pushed before any request reached the emitter
    e = holder[0]
    for i in range(20_000):
        e.on_next(i)
    e.on_complete()
    assert s.values == list(range(20_000)) and s.completed == 1


def test_assembly_arguments():
    with pytest.raises(TypeError):
        Flowable.create(None, B.BUFFER)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        Flowable.create(lambda e: None, "buffer")  # type: ignore[arg-type]


# ---------------------------------------------------------------- serialize()

def test_serialize_is_idempotent_and_delegates():
    holder = []
    ts = Flowable.create(holder.append, B.BUFFER).test(4)
    s = holder[0].serialize()
    assert s.serialize() is s
    assert s.requested() == 4
    calls = []
    s.set_cancellable(lambda: calls.append(1))
    s.on_next(1)
    s.on_next(None)
    ts.assert_failure(TypeError, 1)
    assert s.is_cancelled() and calls == [1]


def test_serialize_terminal_once(plugin_errors):
    holder = []
    ts = Flowable.create(lambda e: holder.append(e.serialize()), B.BUFFER).test()
    s = holder[0]
    s.on_next(1)
    s.on_complete()
    s.on_complete()
    s.on_next(2)
    assert s.try_on_error(OSError("a")) is False
    s.on_error(OSError("b"))
    ts.assert_result(1)
    assert [str(x) for x in plugin_errors.causes()] == ["b"]


class OverlapProbe(FlowableSubscriber):
    """Records whether two signals were ever inside this subscriber at once (§1.3)."""

    def __init__(self):
        self.inside = 0
        self.overlaps = 0

    def _enter(self):
        self.inside += 1
        if self.inside > 1:
            self.overlaps += 1
        time.sleep(0)  # let another thread in, if the emitter would allow it
        self.inside -= 1

    def on_subscribe(self, s):
        pass

    def on_next(self, item):
        self._enter()

    def on_error(self, error):
        self._enter()

    def on_complete(self):
        self._enter()


def _serialized(mode, probe=None):
    holder = []
    ts = TestSubscriber(downstream=probe)
    Flowable.create(lambda e: holder.append(e.serialize()), mode).subscribe(ts)
    return ts, holder[0]


def _raw(mode, initial):
    holder = []
    ts = Flowable.create(holder.append, mode).test(initial)
    return ts, holder[0]


@pytest.mark.parametrize("mode", [B.BUFFER, B.MISSING])
def test_serialize_race_on_next_from_two_threads(mode, race_runner, race_rounds):
    n = 16

    def one_round():
        probe = OverlapProbe()
        ts, s = _serialized(mode, probe)

        def producer(base):
            def run():
                for i in range(n):
                    s.on_next(base + i)
            return run

        race_runner.race(producer(0), producer(1000))
        race_runner.race(s.on_complete, s.on_complete)
        values = ts.values()
        assert len(values) == 2 * n
        assert [v for v in values if v < 1000] == list(range(n))  # per-thread order kept
        assert [v for v in values if v >= 1000] == list(range(1000, 1000 + n))
        ts.assert_complete().assert_no_errors().assert_protocol_ok()
        assert ts.completions() == 1
        assert probe.overlaps == 0

    for _ in range(race_rounds // 10):
        one_round()


def test_serialize_race_error_and_complete(race_runner, race_rounds, plugin_errors):
    def one_round():
        plugin_errors.clear()
        ts, s = _serialized(B.BUFFER)
        err = OSError("race")

        def emit_then_complete():
            s.on_next(1)
            s.on_complete()

        race_runner.race(emit_then_complete, lambda: s.on_error(err))
        ts.assert_protocol_ok()
        assert ts.completions() + len(ts.errors()) == 1
        # the error was delivered or reported: never lost
        if ts.completions() == 1:
            assert plugin_errors.causes() == [err]
        else:
            assert ts.errors() == [err] and list(plugin_errors) == []

    for _ in range(race_rounds // 10):
        one_round()


def test_buffer_race_requests_and_emission(race_runner, race_rounds):
    n = 16

    def one_round():
        ts, e = _raw(B.BUFFER, 0)

        def emit():
            for i in range(n):
                e.on_next(i)
            e.on_complete()

        def request():
            for _ in range(n):
                ts.request(1)

        race_runner.race(emit, request)
        ts.assert_result(*range(n))

    for _ in range(race_rounds // 20):
        one_round()


def test_latest_race_requests_and_emission(race_runner, race_rounds):
    n = 16

    def one_round():
        ts, e = _raw(B.LATEST, 0)

        def emit():
            for i in range(n):
                e.on_next(i)
            e.on_complete()

        race_runner.race(emit, lambda: ts.request(n))
        ts.assert_complete().assert_no_errors().assert_protocol_ok()
        values = ts.values()
        assert values == sorted(set(values)) and values[-1] == n - 1

    for _ in range(race_rounds // 20):
        one_round()


def test_serialize_from_threads_with_small_demand():
    holder = []
    ts = Flowable.create(lambda e: holder.append(e.serialize()), B.BUFFER).test(0)
    s = holder[0]
    threads = [threading.Thread(target=lambda b=b: [s.on_next(b + i) for i in range(200)])
               for b in (0, 1000, 2000)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    s.on_complete()
    ts.assert_empty()
    ts.request(600)
    ts.assert_value_count(600).assert_complete()
    assert sorted(ts.values()) == sorted(b + i for b in (0, 1000, 2000) for i in range(200))
