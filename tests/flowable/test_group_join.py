"""group_join: each left item with a unicast group of the right items of its window."""

from __future__ import annotations

import pytest
from probes import Boom
from probes import ManualSource

from rxpy2 import Flowable
from rxpy2.exceptions import MissingBackpressureException
from rxpy2.processors import PublishProcessor
from rxpy2.reactivestreams import LONG_MAX


def setup(initial_request: int = LONG_MAX):
    left, right = ManualSource(), ManualSource()
    left_ends: dict[int, PublishProcessor] = {}
    groups: dict[int, object] = {}

    def left_end(x):
        return left_ends.setdefault(x, PublishProcessor())

    def select(x, group):
        groups[x] = group.test()
        return x

    ts = left.group_join(right, left_end, lambda _: Flowable.never(), select).test(initial_request)
    return left, right, left_ends, groups, ts


def test_groups_get_the_right_items_of_their_window():
    left, right, lends, groups, ts = setup()
    right.emit("a")
    left.emit(1)
    groups[1].assert_values("a")   # open right windows replayed into the new group
    right.emit("b")
    left.emit(2)
    lends[1].on_next("close")
    groups[1].assert_result("a", "b")
    right.emit("c")
    groups[2].assert_values("a", "b", "c").assert_not_complete()
    ts.assert_values(1, 2)
    left.complete()
    right.complete()
    ts.assert_result(1, 2)
    groups[2].assert_result("a", "b", "c")


def test_right_window_closing():
    left, right = ManualSource(), ManualSource()
    rend = PublishProcessor()
    got = []
    left.group_join(right, lambda _: Flowable.never(), lambda _: rend,
                    lambda x, g: (x, g)).subscribe(got.append)
    right.emit("a")
    rend.on_complete()
    left.emit(1)
    got[0][1].test().assert_no_values()


def test_group_is_a_flowable_collected():
    ts = (Flowable.range(1, 2)
          .group_join(Flowable.just("x", "y"), lambda _: Flowable.never(),
                      lambda _: Flowable.never(), lambda a, g: g.to_list().map(lambda xs: (a, xs)))
          .flat_map(lambda s: s.to_flowable()).test())
    ts.assert_result((1, ["x", "y"]), (2, ["x", "y"]))


def test_no_demand_is_missing_backpressure():
    left, right, _, groups, ts = setup(initial_request=1)
    left.emit(1)
    left.emit(2)
    ts.assert_values(1).assert_error(MissingBackpressureException)
    groups[1].assert_error(MissingBackpressureException)
    assert left.cancelled and right.cancelled


def test_error_goes_to_the_open_groups():
    left, right, _, groups, ts = setup()
    left.emit(1)
    right.error(Boom())
    ts.assert_failure(Boom, 1)
    groups[1].assert_failure(Boom)
    assert left.cancelled


def test_selectors_failing():
    ts = Flowable.just(1).group_join(Flowable.never(), lambda _: Flowable.never(),
                                     lambda _: Flowable.never(), lambda a, g: 1 / 0).test()
    ts.assert_failure(ZeroDivisionError)
    ts = Flowable.just(1).group_join(Flowable.never(), lambda _: Flowable.never(),
                                     lambda _: Flowable.never(), lambda a, g: None).test()
    ts.assert_failure(TypeError)
    ts = Flowable.never().group_join(Flowable.just(1), lambda _: Flowable.never(),
                                     lambda _: None, lambda a, g: a).test()
    ts.assert_failure(TypeError)


def test_cancel():
    left, right, lends, groups, ts = setup()
    left.emit(1)
    ts.cancel()
    assert left.cancelled and right.cancelled and not lends[1].has_subscribers()
    right.emit("a")
    groups[1].assert_no_values()


def test_deep_synchronous_streams():
    n = 100_000
    ts = Flowable.just(0).group_join(Flowable.range(0, n), lambda _: Flowable.never(),
                                     lambda _: Flowable.empty(),
                                     lambda a, g: g).flat_map(lambda g: g).test()
    assert len(ts.values()) == n
    ts.assert_complete()


def test_bad_arguments():
    f = Flowable.just(1)
    never = Flowable.never()
    with pytest.raises(TypeError):
        f.group_join(None, lambda _: never, lambda _: never, lambda a, g: a)
    with pytest.raises(TypeError):
        f.group_join(never, lambda _: never, lambda _: never, 3)


def test_race_left_and_right_on_two_threads(race_runner, race_rounds):
    for _ in range(race_rounds // 2):
        left, right = ManualSource(), ManualSource()
        ts = (left.group_join(right, lambda _: Flowable.never(), lambda _: Flowable.never(),
                              lambda a, g: g.to_list().map(lambda xs, a=a: (a, sorted(xs))))
              .flat_map(lambda s: s.to_flowable()).test())
        race_runner.race(lambda left=left: left.emit(1, 2),
                         lambda right=right: right.emit("a", "b", "c"))
        race_runner.race(left.complete, right.complete)
        ts.assert_complete().assert_no_errors()
        assert sorted(ts.values()) == [(1, ["a", "b", "c"]), (2, ["a", "b", "c"])]
