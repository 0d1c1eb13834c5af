"""ParallelFlowable.concat_map / concat_map_delay_error (RxJava 2's ParallelConcatMap: Flowable's
concat_map subscriber on each rail), compose, to, from_ and from_array."""

from __future__ import annotations

from typing import Any

import pytest
from probes import Manual
from probes import ManualSource
from probes import assert_two_rails_joined
from probes import rail

from rxpy2 import Flowable
from rxpy2 import ParallelFlowable
from rxpy2 import plugins
from rxpy2.exceptions import CompositeException
from rxpy2.schedulers import Schedulers
from rxpy2.testing import TestSubscriber

pytestmark = pytest.mark.usefixtures("shutdown_schedulers")


def twice(x: int) -> Flowable[int]:
    return Flowable.range(x * 10, 2)


def one_rail(build: Any, initial_request: int = 100) -> tuple[Manual, TestSubscriber[Any]]:
    src = Manual()
    ts: TestSubscriber[Any] = TestSubscriber(initial_request)
    build(ParallelFlowable.from_array(src)).subscribe([ts])
    return src, ts


# ---------------------------------------------------------------- concat_map


def test_concat_map_keeps_each_rails_order():
    subs = [TestSubscriber(), TestSubscriber()]
    Flowable.range(0, 6).parallel(2).concat_map(twice).subscribe(subs)
    subs[0].assert_result(0, 1, 20, 21, 40, 41)
    subs[1].assert_result(10, 11, 30, 31, 50, 51)


def test_concat_map_through_sequential():
    ts = Flowable.range(0, 100).parallel(4).concat_map(lambda x: Flowable.just(x, x)).sequential().test()
    ts.assert_complete()
    assert sorted(ts.values()) == sorted(list(range(100)) * 2)


@pytest.mark.parametrize("prefetch,first,replenish", [(2, 2, 2), (4, 4, 3), (8, 8, 6)])
def test_concat_map_prefetch_from_the_rail(prefetch, first, replenish):
    src, ts = one_rail(lambda p: p.concat_map(lambda x: Flowable.just(x).hide(),
                                              prefetch=prefetch), 1000)
    assert src.probe.requests == [first]
    for i in range(replenish):
        src.subscriber.on_next(i)
    assert src.probe.requests == [first, replenish]  # 75% of prefetch once mapped
    ts.assert_values(*range(replenish))


def test_concat_map_honours_the_rails_demand():
    inner = ManualSource()
    src, ts = one_rail(lambda p: p.concat_map(lambda x: inner), 3)
    src.subscriber.on_next(1)
    assert inner.requests == [3]
    inner.emit(1, 2)
    ts.request(5)
    assert inner.requests == [3, 5]


def test_concat_map_immediate_error_of_an_inner_ends_the_rail_at_once():
    inner = ManualSource()
    src, ts = one_rail(lambda p: p.concat_map(lambda x: inner))
    src.subscriber.on_next(1)
    src.subscriber.on_next(2)
    inner.emit(5)
    inner.error(KeyError("inner"))
    ts.assert_failure(KeyError, 5)
    assert src.probe.cancelled == 1


def test_concat_map_immediate_error_of_the_rail_cancels_the_inner():
    inner = ManualSource()
    src, ts = one_rail(lambda p: p.concat_map(lambda x: inner))
    src.subscriber.on_next(1)
    src.subscriber.on_error(KeyError("rail"))
    ts.assert_failure(KeyError)
    assert inner.cancels == 1


def test_concat_map_mapper_raising():
    src, ts = one_rail(lambda p: p.concat_map(lambda x: 1 // 0))
    src.subscriber.on_next(1)
    ts.assert_failure(ZeroDivisionError)
    assert src.probe.cancelled == 1


def test_concat_map_delay_error_boundary_waits_for_the_running_inner():
    inner = ManualSource()
    src, ts = one_rail(lambda p: p.concat_map_delay_error(lambda x: inner, till_the_end=False))
    src.subscriber.on_next(1)
    src.subscriber.on_next(2)
    src.subscriber.on_error(KeyError("rail"))
    ts.assert_no_errors()
    inner.emit(7)
    inner.complete()  # the boundary: the error now, the queued item 2 is not run
    ts.assert_failure(KeyError, 7)
    assert inner.subscriptions == 1


def test_concat_map_delay_error_till_the_end_runs_every_inner():
    src, ts = one_rail(lambda p: p.concat_map_delay_error(
        lambda x: Flowable.error(KeyError(x)) if x == 1 else twice(x)))
    src.subscriber.on_next(1)
    src.subscriber.on_next(2)
    src.subscriber.on_next(3)
    src.subscriber.on_complete()
    ts.assert_failure(KeyError, 20, 21, 30, 31)


def test_concat_map_delay_error_several_errors_at_the_end():
    src, ts = one_rail(lambda p: p.concat_map_delay_error(lambda x: Flowable.error(KeyError(x))))
    src.subscriber.on_next(1)
    src.subscriber.on_next(2)
    src.subscriber.on_error(ValueError("rail"))
    err = ts.errors()[0]
    assert isinstance(err, CompositeException)
    assert [type(e) for e in err.exceptions] == [KeyError, KeyError, ValueError]


def test_concat_map_cancel_reaches_rail_and_inner():
    inner = ManualSource()
    src, ts = one_rail(lambda p: p.concat_map(lambda x: inner))
    src.subscriber.on_next(1)
    ts.cancel()
    assert src.probe.cancelled == 1 and inner.cancels == 1


def test_concat_map_100_000_synchronous_inners_on_a_rail():
    n = 100_000
    ts = (Flowable.range(0, n).parallel(2).concat_map(lambda x: Flowable.range(x, 1))
          .sequential().test())
    ts.assert_complete().assert_value_count(n)


def test_concat_map_on_run_on_rails():
    for _ in range(10):
        ts = (Flowable.range(0, 300).parallel(2).run_on(Schedulers.computation())
              .concat_map(lambda x: Flowable.just(x, -x - 1).subscribe_on(Schedulers.io()))
              .sequential().test())
        ts.await_done(10).assert_complete().assert_no_errors()
        assert sorted(ts.values()) == sorted([*range(300), *(-x - 1 for x in range(300))])


def test_race_two_rails_concat_mapping_into_sequential(race_runner, race_rounds):
    for _ in range(race_rounds):
        a, b = ManualSource(), ManualSource()
        ts = ParallelFlowable.from_array(a, b).concat_map(lambda x: Flowable.just(x)) \
            .sequential().test()

        race_runner.race(rail(a, range(3)), rail(b, range(10, 13)))
        assert_two_rails_joined(ts, list(range(3)), list(range(10, 13)))


def test_concat_map_bad_arguments():
    p = Flowable.range(0, 3).parallel(2)
    for make in (p.concat_map, p.concat_map_delay_error):
        with pytest.raises(TypeError):
            make(None)  # type: ignore[arg-type]
        with pytest.raises(ValueError):
            make(twice, prefetch=0)
        with pytest.raises(TypeError):
            make(twice, prefetch="2")  # type: ignore[arg-type]
    assert "concat_map(twice)" in repr(p.concat_map(twice))


# ---------------------------------------------------------------- compose, to


def test_compose_applies_the_composer_and_the_assembly_hook():
    seen: list[str] = []
    p = Flowable.range(0, 4).parallel(2)
    plugins.set_on_parallel_assembly(lambda q: seen.append(type(q).__name__) or q)
    q = p.compose(lambda r: r.map(lambda x: x * 2))
    assert seen == ["ParallelMap", "ParallelMap"]  # the map, then compose's own hook call
    assert sorted(q.sequential().test().values()) == [0, 2, 4, 6]


def test_compose_must_return_a_parallel_flowable():
    p = Flowable.range(0, 4).parallel(2)
    with pytest.raises(TypeError, match="ParallelFlowable"):
        p.compose(lambda r: r.sequential())  # type: ignore[arg-type,return-value]
    with pytest.raises(TypeError):
        p.compose(None)  # type: ignore[arg-type]
    with pytest.raises(KeyError):
        p.compose(lambda r: {}["x"])


def test_to_converts_to_anything():
    p = Flowable.range(0, 4).parallel(2)
    assert p.to(lambda r: r.parallelism) == 2
    p.to(ParallelFlowable.sequential).test().assert_complete()
    with pytest.raises(TypeError):
        p.to(None)  # type: ignore[arg-type]
    with pytest.raises(KeyError):
        p.to(lambda r: {}["x"])


# ---------------------------------------------------------------- from_, from_array


def test_from_is_from_publisher():
    p = ParallelFlowable.from_(Flowable.range(0, 10), 3)
    assert p.parallelism == 3
    assert sorted(p.sequential().test().values()) == list(range(10))
    src = Manual()
    ParallelFlowable.from_(src, 2, prefetch=8).subscribe([TestSubscriber(), TestSubscriber()])
    assert src.probe.requests == [8]
    import os
    assert ParallelFlowable.from_(Flowable.empty()).parallelism == (os.cpu_count() or 1)


def test_from_array_is_from_publishers():
    subs = [TestSubscriber(), TestSubscriber()]
    ParallelFlowable.from_array(Flowable.just(1), Flowable.just(2, 3)).subscribe(subs)
    subs[0].assert_result(1)
    subs[1].assert_result(2, 3)
    assert "from_array(" in repr(ParallelFlowable.from_array(Flowable.just(1)))


def test_from_bad_arguments():
    with pytest.raises(TypeError):
        ParallelFlowable.from_(None)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        ParallelFlowable.from_(Flowable.just(1), 0)
    with pytest.raises(ValueError):
        ParallelFlowable.from_(Flowable.just(1), 2, prefetch=0)
    with pytest.raises(ValueError):
        ParallelFlowable.from_array()
    with pytest.raises(TypeError):
        ParallelFlowable.from_array(Flowable.just(1), None)  # type: ignore[arg-type]
