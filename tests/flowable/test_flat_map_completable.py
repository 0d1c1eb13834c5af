"""flat_map_completable: completion, request pattern, errors immediate/delayed, disposal, races."""

from __future__ import annotations

import pytest
from probes import ManualSource
from probes import ProbeCompletable
from probes import Recorded
from probes import boom
from probes import failing

from rxpy2 import Completable
from rxpy2 import Flowable
from rxpy2.exceptions import CompositeException
from rxpy2.reactivestreams import LONG_MAX


def probes(n):
    ps = [ProbeCompletable() for _ in range(n)]
    return ps, (lambda i: ps[i])


def test_completes_when_all_complete():
    calls: list[int] = []

    def mapper(x):
        calls.append(x)
        return Completable.complete()

    Flowable.range(1, 5).flat_map_completable(mapper).test().assert_result()
    assert calls == [1, 2, 3, 4, 5]


def test_waits_for_upstream_and_every_inner():
    ps, mapper = probes(2)
    src = ManualSource()
    to = src.flat_map_completable(mapper).test()
    src.emit(0, 1)
    ps[1].complete()
    src.complete()
    to.assert_not_terminated()
    ps[0].complete()
    to.assert_result()


def test_empty_source_completes():
    Flowable.empty().flat_map_completable(boom).test().assert_result()


def test_upstream_error_passes_through():
    failing(1, 2).flat_map_completable(lambda x: Completable.complete()).test() \
        .assert_failure(ValueError)


def test_to_flowable():
    Flowable.range(1, 3).flat_map_completable(lambda x: Completable.complete()).to_flowable() \
        .test().assert_result()


# ----------------------------------------------------------------- requests at the source


def test_unbounded_requests_everything():
    rec = Recorded(1, 5)
    rec.flowable.flat_map_completable(lambda x: Completable.complete()).test().assert_result()
    assert rec.requests == [LONG_MAX]


def test_bounded_requests_max_concurrency_then_one_per_completion():
    ps, mapper = probes(4)
    src = ManualSource()
    to = src.flat_map_completable(mapper, max_concurrency=2).test()
    assert src.requests == [2]
    src.emit(0, 1)
    ps[1].complete()
    assert src.requests == [2, 1]
    src.emit(2)
    ps[0].complete()
    assert src.requests == [2, 1, 1]
    src.complete()
    ps[2].complete()
    assert src.requests == [2, 1, 1]  # none once the upstream completed
    to.assert_result()


def test_bounded_with_range():
    rec = Recorded(1, 10)
    rec.flowable.flat_map_completable(lambda x: Completable.complete(), max_concurrency=3) \
        .test().assert_result()
    assert rec.requests[0] == 3 and set(rec.requests[1:]) == {1}


# ----------------------------------------------------------------- errors


def test_inner_error_immediate_cancels_and_disposes():
    ps, mapper = probes(3)
    src = ManualSource()
    to = src.flat_map_completable(mapper).test()
    src.emit(0, 1, 2)
    e = ValueError("inner")
    ps[1].error(e)
    to.assert_failure(e)
    assert src.cancelled
    assert ps[0].disposed == 1 and ps[2].disposed == 1


def test_upstream_error_immediate_disposes_inners():
    ps, mapper = probes(2)
    src = ManualSource()
    to = src.flat_map_completable(mapper).test()
    src.emit(0, 1)
    e = ValueError("up")
    src.error(e)
    to.assert_failure(e)
    assert ps[0].disposed == 1 and ps[1].disposed == 1


def test_delay_errors_every_cause():
    ps, mapper = probes(4)
    src = ManualSource()
    to = src.flat_map_completable(mapper, delay_errors=True).test()
    src.emit(0, 1, 2, 3)
    e1, e2, e3 = ValueError("1"), KeyError("2"), TypeError("up")
    ps[0].error(e1)
    ps[1].complete()
    ps[2].error(e2)
    src.error(e3)
    to.assert_not_terminated()
    assert not src.cancelled and ps[3].disposed == 0
    ps[3].complete()
    to.assert_error(CompositeException)
    assert to.errors()[0].exceptions == [e1, e2, e3]


def test_delay_errors_single_error():
    ps, mapper = probes(2)
    src = ManualSource()
    to = src.flat_map_completable(mapper, delay_errors=True, max_concurrency=1).test()
    src.emit(0)
    e = ValueError("x")
    ps[0].error(e)
    assert src.requests == [1, 1]  # a failed inner is a finished one
    src.emit(1)
    src.complete()
    to.assert_not_terminated()
    ps[1].complete()
    to.assert_failure(e)


def test_mapper_raises():
    src = ManualSource()
    to = src.flat_map_completable(boom).test()
    src.emit(1)
    to.assert_failure(ZeroDivisionError)
    assert src.cancelled


def test_mapper_raises_delayed_waits_for_inners():
    p = ProbeCompletable()
    src = ManualSource()
    to = src.flat_map_completable(lambda x: boom() if x else p, delay_errors=True).test()
    src.emit(0, 1)
    assert src.cancelled
    to.assert_not_terminated()
    p.complete()
    to.assert_failure(ZeroDivisionError)


@pytest.mark.parametrize("result", [None, 5, Flowable.empty()])
def test_mapper_returns_wrong_thing(result):
    src = ManualSource()
    to = src.flat_map_completable(lambda x: result).test()
    src.emit(1)
    to.assert_failure(TypeError)
    assert src.cancelled


def test_error_after_terminal_goes_to_plugins(plugin_errors):
    ps, mapper = probes(2)
    src = ManualSource()
    to = src.flat_map_completable(mapper).test()
    src.emit(0, 1)
    e1, e2 = ValueError("1"), ValueError("2")
    ps[0].error(e1)
    ps[1].error(e2)  # the probe ignores disposal
    to.assert_failure(e1)
    assert plugin_errors == [e2]


# ----------------------------------------------------------------- disposal


def test_dispose_cancels_upstream_and_every_inner():
    ps, mapper = probes(3)
    src = ManualSource()
    to = src.flat_map_completable(mapper).test()
    src.emit(0, 1, 2)
    ps[1].complete()
    to.dispose()
    assert src.cancelled
    assert [p.disposed for p in ps] == [1, 0, 1]
    ps[0].complete()
    ps[2].complete()
    src.complete()
    to.assert_empty()


def test_error_after_dispose_goes_to_plugins(plugin_errors):
    ps, mapper = probes(1)
    src = ManualSource()
    to = src.flat_map_completable(mapper).test()
    src.emit(0)
    to.dispose()
    e = ValueError("late")
    ps[0].error(e)
    to.assert_empty()
    assert plugin_errors == [e]


# ----------------------------------------------------------------- deep synchronous streams


@pytest.mark.parametrize("max_concurrency", [LONG_MAX, 1])
def test_deep(max_concurrency):
    Flowable.range(0, 100_000) \
        .flat_map_completable(lambda x: Completable.complete(), max_concurrency=max_concurrency) \
        .test().assert_result()


# ----------------------------------------------------------------- assembly


def test_bad_arguments():
    f = Flowable.range(1, 3)
    with pytest.raises(TypeError):
        f.flat_map_completable(None)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        f.flat_map_completable(lambda x: Completable.complete(), max_concurrency=0)


# ----------------------------------------------------------------- races


def test_race_two_inner_completions(race_runner, race_rounds):
    for _ in range(race_rounds):
        ps, mapper = probes(2)
        src = ManualSource()
        to = src.flat_map_completable(mapper).test()
        src.emit(0, 1)
        src.complete()
        race_runner.race(ps[0].complete, ps[1].complete)
        to.assert_result().assert_protocol_ok()


def test_race_inner_completion_vs_upstream_completion(race_runner, race_rounds):
    for _ in range(race_rounds):
        ps, mapper = probes(1)
        src = ManualSource()
        to = src.flat_map_completable(mapper, max_concurrency=4).test()
        src.emit(0)
        race_runner.race(ps[0].complete, src.complete)
        to.assert_result().assert_protocol_ok()


def test_race_inner_error_vs_inner_completion(race_runner, race_rounds):
    for delay in (False, True):
        for _ in range(race_rounds // 2):
            ps, mapper = probes(2)
            src = ManualSource()
            to = src.flat_map_completable(mapper, delay_errors=delay).test()
            src.emit(0, 1)
            src.complete()
            e = ValueError()
            race_runner.race(ps[0].complete, lambda p=ps[1], e=e: p.error(e))
            to.assert_failure(e).assert_protocol_ok()


def test_race_two_inner_errors_delayed(race_runner, race_rounds):
    for _ in range(race_rounds):
        ps, mapper = probes(2)
        src = ManualSource()
        to = src.flat_map_completable(mapper, delay_errors=True).test()
        src.emit(0, 1)
        src.complete()
        e1, e2 = ValueError("1"), ValueError("2")
        race_runner.race(lambda p=ps[0], e=e1: p.error(e), lambda p=ps[1], e=e2: p.error(e))
        to.assert_error(CompositeException).assert_protocol_ok()
        assert set(to.errors()[0].exceptions) == {e1, e2}
