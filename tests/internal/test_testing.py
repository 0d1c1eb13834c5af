"""TestSubscriber/TestObserver assertions (pass and fail, with what was received) and RaceRunner."""

# Each race round's closures run inside that round: late binding of loop variables is
# what the rounds rely on, not a bug.
# ruff: noqa: B023

from __future__ import annotations

import sys
import threading
import time

import pytest

from rxpy2._internal.fuseable import ASYNC
from rxpy2._internal.fuseable import NONE
from rxpy2._internal.fuseable import SYNC
from rxpy2._internal.subscriptions import BooleanSubscription
from rxpy2._internal.subscriptions import DeferredScalarSubscription
from rxpy2.disposables import Disposables
from rxpy2.flowable import Flowable
from rxpy2.testing import RaceRunner
from rxpy2.testing import TestObserver
from rxpy2.testing import TestSubscriber
from rxpy2.testing import race


def _ts(*values, error=None, complete=False) -> TestSubscriber:
    ts: TestSubscriber = TestSubscriber()
    ts.on_subscribe(BooleanSubscription())
    for v in values:
        ts.on_next(v)
    if error is not None:
        ts.on_error(error)
    if complete:
        ts.on_complete()
    return ts


# ---------------------------------------------------------------- values

def test_assert_values():
    ts = _ts(1, 2, 3)
    assert ts.assert_values(1, 2, 3) is ts
    ts.assert_value_sequence([1, 2, 3])
    with pytest.raises(AssertionError, match=r"Value count differs.*values=3 \[1, 2, 3\]"):
        ts.assert_values(1, 2)
    with pytest.raises(AssertionError, match=r"position 1 differ; expected: 5 but was: 2"):
        ts.assert_values(1, 5, 3)
    with pytest.raises(AssertionError, match=r"values=3 \[1, 2, 3\]"):
        ts.assert_value_sequence([3, 2, 1])


def test_assert_value():
    ts = _ts("a")
    ts.assert_value("a").assert_value(lambda v: v == "a")
    with pytest.raises(AssertionError, match=r"expected: 'b' but was: 'a'.*values=1 \['a'\]"):
        ts.assert_value("b")
    with pytest.raises(AssertionError, match=r"does not match the predicate"):
        ts.assert_value(lambda v: False)
    with pytest.raises(AssertionError, match=r"expected one value but was 2"):
        _ts(1, 2).assert_value(1)


def test_assert_value_at():
    ts = _ts(10, 20)
    ts.assert_value_at(1, 20).assert_value_at(0, lambda v: v < 15)
    with pytest.raises(AssertionError, match=r"Value at 1: expected 21 but was 20"):
        ts.assert_value_at(1, 21)
    with pytest.raises(AssertionError, match=r"No value at index 2.*\[10, 20\]"):
        ts.assert_value_at(2, 0)
    with pytest.raises(AssertionError, match=r"predicate"):
        ts.assert_value_at(0, lambda v: v > 15)


def test_assert_value_count_and_no_values():
    _ts().assert_no_values().assert_value_count(0)
    ts = _ts(1)
    ts.assert_value_count(1)
    with pytest.raises(AssertionError, match=r"expected: 2 but was: 1.*values=1 \[1\]"):
        ts.assert_value_count(2)
    with pytest.raises(AssertionError, match=r"expected: 0 but was: 1"):
        ts.assert_no_values()


def test_long_value_lists_are_shortened_in_messages():
    ts = _ts(*range(100))
    with pytest.raises(AssertionError, match=r"values=100 \[0, 1, .*49, '\.\.\.'\]"):
        ts.assert_values(1)


# ---------------------------------------------------------------- errors

def test_assert_error_forms():
    e = ValueError("boom")
    ts = _ts(1, error=e)
    ts.assert_error(ValueError).assert_error(e).assert_error(lambda x: "boom" in str(x))
    ts.assert_error(Exception)
    with pytest.raises(AssertionError, match=r"an error of type KeyError but got ValueError"):
        ts.assert_error(KeyError)
    with pytest.raises(AssertionError, match=r"Expected the error"):
        ts.assert_error(ValueError("boom"))  # another instance
    with pytest.raises(AssertionError, match=r"matching the predicate"):
        ts.assert_error(lambda x: False)
    with pytest.raises(AssertionError, match=r"No errors"):
        _ts(1).assert_error(ValueError)


def test_assertion_failure_keeps_the_received_error_as_cause():
    e = ValueError("boom")
    with pytest.raises(AssertionError) as ei:
        _ts(error=e).assert_no_errors()
    assert ei.value.__cause__ is e
    assert "errors=1" in str(ei.value)


def test_multiple_errors():
    ts = _ts(error=ValueError("a"))
    ts.on_error(KeyError("b"))
    with pytest.raises(AssertionError, match="Multiple errors: 2"):
        ts.assert_error(ValueError)
    with pytest.raises(AssertionError, match="§1.7: on_error.*after a terminal event"):
        ts.assert_protocol_ok()


def test_assert_error_message():
    ts = _ts(error=ValueError("exact text"))
    ts.assert_error_message("exact text")
    with pytest.raises(AssertionError, match=r"expected: 'other' but was: 'exact text'"):
        ts.assert_error_message("other")
    with pytest.raises(AssertionError, match="exactly one error but got 0"):
        _ts().assert_error_message("x")


def test_assert_no_errors():
    _ts(1).assert_no_errors()
    with pytest.raises(AssertionError, match=r"Error\(s\) present.*KeyError"):
        _ts(error=KeyError("k")).assert_no_errors()


# ---------------------------------------------------------------- terminal events

def test_complete_assertions():
    done = _ts(1, complete=True)
    done.assert_complete().assert_terminated()
    with pytest.raises(AssertionError, match=r"Completed!.*completions=1"):
        done.assert_not_complete()
    with pytest.raises(AssertionError, match=r"Terminated"):
        done.assert_not_terminated()
    running = _ts(1)
    running.assert_not_complete().assert_not_terminated()
    with pytest.raises(AssertionError, match=r"Not completed.*values=1 \[1\].*completions=0"):
        running.assert_complete()
    with pytest.raises(AssertionError, match="Not terminated"):
        running.assert_terminated()


def test_multiple_completions_detected():
    ts = _ts(complete=True)
    ts.on_complete()
    with pytest.raises(AssertionError, match="Multiple completions: 2"):
        ts.assert_complete()
    with pytest.raises(AssertionError, match="Multiple completions: 2"):
        ts.assert_not_complete()
    with pytest.raises(AssertionError, match="multiple terminal events"):
        ts.assert_terminated()
    with pytest.raises(AssertionError, match="on_complete after a terminal event"):
        ts.assert_protocol_ok()


def test_error_and_completion_both_detected():
    ts = _ts(error=ValueError("x"))
    ts.on_complete()
    with pytest.raises(AssertionError, match="multiple terminal events: 1 completions, 1 errors"):
        ts.assert_terminated()


def test_assert_result_failure_empty():
    _ts(1, 2, complete=True).assert_result(1, 2)
    with pytest.raises(AssertionError, match=r"values=2 \[1, 2\]"):
        _ts(1, 2, complete=True).assert_result(1)
    with pytest.raises(AssertionError, match="Not completed"):
        _ts(1, 2).assert_result(1, 2)
    e = KeyError("k")
    _ts(1, error=e).assert_failure(KeyError, 1)
    with pytest.raises(AssertionError, match="No errors"):
        _ts(1, complete=True).assert_failure(KeyError, 1)
    _ts().assert_empty()
    with pytest.raises(AssertionError, match=r"Value counts differ.*values=1 \[9\]"):
        _ts(9).assert_empty()
    with pytest.raises(AssertionError, match="Completed!"):
        _ts(complete=True).assert_empty()


def test_subscribed_assertions():
    ts: TestSubscriber = TestSubscriber()
    ts.assert_not_subscribed()
    with pytest.raises(AssertionError, match="Not subscribed!"):
        ts.assert_subscribed()
    with pytest.raises(AssertionError, match="Not subscribed!"):
        ts.assert_empty()
    ts.on_subscribe(BooleanSubscription())
    ts.assert_subscribed()
    assert ts.has_subscription()
    with pytest.raises(AssertionError, match="Subscribed!"):
        ts.assert_not_subscribed()


def test_protocol_violations_recorded():
    ts: TestSubscriber = TestSubscriber()
    ts.on_next(1)  # before on_subscribe
    with pytest.raises(AssertionError, match="on_next before on_subscribe"):
        ts.assert_protocol_ok()
    with pytest.raises(AssertionError, match="on_subscribe not called in proper order"):
        ts.assert_no_errors()
    ts2 = _ts()
    s2 = BooleanSubscription()
    ts2.on_subscribe(s2)
    assert s2.is_cancelled()
    with pytest.raises(AssertionError, match="on_subscribe twice"):
        ts2.assert_protocol_ok()
    ts3 = _ts(complete=True)
    ts3.on_next(5)
    with pytest.raises(AssertionError, match=r"on_next\(5\) after a terminal event"):
        ts3.assert_protocol_ok()
    _ts(1, complete=True).assert_protocol_ok()


def test_none_signals_are_recorded_and_raised():
    # §2.13: the caller gets a TypeError; the assertions see the error too
    ts: TestSubscriber = TestSubscriber()
    with pytest.raises(TypeError):
        ts.on_subscribe(None)
    ts.on_subscribe(BooleanSubscription())
    with pytest.raises(TypeError):
        ts.on_next(None)
    with pytest.raises(AssertionError, match=r"§2.13: on_subscribe\(None\); §2.13: on_next\(None\)"):
        ts.assert_no_values()
    ts.assert_protocol_violation("§2.13").assert_no_values()
    assert [type(e) for e in ts.errors()] == [TypeError, TypeError]
    ts2: TestSubscriber = TestSubscriber()
    ts2.on_subscribe(BooleanSubscription())
    with pytest.raises(TypeError):
        ts2.on_error(None)
    ts2.assert_protocol_violation("on_error(None)").assert_error(TypeError).assert_not_terminated()


# ---------------------------------------------------------------- requesting / cancelling

def test_initial_request_and_deferred_requests():
    ts: TestSubscriber = TestSubscriber(0)
    ts.request(2)  # before on_subscribe: kept
    Flowable.range(1, 5).subscribe(ts)
    ts.assert_values(1, 2).assert_not_complete()
    assert ts.request_more(3) is ts
    ts.assert_result(1, 2, 3, 4, 5)
    with pytest.raises(ValueError):
        TestSubscriber(-1)


def test_cancel_before_subscribe_still_counts_as_subscribed():
    ts = Flowable.range(1, 5).test(0, cancel=True)
    assert ts.is_cancelled() and ts.is_disposed()
    ts.assert_empty()  # subscribed, nothing received


def test_dispose_cancels_upstream():
    s = BooleanSubscription()
    ts: TestSubscriber = TestSubscriber()
    ts.on_subscribe(s)
    ts.dispose()
    assert s.is_cancelled() and ts.is_cancelled()


def test_downstream_receives_signals_too():
    inner: TestSubscriber = TestSubscriber()
    ts: TestSubscriber = TestSubscriber(downstream=inner)
    Flowable.range(1, 2).subscribe(ts)
    inner.assert_result(1, 2)


def test_sync_fusion():
    ts = TestSubscriber().with_fusion(SYNC)
    Flowable.range(1, 3).subscribe(ts)
    ts.assert_fusion_mode(SYNC).assert_result(1, 2, 3)
    with pytest.raises(AssertionError, match="Fusion mode differs; expected: 2 but was: 1"):
        ts.assert_fusion_mode(ASYNC)


def test_async_fusion_polls():
    ts = TestSubscriber().with_fusion(ASYNC)
    d = DeferredScalarSubscription(ts)
    ts.on_subscribe(d)
    ts.assert_fusion_mode(ASYNC)
    d.complete(9)
    ts.assert_result(9)


def test_no_fusion_requested():
    ts: TestSubscriber = TestSubscriber()
    Flowable.range(1, 1).subscribe(ts)
    ts.assert_fusion_mode(NONE)


# ---------------------------------------------------------------- waiting

def test_await_done_with_a_producer_thread():
    ts: TestSubscriber = TestSubscriber()
    ts.on_subscribe(BooleanSubscription())

    def produce():
        for i in range(100):
            ts.on_next(i)
        ts.on_complete()

    t = threading.Thread(target=produce)
    t.start()
    ts.await_done(10).assert_no_timeout().assert_value_count(100).assert_complete()
    t.join()
    assert ts.last_thread is t


def test_await_count_with_a_producer_thread():
    ts: TestSubscriber = TestSubscriber()
    ts.on_subscribe(BooleanSubscription())
    go = threading.Event()

    def produce():
        for i in range(5):
            ts.on_next(i)
        go.wait(10)
        ts.on_complete()

    t = threading.Thread(target=produce)
    t.start()
    ts.await_count(5, 10).assert_no_timeout()
    assert ts.value_count() >= 5
    ts.assert_not_complete()
    go.set()
    ts.await_done(10).assert_complete()
    t.join()


def test_await_timeouts_cancel_and_are_recorded():
    s = BooleanSubscription()
    ts: TestSubscriber = TestSubscriber()
    ts.on_subscribe(s)
    start = time.monotonic()
    ts.await_done(0.05)
    assert time.monotonic() - start >= 0.04
    ts.assert_timeout()
    assert s.is_cancelled()
    with pytest.raises(AssertionError, match="Timeout\\?!.*timeout!"):
        ts.assert_no_timeout()
    ts2 = _ts()
    ts2.await_count(3, 0.05).assert_timeout()
    with pytest.raises(AssertionError, match="No timeout"):
        _ts().assert_timeout()


def test_await_terminal_event():
    assert _ts(complete=True).await_terminal_event(0.01) is True
    assert _ts().await_terminal_event(0.01) is False


# ---------------------------------------------------------------- TestObserver

def test_test_observer_single_style():
    to: TestObserver = TestObserver()
    d = Disposables.empty()
    to.on_subscribe(d)
    to.on_success(5)
    to.assert_result(5).assert_protocol_ok()
    to.dispose()
    assert d.is_disposed() and to.is_disposed()


def test_test_observer_failures_show_what_was_received():
    to: TestObserver = TestObserver()
    to.on_subscribe(Disposables.empty())
    to.on_error(KeyError("k"))
    to.assert_failure(KeyError)
    with pytest.raises(AssertionError, match=r"Error\(s\) present.*errors=1 \[KeyError\('k'\)\]"):
        to.assert_result()
    to2: TestObserver = TestObserver()
    with pytest.raises(AssertionError, match="Not subscribed!"):
        to2.assert_subscribed()


def test_test_observer_protocol():
    to: TestObserver = TestObserver()
    to.on_complete()
    with pytest.raises(AssertionError, match="on_complete before on_subscribe"):
        to.assert_protocol_ok()
    to2: TestObserver = TestObserver()
    to2.on_subscribe(Disposables.empty())
    to2.on_success(1)
    to2.on_success(2)
    with pytest.raises(AssertionError, match="on_success after a terminal event"):
        to2.assert_protocol_ok()
    second = Disposables.empty()
    to2.on_subscribe(second)
    assert second.is_disposed()


def test_test_observer_disposed_before_subscribe():
    to: TestObserver = TestObserver()
    to.dispose()
    d = Disposables.empty()
    to.on_subscribe(d)
    assert d.is_disposed()
    to.assert_subscribed().assert_empty()


def test_test_observer_await_with_a_thread():
    to: TestObserver = TestObserver()
    to.on_subscribe(Disposables.empty())
    t = threading.Timer(0.01, lambda: to.on_success("late"))
    t.start()
    to.await_done(10).assert_result("late")
    t.join()


# ---------------------------------------------------------------- RaceRunner

def test_race_runs_both_sides_at_once():
    started = [threading.Event(), threading.Event()]

    def side(i):
        def run():
            started[i].set()
            # each side waits for the other: only possible if both run at the same time
            assert started[1 - i].wait(10)
        return run

    with RaceRunner() as r:
        for _ in range(20):
            for e in started:
                e.clear()
            r.race(side(0), side(1))


def test_race_interleaves_the_sides():
    interleaved = 0
    with RaceRunner() as r:
        for _ in range(20):
            log: list[str] = []

            def a():
                for _ in range(30):
                    log.append("a")

            def b():
                for _ in range(30):
                    log.append("b")

            r.race(a, b)
            s = "".join(log)
            assert sorted(s) == ["a"] * 30 + ["b"] * 30
            if s.find("b") < s.rfind("a") and s.find("a") < s.rfind("b"):
                interleaved += 1
    assert interleaved > 0


def test_race_without_preemption():
    got = []
    with RaceRunner(preempt=0.0) as r:
        r.race(lambda: got.append(1), lambda: got.append(2))
    assert sorted(got) == [1, 2]


@pytest.mark.parametrize("p", [-0.1, 1.5])
def test_race_preempt_validated(p):
    with pytest.raises(ValueError):
        RaceRunner(preempt=p)


def test_race_propagates_error_of_first_side(race_runner):
    with pytest.raises(KeyError, match="a-side"):
        race_runner.race(lambda: (_ for _ in ()).throw(KeyError("a-side")), lambda: None)
    race_runner.race(lambda: None, lambda: None)  # still usable


def test_race_propagates_error_of_second_side(race_runner):
    def b():
        raise ValueError("b-side")

    with pytest.raises(ValueError, match="b-side"):
        race_runner.race(lambda: None, b)
    race_runner.race(lambda: None, lambda: None)


def test_race_both_sides_fail_reports_first_side(race_runner):
    def a():
        raise KeyError("a")

    def b():
        raise ValueError("b")

    with pytest.raises(KeyError):
        race_runner.race(a, b)


def test_race_assertion_error_from_second_side(race_runner):
    def b():
        assert 1 == 2, "inside b"

    with pytest.raises(AssertionError, match="inside b"):
        race_runner.race(lambda: None, b)


def test_race_restores_the_trace_function():
    before = sys.gettrace()
    with RaceRunner() as r:
        r.race(lambda: None, lambda: None)
    assert sys.gettrace() is before


def test_closed_runner_refuses():
    r = RaceRunner()
    r.close()
    r.close()
    with pytest.raises(RuntimeError, match="closed"):
        r.race(lambda: None, lambda: None)


def test_race_function_one_shot():
    got = []
    race(lambda: got.append("a"), lambda: got.append("b"))
    assert sorted(got) == ["a", "b"]
    with pytest.raises(ZeroDivisionError):
        race(lambda: 1 // 0, lambda: None)


