"""Reliability regressions: multicast termination races, huge request amounts,
error messages that name their operator."""

from __future__ import annotations

import threading

import pytest

from rxpy2 import Flowable
from rxpy2 import MissingBackpressureException
from rxpy2 import PublishProcessor
from rxpy2 import TestSubscriber
from rxpy2.reactivestreams import LONG_MAX
from rxpy2.reactivestreams import Subscription
from rxpy2.schedulers import Schedulers

pytestmark = pytest.mark.usefixtures("shutdown_schedulers")

#: The late-subscriber race hit 307/500 (publish) and 14/500 (replay) rounds before the fix.
TERMINATE_RACE_ROUNDS = 1000


# ---- item 4: a subscriber arriving while the upstream terminates


@pytest.mark.parametrize("make", [
    pytest.param(lambda pp: pp.publish().ref_count(), id="publish-ref_count"),
    pytest.param(lambda pp: pp.share(), id="share"),
    pytest.param(lambda pp: pp.replay().ref_count(), id="replay-ref_count"),
])
def test_ref_count_subscribe_vs_upstream_complete_race(race_runner, make):
    for i in range(TERMINATE_RACE_ROUNDS):
        pp: PublishProcessor[int] = PublishProcessor.create()
        f = make(pp)
        first = f.test()
        late: TestSubscriber[int] = TestSubscriber()
        race_runner.race(pp.on_complete, lambda f=f, late=late: f.subscribe(late))
        first.await_done(5).assert_result()
        # the late one joined the old connection (its terminal event) or a new one (which
        # subscribes the completed processor: completes at once); never nothing
        assert late.await_terminal_event(2), f"round {i}: the late subscriber hangs"
        late.assert_result()


@pytest.mark.parametrize("make", [
    pytest.param(lambda pp: pp.publish().ref_count(), id="publish-ref_count"),
    pytest.param(lambda pp: pp.replay().ref_count(), id="replay-ref_count"),
])
def test_ref_count_subscribe_vs_upstream_error_race(race_runner, make):
    for i in range(TERMINATE_RACE_ROUNDS // 2):
        pp: PublishProcessor[int] = PublishProcessor.create()
        f = make(pp)
        first = f.test()
        late: TestSubscriber[int] = TestSubscriber()
        err = ValueError("boom")
        race_runner.race(lambda pp=pp, err=err: pp.on_error(err),
                         lambda f=f, late=late: f.subscribe(late))
        first.await_done(5).assert_failure(ValueError)
        assert late.await_terminal_event(2), f"round {i}: the late subscriber hangs"
        # the old connection's error, or a new connection to the failed processor (its error)
        late.assert_failure(ValueError)


class _SlowOnSubscribe(TestSubscriber[int]):
    """Stays inside ``on_subscribe`` until released; records a signal that overlaps it."""

    def __init__(self) -> None:
        super().__init__(0)
        self.inside = False
        self.overlap: list[str] = []
        self.entered = threading.Event()
        self.release = threading.Event()

    def on_subscribe(self, s) -> None:
        self.inside = True
        self.entered.set()
        self.release.wait(5)
        super().on_subscribe(s)
        self.inside = False

    def on_complete(self) -> None:
        if self.inside:
            self.overlap.append("on_complete")
        super().on_complete()


def test_replay_terminal_event_never_overlaps_on_subscribe():
    # found by the race above: replay joined a subscriber to the connection before calling
    # its on_subscribe, so a terminal event from another thread could run inside (or
    # before) on_subscribe (§1.3, §1.9)
    pp: PublishProcessor[int] = PublishProcessor.create()
    c = pp.replay()
    first = c.test()
    c.connect()
    late = _SlowOnSubscribe()
    t = threading.Thread(target=c.subscribe, args=(late,), name="test-slow-on-subscribe")
    t.start()
    try:
        assert late.entered.wait(5)
        pp.on_complete()  # while the late subscriber is still inside on_subscribe
        first.assert_result()
    finally:
        late.release.set()
        t.join(5)
    assert late.overlap == []
    late.assert_not_complete()  # RxJava 2 FlowableReplay: the terminal event needs a request
    late.request(1)
    late.await_done(5).assert_result().assert_protocol_ok()


# ---- item 9: amounts above LONG_MAX (both atomics backends: 64-bit cells must never see them)

ABOVE = [LONG_MAX + 1, 2**64, 2**100]  # what a 64-bit cell cannot hold


@pytest.mark.parametrize("n", ABOVE)
@pytest.mark.parametrize("op", ["take", "limit"])
def test_take_limit_huge_n_is_unbounded(op, n):
    # hide(): the operator itself, not a fused synchronous chain
    ts = getattr(Flowable.range(1, 5).hide(), op)(n).test()
    ts.await_done(5).assert_result(1, 2, 3, 4, 5)


@pytest.mark.parametrize("n", [LONG_MAX, *ABOVE])
@pytest.mark.parametrize("op", ["take", "limit"])
def test_take_limit_huge_n_forwards_requests(op, n):
    requests: list[int] = []
    ts = getattr(Flowable.range(1, 5).do_on_request(requests.append), op)(n).test(0)
    ts.request(2)
    ts.assert_values(1, 2)
    ts.request(2**64)
    ts.await_done(5).assert_result(1, 2, 3, 4, 5)
    assert requests == [2, LONG_MAX]  # n >= LONG_MAX: unbounded, the request passes capped


@pytest.mark.parametrize("n", ABOVE)
def test_take_last_huge_n_keeps_everything(n):
    Flowable.range(1, 5).take_last(n).test().await_done(5).assert_result(1, 2, 3, 4, 5)
    ts = Flowable.range(1, 5).take_last(n).test(0)
    ts.request(2)
    ts.assert_values(1, 2)
    ts.request(2**64)
    ts.assert_result(1, 2, 3, 4, 5)


@pytest.mark.parametrize("n", ABOVE)
def test_test_subscriber_huge_initial_request_is_capped(n):
    requests: list[int] = []
    Flowable.range(1, 3).do_on_request(requests.append).test(n).assert_result(1, 2, 3)
    assert requests == [LONG_MAX]
    Flowable.just(1).test(n).assert_result(1)


@pytest.mark.parametrize("n", ABOVE)
@pytest.mark.parametrize("make", [
    pytest.param(lambda: Flowable.range(1, 3), id="range"),
    pytest.param(lambda: Flowable.from_iterable([1, 2, 3]), id="from_iterable"),
    pytest.param(lambda: Flowable.range(1, 3).map(lambda x: x), id="map"),
    pytest.param(lambda: Flowable.range(1, 3).hide().filter(lambda x: True), id="filter"),
    pytest.param(lambda: Flowable.range(1, 3).observe_on(Schedulers.trampoline()),
                 id="observe_on"),
    pytest.param(lambda: Flowable.range(1, 3).flat_map(Flowable.just), id="flat_map"),
    pytest.param(lambda: Flowable.range(1, 3).concat_map(Flowable.just), id="concat_map"),
    pytest.param(lambda: Flowable.range(1, 3).publish().ref_count(), id="publish"),
    pytest.param(lambda: Flowable.range(1, 3).replay().auto_connect(), id="replay"),
    pytest.param(lambda: Flowable.range(1, 3).cache(), id="cache"),
    pytest.param(lambda: Flowable.range(1, 3).take_last(2), id="take_last"),
    pytest.param(lambda: Flowable.range(1, 3).on_backpressure_buffer(), id="obp_buffer"),
    pytest.param(lambda: Flowable.range(1, 3).rebatch_requests(2), id="rebatch"),
    pytest.param(lambda: Flowable.range(1, 3).hide().take(10), id="take"),
])
def test_requests_above_long_max_are_capped(make, n):
    # test(n): the initial request (capped by TestSubscriber), then more huge requests that
    # each operator must cap before they reach its 64-bit demand cell (§3.17)
    ts = make().test(n)
    ts.request(n)
    ts.await_done(5).assert_complete().assert_no_errors()
    ts = make().test(0)
    ts.request(1)
    ts.request(n)
    ts.request(n)
    ts.await_done(5).assert_complete().assert_no_errors()


# ---- item 14: every MissingBackpressureException names its operator and the fix

SLOWER_THAN_TIMER = ("the downstream is slower than the timer: add on_backpressure_buffer()/"
                     "on_backpressure_drop()/on_backpressure_latest() after it, or request more")


def test_buffer_time_inside_flat_map_names_itself(sched):
    pp: PublishProcessor[int] = PublishProcessor.create()
    ts = Flowable.just(1).flat_map(lambda _: pp.buffer_time(1, sched)).test(1)
    pp.on_next(1)
    sched.advance_time_by(1)
    ts.assert_values([1])
    sched.advance_time_by(1)
    ts.assert_error(MissingBackpressureException)
    ts.assert_error_message(
        "buffer_time: could not emit a buffer due to lack of requests; " + SLOWER_THAN_TIMER)


def test_interval_without_demand_names_itself(sched):
    ts = Flowable.interval(1, scheduler=sched).test(1)
    sched.advance_time_by(2)
    ts.assert_error(MissingBackpressureException)
    ts.assert_error_message(
        "interval: could not emit value 1 due to lack of requests; " + SLOWER_THAN_TIMER)


class _IgnoresBackpressure(Flowable[int]):
    """Emits ``n`` items at subscription whatever was requested (breaks §1.1)."""

    def __init__(self, n: int) -> None:
        self.n = n

    def subscribe_actual(self, subscriber) -> None:
        subscriber.on_subscribe(_NoOp())
        for i in range(self.n):
            subscriber.on_next(i)


class _NoOp(Subscription):
    def request(self, n: int) -> None:
        pass

    def cancel(self) -> None:
        pass


def test_observe_on_overflow_names_itself_and_its_buffer_size(sched):
    ts = _IgnoresBackpressure(5).observe_on(sched, buffer_size=4).test()
    sched.trigger_actions()
    ts.assert_error(MissingBackpressureException)
    ts.assert_error_message(
        "observe_on: the queue of 4 items is full: the upstream emitted more than it was "
        "asked for (it ignores backpressure, §1.1); increase buffer_size or add "
        "on_backpressure_buffer()/on_backpressure_drop()/on_backpressure_latest() before "
        "observe_on")


@pytest.mark.parametrize("make, name", [
    pytest.param(lambda src: src.publish(2).auto_connect(), "publish", id="publish"),
    pytest.param(lambda src: src.concat_map(Flowable.just, 2), "concat_map", id="concat_map"),
    pytest.param(lambda src: src.rebatch_requests(2), "rebatch_requests", id="rebatch"),
    pytest.param(lambda src: src.on_backpressure_error(), "on_backpressure_error",
                 id="on_backpressure_error"),
])
def test_queue_full_names_the_operator(make, name, plugin_errors):
    ts = make(_IgnoresBackpressure(10)).test(1)  # later overflows may be undeliverable
    ts.request(10)  # rebatch_requests delays its error behind the queued items (RxJava 2)
    ts.assert_error(MissingBackpressureException)
    message = str(ts.errors()[0])
    assert message.startswith(f"{name}: "), message
    assert "on_backpressure_" in message, message


def test_processor_without_demand_names_itself():
    pp: PublishProcessor[int] = PublishProcessor.create()
    ts = pp.test(0)
    pp.on_next(1)
    ts.assert_error(MissingBackpressureException)
    assert str(ts.errors()[0]).startswith(
        "PublishProcessor: could not emit a value due to lack of requests; ")


# ---- item 14: a function that returned None is named


def parse(x: int) -> None:
    return None


@pytest.mark.parametrize("make", [
    pytest.param(lambda: Flowable.just(1).hide().map(parse), id="map"),
    pytest.param(lambda: Flowable.range(1, 3).map(parse), id="map-fused-chain"),
    pytest.param(lambda: Flowable.range(1, 3).hide().map(parse).filter(bool), id="map-filter"),
    pytest.param(lambda: Flowable.from_iterable([1]).map(parse).observe_on(
        Schedulers.trampoline()), id="map-fused-into-observe_on"),
])
def test_map_returning_none_names_the_function(make):
    ts = make().test()
    ts.await_done(5).assert_error(TypeError)
    ts.assert_error_message("map: the mapper function parse returned None")


def test_map_returning_none_names_a_lambda_by_qualname():
    ts = Flowable.just(1).hide().map(lambda x: None).test()
    ts.assert_error(TypeError)
    message = str(ts.errors()[0])
    assert message.startswith("map: the mapper function "), message
    assert "<lambda>" in message and message.endswith(" returned None"), message


def test_single_map_returning_none_names_the_function():
    from rxpy2 import Single
    to = Single.just(1).map(parse).test()
    to.assert_error(TypeError)
    assert str(to.errors()[0]) == "map: the mapper function parse returned None"


@pytest.mark.parametrize("op", ["concat_map", "switch_map", "concat_map_eager"])
def test_flattening_mapper_returning_none_names_the_function(op):
    ts = getattr(Flowable.range(1, 2).hide(), op)(parse).test()
    ts.assert_error(TypeError)
    ts.assert_error_message(f"{op}: the mapper function parse returned None")


def test_flat_map_iterable_mapper_returning_none_names_the_function():
    ts = Flowable.range(1, 2).hide().flat_map_iterable(parse).test()
    ts.assert_error(TypeError)
    ts.assert_error_message(
        "flat_map_iterable/concat_map_iterable: the mapper function parse returned None")


def combine(a: int, b: int) -> None:
    return None


@pytest.mark.parametrize("make, expected", [
    pytest.param(lambda: Flowable.range(1, 3).hide().reduce(combine).to_flowable(),
                 "reduce: the reducer function combine returned None", id="reduce"),
    pytest.param(lambda: Flowable.range(1, 3).hide().scan(combine),
                 "scan: the accumulator function combine returned None", id="scan"),
    pytest.param(lambda: Flowable.range(1, 3).hide().reduce(combine, 0).to_flowable(),
                 "reduce: the reducer function combine returned None", id="reduce-seed"),
    pytest.param(lambda: Flowable.range(1, 3).hide().scan(combine, 0).skip(1),
                 "scan: the accumulator function combine returned None", id="scan-seed"),
    pytest.param(lambda: Flowable.zip(Flowable.just(1), Flowable.just(2), zipper=combine),
                 "zip: the zipper function combine returned None", id="zip"),
    pytest.param(lambda: Flowable.just(1).zip_with([2], combine),
                 "zip_with: the zipper function combine returned None", id="zip_with-iterable"),
    pytest.param(lambda: Flowable.combine_latest(Flowable.just(1), Flowable.just(2),
                                                 combiner=combine),
                 "combine_latest: the combiner function combine returned None",
                 id="combine_latest"),
    pytest.param(lambda: Flowable.just(1).with_latest_from(Flowable.just(2), combiner=combine),
                 "with_latest_from: the combiner function combine returned None",
                 id="with_latest_from"),
])
def test_function_returning_none_is_named(make, expected):
    ts = make().test()
    ts.assert_error(TypeError)
    ts.assert_error_message(expected)
