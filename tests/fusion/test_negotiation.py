"""Micro fusion is negotiated, not just supported: the mode each stage asked for and got.

Each test puts :class:`probes.FusionSpy` stages between the stages of a common
chain (the spy is transparent: it forwards ``request_fusion`` with the mode as
asked and answers what its upstream answered) and asserts, per position, the
mode asked (``-``: ``request_fusion`` was never called there) and the mode
granted; a failure prints the whole negotiation, stage by stage. Where SYNC is
granted, the tests also check that the source got no ``request`` at all (the
consumer polls), and where NONE is granted, that the items came by requests.

A spy between two stages hides the upstream Flowable's class, so these tests
see subscribe-time (micro) fusion only; assembly-time fusion is in
``test_fused_vs_unfused.py``.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from probes import FusionSpy
from probes import mode_name

from rxpy2 import Flowable
from rxpy2._internal.fuseable import ANY
from rxpy2._internal.fuseable import ASYNC
from rxpy2._internal.fuseable import BOUNDARY
from rxpy2._internal.fuseable import NONE
from rxpy2._internal.fuseable import SYNC
from rxpy2.processors import UnicastProcessor
from rxpy2.reactivestreams import LONG_MAX
from rxpy2.schedulers import Schedulers
from rxpy2.testing import TestSubscriber

NOT_ASKED = None  # the position's request_fusion was never called

#: One outer item, not a scalar source (over ``just`` the flattening operators subscribe
#: the inner directly: there is no inner subscriber to negotiate)
ONE = Flowable.just(0).hide()


def tramp() -> Any:
    return Schedulers.trampoline()


def fused_test(f: Flowable[Any], mode: int) -> TestSubscriber[Any]:
    ts: TestSubscriber[Any] = TestSubscriber().with_fusion(mode)
    f.subscribe(ts)
    return ts


def unicast(*items: Any, complete: bool = True) -> UnicastProcessor[Any]:
    up: UnicastProcessor[Any] = UnicastProcessor()
    for x in items:
        up.on_next(x)
    if complete:
        up.on_complete()
    return up


# ---------------------------------------------------------------------------- the probe itself


def test_mode_names() -> None:
    assert [mode_name(m) for m in (NONE, SYNC, ASYNC, ANY, ANY | BOUNDARY, None)] == \
        ["NONE", "SYNC", "ASYNC", "ANY", "ANY|BOUNDARY", "-"]


def test_failure_message_shows_every_stage() -> None:
    spy = FusionSpy()
    f = spy.wrap(Flowable.range(1, 3), "range").map(lambda x: x).compose(spy.stage("map"))
    fused_test(f, SYNC)
    with pytest.raises(AssertionError) as ei:
        spy.assert_negotiated({"map": (SYNC, ASYNC)})
    msg = str(ei.value)
    assert "[map] expected asked SYNC, granted ASYNC; was asked SYNC, granted SYNC" in msg
    assert "[range] upstream QueueSubscription; asked SYNC, granted SYNC" in msg
    assert msg.index("[range]") < msg.index("[map] upstream")  # upstream first


@pytest.mark.parametrize("mode", [NONE, SYNC, ASYNC, ANY])
def test_spy_changes_no_negotiation(mode: int) -> None:
    """The same chains with and without spies: the consumer gets the same mode."""
    def chains(spy: FusionSpy | None) -> list[Flowable[Any]]:
        def s(f: Flowable[Any], name: str) -> Flowable[Any]:
            return f if spy is None else spy.wrap(f, name)
        return [
            s(s(Flowable.range(1, 5), "r1").map(lambda x: x + 1), "m1").filter(bool),
            s(Flowable.range(1, 5).hide(), "r2").map(lambda x: x),
            s(unicast(1, 2, 3), "u3").map(lambda x: x),
            s(s(Flowable.range(1, 5), "r4").observe_on(tramp()), "o4").map(lambda x: x),
            s(Flowable.from_iterable([1, 2]), "i5").flat_map_iterable(lambda x: [x, x]),
        ]
    plain = [fused_test(f, mode) for f in chains(None)]
    spy = FusionSpy()
    spied = [fused_test(f, mode) for f in chains(spy)]
    assert [t.established_fusion_mode for t in spied] == \
        [t.established_fusion_mode for t in plain], spy.describe()
    assert [t.values() for t in spied] == [t.values() for t in plain]


# ---------------------------------------------------------------------------- observe_on


def test_range_map_observe_on_map_refuses_the_boundary() -> None:
    spy = FusionSpy()
    f = spy.wrap(Flowable.range(1, 5), "range").map(lambda x: x * 2) \
        .compose(spy.stage("map")).observe_on(tramp())
    ts = f.test()
    ts.assert_values(2, 4, 6, 8, 10).assert_complete()
    # map refuses without asking upstream: its function must not move to the worker
    spy.assert_negotiated({"range": (NOT_ASKED, NOT_ASKED), "map": (ANY | BOUNDARY, NONE)})
    assert spy.record("range").requests == [128]  # items came by request


def test_range_observe_on_is_sync() -> None:
    spy = FusionSpy()
    f = spy.wrap(Flowable.range(1, 5), "range").observe_on(tramp(), buffer_size=2)
    f.test().assert_values(1, 2, 3, 4, 5).assert_complete()
    spy.assert_negotiated({"range": (ANY | BOUNDARY, SYNC)})
    assert spy.record("range").requests == []  # the worker polls the source: no request
    assert spy.record("range").taken == [1, 2, 3, 4, 5]


def test_hidden_range_map_observe_on_is_none() -> None:
    spy = FusionSpy()
    f = spy.wrap(Flowable.range(1, 5).hide(), "hide").map(lambda x: x) \
        .compose(spy.stage("map")).observe_on(tramp())
    f.test().assert_values(1, 2, 3, 4, 5)
    spy.assert_negotiated({"hide": (NOT_ASKED, NOT_ASKED), "map": (ANY | BOUNDARY, NONE)})
    assert not spy.record("hide").upstream_queue
    # without BOUNDARY map does ask, and its hidden upstream cannot answer
    spy2 = FusionSpy()
    fused_test(Flowable.range(1, 5).hide().map(lambda x: x).compose(spy2.stage("map")), ANY) \
        .assert_fusion_mode(NONE).assert_values(1, 2, 3, 4, 5)
    spy2.assert_negotiated({"map": (ANY, NONE)})


def test_unicast_map_observe_on_map_refuses_async_across_the_boundary() -> None:
    spy = FusionSpy()
    f = spy.wrap(unicast(1, 2, 3), "unicast").map(lambda x: x * 10) \
        .compose(spy.stage("map")).observe_on(tramp())
    f.test().assert_values(10, 20, 30).assert_complete()
    spy.assert_negotiated({"unicast": (NOT_ASKED, NOT_ASKED), "map": (ANY | BOUNDARY, NONE)})
    assert spy.record("unicast").requests == [128]


def test_unicast_observe_on_is_async() -> None:
    spy = FusionSpy()
    f = spy.wrap(unicast(1, 2, 3, 4), "unicast").observe_on(tramp(), buffer_size=4)
    f.test(0).request_more(LONG_MAX).assert_values(1, 2, 3, 4).assert_complete()
    spy.assert_negotiated({"unicast": (ANY | BOUNDARY, ASYNC)})
    # ASYNC still requests: the prefetch, then 75% of it once consumed
    assert spy.record("unicast").requests == [4, 3]
    assert spy.record("unicast").taken == [1, 2, 3, 4]  # polled by observe_on


def test_observe_on_output_is_async_through_map() -> None:
    spy = FusionSpy()
    f = spy.wrap(Flowable.range(1, 4), "range").observe_on(tramp()) \
        .compose(spy.stage("observe_on")).map(lambda x: -x).compose(spy.stage("map"))
    fused_test(f, ASYNC).assert_fusion_mode(ASYNC).assert_values(-1, -2, -3, -4) \
        .assert_complete()
    spy.assert_negotiated({"range": (ANY | BOUNDARY, SYNC), "observe_on": (ASYNC, ASYNC),
                           "map": (ASYNC, ASYNC)})


def test_observe_on_offers_no_sync() -> None:
    spy = FusionSpy()
    f = Flowable.range(1, 4).observe_on(tramp()).compose(spy.stage("observe_on"))
    fused_test(f, SYNC).assert_fusion_mode(NONE).assert_values(1, 2, 3, 4)
    spy.assert_negotiated({"observe_on": (SYNC, NONE)})
    fused_test(Flowable.range(1, 4).observe_on(tramp()), ANY).assert_fusion_mode(ASYNC)


def test_observe_on_over_observe_on_is_async() -> None:
    spy = FusionSpy()
    f = Flowable.range(1, 6).observe_on(tramp(), buffer_size=4) \
        .compose(spy.stage("first")).observe_on(tramp(), buffer_size=2)
    f.test(0).request_more(LONG_MAX).assert_values(1, 2, 3, 4, 5, 6).assert_complete()
    spy.assert_negotiated({"first": (ANY | BOUNDARY, ASYNC)})
    assert spy.record("first").requests == [2, 2, 2, 2]  # the second's prefetch, 75% of it


# ---------------------------------------------------------------------------- 1:1 stages


@pytest.mark.parametrize(("asked", "granted"), [(SYNC, SYNC), (ASYNC, NONE), (ANY, SYNC),
                                                (ANY | BOUNDARY, NONE)])
def test_range_map_test_subscriber(asked: int, granted: int) -> None:
    spy = FusionSpy()
    f = spy.wrap(Flowable.range(1, 3), "range").map(lambda x: x + 1).compose(spy.stage("map"))
    fused_test(f, asked).assert_fusion_mode(granted).assert_values(2, 3, 4).assert_complete()
    # map asks its upstream for the same mode, unless BOUNDARY makes it refuse at once
    upstream = (NOT_ASKED, NOT_ASKED) if asked & BOUNDARY else (asked, granted)
    spy.assert_negotiated({"range": upstream, "map": (asked, granted)})
    assert spy.record("range").requests == ([] if granted == SYNC else [LONG_MAX])


@pytest.mark.parametrize(("asked", "granted"), [(SYNC, NONE), (ASYNC, ASYNC), (ANY, ASYNC)])
def test_unicast_map_test_subscriber(asked: int, granted: int) -> None:
    spy = FusionSpy()
    f = spy.wrap(unicast(1, 2, 3), "unicast").map(lambda x: x + 1).compose(spy.stage("map"))
    fused_test(f, asked).assert_fusion_mode(granted).assert_values(2, 3, 4).assert_complete()
    spy.assert_negotiated({"unicast": (asked, granted), "map": (asked, granted)})


@pytest.mark.parametrize("asked", [SYNC, ASYNC, ANY])
def test_unicast_test_subscriber(asked: int) -> None:
    spy = FusionSpy()
    f = spy.wrap(unicast(1, 2), "unicast")
    granted = ASYNC if asked & ASYNC else NONE
    fused_test(f, asked).assert_fusion_mode(granted).assert_values(1, 2).assert_complete()
    spy.assert_negotiated({"unicast": (asked, granted)})


def test_chain_of_one_to_one_stages_is_sync_end_to_end() -> None:
    spy = FusionSpy()
    f = (spy.wrap(Flowable.from_array([1, 2, 2, 3, 4, 5]), "array")
         .map(lambda x: x * 2).compose(spy.stage("map"))
         .filter(lambda x: x != 6).compose(spy.stage("filter"))
         .distinct_until_changed().compose(spy.stage("distinct_until_changed"))
         .do_on_next(lambda x: None).compose(spy.stage("do_on_next"))
         .skip_while(lambda x: x < 3).compose(spy.stage("skip_while")))
    fused_test(f, ANY).assert_fusion_mode(SYNC).assert_values(4, 8, 10).assert_complete()
    spy.assert_negotiated({p: (ANY, SYNC) for p in
                           ("array", "map", "filter", "distinct_until_changed", "do_on_next",
                            "skip_while")})
    assert spy.record("array").requests == []


@pytest.mark.parametrize("op", [
    pytest.param(lambda f: f.take(2), id="take"),
    pytest.param(lambda f: f.skip(1), id="skip"),
    pytest.param(lambda f: f.take_while(lambda x: x < 3), id="take_while"),
])
def test_stages_that_offer_no_fusion(op: Any) -> None:
    """take/skip/take_while subscribers are no QueueSubscription (over a source that is not
    fused at assembly time): the consumer gets NONE and nobody asks the source."""
    spy = FusionSpy()
    f = op(spy.wrap(Flowable.range(1, 4), "range")).compose(spy.stage("op"))
    ts = fused_test(f, ANY).assert_fusion_mode(NONE)
    assert ts.values()
    assert not spy.record("op").upstream_queue
    spy.assert_negotiated({"range": (NOT_ASKED, NOT_ASKED), "op": (NOT_ASKED, NOT_ASKED)})


def test_just_map_is_sync() -> None:
    spy = FusionSpy()
    f = spy.wrap(Flowable.just(7), "just").map(lambda x: x * 3).compose(spy.stage("map"))
    fused_test(f, ANY).assert_fusion_mode(SYNC).assert_values(21).assert_complete()
    spy.assert_negotiated({"just": (ANY, SYNC), "map": (ANY, SYNC)})


def test_do_finally_refuses_the_boundary() -> None:
    spy = FusionSpy()
    done: list[int] = []
    f = spy.wrap(Flowable.range(1, 3), "range").do_finally(lambda: done.append(1)) \
        .compose(spy.stage("do_finally")).observe_on(tramp())
    f.test().assert_values(1, 2, 3)
    spy.assert_negotiated({"do_finally": (ANY | BOUNDARY, NONE)})
    assert done == [1]


# ---------------------------------------------------------------------------- consumers


def test_range_flat_map_inner_is_sync() -> None:
    spy = FusionSpy()
    inner = spy.wrap(Flowable.range(1, 3), "inner")
    ONE.flat_map(lambda _: inner).test().assert_values(1, 2, 3)
    spy.assert_negotiated({"inner": (ANY | BOUNDARY, SYNC)})
    assert spy.record("inner").requests == []


def test_range_filter_flat_map_inner_filter_refuses_the_boundary() -> None:
    """flat_map's inner asks ANY|BOUNDARY (its drain may run on another thread), so a
    filter between the inner source and flat_map refuses, and the inner requests."""
    spy = FusionSpy()
    inner = spy.wrap(Flowable.range(1, 6), "range").filter(lambda x: x % 2 == 0) \
        .compose(spy.stage("filter"))
    ONE.flat_map(lambda _: inner, buffer_size=4).test() \
        .assert_values(2, 4, 6).assert_complete()
    spy.assert_negotiated({"range": (NOT_ASKED, NOT_ASKED), "filter": (ANY | BOUNDARY, NONE)})
    assert spy.record("range").requests[0] == 4


def test_unicast_flat_map_inner_is_async() -> None:
    spy = FusionSpy()
    inner = spy.wrap(unicast(5, 6), "inner")
    ONE.flat_map(lambda _: inner, buffer_size=4).test().assert_values(5, 6)
    spy.assert_negotiated({"inner": (ANY | BOUNDARY, ASYNC)})
    # RxJava 2.2.21 FlowableFlatMap.InnerSubscriber: limit = 4 >> 2 = 1, so the two
    # polled items are asked for again
    assert spy.record("inner").requests == [4, 2]


@pytest.mark.parametrize("with_map", [False, True])
def test_from_iterable_zip_is_sync(with_map: bool) -> None:
    spy = FusionSpy()
    a = spy.wrap(Flowable.from_iterable(iter([1, 2, 3])), "iterable")
    if with_map:
        a = a.map(lambda x: x * 10).compose(spy.stage("map"))
    b = spy.wrap(Flowable.from_iterable(["a", "b", "c", "d"]), "other")
    k = 10 if with_map else 1
    Flowable.zip(a, b).test().assert_values((1 * k, "a"), (2 * k, "b"), (3 * k, "c"))
    # zip asks ANY | BOUNDARY, as RxJava 2.2.21's ZipSubscriber: a source fuses SYNC, a map
    # (user code) refuses and runs on its own, asked nothing below and requested from
    expected = {"iterable": (ANY | BOUNDARY, SYNC), "other": (ANY | BOUNDARY, SYNC)}
    if with_map:
        expected["map"] = (ANY | BOUNDARY, NONE)
        expected["iterable"] = (NOT_ASKED, NOT_ASKED)
    spy.assert_negotiated(expected)
    assert spy.record("iterable").requests == ([128] if with_map else [])
    assert spy.record("other").requests == []


def test_unicast_zip_is_async() -> None:
    spy = FusionSpy()
    a = spy.wrap(unicast(1, 2), "unicast")
    Flowable.zip(a, Flowable.range(10, 5), buffer_size=4).test().assert_values((1, 10), (2, 11))
    spy.assert_negotiated({"unicast": (ANY | BOUNDARY, ASYNC)})
    assert spy.record("unicast").requests == [4]


@pytest.mark.parametrize(("source", "granted"), [
    pytest.param(lambda: Flowable.range(1, 3), SYNC, id="range"),
    pytest.param(lambda: unicast(1, 2, 3), ASYNC, id="unicast"),
    pytest.param(lambda: Flowable.range(1, 3).hide(), NOT_ASKED, id="hidden"),
])
def test_concat_map_outer(source: Any, granted: int | None) -> None:
    """concat_map asks its upstream ANY | BOUNDARY, as RxJava 2.2.21's BaseConcatMapSubscriber."""
    spy = FusionSpy()
    f = spy.wrap(source(), "outer").concat_map(lambda x: Flowable.range(x * 10, 2))
    f.test().assert_values(10, 11, 20, 21, 30, 31).assert_complete()
    spy.assert_negotiated({"outer": (NOT_ASKED if granted is NOT_ASKED else ANY | BOUNDARY,
                                     granted)})
    assert spy.record("outer").requests == ([] if granted == SYNC else [2, 2])


def test_concat_map_inner_does_not_fuse() -> None:
    """concat_map's inner is a SubscriptionArbiter (as RxJava 2's): it asks no fusion."""
    spy = FusionSpy()
    inner = spy.wrap(Flowable.range(1, 2), "inner")
    ONE.concat_map(lambda _: inner).test().assert_values(1, 2)
    spy.assert_negotiated({"inner": (NOT_ASKED, NOT_ASKED)})


# ---------------------------------------------------------------------------- flat_map_iterable


@pytest.mark.parametrize(("asked", "granted"), [(SYNC, SYNC), (ANY, SYNC), (ASYNC, NONE),
                                                (ANY | BOUNDARY, NONE)])
def test_flat_map_iterable_output_over_sync_upstream(asked: int, granted: int) -> None:
    spy = FusionSpy()
    f = spy.wrap(Flowable.range(1, 3), "range").flat_map_iterable(lambda x: [x, -x]) \
        .compose(spy.stage("flat_map_iterable"))
    fused_test(f, asked).assert_fusion_mode(granted).assert_values(1, -1, 2, -2, 3, -3) \
        .assert_complete()
    # the upstream side is negotiated first, with ANY, whatever the downstream asks
    spy.assert_negotiated({"range": (ANY, SYNC), "flat_map_iterable": (asked, granted)})
    assert spy.record("range").requests == []


@pytest.mark.parametrize(("source", "upstream"), [
    pytest.param(lambda: unicast(1, 2), (ANY, ASYNC), id="unicast"),
    pytest.param(lambda: Flowable.range(1, 2).hide(), (NOT_ASKED, NOT_ASKED), id="hidden"),
])
def test_flat_map_iterable_output_needs_a_sync_upstream(source: Any, upstream: Any) -> None:
    spy = FusionSpy()
    f = spy.wrap(source(), "source").flat_map_iterable(lambda x: [x, x]) \
        .compose(spy.stage("flat_map_iterable"))
    fused_test(f, ANY).assert_fusion_mode(NONE).assert_values(1, 1, 2, 2)
    spy.assert_negotiated({"source": upstream, "flat_map_iterable": (ANY, NONE)})


# ---------------------------------------------------------------------------- groups and windows


def test_window_windows_are_async() -> None:
    spy = FusionSpy()
    tss: list[TestSubscriber[Any]] = []

    def on_window(w: Flowable[Any]) -> None:
        ts: TestSubscriber[Any] = TestSubscriber().with_fusion(ANY)
        tss.append(ts)
        spy.wrap(w, f"window {len(tss)}").subscribe(ts)

    Flowable.range(1, 5).window(2).subscribe(on_window)
    assert [t.values() for t in tss] == [[1, 2], [3, 4], [5]]
    assert [t.established_fusion_mode for t in tss] == [ASYNC] * 3, spy.describe()
    spy.assert_negotiated({"window 1": (ANY, ASYNC), "window 3": (ANY, ASYNC)})


def test_group_by_groups_offer_no_fusion() -> None:
    """RxJava 2's groups are ASYNC-fuseable queues; rxpy2's GroupState is a plain
    Subscription (flowable_group_by.py): a group's subscriber gets NONE. Reported."""
    spy = FusionSpy()
    tss: dict[int, TestSubscriber[Any]] = {}

    def on_group(g: Any) -> None:
        ts: TestSubscriber[Any] = TestSubscriber().with_fusion(ANY)
        tss[g.key] = ts
        spy.wrap(g, f"group {g.key}").subscribe(ts)

    Flowable.range(1, 6).group_by(lambda x: x % 2).subscribe(on_group)
    assert tss[1].values() == [1, 3, 5] and tss[0].values() == [2, 4, 6]
    assert tss[1].established_fusion_mode == NONE
    assert not spy.record("group 1").upstream_queue
    spy.assert_negotiated({"group 1": (NOT_ASKED, NOT_ASKED)})


# ---------------------------------------------------------------------------- blocking / asyncio
# blocking_iterable and to_async_iterable ask ANY|BOUNDARY (H4b, issue 6). These tests
# pass once that work is in flowable_blocking.py / flowable_asyncio.py.


@pytest.mark.parametrize(("source", "upstream", "requests"), [
    pytest.param(lambda: Flowable.range(1, 5), (ANY | BOUNDARY, SYNC), [], id="range"),
    pytest.param(lambda: unicast(1, 2, 3, 4, 5), (ANY | BOUNDARY, ASYNC), [8], id="unicast"),
    pytest.param(lambda: Flowable.range(1, 5).observe_on(tramp()), (ANY | BOUNDARY, ASYNC),
                 [8], id="observe_on"),
    pytest.param(lambda: Flowable.range(1, 5).map(lambda x: x), (ANY | BOUNDARY, NONE), [8],
                 id="map"),
])
def test_blocking_iterable_fusion(source: Any, upstream: Any, requests: list[int]) -> None:
    spy = FusionSpy()
    f = spy.wrap(source(), "source")
    assert list(f.blocking_iterable(buffer_size=8)) == [1, 2, 3, 4, 5]
    spy.assert_negotiated({"source": upstream})
    assert spy.record("source").requests == requests


@pytest.mark.parametrize(("source", "upstream", "requests"), [
    pytest.param(lambda: Flowable.range(1, 5), (ANY | BOUNDARY, SYNC), [], id="range"),
    pytest.param(lambda: unicast(1, 2, 3, 4, 5), (ANY | BOUNDARY, ASYNC), [8], id="unicast"),
    pytest.param(lambda: Flowable.range(1, 5).map(lambda x: x), (ANY | BOUNDARY, NONE), [8],
                 id="map"),
])
def test_to_async_iterable_fusion(source: Any, upstream: Any, requests: list[int]) -> None:
    spy = FusionSpy()
    f = spy.wrap(source(), "source")

    async def collect() -> list[Any]:
        return [x async for x in f.to_async_iterable(prefetch=8)]

    assert asyncio.run(collect()) == [1, 2, 3, 4, 5]
    spy.assert_negotiated({"source": upstream})
    assert spy.record("source").requests == requests
