"""flat_map / merge against RxJava 2.2.21 (issue 15, causes 1, 2 and 7): the exact items,
order, terminal events and upstream requests under scripted demand."""

from __future__ import annotations

from typing import Any

import pytest
from probes import ManualSource
from probes import Spy

from rxpy2 import Flowable
from rxpy2.reactivestreams import LONG_MAX


def _ranges(x: int) -> Flowable[int]:
    return Flowable.range(x, 2)


def _ranges_hidden(x: int) -> Flowable[int]:
    return Flowable.range(x, 2).hide()


@pytest.mark.parametrize("mapper", [_ranges, _ranges_hidden], ids=["sync_fused", "unfused"])
def test_drain_resumes_with_the_inner_that_ran_out_of_demand(mapper):
    """RxJava 2.2.21 FlowableFlatMap.drainLoop: when a pass runs out of demand it breaks
    before moving to the next inner and keeps lastIndex/lastId there, so
    ``range(1, 2).flatMap(x -> range(x, 2))`` with request(1) then request(MAX) gives
    [1, 2, 2, 3]; the upstream is asked for 128, then for the two inners removed by the
    last pass in one request."""
    log: list[int] = []
    ts = Flowable.range(1, 2).do_on_request(log.append).flat_map(mapper).test(1)
    ts.assert_values(1).assert_not_terminated()
    assert log == [128]
    ts.request(LONG_MAX)
    ts.assert_result(1, 2, 2, 3)
    assert log == [128, 2]


@pytest.mark.parametrize("mapper", [_ranges, _ranges_hidden], ids=["sync_fused", "unfused"])
def test_drain_order_with_an_outer_that_does_not_complete(mapper):
    """RxJava 2.2.21 FlowableFlatMap.drainLoop: the passes run by the second inner's
    arrival (no demand, nothing emitted) stay with the first inner; rxpy2's old
    round-robin moved on and gave [1, 2, 3, 2]."""
    outer = ManualSource()
    ts = outer.flat_map(mapper).test(1)
    outer.emit(1, 2)
    ts.assert_values(1)
    assert outer.requests == [128]
    ts.request(LONG_MAX)
    ts.assert_values(1, 2, 2, 3).assert_not_terminated()
    assert outer.requests == [128, 2]
    outer.complete()
    ts.assert_result(1, 2, 2, 3)


def test_merge_drain_order_and_requests():
    """RxJava 2.2.21 Flowable.merge(Publisher) = flatMap(identity, bufferSize()): same
    drain order as flatMap ([1, 2, 2, 3]), upstream asked for 128 then 2."""
    outer = ManualSource()
    ts = Flowable.merge(outer).test(1)
    outer.emit(Flowable.range(1, 2), Flowable.range(2, 2))
    ts.request(LONG_MAX)
    outer.complete()
    ts.assert_result(1, 2, 2, 3)
    assert outer.requests == [128, 2]


@pytest.mark.parametrize("build", [
    lambda a, b: Flowable.merge_array(a, b),
    lambda a, b: a.merge_with(b),
    lambda a, b: Flowable.merge([a, b]),
], ids=["merge_array", "merge_with", "merge_iterable"])
def test_merge_of_two_stays_with_the_first_source(build):
    """RxJava 2.2.21 mergeArray/mergeWith/merge(Iterable) flatten through FlowableFlatMap:
    one item at a time comes from the first source until it is empty, then the second."""
    a, b = ManualSource(), ManualSource()
    ts = build(a, b).test(0)
    a.emit("a1", "a2")
    b.emit("b1", "b2")
    for _ in range(3):
        ts.request(1)
    ts.assert_values("a1", "a2", "b1")
    a.complete()
    b.complete()
    ts.request(1)
    ts.assert_result("a1", "a2", "b1", "b2")


def test_window_flattened_with_small_demand():
    """RxJava 2.2.21: ``range(1, 2).window(1).flatMap(w -> w.toList().toFlowable())`` with
    request(1) gives [[1]] (the first window's list), not the second's."""
    ts = Flowable.range(1, 2).window(1) \
        .flat_map(lambda w: w.to_list().to_flowable()).test(1)
    ts.assert_values([1]).assert_not_terminated()
    ts.request(1)
    ts.assert_result([1], [2])


def test_a_pass_that_emitted_nothing_keeps_its_place():
    """RxJava 2.2.21 FlowableFlatMap.drainLoop: with no demand every pass stops at the
    inner it started with (lastIndex unchanged), so later demand is served from it."""
    outer = ManualSource()
    inners = [ManualSource() for _ in range(3)]
    ts = outer.flat_map(lambda i: inners[i], 3).test(0)
    outer.emit(0, 1, 2)
    for i, s in enumerate(inners):
        s.emit(i * 10, i * 10 + 1)
    inners[1].complete()  # two passes without demand: both stay at inner 0
    inners[2].complete()
    assert outer.requests == [3]
    ts.request(3)
    ts.assert_values(0, 1, 10)
    assert outer.requests == [3]
    ts.request(3)  # inner 1 then inner 2 finish: asked for again in one request
    ts.assert_values(0, 1, 10, 11, 20, 21).assert_not_terminated()
    assert outer.requests == [3, 2]
    inners[0].complete()
    outer.complete()
    ts.assert_result(0, 1, 10, 11, 20, 21)
    assert outer.requests == [3, 2, 1]


def test_inner_replenishes_after_a_quarter_of_buffer_size():
    """RxJava 2.2.21 FlowableFlatMap.InnerSubscriber: request(bufferSize) first, then
    limit = bufferSize >> 2: 128 then 32 at a time."""
    spy = Spy(Flowable.range(0, 200))
    ts = Flowable.just(0, 1).flat_map(lambda i: spy if i == 0 else Flowable.empty()).test()
    ts.assert_value_count(200).assert_complete()
    assert spy.requests == [128] + [32] * 6


def test_default_max_concurrency_subscribes_128_inners():
    """RxJava 2.2.21 Flowable.flatMap(mapper) = flatMap(mapper, false, bufferSize(),
    bufferSize()): at most 128 inners at once, the upstream asked for 128 first and for
    one more as each inner completes."""
    inners: list[ManualSource] = []

    def mapper(_: Any) -> ManualSource:
        inners.append(ManualSource())
        return inners[-1]

    outer = Spy(Flowable.range(0, 300))
    ts = outer.flat_map(mapper).test()
    assert len(inners) == 128 and outer.requests == [128]
    inners[5].complete()
    inners[0].complete()
    assert len(inners) == 130 and outer.requests == [128, 1, 1]
    i = 1
    while i < len(inners):  # each completion subscribes the next inner at once
        if i != 5:
            inners[i].complete()
        i += 1
    assert len(inners) == 300 and sum(outer.requests) == 128 + 300
    ts.assert_result()


@pytest.mark.parametrize("merge", [Flowable.merge, Flowable.merge_delay_error])
def test_merge_defaults_to_128_sources_at_once(merge):
    """RxJava 2.2.21 merge(Iterable)/merge(Publisher) and the mergeDelayError ones use
    maxConcurrency = bufferSize() (128)."""
    sources = [ManualSource() for _ in range(200)]
    merge(sources).test()
    assert [s.subscriptions for s in sources] == [1] * 128 + [0] * 72


def test_race_inners_finishing_in_on_next_vs_a_live_inner_draining(race_runner, race_rounds):
    """An inner that completes within its subscribe is asked for again at once when it is
    alone, else by the drain pass that removes it: racing a live inner's items, every
    finished inner is asked for exactly once and nothing is lost."""
    for _ in range(race_rounds):
        outer = ManualSource()
        live = ManualSource()
        ts = outer.flat_map(lambda x, live=live: live if x == 0 else Flowable.range(x, 1).hide(),
                            4).test()
        outer.emit(0)

        def run_outer(outer=outer):
            outer.emit(1, 2, 3)  # within the 4 asked for

        def run_live(live=live):
            live.emit(*range(100, 110))
            live.complete()

        race_runner.race(run_outer, run_live)
        outer.complete()
        ts.assert_complete().assert_no_errors().assert_protocol_ok()
        assert sorted(ts.values()) == [1, 2, 3] + list(range(100, 110))
        assert outer.requests[0] == 4 and sum(outer.requests) == 4 + 4


@pytest.mark.parametrize("hidden, expected, first_requests", [
    (False, [*range(300), 0], []),
    (True, [*range(128), 0, *range(128, 300)], [128, 128, 128, 44]),
], ids=["sync_fused", "unfused"])
def test_merge_with_a_source_replenished_reentrantly_in_the_drain(
        hidden, expected, first_requests):
    """RxJava 2.2.21 FlowableFlatMap (mergeWith = mergeArray, maxConcurrency 2), demand
    coming after both sources queued their items: drainLoop polls the first inner's queue
    until empty, then ``requestMore(128)``; an unfused source answers at once, into the
    queue (tryEmit finds the drain taken), but the loop saw the empty queue and goes on
    to the second source's 0 before coming back for 128..299 (the last 44, consumed after
    the source completed, are requested too). A SYNC-fused source is its own queue: polled
    to the end (0..299), then the 0; it is never requested from."""
    first: list[int] = []
    src = Flowable.from_iterable(range(300))
    if hidden:
        src = src.do_on_request(first.append).hide()
    second: list[int] = []
    ts = src.merge_with(Flowable.just(0).do_on_request(second.append).hide()).test(0)
    ts.request(LONG_MAX)
    ts.assert_result(*expected)
    assert first == first_requests
    assert second == [128]  # one item consumed: below the limit of 32, no re-request
