"""Flowable.group_by(..., map_factory=...): RxJava 2's groupBy(..., evictingMapFactory)."""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

import pytest

from rxpy2 import Flowable
from rxpy2.processors import PublishProcessor
from rxpy2.testing import RaceRunner
from tests.probes import Boom
from tests.probes import ManualSource


class LRU(OrderedDict):
    """A size-bounded map that reports what it drops (as a cachetools-like cache would)."""

    def __init__(self, size: int, on_evict: Any) -> None:
        super().__init__()
        self.size = size
        self.on_evict = on_evict

    def get(self, k: Any, default: Any = None) -> Any:
        if k in self:
            self.move_to_end(k)
            return self[k]
        return default

    def __setitem__(self, k: Any, v: Any) -> None:
        super().__setitem__(k, v)
        if len(self) > self.size:
            _, old = self.popitem(last=False)
            self.on_evict(old)


class Manual(dict):
    """Evicts only when the test says so (an expiring map's timer)."""

    def __init__(self, on_evict: Any) -> None:
        super().__init__()
        self.on_evict = on_evict

    def expire(self, k: Any) -> None:
        self.on_evict(self.pop(k))


def collect(f: Flowable[Any]) -> list[Any]:
    out: list[Any] = []
    f.flat_map(lambda g: g.to_list().to_flowable().map(lambda items: (g.key, items))) \
        .subscribe(out.append)
    return out


def test_size_bounded_map_completes_evicted_groups():
    out = collect(Flowable.from_iterable([1, 2, 3, 1, 4, 1])
                  .group_by(lambda x: x, map_factory=lambda ev: LRU(2, ev)))
    # 3 evicts 1, the second 1 a new group and evicts 2, 4 evicts 3; 1 stays (recently used)
    assert out == [(1, [1]), (2, [2]), (3, [3]), (4, [4]), (1, [1, 1])]


def test_eviction_completes_after_the_item_and_after_the_buffered_items():
    maps = []
    src = PublishProcessor()

    def factory(ev):
        m = Manual(ev)
        maps.append(m)
        return m

    groups = []
    outer = src.group_by(lambda x: x % 2, map_factory=factory).subscribe(groups.append)
    src.on_next(1)
    ts = groups[0].test(0)  # holds its items: nothing requested
    src.on_next(3)
    maps[0].expire(1)
    ts.assert_no_values().assert_not_complete()
    src.on_next(2)  # the next item completes the evicted groups
    ts.assert_no_values().assert_not_complete()  # its items first
    ts.request(10)
    ts.assert_result(1, 3)
    src.on_next(5)  # a new group for key 1
    assert len(groups) == 3 and groups[2].key == 1
    outer.dispose()


def test_outer_cancel_completes_evicted_groups():
    maps = []
    src = ManualSource()
    groups = []

    def factory(ev):
        maps.append(Manual(ev))
        return maps[-1]

    ts = src.group_by(lambda x: x, map_factory=factory).do_on_next(groups.append).test()
    src.emit(1)
    g1 = groups[0].test()
    maps[0].expire(1)
    ts.cancel()
    g1.assert_result(1)
    assert src.cancelled  # the outer and the only group are gone


def test_evicted_group_leaves_the_count_once():
    maps = []
    src = ManualSource()
    groups = []

    def factory(ev):
        maps.append(Manual(ev))
        return maps[-1]

    ts = src.group_by(lambda x: x, map_factory=factory).do_on_next(groups.append).test()
    src.emit(1, 2)
    g1 = groups[0].test()
    g2 = groups[1].test()
    maps[0].expire(1)
    src.emit(2)
    g1.assert_result(1)
    g1.cancel()  # after its completion: must not count the group out a second time
    ts.cancel()
    assert not src.cancelled  # group 2 is still live
    g2.assert_values(2, 2)
    g2.cancel()
    assert src.cancelled


def test_groups_evicted_at_termination_complete():
    maps = []
    src = ManualSource()
    groups = []

    def factory(ev):
        maps.append(Manual(ev))
        return maps[-1]

    src.group_by(lambda x: x, map_factory=factory).do_on_next(groups.append).test()
    src.emit(1, 2)
    g1, g2 = groups[0].test(), groups[1].test()
    maps[0].expire(1)
    src.complete()
    g1.assert_result(1)
    g2.assert_result(2)


def test_error_reaches_live_groups():
    out = []
    Flowable.just(1, 2).concat_with(Flowable.error(Boom())) \
        .group_by(lambda x: x, map_factory=lambda ev: LRU(5, ev)) \
        .subscribe(lambda g: g.subscribe(out.append, lambda e: out.append(type(e))), lambda e: None)
    assert out == [1, 2, Boom, Boom]


def test_map_factory_errors():
    Flowable.just(1).group_by(lambda x: x, map_factory=lambda ev: 1 // 0).test() \
        .assert_error(ZeroDivisionError)
    Flowable.just(1).group_by(lambda x: x, map_factory=lambda ev: None).test().assert_error(TypeError)
    with pytest.raises(TypeError):
        Flowable.just(1).group_by(lambda x: x, map_factory=3)


def test_a_fresh_map_per_subscription():
    made = []
    f = Flowable.range(1, 4).group_by(lambda x: x % 2, map_factory=lambda ev: made.append(1) or LRU(1, ev))
    assert collect(f) == [(1, [1]), (0, [2]), (1, [3]), (0, [4])]
    collect(f)
    assert len(made) == 2


def test_requests_as_without_map():
    src = ManualSource()
    src.group_by(lambda x: x, buffer_size=16, map_factory=lambda ev: LRU(2, ev)).test(0)
    assert src.requests == [16]


def test_race_eviction_vs_items():
    with RaceRunner() as r:
        for _ in range(300):
            maps = []
            src = PublishProcessor()
            out: list[Any] = []

            def factory(ev, maps=maps):
                maps.append(Manual(ev))
                return maps[-1]

            src.group_by(lambda x: 0, map_factory=factory) \
                .subscribe(lambda g, out=out: g.subscribe(out.append))
            src.on_next(1)
            r.race(lambda src=src: src.on_next(2), lambda m=maps[0]: m.expire(0) if 0 in m else None)
            src.on_next(3)
            src.on_complete()
            assert sorted(out) == [1, 2, 3]
