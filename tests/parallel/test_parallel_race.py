"""ParallelFlowable races: rails requesting vs the dispatcher, the join's drain vs rails'
``on_next`` from two threads, cancellation; nothing lost, duplicated or after a terminal."""

from __future__ import annotations

import pytest
from probes import ManualSource
from probes import assert_two_rails_joined
from probes import rail

from rxpy2 import Flowable
from rxpy2 import ParallelFlowable
from rxpy2.schedulers import Schedulers
from rxpy2.testing import TestSubscriber

pytestmark = pytest.mark.usefixtures("shutdown_schedulers")


def add(a: int, b: int) -> int:
    return a + b


def assert_split(subs: list[TestSubscriber], expected: list[int]) -> None:
    """Every item went to exactly one rail, each rail in source order, all rails complete."""
    got = [v for ts in subs for v in ts.values()]
    assert sorted(got) == expected
    for ts in subs:
        assert ts.values() == sorted(ts.values())
        ts.assert_complete().assert_no_errors().assert_protocol_ok()


# ---------------------------------------------------------------- the dispatcher


def test_race_two_rails_requesting(race_runner, race_rounds):
    for _ in range(race_rounds):
        subs = [TestSubscriber(0), TestSubscriber(0)]
        Flowable.range(0, 10).hide().parallel(2).subscribe(subs)  # the 10 items wait

        def rail(ts):
            def run():
                for _ in range(5):
                    ts.request(1)
            return run

        race_runner.race(rail(subs[0]), rail(subs[1]))
        assert [ts.value_count() for ts in subs] == [5, 5]
        assert_split(subs, list(range(10)))


def test_race_rails_requesting_vs_upstream_on_next(race_runner, race_rounds):
    for _ in range(race_rounds):
        src = ManualSource()
        subs = [TestSubscriber(0), TestSubscriber(0)]
        src.parallel(2).subscribe(subs)

        def consume(subs=subs):
            for _ in range(4):
                subs[0].request(1)
                subs[1].request(1)

        race_runner.race(rail(src, range(8)), consume)
        assert [ts.value_count() for ts in subs] == [4, 4]
        assert_split(subs, list(range(8)))


def test_race_rail_cancel_vs_rail_cancel(race_runner, race_rounds):
    for _ in range(race_rounds):
        src = ManualSource()
        subs = [TestSubscriber(), TestSubscriber()]
        src.parallel(2).subscribe(subs)
        race_runner.race(subs[0].cancel, subs[1].cancel)
        assert src.cancels == 1


def test_race_cancel_all_vs_on_next(race_runner, race_rounds):
    for _ in range(race_rounds):
        src = ManualSource()
        ts = src.parallel(2).sequential().test()

        race_runner.race(rail(src, range(6), complete=False), ts.cancel)
        assert src.cancels == 1
        n = ts.value_count()
        assert sorted(ts.values()) == list(range(n))  # a prefix, nothing twice
        ts.assert_not_terminated()


# ---------------------------------------------------------------- the join (sequential)


def test_race_two_rails_on_next_into_sequential(race_runner, race_rounds):
    for _ in range(race_rounds):
        a, b = ManualSource(), ManualSource()
        ts = ParallelFlowable.from_publishers(a, b).sequential().test()
        race_runner.race(rail(a, range(0, 5)), rail(b, range(10, 15)))
        assert_two_rails_joined(ts, range(0, 5), range(10, 15))


def test_race_sequential_drain_vs_rail_on_next(race_runner, race_rounds):
    for _ in range(race_rounds):
        a, b = ManualSource(), ManualSource()
        ts = ParallelFlowable.from_publishers(a, b).sequential(prefetch=16).test(0)
        b.emit(10, 11, 12)  # rail b waits in its queue
        b.complete()

        def consume(ts=ts):
            for _ in range(7):
                ts.request(1)

        race_runner.race(rail(a, (0, 1, 2, 3)), consume)
        assert_two_rails_joined(ts, [0, 1, 2, 3], [10, 11, 12])


def test_race_sequential_delay_error_two_rails(race_runner, race_rounds):
    for _ in range(race_rounds):
        a, b = ManualSource(), ManualSource()
        ts = ParallelFlowable.from_publishers(a, b).sequential_delay_error().test()
        err = ValueError("b")
        race_runner.race(rail(a, (1, 2)), rail(b, (3,), error=err))
        ts.assert_protocol_ok()
        assert ts.errors() == [err]
        assert sorted(ts.values()) == [1, 2, 3]


def test_race_sequential_request_vs_cancel(race_runner, race_rounds):
    for _ in range(race_rounds):
        a, b = ManualSource(), ManualSource()
        ts = ParallelFlowable.from_publishers(a, b).sequential().test(0)
        a.emit(0, 1, 2)
        b.emit(10, 11)
        race_runner.race(lambda ts=ts: ts.request(5), ts.cancel)
        assert a.cancelled and b.cancelled
        n = ts.value_count()
        assert len(set(ts.values())) == n
        ts.request(5)
        assert ts.value_count() == n  # nothing after the cancel
        ts.assert_not_terminated()


# ---------------------------------------------------------------- reduce / sorted


def test_race_reduce_rails_completing(race_runner, race_rounds):
    for _ in range(race_rounds):
        a, b = ManualSource(), ManualSource()
        ts = ParallelFlowable.from_publishers(a, b).reduce(add).test()

        race_runner.race(rail(a, (1, 2)), rail(b, (3, 4)))
        ts.assert_result(10)


def test_race_sorted_rails_vs_request(race_runner, race_rounds):
    for _ in range(race_rounds):
        a, b = ManualSource(), ManualSource()
        ts = ParallelFlowable.from_publishers(a, b).sorted().test(0)
        b.emit(5, 1)
        b.complete()

        def consume(ts=ts):
            for _ in range(5):
                ts.request(1)

        race_runner.race(rail(a, (4, 2, 3)), consume)
        ts.assert_result(1, 2, 3, 4, 5)


# ---------------------------------------------------------------- run_on


def test_race_run_on_request_vs_on_next_real_worker(race_runner, race_rounds):
    for _ in range(race_rounds // 4):
        src = ManualSource()
        subs = [TestSubscriber(0), TestSubscriber(0)]
        src.parallel(2).run_on(Schedulers.single(), prefetch=8).subscribe(subs)

        def consume(subs=subs):
            for _ in range(3):
                subs[0].request(1)
                subs[1].request(1)

        race_runner.race(rail(src, range(6)), consume)
        for ts in subs:
            ts.await_done(5)
        assert_split(subs, list(range(6)))
