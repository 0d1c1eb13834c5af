"""publish / share / replay / cache against RxJava 2.2.21: items, order, terminal event and the
upstream request amounts under scripted demand (issue 15, causes 3 and 4).

In RxJava 2.2.21 ``publish()`` is ``FlowablePublish`` (the "classic" one), but
``ConnectableFlowable.refCount()`` swaps it for ``FlowablePublishAlt`` (``onRefCount``), so
``share()`` and ``publish().refCount()`` run the Alt algorithm: an error waits behind the
queued items and upstream is replenished ``bufferSize - (bufferSize >> 2)`` at a time.
"""

from __future__ import annotations

from functools import partial

import pytest

from rxpy2 import Flowable
from rxpy2 import plugins
from rxpy2.processors import PublishProcessor
from rxpy2.testing import TestSubscriber


class Boom(Exception):
    pass


def recorded(source: Flowable, requests: list) -> Flowable:
    return source.do_on_request(requests.append)


def three_then_boom() -> Flowable:
    return Flowable.range(1, 3).concat_with(Flowable.error(Boom()))


# ---------------------------------------------------------------- cause 3: share / ref_count

REF_COUNTED = {
    "share": lambda f: f.share(),
    "publish_ref_count": lambda f: f.publish().ref_count(),
}


@pytest.mark.parametrize("make", REF_COUNTED.values(), ids=list(REF_COUNTED))
def test_ref_counted_publish_error_waits_behind_queued_items(make):
    """RxJava 2.2.21 FlowablePublishAlt (share = publish().refCount()): checkTerminated runs
    only when the queue is empty, for an error as for completion: request(1) gives [1] and no
    error; request(2) then gives 2, 3 and the error."""
    req: list[int] = []
    ts = make(recorded(three_then_boom(), req)).test(1)
    ts.assert_values(1).assert_no_errors().assert_not_complete()
    assert req == [128]
    ts.request(1)
    ts.assert_values(1, 2).assert_no_errors()
    ts.request(1)
    ts.assert_failure(Boom, 1, 2, 3)
    assert req == [128]


def test_publish_alone_lets_the_error_overtake_queued_items():
    """RxJava 2.2.21 FlowablePublish (publish() without refCount): checkTerminated signals an
    error whether or not items are queued: request(1) gives [1] then the error."""
    req: list[int] = []
    ts = recorded(three_then_boom(), req).publish().auto_connect().test(1)
    ts.assert_failure(Boom, 1)
    assert req == [128, 1]  # the pass that emitted 1 item asked for 1 more


@pytest.mark.parametrize("make", REF_COUNTED.values(), ids=list(REF_COUNTED))
def test_ref_counted_publish_replenishes_96_after_96(make):
    """RxJava 2.2.21 FlowablePublishAlt: request(bufferSize = 128) on connect, then
    request(limit) each time limit = 128 - (128 >> 2) = 96 items went out."""
    req: list[int] = []
    ts = make(recorded(Flowable.range(0, 1000), req)).test(0)
    assert req == [128]
    ts.request(95)
    assert req == [128]
    ts.request(1)
    assert req == [128, 96]
    ts.request(95)
    assert req == [128, 96]
    ts.request(1)
    assert req == [128, 96, 96]
    ts.assert_values(*range(192)).assert_not_complete()
    ts.request(2000)
    ts.assert_result(*range(1000))
    assert req == [128] + [96] * 10  # 1000 = 128 + 9 * 96 + 8: the tenth batch is asked before


@pytest.mark.parametrize("buffer_size, limit", [(1, 1), (2, 2), (4, 3), (16, 12)])
def test_ref_counted_publish_limit_for_small_buffers(buffer_size, limit):
    """RxJava 2.2.21 FlowablePublishAlt: limit = bufferSize - (bufferSize >> 2), also for the
    smallest buffers (1 -> 1, 2 -> 2, 4 -> 3)."""
    req: list[int] = []
    ts = recorded(Flowable.range(0, 50), req).publish(buffer_size).ref_count().test(0)
    if limit > 1:
        ts.request(limit - 1)
    assert req == [buffer_size]
    ts.request(1)
    assert req == [buffer_size, limit]


def test_publish_alone_replenishes_what_each_pass_emitted():
    """RxJava 2.2.21 FlowablePublish: after a pass that emitted d items it requests d."""
    req: list[int] = []
    ts = recorded(Flowable.range(0, 1000), req).publish().auto_connect().test(0)
    ts.request(95)
    ts.request(1)
    assert req == [128, 95, 1]


def test_share_waits_for_the_slowest_subscriber():
    """RxJava 2.2.21 FlowablePublishAlt: each item goes to all subscribers at once, as many as
    the smallest outstanding demand; replenishment follows the items that went out."""
    req: list[int] = []
    shared = recorded(Flowable.range(0, 300), req).share()
    ts1 = shared.test(0)
    ts2 = shared.test(0)
    ts1.request(200)
    ts2.request(100)
    ts1.assert_values(*range(100))
    ts2.assert_values(*range(100))
    assert req == [128, 96]
    ts2.request(100)
    ts1.assert_values(*range(200))
    assert req == [128, 96, 96]


def test_share_subscriber_joining_from_on_next_gets_the_next_items():
    """RxJava 2.2.21 FlowablePublishAlt: a change of the subscriber array during a pass
    restarts it (`continue outer`), so a subscriber added from on_next takes part from the
    next item on, under its own demand."""
    shared = Flowable.range(0, 5).share()
    late = TestSubscriber(0)

    def join(x):
        if x == 1:
            shared.subscribe(late)

    first = shared.do_on_next(join).test(2)
    first.assert_values(0, 1)
    late.request(10)
    first.assert_values(0, 1)  # the pace of the slowest: first has no demand left
    first.request(10)
    first.assert_result(0, 1, 2, 3, 4)
    late.assert_result(2, 3, 4)


def test_publish_error_without_subscribers_is_undeliverable():
    """RxJava 2.2.21 FlowablePublish.checkTerminated: an error with no subscriber goes to
    RxJavaPlugins.onError."""
    seen: list[BaseException] = []
    plugins.set_error_handler(seen.append)
    try:
        Flowable.error(Boom()).publish().connect()
    finally:
        plugins.reset()
    assert len(seen) == 1 and isinstance(seen[0].__cause__ or seen[0], Boom)


def test_share_race_error_waits_behind_items(race_runner, race_rounds):
    """RxJava 2.2.21 FlowablePublishAlt: items and the error arrive on one thread while the
    subscriber requests one by one on another: every item, in order, then the error."""
    n = 8
    for _ in range(max(race_rounds // 8, 20)):
        pp = PublishProcessor.create()
        ts = pp.share().test(0)

        race_runner.race(partial(emit, pp, n, Boom()), partial(request_one_by_one, ts, n))
        ts.assert_failure(Boom, *range(n)).assert_protocol_ok()


def emit(pp: PublishProcessor, n: int, error: BaseException | None) -> None:
    for i in range(n):
        pp.on_next(i)
    if error is None:
        pp.on_complete()
    else:
        pp.on_error(error)


def request_one_by_one(ts: TestSubscriber, times: int) -> None:
    for _ in range(times):
        ts.request(1)


# ---------------------------------------------------------------- cause 4: replay


REPLAYS = {
    "replay": lambda f: f.replay(),
    "replay_2": lambda f: f.replay(2),
}


@pytest.mark.parametrize("make", REPLAYS.values(), ids=list(REPLAYS))
def test_replay_terminal_event_needs_demand(make):
    """RxJava 2.2.21 FlowableReplay: the terminal event is one more entry of the buffer and is
    replayed by the same loop as the items, `while (r != 0)`: from_iterable([2]) with
    request(1) gives the item and no completion; the next request(1) completes. The upstream
    gets request(1) only: after the terminal event manageRequests requests nothing more."""
    req: list[int] = []
    ts = make(recorded(Flowable.from_iterable([2]), req)).auto_connect().test(1)
    ts.assert_values(2).assert_not_complete()
    ts.request(1)
    ts.assert_result(2)
    assert req == [1]


@pytest.mark.parametrize("make", REPLAYS.values(), ids=list(REPLAYS))
def test_replay_completion_of_an_empty_stream_needs_demand(make):
    """RxJava 2.2.21 FlowableReplay: the completion of an empty source is delivered only under
    a request, to a late subscriber too."""
    ts = make(Flowable.empty()).auto_connect().test(0)
    ts.assert_not_complete()
    ts.request(1)
    ts.assert_result()

    c = make(Flowable.empty())
    c.connect()
    late = c.test(0)
    late.assert_not_complete()
    late.request(1)
    late.assert_result()


@pytest.mark.parametrize("make", REPLAYS.values(), ids=list(REPLAYS))
def test_replay_error_waits_for_the_items_but_not_for_demand(make):
    """Departure from RxJava 2.2.21 FlowableReplay, which replays an error only under demand
    (`while (r != 0)`): a failed replay would never signal on_error to a subscriber that
    requested nothing, failing the TCK's required §1.9 rule and §1.4. rxpy2 delivers the error
    once the items before it went out, demand or not."""
    make(Flowable.error(Boom())).auto_connect().test(0).assert_failure(Boom)

    c = make(Flowable.just(7).concat_with(Flowable.error(Boom())))
    c.connect()
    late = c.test(0)
    late.assert_no_values().assert_no_errors()  # the item comes first, under demand
    late.request(1)
    late.assert_failure(Boom, 7)


def test_cache_terminal_event_needs_no_demand():
    """RxJava 2.2.21 FlowableCache.replay: `if (sourceDone && empty)` ends the consumer before
    any demand check: cache() completes a subscriber that requested nothing more."""
    ts = Flowable.from_iterable([2]).cache().test(1)
    ts.assert_result(2)
    Flowable.empty().cache().test(0).assert_result()


def test_bounded_replay_late_subscriber_counts_the_dropped_items():
    """RxJava 2.2.21 FlowableReplay (SizeBoundReplayBuffer): a subscriber that starts at a head
    node adds the node's index to its totalRequested, so its demand counts from the stream's
    first item: replay(1) after 5 items, request(2) asks upstream for 1 more (item 6), then
    request(3) for 3 more. (Without the offset the late subscriber stalls after item 5.)"""
    req: list[int] = []
    c = recorded(Flowable.range(1, 20), req).replay(1)
    c.connect()
    first = c.test(5)
    first.assert_values(1, 2, 3, 4, 5)
    first.cancel()
    late = c.test(2)
    late.assert_values(5, 6)
    assert req == [5, 1]
    late.request(3)
    late.assert_values(5, 6, 7, 8, 9)
    assert req == [5, 1, 3]


def test_replay_race_terminal_after_the_items(race_runner, race_rounds):
    """RxJava 2.2.21 FlowableReplay: items and completion arrive on one thread while the
    subscriber requests one by one on another: N requests give the N items, the terminal event
    comes with request N + 1, never earlier."""
    n = 8
    for _ in range(max(race_rounds // 8, 20)):
        pp = PublishProcessor.create()
        c = pp.on_backpressure_buffer().replay(2)
        ts = c.test(0)
        c.connect()

        race_runner.race(partial(emit, pp, n, None), partial(request_one_by_one, ts, n))
        ts.assert_values(*range(n)).assert_not_complete().assert_protocol_ok()
        ts.request(1)
        ts.assert_result(*range(n))


# ---------------------------------------------------------------- a subscriber goes unbounded

@pytest.mark.parametrize("make", [lambda f: f.replay(), lambda f: f.replay(3),
                                  lambda f: f.replay(3, 10.0)], ids=["replay", "replay_n", "replay_n_time"])
def test_replay_asks_the_rest_up_to_long_max_when_a_subscriber_goes_unbounded(make):
    """RxJava 2.2.21 FlowableReplay.manageRequests requests ``max child demand - already
    requested``: after 2, a subscriber's request(LONG_MAX) sends LONG_MAX - 2 (measured on
    RxJava 2.2.21 built from its source)."""
    from rxpy2.reactivestreams import LONG_MAX

    requests: list[int] = []
    c = make(recorded(Flowable.range(1, 1000), requests))
    t1 = c.test(2)
    t2 = c.test(1)
    c.connect()
    assert requests == [2]
    t2.request(LONG_MAX)
    assert requests == [2, LONG_MAX - 2]
    t1.request(LONG_MAX)
    assert requests == [2, LONG_MAX - 2]
    t1.assert_value_count(1000)
    t2.assert_value_count(1000)
