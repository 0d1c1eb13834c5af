"""Flowable.generate: a pull source, one generator call per unit of demand."""

from __future__ import annotations

import pytest
from probes import RequestOneInOnNext

from rxpy2 import Emitter
from rxpy2 import Flowable
from rxpy2 import FlowableSubscriber
from rxpy2 import ProtocolViolationException
from rxpy2.testing import TestSubscriber


class Counter:
    """A generator of 0..limit-1 that records its calls and disposals."""

    def __init__(self, limit=None):
        self.limit = limit
        self.calls = 0
        self.disposed = []

    def initial(self):
        return 0

    def gen(self, state, emitter):
        self.calls += 1
        if self.limit is not None and state == self.limit:
            emitter.on_complete()
            return state
        emitter.on_next(state)
        return state + 1

    def dispose(self, state):
        self.disposed.append(state)

    def flowable(self):
        return Flowable.generate(self.initial, self.gen, self.dispose)


def test_generate_values_and_completion():
    c = Counter(limit=5)
    c.flowable().test().assert_result(0, 1, 2, 3, 4)
    assert c.disposed == [5]
    assert c.calls == 6


def test_generate_state_per_subscriber():
    c = Counter(limit=3)
    f = c.flowable()
    f.test().assert_result(0, 1, 2)
    f.test().assert_result(0, 1, 2)
    assert c.disposed == [3, 3]


def test_generate_request_one_at_a_time():
    c = Counter()
    ts = c.flowable().test(0)
    ts.assert_empty()
    assert c.calls == 0
    for i in range(5):
        ts.request(1)
        ts.assert_values(*range(i + 1)).assert_not_terminated()
        assert c.calls == i + 1
    ts.request(3)
    ts.assert_values(*range(8))
    assert c.calls == 8
    assert c.disposed == []
    ts.cancel()
    assert c.disposed == [8]


def test_generate_each_call_uses_one_unit_of_demand():
    calls = []

    def gen(state, emitter):
        calls.append(state)
        if state % 2 == 0:
            emitter.on_next(state)
        return state + 1

    ts = Flowable.generate(lambda: 0, gen).test(4)
    ts.assert_values(0, 2).assert_not_terminated()
    assert calls == [0, 1, 2, 3]


def test_generate_dispose_once_on_cancel():
    c = Counter()
    ts = c.flowable().test(3)
    ts.cancel()
    ts.cancel()
    ts.request(5)
    assert c.disposed == [3]
    assert c.calls == 3
    ts.assert_values(0, 1, 2).assert_not_terminated()


def test_generate_dispose_once_on_cancel_before_request():
    c = Counter()
    ts = c.flowable().test(0)
    ts.cancel()
    ts.request(1)
    assert c.disposed == [0] and c.calls == 0


def test_generate_cancel_from_on_next_disposes_once():
    c = Counter()
    s = RequestOneInOnNext(stop_after=4)
    c.flowable().subscribe(s)
    assert s.values == [0, 1, 2, 3]
    assert c.disposed == [4]
    assert c.calls == 4


def test_generate_cancel_from_on_next_unbounded():
    c = Counter()

    class CancelAt3(FlowableSubscriber):
        def on_subscribe(self, s):
            pass

        def on_next(self, item):
            if item == 3:
                ts.cancel()

        def on_error(self, error):
            pass

        def on_complete(self):
            pass

    ts = TestSubscriber(downstream=CancelAt3())
    c.flowable().subscribe(ts)
    ts.assert_values(0, 1, 2, 3).assert_not_terminated()
    assert c.disposed == [4] and c.calls == 4


def test_generate_error_from_generator_disposes_once():
    disposed = []

    def gen(state, emitter):
        if state == 2:
            emitter.on_error(OSError("gen"))
        else:
            emitter.on_next(state)
        return state + 1

    ts = Flowable.generate(lambda: 0, gen, disposed.append).test()
    ts.assert_failure(OSError, 0, 1)
    ts.cancel()
    assert disposed == [3]


def test_generate_raising_generator():
    disposed = []

    def gen(state, emitter):
        if state == 1:
            raise KeyError("raised")
        emitter.on_next(state)
        return state + 1

    ts = Flowable.generate(lambda: 0, gen, disposed.append).test()
    ts.assert_failure(KeyError, 0)
    ts.cancel()
    assert disposed == [1]  # the last state the generator returned


def test_generate_on_next_twice_in_one_call():
    disposed = []

    def gen(state, emitter):
        emitter.on_next(1)
        emitter.on_next(2)
        return state

    ts = Flowable.generate(lambda: "s", gen, disposed.append).test()
    ts.assert_failure(ProtocolViolationException, 1)
    assert disposed == ["s"]


def test_generate_on_next_none():
    Flowable.generate(None, lambda s, e: e.on_next(None)).test() \
        .assert_failure(TypeError)


def test_generate_signals_after_terminal_are_dropped_or_reported(plugin_errors):
    def gen(state, emitter):
        emitter.on_next(1)
        emitter.on_complete()
        emitter.on_next(2)
        emitter.on_complete()
        emitter.on_error(OSError("late"))
        return state

    Flowable.generate(None, gen).test().assert_result(1).assert_protocol_ok()
    assert [str(e) for e in plugin_errors.causes()] == ["late"]


def test_generate_raise_after_complete_goes_to_plugins(plugin_errors):
    def gen(state, emitter):
        emitter.on_complete()
        raise KeyError("late")

    Flowable.generate(None, gen).test().assert_result()
    assert [type(e) for e in plugin_errors.causes()] == [KeyError]


def test_generate_initial_state_raises():
    calls = []

    def initial():
        raise LookupError("no state")

    ts = Flowable.generate(initial, lambda s, e: calls.append(s), calls.append).test()
    ts.assert_subscribed().assert_failure(LookupError)
    assert calls == []


def test_generate_dispose_state_raises_goes_to_plugins(plugin_errors):
    def dispose(state):
        raise ValueError("dispose failed")

    Flowable.generate(lambda: 0, lambda s, e: e.on_complete(), dispose).test().assert_result()
    assert [type(e) for e in plugin_errors] == [ValueError]


def test_generate_stateless():
    seen = []

    def gen(state, emitter):
        seen.append(state)
        emitter.on_next(len(seen))
        if len(seen) == 3:
            emitter.on_complete()

    Flowable.generate(None, gen).test().assert_result(1, 2, 3)
    assert seen == [None, None, None]


def test_generate_emitter_type():
    holder = []

    def gen(state, emitter):
        holder.append(emitter)
        emitter.on_complete()

    Flowable.generate(None, gen).test()
    assert isinstance(holder[0], Emitter)


def test_generate_request_in_on_next_does_not_recurse():
    c = Counter(limit=20_000)
    s = RequestOneInOnNext()
    c.flowable().subscribe(s)
    assert s.errors == [] and s.completed == 1
    assert s.values == list(range(20_000))
    assert c.disposed == [20_000]


def test_generate_request_amounts_and_map():
    requests = []
    c = Counter()
    ts = c.flowable().do_on_request(requests.append).map(lambda x: x * 10).test(2)
    ts.request(3)
    ts.assert_values(0, 10, 20, 30, 40)
    assert requests == [2, 3]
    ts.cancel()
    assert c.disposed == [5]


def test_generate_non_positive_request(plugin_errors):
    c = Counter()
    ts = c.flowable().test(0)
    ts.request(0)
    assert c.calls == 0
    assert len(plugin_errors) == 1 and isinstance(plugin_errors[0], ValueError)
    ts.cancel()


def test_generate_assembly_arguments():
    with pytest.raises(TypeError):
        Flowable.generate(None, None)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        Flowable.generate(5, lambda s, e: s)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        Flowable.generate(None, lambda s, e: s, 5)  # type: ignore[arg-type]


def test_generate_race_cancel_and_request_dispose_once(race_runner, race_rounds):
    def one_round():
        c = Counter()
        ts = c.flowable().test(0)
        race_runner.race(lambda: ts.request(10), ts.cancel)
        assert len(c.disposed) == 1
        assert c.calls <= 10
        ts.assert_values(*range(c.calls)).assert_not_terminated()

    for _ in range(race_rounds // 10):
        one_round()


def test_generate_race_requests(race_runner, race_rounds):
    def one_round():
        c = Counter()
        ts = c.flowable().test(0)

        def req():
            for _ in range(10):
                ts.request(1)

        race_runner.race(req, req)
        ts.assert_values(*range(20)).assert_not_terminated()
        assert c.calls == 20
        ts.cancel()
        assert len(c.disposed) == 1

    for _ in range(race_rounds // 10):
        one_round()
