"""ParallelFlowable.map/filter/do_on_next with ``error_handling=`` (RxJava 2's ParallelMapTry,
ParallelFilterTry, ParallelDoOnNextTry) and ParallelFailureHandling."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from probes import Manual
from probes import ManualSource
from probes import assert_two_rails_joined
from probes import rail

import rxpy2
from rxpy2 import Flowable
from rxpy2 import ParallelFailureHandling
from rxpy2 import ParallelFlowable
from rxpy2._internal.fuseable import ConditionalSubscriber
from rxpy2.exceptions import CompositeException
from rxpy2.parallel import ParallelFailureHandling as Exported
from rxpy2.schedulers import Schedulers
from rxpy2.testing import TestSubscriber

pytestmark = pytest.mark.usefixtures("shutdown_schedulers")

H = ParallelFailureHandling
RETRY, SKIP, STOP, ERROR = H.RETRY, H.SKIP, H.STOP, H.ERROR


class CondRail(TestSubscriber[Any], ConditionalSubscriber[Any]):
    """A conditional rail Subscriber: takes the items ``accept`` allows (``try_on_next``)."""

    def __init__(self, initial_request: int, accept: Any = lambda x: True) -> None:
        super().__init__(initial_request)
        self.accept = accept

    def try_on_next(self, item: Any) -> bool:
        if self.accept(item):
            self.on_next(item)
            return True
        return False


def fails_on(bad: set[int], times: int = 10**9) -> tuple[Any, dict[int, int]]:
    """A function raising ValueError for items in ``bad`` (the first ``times`` calls per item);
    returns ``(fn, calls per item)``."""
    calls: dict[int, int] = {}
    lock = threading.Lock()

    def fn(x: int) -> int:
        with lock:
            calls[x] = calls.get(x, 0) + 1
            n = calls[x]
        if x in bad and n <= times:
            raise ValueError(x)
        return x
    return fn, calls


def build(p: ParallelFlowable[Any], kind: str, fn: Any, handling: Any) -> ParallelFlowable[Any]:
    """``p.map``/``p.filter``/``p.do_on_next`` with ``fn`` (the filter passes when ``fn(x) >= 0``)."""
    if kind == "map":
        return p.map(fn, error_handling=handling)
    if kind == "filter":
        return p.filter(lambda x: fn(x) >= 0, error_handling=handling)
    return p.do_on_next(fn, error_handling=handling)


def make(kind: str, fn: Any, handling: Any) -> Any:
    """``(manual source, rail)`` for ``kind`` over one rail with a request of 2."""
    src = Manual()
    q = build(ParallelFlowable.from_array(src), kind, fn, handling)
    ts: TestSubscriber[Any] = TestSubscriber(2)
    q.subscribe([ts])
    return src, ts


KINDS = ["map", "filter", "do_on_next"]


# ---------------------------------------------------------------- the enum


def test_enum_members_answer_themselves_and_are_exported():
    assert Exported is H and rxpy2.ParallelFailureHandling is H
    assert {m.name for m in H} == {"STOP", "ERROR", "SKIP", "RETRY"}
    for m in H:
        assert m(1, ValueError()) is m
        assert m(99, KeyError()) is m


# ---------------------------------------------------------------- each mode, exact requests


@pytest.mark.parametrize("kind", KINDS)
def test_skip_drops_the_item_and_requests_one_more(kind):
    fn, _ = fails_on({1})
    src, ts = make(kind, fn, SKIP)
    assert src.probe.requests == [2]
    src.subscriber.on_next(0)
    src.subscriber.on_next(1)
    assert src.probe.requests == [2, 1]  # SKIP: one more
    src.subscriber.on_next(2)
    src.subscriber.on_complete()
    ts.assert_result(0, 2)
    assert src.probe.cancelled == 0


@pytest.mark.parametrize("kind", KINDS)
def test_retry_runs_the_function_again_on_the_same_item(kind):
    fn, calls = fails_on({1}, times=3)
    src, ts = make(kind, fn, RETRY)
    src.subscriber.on_next(1)
    src.subscriber.on_next(2)
    src.subscriber.on_complete()
    ts.assert_result(1, 2)
    assert calls == {1: 4, 2: 1}
    assert src.probe.requests == [2]  # nothing dropped, nothing asked


@pytest.mark.parametrize("kind", KINDS)
def test_stop_cancels_and_completes(kind, plugin_errors):
    fn, _ = fails_on({1})
    src, ts = make(kind, fn, STOP)
    src.subscriber.on_next(0)
    src.subscriber.on_next(1)
    ts.assert_result(0)  # the error is dropped
    assert src.probe.cancelled == 1
    src.subscriber.on_next(2)  # late: dropped
    src.subscriber.on_complete()
    ts.assert_result(0)
    assert plugin_errors.causes() == []


@pytest.mark.parametrize("kind", KINDS)
def test_error_cancels_and_signals_the_error(kind):
    fn, _ = fails_on({1})
    src, ts = make(kind, fn, ERROR)
    src.subscriber.on_next(0)
    src.subscriber.on_next(1)
    ts.assert_failure(ValueError, 0)
    assert src.probe.cancelled == 1
    # RxJava 2's do_on_next variant still asks the cancelled upstream for one more
    assert src.probe.requests == ([2, 1] if kind == "do_on_next" else [2])


@pytest.mark.parametrize("kind", KINDS)
def test_handler_gets_the_count_from_one_and_the_error(kind):
    seen: list[tuple[int, Any]] = []

    def handler(count, error):
        seen.append((count, error.args[0]))
        return RETRY if count < 3 else SKIP

    fn, calls = fails_on({5})
    src, ts = make(kind, fn, handler)
    src.subscriber.on_next(5)
    assert seen == [(1, 5), (2, 5), (3, 5)]
    assert calls[5] == 3
    src.subscriber.on_next(7)
    src.subscriber.on_next(5)  # a new item: the count starts again
    assert seen[3:] == [(1, 5), (2, 5), (3, 5)]
    ts.assert_values(7)
    assert src.probe.requests == [2, 1, 1]


@pytest.mark.parametrize("kind", KINDS)
def test_handler_raising_ends_the_rail_with_both_errors(kind):
    fn, _ = fails_on({1})

    def handler(count, error):
        raise KeyError("handler")

    src, ts = make(kind, fn, handler)
    src.subscriber.on_next(1)
    ts.assert_error(CompositeException)
    err = ts.errors()[0]
    assert [type(e) for e in err.exceptions] == [ValueError, KeyError]
    assert src.probe.cancelled == 1


@pytest.mark.parametrize("kind", KINDS)
def test_handler_answering_not_a_failure_handling(kind):
    fn, _ = fails_on({1})
    src, ts = make(kind, fn, lambda count, error: None)
    src.subscriber.on_next(1)
    err = ts.errors()[0]
    assert isinstance(err, CompositeException)
    assert [type(e) for e in err.exceptions] == [ValueError, TypeError]
    assert "ParallelFailureHandling" in str(err.exceptions[1])
    assert src.probe.cancelled == 1


def test_map_returning_none_goes_to_the_handler():
    seen: list[Any] = []

    def handler(count, error):
        seen.append(type(error))
        return SKIP

    Flowable.range(0, 4).parallel(1).map(lambda x: None if x % 2 else x, error_handling=handler) \
        .sequential().test().assert_result(0, 2)
    assert seen == [TypeError, TypeError]


def test_filter_rejecting_requests_one_more_and_passing_items_go_on():
    src, ts = make("filter", lambda x: x if x % 2 == 0 else -1, SKIP)
    src.subscriber.on_next(1)
    src.subscriber.on_next(2)
    assert src.probe.requests == [2, 1]
    ts.assert_values(2)


def test_error_after_stop_goes_to_plugins(plugin_errors):
    fn, _ = fails_on({1})
    src, ts = make("map", fn, STOP)
    src.subscriber.on_next(1)
    src.subscriber.on_error(KeyError("late"))
    ts.assert_result()
    assert [type(e) for e in plugin_errors.causes()] == [KeyError]


def test_upstream_error_and_completion_pass_through():
    for kind in KINDS:
        src, ts = make(kind, lambda x: x, SKIP)
        src.subscriber.on_error(KeyError("up"))
        ts.assert_failure(KeyError)
        src, ts = make(kind, lambda x: x, SKIP)
        src.subscriber.on_complete()
        ts.assert_result()


def test_none_item_is_a_protocol_error():
    src, _ts = make("map", lambda x: x, SKIP)
    with pytest.raises(TypeError):
        src.subscriber.on_next(None)


def test_request_and_cancel_reach_the_upstream():
    src, ts = make("map", lambda x: x, SKIP)
    ts.request(5)
    assert src.probe.requests == [2, 5]
    ts.cancel()
    assert src.probe.cancelled == 1


def test_do_on_next_try_towards_a_plain_rail_asks_once_more_after_stop_as_rxjava_2():
    """RxJava 2's ParallelDoOnNextTry (plain Subscriber variant) requests 1 even after STOP/ERROR
    cancelled the upstream (a no-op there, §3.6); map/filter and the conditional variant don't."""
    for handling in (STOP, ERROR):
        src, _ts = make("do_on_next", fails_on({1})[0], handling)
        src.subscriber.on_next(1)
        assert src.probe.requests == [2, 1] and src.probe.cancelled == 1
        src, _ts = make("map", fails_on({1})[0], handling)
        src.subscriber.on_next(1)
        assert src.probe.requests == [2]


# ---------------------------------------------------------------- the conditional path


@pytest.mark.parametrize("kind", KINDS)
def test_conditional_rail_try_on_next_answers(kind):
    fn, _ = fails_on({1})
    src = Manual()
    p = ParallelFlowable.from_array(src)
    if kind == "map":
        q = p.map(fn, error_handling=SKIP)
    elif kind == "filter":
        q = p.filter(lambda x: fn(x) != 3, error_handling=SKIP)
    else:
        q = p.do_on_next(fn, error_handling=SKIP)
    rail = CondRail(5, accept=lambda x: x != 2)
    q.subscribe([rail])
    up = src.subscriber
    assert isinstance(up, ConditionalSubscriber)
    assert up.try_on_next(0) is True
    assert up.try_on_next(1) is False  # skipped
    assert up.try_on_next(2) is False  # the rail did not take it
    assert up.try_on_next(3) is (kind != "filter")
    assert src.probe.requests == [5]  # try_on_next never requests
    up.on_next(1)  # on_next of a skipped item asks for one more
    up.on_next(2)  # ... and of one the rail refused
    assert src.probe.requests == [5, 1, 1]
    rail.assert_values(0, 3) if kind != "filter" else rail.assert_values(0)


@pytest.mark.parametrize("kind", KINDS)
def test_conditional_rail_stop_and_error(kind):
    for handling in (STOP, ERROR):
        fn, _ = fails_on({1})
        src = Manual()
        q = build(ParallelFlowable.from_array(src), kind, fn, handling)
        rail = CondRail(5)
        q.subscribe([rail])
        assert src.subscriber.try_on_next(1) is False
        src.subscriber.on_next(2)  # after the end: dropped, no request
        assert src.probe.cancelled == 1 and src.probe.requests == [5]
        if handling is STOP:
            rail.assert_result()
        else:
            rail.assert_failure(ValueError)


def test_filter_upstream_of_map_try_uses_the_conditional_path():
    src = Manual()
    ts: TestSubscriber[int] = TestSubscriber(2)
    ParallelFlowable.from_array(src).filter(lambda x: x > 0).map(
        fails_on({2})[0], error_handling=SKIP).subscribe([ts])
    src.subscriber.on_next(0)  # the filter drops it: one more
    src.subscriber.on_next(2)  # map skips it: the filter hears False and asks one more
    src.subscriber.on_next(3)
    assert src.probe.requests == [2, 1, 1]
    ts.assert_values(3)


# ---------------------------------------------------------------- through sequential, many rails


@pytest.mark.parametrize("handling,expected", [
    (SKIP, [x for x in range(100) if x % 7]),
    (RETRY, list(range(100))),
])
def test_many_rails_through_sequential(handling, expected):
    for kind in KINDS:
        fn, _ = fails_on({x for x in range(100) if x % 7 == 0}, times=2)
        ts = build(Flowable.range(0, 100).parallel(4), kind, fn, handling).sequential().test()
        ts.assert_complete()
        assert sorted(ts.values()) == expected


def test_stop_ends_only_that_rail():
    subs = [TestSubscriber(), TestSubscriber()]
    Flowable.range(0, 6).parallel(2).map(fails_on({2})[0], error_handling=STOP).subscribe(subs)
    subs[0].assert_result(0)  # rail 0 got 0, then 2 stopped it
    subs[1].assert_complete().assert_no_errors()
    assert sorted(subs[1].values()) == [1, 3, 4, 5]  # the rest went to the live rail


def test_stop_on_every_rail_completes_sequential_and_cancels_the_source():
    cancels: list[int] = []
    ts = (Flowable.range(0, 100).do_on_cancel(lambda: cancels.append(1)).parallel(2)
          .map(boom_all, error_handling=STOP).sequential().test())
    ts.assert_result()
    assert cancels == [1]


def boom_all(x: int) -> int:
    raise ValueError(x)


def test_bad_arguments():
    p = Flowable.range(0, 3).parallel(2)
    for make_op in (p.map, p.filter, p.do_on_next):
        with pytest.raises(TypeError):
            make_op(lambda x: x, error_handling="skip")  # type: ignore[arg-type]
        with pytest.raises(TypeError):
            make_op(None, error_handling=SKIP)  # type: ignore[arg-type]
        with pytest.raises(TypeError):
            make_op(lambda x: x, SKIP)  # type: ignore[misc]  # keyword only


def test_repr_names_the_fluent_methods():
    p = Flowable.range(0, 3).parallel(2)
    assert "→ map(" in repr(p.map(str, error_handling=SKIP))
    assert "→ filter(" in repr(p.filter(bool, error_handling=SKIP))
    assert "→ do_on_next(" in repr(p.do_on_next(print, error_handling=SKIP))


# ---------------------------------------------------------------- threads


def test_run_on_rails_retrying_on_two_threads():
    for _ in range(20):
        fn, calls = fails_on({x for x in range(0, 300, 3)}, times=1)
        ts = (Flowable.range(0, 300).parallel(2).run_on(Schedulers.computation())
              .map(fn, error_handling=RETRY).filter(lambda x: x % 5 != 0, error_handling=SKIP)
              .sequential().test())
        ts.await_done().assert_complete().assert_no_errors()
        assert sorted(ts.values()) == [x for x in range(300) if x % 5]
        assert all(calls[x] == (2 if x % 3 == 0 else 1) for x in range(300))


def test_race_two_rails_skipping_into_sequential(race_runner, race_rounds):
    skip_odd = fails_on({1, 3, 11, 13})[0]
    for _ in range(race_rounds):
        a, b = ManualSource(), ManualSource()
        ts = ParallelFlowable.from_array(a, b).do_on_next(skip_odd, error_handling=SKIP) \
            .sequential().test()

        race_runner.race(rail(a, range(5)), rail(b, range(10, 15)))
        assert_two_rails_joined(ts, [0, 2, 4], [10, 12, 14])
        assert a.requests.count(1) == 2 and b.requests.count(1) == 2


def test_race_stop_vs_cancel(race_runner, race_rounds):
    for _ in range(race_rounds):
        src = ManualSource()
        ts: TestSubscriber[int] = TestSubscriber()
        ParallelFlowable.from_array(src).map(fails_on({1})[0], error_handling=STOP).subscribe([ts])
        race_runner.race(lambda src=src: src.emit(0, 1, 2), ts.cancel)
        assert ts.completions() <= 1 and ts.errors() == []
        assert ts.values() in ([], [0])
        assert src.cancels >= 1
