"""SerializedSubscriber on a Drain: races of items and terminal signals from two threads."""

from __future__ import annotations

from rxpy2._internal.subscribers.serialized import SerializedSubscriber
from rxpy2.testing import TestSubscriber


def _make(delay_error=False):
    ts = TestSubscriber()
    ss = SerializedSubscriber(ts, delay_error)

    class _Up:
        def request(self, n):
            pass

        def cancel(self):
            pass

    ss.on_subscribe(_Up())
    return ts, ss


def test_race_many_items_each_thread_in_order(race_runner, race_rounds):
    for i in range(race_rounds // 4):
        ts, ss = _make()
        n = 20 + i % 7
        race_runner.race(lambda ss=ss, n=n: [ss.on_next(("a", k)) for k in range(n)],
                         lambda ss=ss, n=n: [ss.on_next(("b", k)) for k in range(n)])
        ss.on_complete()
        items = ts.values()
        assert len(items) == 2 * n  # nothing lost or duplicated
        assert [k for (t, k) in items if t == "a"] == list(range(n))
        assert [k for (t, k) in items if t == "b"] == list(range(n))
        ts.assert_complete()


def test_race_items_vs_complete_nothing_after_terminal(race_runner, race_rounds):
    for i in range(race_rounds // 4):
        for delay in (False, True):
            ts, ss = _make(delay)
            n = 1 + i % 9
            race_runner.race(lambda ss=ss, n=n: [ss.on_next(k) for k in range(n)],
                             ss.on_complete)
            ss.on_next(99)  # after the terminal signal: dropped
            assert ts.values() == list(range(len(ts.values())))  # a prefix, in order
            ts.assert_complete()
            assert ts.completions() == 1 and not ts.errors()


def test_race_error_vs_complete_one_terminal(race_runner, race_rounds, plugin_errors):
    for _ in range(race_rounds // 4):
        ts, ss = _make()
        e = ValueError("x")
        race_runner.race(lambda ss=ss, e=e: ss.on_error(e), ss.on_complete)
        terminals = ts.completions() + len(ts.errors())
        assert terminals == 1
    assert all(isinstance(x, ValueError) for x in plugin_errors.causes())


def test_repr_shows_state():
    ts, ss = _make()
    assert repr(ss) == "SerializedSubscriber(active)"
    ss.on_complete()
    assert repr(ss) == "SerializedSubscriber(done: complete)"
