"""group_by: groups, request pattern, cancellation, abandoned groups, errors, races."""

from __future__ import annotations

from typing import Any

import pytest
from _window_probes import WindowCollector
from probes import ManualSource
from probes import RequestOneInOnNext
from probes import Spy
from probes import boom
from probes import failing

from rxpy2 import Flowable
from rxpy2 import GroupedFlowable
from rxpy2.exceptions import ProtocolViolationException
from rxpy2.grouped_flowable import GroupedFlowable as GroupedFlowableFromPackage
from rxpy2.reactivestreams import LONG_MAX


class GroupCollector(WindowCollector):
    """The outer subscriber: subscribes a ``TestSubscriber(group_request)`` to each group
    inside ``on_next`` (so no group is abandoned); ``groups`` is ``windows``."""

    def __init__(self, outer_request: int = LONG_MAX, group_request: int = LONG_MAX) -> None:
        super().__init__(outer_request, group_request)
        self.groups: list[GroupedFlowable[Any, Any]] = self.windows  # type: ignore[assignment]

    def keys(self) -> list[Any]:
        return [g.key for g in self.groups]

    def values(self) -> dict[Any, list[Any]]:  # type: ignore[override]
        return {g.key: ts.values() for g, ts in zip(self.groups, self.subs, strict=True)}


def collect(f: Flowable[Any], **kw: Any) -> GroupCollector:
    c = GroupCollector(**kw)
    f.subscribe(c)
    return c


def needs_flat_map() -> None:
    pytest.importorskip("rxpy2._internal.operators.flowable.flowable_flat_map")


# ------------------------------------------------------------------------- values


def test_groups_and_their_values():
    c = collect(Flowable.range(0, 10).group_by(lambda x: x % 3))
    assert c.keys() == [0, 1, 2]
    assert c.values() == {0: [0, 3, 6, 9], 1: [1, 4, 7], 2: [2, 5, 8]}
    assert c.completed == 1 and not c.errors
    for ts in c.subs:
        ts.assert_complete().assert_no_errors()


def test_value_selector():
    c = collect(Flowable.range(0, 6).group_by(lambda x: x % 2, lambda x: x * 10))
    assert c.values() == {0: [0, 20, 40], 1: [10, 30, 50]}


def test_grouped_flowable_is_exported_and_keyed():
    assert GroupedFlowable is GroupedFlowableFromPackage
    c = collect(Flowable.just("a").group_by(str.upper))
    g = c.groups[0]
    assert isinstance(g, GroupedFlowable) and isinstance(g, Flowable)
    assert g.key == "A"
    with pytest.raises(AttributeError):
        g.key = "B"  # type: ignore[misc]


def test_none_is_a_key():
    c = collect(Flowable.range(0, 6).group_by(lambda x: None if x % 2 else "even"))
    assert c.keys() == ["even", None]
    assert c.values() == {"even": [0, 2, 4], None: [1, 3, 5]}


def test_empty_source_completes_without_groups():
    c = collect(Flowable.empty().group_by(lambda x: x))
    assert c.groups == [] and c.completed == 1


def test_second_subscriber_of_a_group_gets_an_error():
    c = collect(Flowable.range(0, 3).group_by(lambda x: 0))
    late = c.groups[0].test()
    late.assert_error(ProtocolViolationException).assert_no_values()
    c.subs[0].assert_result(0, 1, 2)


def test_many_groups():
    c = collect(Flowable.range(0, 10_000).group_by(lambda x: x % 1000))
    assert len(c.groups) == 1000
    assert all(ts.values() == list(range(k, 10_000, 1000)) for k, ts in zip(c.keys(), c.subs, strict=True))
    assert c.completed == 1


def test_deep_synchronous_stream():
    spy = Spy(Flowable.range(0, 100_000))
    c = collect(spy.group_by(lambda x: x % 3))
    assert [len(ts.values()) for ts in c.subs] == [33_334, 33_333, 33_333]
    assert c.completed == 1
    # buffer_size first, then one per consumed item and one per emitted group
    assert spy.requests[0] == 128
    assert sum(spy.requests) == 128 + 100_000 + 3


# ------------------------------------------------------------------------- requests


def test_first_request_is_buffer_size():
    src = ManualSource()
    src.group_by(lambda x: x).test(0)
    assert src.requests == [128]
    src2 = ManualSource()
    src2.group_by(lambda x: x, buffer_size=7).test(0)
    assert src2.requests == [7]


def test_replenishes_as_group_items_are_consumed():
    src = ManualSource()
    c = collect(src.group_by(lambda x: x % 2, buffer_size=4), group_request=0)
    src.emit(0, 2, 4)
    assert c.keys() == [0]
    assert src.requests == [4, 1]  # the emitted group
    c.subs[0].request(2)
    c.subs[0].assert_values(0, 2)
    assert src.requests == [4, 1, 2]
    c.subs[0].request(1)
    assert src.requests == [4, 1, 2, 1]
    c.subs[0].assert_values(0, 2, 4)


def test_groups_wait_for_outer_demand_and_hold_their_items():
    src = ManualSource()
    c = collect(src.group_by(lambda x: x % 3, buffer_size=4), outer_request=0)
    src.emit(0, 1, 3)
    assert c.groups == [] and src.requests == [4]
    c.s.request(1)  # type: ignore[union-attr]
    assert c.keys() == [0]
    c.subs[0].assert_values(0, 3)
    assert src.requests == [4, 2, 1]  # two items consumed (one batch), one group emitted
    c.s.request(5)  # type: ignore[union-attr]
    assert c.keys() == [0, 1]
    c.subs[1].assert_values(1)
    src.complete()
    assert c.completed == 1
    c.subs[0].assert_complete()
    c.subs[1].assert_complete()


def test_unbounded_outer_and_groups_request_pattern():
    src = ManualSource()
    collect(src.group_by(lambda x: x % 2, buffer_size=16))
    src.emit(0)
    assert src.requests == [16, 1, 1]  # the item consumed, then the group emitted
    src.emit(2, 1)
    assert src.requests == [16, 1, 1, 1, 1, 1]


def test_bad_request_to_a_group_is_reported(plugin_errors):
    c = collect(Flowable.just(1).group_by(lambda x: x), group_request=0)
    c.groups[0].state.request(0)  # type: ignore[attr-defined]
    assert len(plugin_errors) == 1 and "3.9" in str(plugin_errors[0])


# ------------------------------------------------------------------------- errors


def test_upstream_error_reaches_every_group_and_outer():
    c = collect(failing(0, 1, 2).group_by(lambda x: x % 2))
    assert c.keys() == [0, 1]
    c.subs[0].assert_failure(ValueError, 0, 2)
    c.subs[1].assert_failure(ValueError, 1)
    assert len(c.errors) == 1 and isinstance(c.errors[0], ValueError)


def test_key_selector_raising_cancels_and_errors_everyone():
    src = ManualSource()
    c = collect(src.group_by(lambda x: boom() if x == 5 else x % 2))
    src.emit(0, 1, 5)
    assert src.cancelled
    assert len(c.errors) == 1 and isinstance(c.errors[0], ZeroDivisionError)
    c.subs[0].assert_failure(ZeroDivisionError, 0)
    c.subs[1].assert_failure(ZeroDivisionError, 1)
    src.emit(2)  # after the failure: dropped
    c.subs[0].assert_values(0)


def test_value_selector_raising():
    src = ManualSource()
    c = collect(src.group_by(lambda x: 0, lambda x: boom() if x == 2 else x))
    src.emit(1, 2)
    assert src.cancelled
    c.subs[0].assert_failure(ZeroDivisionError, 1)
    assert isinstance(c.errors[0], ZeroDivisionError)


def test_value_selector_returning_none_is_a_type_error():
    src = ManualSource()
    c = collect(src.group_by(lambda x: x % 2, lambda x: None if x == 3 else x))
    src.emit(0, 1, 3)
    assert src.cancelled
    c.subs[0].assert_failure(TypeError, 0)
    c.subs[1].assert_failure(TypeError, 1)
    assert isinstance(c.errors[0], TypeError)


def test_unhashable_key_is_an_error():
    c = collect(Flowable.just(1).group_by(lambda x: [x]))
    assert isinstance(c.errors[0], TypeError) and c.groups == []


def test_error_cuts_ahead_of_queued_groups():
    src = ManualSource()
    c = collect(src.group_by(lambda x: x), outer_request=0)
    src.emit(1, 2)
    src.error(ValueError("x"))
    assert c.groups == [] and isinstance(c.errors[0], ValueError)


def test_delay_error_emits_queued_groups_first():
    src = ManualSource()
    c = collect(src.group_by(lambda x: x, delay_error=True), outer_request=0)
    src.emit(1, 2)
    src.error(ValueError("x"))
    assert c.groups == [] and c.errors == []
    c.s.request(1)  # type: ignore[union-attr]
    assert c.keys() == [1] and c.errors == []
    c.subs[0].assert_failure(ValueError, 1)
    c.s.request(1)  # type: ignore[union-attr]
    assert c.keys() == [1, 2] and isinstance(c.errors[0], ValueError)


def test_group_delay_error_keeps_items_before_the_error():
    src = ManualSource()
    c = collect(src.group_by(lambda x: 0, delay_error=True), group_request=0)
    src.emit(1, 2)
    src.error(ValueError("x"))
    c.subs[0].assert_no_values().assert_no_errors()
    c.subs[0].request(5)
    c.subs[0].assert_failure(ValueError, 1, 2)


def test_group_without_delay_error_drops_items_at_the_error():
    src = ManualSource()
    c = collect(src.group_by(lambda x: 0), group_request=0)
    src.emit(1, 2)
    src.error(ValueError("x"))
    c.subs[0].assert_failure(ValueError)


def test_late_upstream_error_goes_to_plugins(plugin_errors):
    src = ManualSource()
    collect(src.group_by(lambda x: x))
    src.complete()
    src.error(ValueError("late"))
    assert [type(e) for e in plugin_errors.causes()] == [ValueError]


# ------------------------------------------------------------------------- cancellation


def test_outer_cancel_keeps_live_groups_running():
    src = ManualSource()
    c = collect(src.group_by(lambda x: x % 3, buffer_size=8))
    src.emit(0, 1)
    c.cancel()
    assert not src.cancelled
    src.emit(3, 4)
    assert c.values() == {0: [0, 3], 1: [1, 4]}
    before = list(src.requests)
    src.emit(2)  # a new key after the outer was cancelled: dropped, and replenished
    assert c.keys() == [0, 1]
    assert src.requests == before + [1]
    c.subs[0].cancel()
    assert not src.cancelled
    c.subs[1].cancel()
    assert src.cancels == 1


def test_cancel_groups_then_outer():
    src = ManualSource()
    c = collect(src.group_by(lambda x: x % 2))
    src.emit(0, 1)
    c.subs[0].cancel()
    c.subs[1].cancel()
    assert not src.cancelled
    c.cancel()
    assert src.cancels == 1


def test_outer_cancel_without_groups_cancels_upstream():
    src = ManualSource()
    src.group_by(lambda x: x).test().cancel()
    assert src.cancels == 1


def test_cancelled_group_is_recreated_by_a_later_item():
    src = ManualSource()
    c = collect(src.group_by(lambda x: x % 2))
    src.emit(0, 2)
    c.subs[0].cancel()
    src.emit(4, 6)
    assert c.keys() == [0, 0]
    c.subs[0].assert_values(0, 2)
    c.subs[1].assert_values(4, 6)
    assert c.groups[0] is not c.groups[1]


def test_group_cancel_replenishes_its_buffered_items():
    src = ManualSource()
    c = collect(src.group_by(lambda x: 0, buffer_size=4), group_request=0)
    src.emit(1, 2, 3)
    assert src.requests == [4, 1]
    c.subs[0].cancel()
    assert src.requests == [4, 1, 3]


def test_group_cancelled_inside_its_on_next_makes_way_for_a_new_group():
    class CancelAfterFirst(GroupCollector):
        def on_next(self, g: Any) -> None:
            r = RequestOneInOnNext(stop_after=1)
            self.groups.append(g)
            self.subs.append(r)  # type: ignore[arg-type]
            g.subscribe(r)

    src = ManualSource()
    c = CancelAfterFirst()
    src.group_by(lambda x: x % 2, buffer_size=4).subscribe(c)
    src.emit(0, 2, 1, 4)
    assert c.keys() == [0, 0, 1, 0]
    assert [r.values for r in c.subs] == [[0], [2], [1], [4]]  # type: ignore[attr-defined]
    assert not src.cancelled
    c.cancel()
    assert src.cancels == 1  # every group is gone already


def test_outer_cancel_cancels_the_groups_it_never_emitted():
    src = ManualSource()
    c = collect(src.group_by(lambda x: x, buffer_size=8), outer_request=0)
    src.emit(1, 2, 2)
    c.cancel()
    # both queued groups were cancelled: their 3 items replenished, the upstream cancelled
    assert src.requests == [8, 1, 2]
    assert src.cancels == 1


def test_groups_pass_through_map_on_the_outer():
    c = collect(Flowable.range(0, 9).group_by(lambda x: x % 3).map(lambda g: g))
    assert c.values() == {0: [0, 3, 6], 1: [1, 4, 7], 2: [2, 5, 8]}


def test_take_on_the_outer_keeps_groups():
    class TakeTwoGroups(GroupCollector):
        def on_next(self, g: Any) -> None:
            super().on_next(g)
            if len(self.groups) == 2:
                self.cancel()

    src = ManualSource()
    c = TakeTwoGroups()
    src.group_by(lambda x: x % 3).subscribe(c)
    src.emit(0, 1, 2, 3, 4, 5)
    assert c.keys() == [0, 1]
    assert c.values() == {0: [0, 3], 1: [1, 4]}
    assert not src.cancelled
    for ts in c.subs:
        ts.cancel()
    assert src.cancels == 1


# ------------------------------------------------------------------------- abandoned groups
# RxJava 3's rule, kept behind ``abandon_unsubscribed=True``; the default (RxJava 2: a
# late subscriber gets every item) is in test_group_by_and_skip_requests.py.


def test_groups_nobody_subscribes_to_do_not_hang_the_stream():
    spy = Spy(Flowable.range(0, 10_000))
    ts = spy.group_by(lambda x: x % 10, abandon_unsubscribed=True).test()
    # each group was abandoned at once: the next item of its key made a new group
    ts.assert_value_count(10_000).assert_complete()
    assert sum(spy.requests) == 128 + 10_000 + 10_000


def test_late_subscriber_of_an_abandoned_group_gets_its_items_then_completion():
    src = ManualSource()
    ts = src.group_by(lambda x: x % 2, abandon_unsubscribed=True).test()
    src.emit(0)
    g = ts.values()[0]
    src.emit(2)  # a new group: the first was abandoned
    assert [x.key for x in ts.values()] == [0, 0]
    g.test().assert_result(0)
    ts.values()[1].test().assert_result(2)
    g.test().assert_error(ProtocolViolationException)


def test_abandoned_group_replenishes_once_even_when_consumed_late():
    src = ManualSource()
    ts = src.group_by(lambda x: 0, buffer_size=4, abandon_unsubscribed=True).test()
    src.emit(7)
    assert src.requests == [4, 1, 1]  # the group emitted, its item replenished at abandonment
    ts.values()[0].test().assert_result(7)
    assert src.requests == [4, 1, 1]  # consuming it later asks for nothing more


def test_unsubscribed_group_does_not_starve_the_others():
    class SkipKeyZero(GroupCollector):
        def on_next(self, g: Any) -> None:
            if g.key != 0:
                super().on_next(g)

    c = SkipKeyZero()
    Flowable.range(0, 1000).group_by(lambda x: x % 3, buffer_size=4,
                                     abandon_unsubscribed=True).subscribe(c)
    assert c.completed == 1
    got = sorted(v for ts in c.subs for v in ts.values())
    assert got == [x for x in range(1000) if x % 3]


def test_flat_map_skipping_a_group():
    needs_flat_map()
    ts = Flowable.range(0, 1000).group_by(lambda x: x % 3, abandon_unsubscribed=True) \
        .flat_map(lambda g: g if g.key != 0 else Flowable.empty()).test()
    ts.assert_complete().assert_no_errors()
    assert sorted(ts.values()) == [x for x in range(1000) if x % 3]


def test_flat_map_take_one_per_group():
    needs_flat_map()
    ts = Flowable.range(0, 10_000).group_by(lambda x: x % 10).flat_map(lambda g: g.take(1)).test()
    ts.assert_complete()
    assert sorted(ts.values()) == list(range(10_000))


def test_flat_map_thousand_groups_to_list():
    # every group must be subscribed before the source ends (to_list waits for it): a
    # max_concurrency below the number of groups hangs, as it does in RxJava 2
    needs_flat_map()
    ts = Flowable.range(0, 10_000).group_by(lambda x: x % 1000) \
        .flat_map(lambda g: g.to_list().to_flowable(), max_concurrency=1000).test()
    ts.assert_complete().assert_value_count(1000)
    assert sorted(map(tuple, ts.values())) == [tuple(range(k, 10_000, 1000)) for k in range(1000)]


# ------------------------------------------------------------------------- assembly


def test_bad_arguments():
    f = Flowable.range(0, 3)
    with pytest.raises(TypeError):
        f.group_by(None)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        f.group_by(lambda x: x, 5)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        f.group_by(lambda x: x, buffer_size=0)


# ------------------------------------------------------------------------- races


def test_race_group_cancel_vs_item_of_its_key(race_runner, race_rounds):
    for _ in range(race_rounds):
        src = ManualSource()
        c = collect(src.group_by(lambda x: x % 2, buffer_size=16))
        src.emit(0)
        old = c.subs[0]
        race_runner.race(old.cancel, lambda src=src: src.emit(2))
        in_old = 2 in old.values()
        in_new = len(c.subs) == 2 and c.subs[1].values() == [2]
        assert len(c.subs) <= 2
        assert not (in_old and in_new)
        if len(c.subs) == 2:
            assert in_new and c.groups[1].key == 0
        # never lost silently: consumed by either group (plus the new group's emission),
        # or discarded by the cancelled group and replenished
        assert sum(src.requests) - (16 + 1 + 1) == (2 if in_new else 1)
        assert not src.cancelled


def test_race_outer_cancel_vs_group_cancel(race_runner, race_rounds):
    for _ in range(race_rounds):
        src = ManualSource()
        c = collect(src.group_by(lambda x: x % 2))
        src.emit(0)
        race_runner.race(c.cancel, c.subs[0].cancel)
        assert src.cancels == 1


def test_race_outer_request_vs_new_groups(race_runner, race_rounds):
    for _ in range(race_rounds):
        src = ManualSource()
        c = collect(src.group_by(lambda x: x), outer_request=0)

        def produce(src=src):
            src.emit(0, 1, 2, 3)
            src.complete()

        def consume(c=c):
            for _ in range(4):
                c.s.request(1)

        race_runner.race(produce, consume)
        assert c.keys() == [0, 1, 2, 3] and c.completed == 1
        for k, ts in enumerate(c.subs):
            ts.assert_result(k)


def test_race_abandonment_vs_items_of_the_key(race_runner, race_rounds):
    for _ in range(race_rounds):
        src = ManualSource()
        ts = src.group_by(lambda x: 0, buffer_size=16, abandon_unsubscribed=True).test(0)

        def produce(src=src):
            src.emit(1, 2, 3)

        race_runner.race(produce, lambda ts=ts: ts.request(LONG_MAX))
        src.complete()
        groups = ts.values()
        got = [v for g in groups for v in g.test().values()]
        assert got == [1, 2, 3]
        # every item replenished exactly once, every emitted group once
        assert sum(src.requests) == 16 + 3 + len(groups)
