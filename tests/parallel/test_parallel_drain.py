"""The Drain-based serialization of the parallel operators, raced from two threads
(rails emitting vs requests/cancels): nothing lost, duplicated, over-requested or
signalled after a terminal event or a cancel. Run under both ``RXPY2_DRAIN`` backends."""

from __future__ import annotations

import pytest
from probes import ManualSource
from probes import assert_two_rails_joined
from probes import rail

from rxpy2 import Completable
from rxpy2 import Flowable
from rxpy2 import ParallelFlowable
from rxpy2.disposables import Disposables
from rxpy2.schedulers import Schedulers
from rxpy2.testing import TestSubscriber

pytestmark = pytest.mark.usefixtures("shutdown_schedulers")


def add(a: int, b: int) -> int:
    return a + b


# ---------------------------------------------------------------- from_publisher (parallel)


def test_race_rail_requests_vs_upstream_items_exact(race_runner, race_rounds):
    """Both rails request one at a time while the source emits: each rail gets exactly
    what it asked for, every item once, the source asked for no more than its prefetch."""
    for _ in range(race_rounds):
        src = ManualSource()
        subs = [TestSubscriber(0), TestSubscriber(0)]
        src.parallel(2, prefetch=4).subscribe(subs)

        def consume(subs=subs):
            for _ in range(3):
                subs[0].request(1)
                subs[1].request(1)

        race_runner.race(rail(src, range(4), complete=False), consume)
        got = sorted(v for ts in subs for v in ts.values())
        assert got == list(range(len(got)))  # every item once, from the front
        assert len(got) == 4  # 6 requested, 4 emitted: all delivered
        for ts in subs:
            assert ts.value_count() <= 3
            ts.assert_protocol_ok().assert_not_terminated()
        src.emit(4, 5)  # within the replenished prefetch
        src.complete()
        assert sorted(v for ts in subs for v in ts.values()) == list(range(6))
        for ts in subs:
            ts.assert_complete().assert_protocol_ok()


def test_race_last_rail_cancel_vs_upstream_items(race_runner, race_rounds):
    for _ in range(race_rounds):
        src = ManualSource()
        subs = [TestSubscriber(), TestSubscriber()]
        src.parallel(2).subscribe(subs)
        subs[0].cancel()
        race_runner.race(rail(src, range(20), complete=False), subs[1].cancel)
        assert src.cancels == 1
        n = subs[1].value_count()
        subs[1].request(10)
        src.emit(100)
        assert subs[1].value_count() == n  # nothing after the cancel returned and settled
        assert len(set(subs[1].values())) == n
        subs[1].assert_not_terminated()


# ---------------------------------------------------------------- sequential


def test_race_sequential_rails_vs_single_requests(race_runner, race_rounds):
    for _ in range(race_rounds):
        a, b = ManualSource(), ManualSource()
        ts = ParallelFlowable.from_publishers(a, b).sequential(prefetch=16).test(0)

        def both(a=a, b=b):
            rail(a, range(0, 6))()
            rail(b, range(10, 16))()

        def requester(ts=ts):
            for _ in range(12):
                ts.request(1)

        race_runner.race(both, requester)
        assert_two_rails_joined(ts, range(0, 6), range(10, 16))


def test_race_sequential_rail_error_vs_other_rail_items(race_runner, race_rounds):
    for _ in range(race_rounds):
        a, b = ManualSource(), ManualSource()
        ts = ParallelFlowable.from_publishers(a, b).sequential().test()
        race_runner.race(rail(a, (1, 2), error=RuntimeError("boom")), rail(b, range(10, 20)))
        ts.assert_error(RuntimeError).assert_protocol_ok()
        assert len(ts.errors()) == 1
        assert len(set(ts.values())) == ts.value_count()
        assert b.cancelled


# ---------------------------------------------------------------- sorted / reduce


def test_race_sorted_rail_lists_vs_cancel(race_runner, race_rounds):
    for _ in range(race_rounds):
        a, b = ManualSource(), ManualSource()
        ts = ParallelFlowable.from_publishers(a, b).sorted().test()
        race_runner.race(rail(a, range(5, 0, -1)), ts.cancel)
        b.emit(7, 6)
        b.complete()
        values = ts.values()
        assert values == sorted(values)
        assert ts.completions() in (0, 1)
        if ts.completions():
            assert values == [1, 2, 3, 4, 5, 6, 7]
        ts.assert_no_errors().assert_protocol_ok()


def test_race_sorted_two_rails_lists(race_runner, race_rounds):
    for _ in range(race_rounds):
        a, b = ManualSource(), ManualSource()
        ts = ParallelFlowable.from_publishers(a, b).sorted().test(3)
        race_runner.race(rail(a, range(10, 0, -2)), rail(b, range(9, 0, -2)))
        ts.assert_values(1, 2, 3)
        ts.request(100)
        ts.assert_result(*range(1, 11))


def test_race_reduce_three_rails(race_runner, race_rounds):
    for _ in range(race_rounds):
        a, b, c = ManualSource(), ManualSource(), ManualSource()
        ts = ParallelFlowable.from_publishers(a, b, c).reduce(add).test()

        def two(a=a, c=c):
            rail(a, range(1, 4))()
            rail(c, range(100, 102))()

        race_runner.race(two, rail(b, range(10, 13)))
        ts.assert_result(1 + 2 + 3 + 10 + 11 + 12 + 100 + 101)


def test_race_reduce_rails_vs_cancel(race_runner, race_rounds):
    for _ in range(race_rounds):
        a, b = ManualSource(), ManualSource()
        ts = ParallelFlowable.from_publishers(a, b).reduce(add).test()
        a.emit(1)
        a.complete()
        race_runner.race(rail(b, range(2, 4)), ts.cancel)
        assert ts.values() in ([], [6])
        ts.assert_no_errors().assert_protocol_ok()


def test_race_reduce_failing_reducer_vs_rail(race_runner, race_rounds):
    def bad(x: int, y: int) -> int:
        if x + y > 100:
            raise ValueError("too big")
        return x + y

    for _ in range(race_rounds):
        a, b = ManualSource(), ManualSource()
        ts = ParallelFlowable.from_publishers(a, b).reduce(bad).test()
        race_runner.race(rail(a, range(60, 61)), rail(b, range(70, 71)))
        ts.assert_error(ValueError).assert_no_values().assert_protocol_ok()


# ---------------------------------------------------------------- run_on


def test_race_run_on_trampoline_rail_vs_requests(race_runner, race_rounds):
    """run_on(trampoline): the drain runs on whichever thread signals; both threads drive it."""
    for _ in range(race_rounds):
        src = ManualSource()
        ts = src.parallel(1).run_on(Schedulers.trampoline()).sequential().test(0)

        def requester(ts=ts):
            for _ in range(10):
                ts.request(1)

        race_runner.race(rail(src, range(10)), requester)
        ts.assert_result(*range(10)).assert_protocol_ok()


def test_race_run_on_cancel_vs_items(race_runner, race_rounds):
    for _ in range(race_rounds):
        src = ManualSource()
        ts = src.parallel(1).run_on(Schedulers.trampoline()).sequential().test()
        race_runner.race(rail(src, range(50), complete=False), ts.cancel)
        n = ts.value_count()
        assert ts.values() == list(range(n))
        ts.assert_not_terminated()


def test_run_on_real_worker_many_items_in_order():
    ts = (Flowable.range(0, 2000).parallel(4).run_on(Schedulers.computation())
          .sequential().test())
    ts.await_done(10.0)
    ts.assert_complete().assert_no_errors().assert_protocol_ok()
    assert sorted(ts.values()) == list(range(2000))


# ---------------------------------------------------------------- completable concat


class ManualCompletable(Completable):
    """Its observer's ``on_complete`` comes from :meth:`complete`; counts subscriptions."""

    def __init__(self) -> None:
        self.observer = None
        self.subscriptions = 0

    def subscribe_actual(self, observer) -> None:
        self.subscriptions += 1
        self.observer = observer
        observer.on_subscribe(Disposables.empty())

    def complete(self) -> None:
        self.observer.on_complete()


def test_race_completable_concat_completion_vs_dispose(race_runner, race_rounds):
    for _ in range(race_rounds):
        sources = [ManualCompletable() for _ in range(3)]
        to = Completable.concat(sources).test()
        race_runner.race(sources[0].complete, to.dispose)
        assert sources[0].subscriptions == 1
        assert sources[1].subscriptions in (0, 1)
        if sources[1].subscriptions:
            sources[1].complete()
        assert sources[2].subscriptions == 0  # nothing subscribed once dispose settled
        to.assert_not_complete()


def test_race_completable_concat_completions_from_two_threads(race_runner, race_rounds):
    for _ in range(race_rounds):
        sources = [ManualCompletable() for _ in range(4)]
        to = Completable.concat(sources).test()

        def first_two(sources=sources):
            sources[0].complete()
            sources[1].complete()

        def last_two(sources=sources):
            while sources[2].observer is None:
                pass
            sources[2].complete()
            while sources[3].observer is None:
                pass
            sources[3].complete()

        race_runner.race(first_two, last_two)
        to.assert_complete()
        assert [c.subscriptions for c in sources] == [1, 1, 1, 1]
