"""DeferredScalarSubscription/Subscriber and SinglePostCompleteSubscriber: value vs demand."""

# Each race round's closures run inside that round: late binding of loop variables is
# what the rounds rely on, not a bug.
# ruff: noqa: B023

from __future__ import annotations

from rx_internal_support import COMPLETE
from rx_internal_support import ProbeSubscription
from rx_internal_support import Recorder

from rxpy2._internal.fuseable import ANY
from rxpy2._internal.fuseable import ASYNC
from rxpy2._internal.fuseable import NONE
from rxpy2._internal.fuseable import SYNC
from rxpy2._internal.subscribers.deferred_scalar import DeferredScalarSubscriber
from rxpy2._internal.subscribers.single_post_complete import SinglePostCompleteSubscriber
from rxpy2._internal.subscriptions import DeferredScalarSubscription
from rxpy2.flowable import Flowable
from rxpy2.reactivestreams import LONG_MAX
from rxpy2.testing import TestSubscriber

# ---------------------------------------------------------------- DeferredScalarSubscription


def _dss():
    r = Recorder()
    d = DeferredScalarSubscription(r)
    r.on_subscribe(d)
    return r, d


def test_complete_then_request():
    r, d = _dss()
    d.complete(5)
    assert r.events == []
    d.request(1)
    assert r.events == [5, COMPLETE]
    d.request(1)
    d.complete(6)
    assert r.events == [5, COMPLETE]
    r.assert_well_formed()


def test_request_then_complete():
    r, d = _dss()
    d.request(1)
    d.request(LONG_MAX)
    assert r.events == []
    d.complete(5)
    assert r.events == [5, COMPLETE]
    d.complete(6)
    assert r.events == [5, COMPLETE]


def test_cancel_before_value():
    r, d = _dss()
    d.request(1)
    d.cancel()
    assert d.is_cancelled()
    d.complete(5)
    assert r.events == []
    assert d.value is None


def test_cancel_after_value_before_request():
    r, d = _dss()
    d.complete(5)
    d.cancel()
    assert d.value is None  # released
    d.request(1)
    assert r.events == []


def test_cancel_inside_on_next_suppresses_on_complete():
    r = Recorder(lambda rec, item: d.cancel())
    d = DeferredScalarSubscription(r)
    r.on_subscribe(d)
    d.request(1)
    d.complete(5)
    assert r.events == [5]


def test_try_cancel():
    _, d = _dss()
    assert d.try_cancel() is True
    assert d.try_cancel() is False


def test_bad_request_reported(plugin_errors):
    r, d = _dss()
    d.request(0)
    d.complete(5)
    assert r.events == []  # a bad request is not demand
    assert [type(e) for e in plugin_errors] == [ValueError]


def test_fusion_async():
    r, d = _dss()
    assert d.request_fusion(SYNC) == NONE
    assert d.request_fusion(ANY) == ASYNC
    assert d.is_empty() and d.poll() is None
    d.complete(7)  # signals on_next (meaning "poll now") and on_complete, without demand
    assert r.events == [7, COMPLETE]
    assert not d.is_empty()
    assert d.poll() == 7
    assert d.poll() is None and d.is_empty()


def test_fusion_clear():
    r, d = _dss()
    d.request_fusion(ASYNC)
    d.complete(7)
    d.clear()
    assert d.is_empty() and d.poll() is None


def test_race_complete_vs_request(race_runner, race_rounds):
    orders = set()
    for i in range(race_rounds):
        r, d = _dss()
        race_runner.race(lambda: d.complete(i), lambda: d.request(1))
        assert r.events == [i, COMPLETE]
        r.assert_well_formed()
        orders.add(d.value is None)
    assert orders == {True}  # the value is not kept once emitted


def test_race_complete_vs_cancel(race_runner, race_rounds):
    for i in range(race_rounds // 2):
        r, d = _dss()
        d.request(1)
        race_runner.race(lambda: d.complete(i), d.cancel)
        r.assert_well_formed()
        assert r.events in ([], [i], [i, COMPLETE])
        assert d.is_cancelled()  # a racing complete() must not undo the cancellation
        assert d.value is None


def test_race_fused_complete_vs_cancel(race_runner, race_rounds):
    for i in range(race_rounds // 2):
        r, d = _dss()
        d.request_fusion(ASYNC)
        race_runner.race(lambda: d.complete(i), d.cancel)
        r.assert_well_formed()
        assert r.events in ([], [i], [i, COMPLETE])
        assert d.is_cancelled()


def test_race_request_vs_request(race_runner, race_rounds):
    for i in range(race_rounds // 2):
        r, d = _dss()
        d.complete(i)
        race_runner.race(lambda: d.request(1), lambda: d.request(1))
        assert r.events == [i, COMPLETE]


# ---------------------------------------------------------------- DeferredScalarSubscriber

class CountSubscriber(DeferredScalarSubscriber[object, int]):
    """count(): the number of items, emitted after completion under demand."""

    def on_next(self, item: object) -> None:
        if not self.has_value:
            self.has_value = True
            self.value = 0
        self.value += 1  # type: ignore[operator]


class LastSubscriber(DeferredScalarSubscriber[object, object]):
    def on_next(self, item: object) -> None:
        self.has_value = True
        self.value = item


class FlowableCount(Flowable[int]):
    def __init__(self, source, make=CountSubscriber) -> None:
        self.source = source
        self.make = make

    def subscribe_actual(self, subscriber) -> None:
        self.source.subscribe(self.make(subscriber))


def test_deferred_scalar_subscriber_requests_everything_and_waits_for_demand():
    r = Recorder()
    sub = CountSubscriber(r)
    up = ProbeSubscription()
    sub.on_subscribe(up)
    assert r.subscription is sub  # passes itself downstream
    assert up.requests == [LONG_MAX]
    for x in "abc":
        sub.on_next(x)
    sub.on_complete()
    assert r.events == []
    sub.request(1)
    assert r.events == [3, COMPLETE]


def test_deferred_scalar_subscriber_empty_completes():
    r = Recorder()
    sub = LastSubscriber(r)
    sub.on_subscribe(ProbeSubscription())
    sub.on_complete()
    assert r.events == [COMPLETE]


def test_deferred_scalar_subscriber_error_passes_through():
    r = Recorder()
    sub = LastSubscriber(r)
    sub.on_subscribe(ProbeSubscription())
    sub.on_next(1)
    e = ValueError("x")
    sub.on_error(e)
    assert r.events == [e]
    assert sub.value is None


def test_deferred_scalar_subscriber_cancel_reaches_upstream():
    r = Recorder()
    sub = LastSubscriber(r)
    up = ProbeSubscription()
    sub.on_subscribe(up)
    sub.cancel()
    assert up.cancelled == 1
    assert sub.is_cancelled()
    sub.on_next(1)
    sub.on_complete()
    sub.request(1)
    assert r.events == []


def test_deferred_scalar_subscriber_second_subscription(plugin_errors):
    sub = LastSubscriber(Recorder())
    sub.on_subscribe(ProbeSubscription())
    second = ProbeSubscription()
    sub.on_subscribe(second)
    assert second.cancelled == 1
    assert len(plugin_errors) == 1


def test_deferred_scalar_subscriber_in_a_flow():
    ts = FlowableCount(Flowable.range(1, 100)).test(0)
    ts.assert_empty()
    ts.request(1)
    ts.assert_result(100)
    FlowableCount(Flowable.range(1, 0), LastSubscriber).test().assert_result()


def test_race_deferred_scalar_subscriber_complete_vs_request(race_runner, race_rounds):
    for _ in range(race_rounds // 2):
        r = Recorder()
        sub = CountSubscriber(r)
        sub.on_subscribe(ProbeSubscription())
        sub.on_next("x")
        race_runner.race(sub.on_complete, lambda: sub.request(1))
        assert r.events == [1, COMPLETE]


# ---------------------------------------------------------------- SinglePostCompleteSubscriber

class EndWithSubscriber(SinglePostCompleteSubscriber[int, int]):
    """Relays items, then one final item (the sum) after the upstream completed."""

    def __init__(self, downstream) -> None:
        super().__init__(downstream)
        self.sum = 0
        self.dropped: list[int] = []

    def on_next(self, item: int) -> None:
        self.produced += 1
        self.sum += item
        self.downstream.on_next(item)

    def on_error(self, error: BaseException) -> None:
        self.downstream.on_error(error)

    def on_complete(self) -> None:
        self.complete(self.sum)

    def on_drop(self, n: int) -> None:
        self.dropped.append(n)


def _spc(initial: int = 0):
    r = Recorder()
    sub = EndWithSubscriber(r)
    up = ProbeSubscription()
    sub.on_subscribe(up)
    if initial:
        sub.request(initial)
    return r, sub, up


def test_final_item_waits_for_demand():
    r, sub, up = _spc(2)
    assert up.requests == [2]
    sub.on_next(1)
    sub.on_next(2)
    sub.on_complete()
    assert r.events == [1, 2]  # no demand left for the final item
    sub.request(1)
    assert r.events == [1, 2, 3, COMPLETE]
    assert up.requests == [2]  # completed: nothing more goes upstream
    sub.request(1)
    assert r.events == [1, 2, 3, COMPLETE]
    r.assert_well_formed()


def test_final_item_with_demand_left_goes_at_once():
    r, sub, up = _spc(5)
    sub.on_next(1)
    sub.on_complete()
    assert r.events == [1, 1, COMPLETE]


def test_final_item_unbounded():
    r, sub, up = _spc(LONG_MAX)
    for i in range(1, 4):
        sub.on_next(i)
    sub.on_complete()
    assert r.events == [1, 2, 3, 6, COMPLETE]


def test_single_post_complete_cancel_and_bad_request(plugin_errors):
    r, sub, up = _spc()
    sub.request(-1)
    assert up.requests == []
    assert [type(e) for e in plugin_errors] == [ValueError]
    sub.cancel()
    assert up.cancelled == 1


def test_complete_twice_drops_the_second_final_item():
    r, sub, up = _spc()
    sub.complete(10)
    sub.complete(11)
    assert sub.dropped == [11]
    sub.request(1)
    assert r.events == [10, COMPLETE]


def test_race_single_post_complete_request_vs_complete(race_runner, race_rounds):
    for _ in range(race_rounds):
        r, sub, up = _spc(1)
        sub.on_next(5)  # consumes the only demand
        race_runner.race(sub.on_complete, lambda: sub.request(1))
        r.assert_well_formed()
        assert r.events == [5, 5, COMPLETE], r.events
        assert sub.dropped == []


def test_race_single_post_complete_with_leftover_demand(race_runner, race_rounds):
    for _ in range(race_rounds // 2):
        r, sub, up = _spc(3)
        sub.on_next(5)
        race_runner.race(sub.on_complete, lambda: sub.request(2))
        assert r.events == [5, 5, COMPLETE], r.events


def test_single_post_complete_in_a_flow():
    class FlowableEndWithSum(Flowable[int]):
        def __init__(self, source) -> None:
            self.source = source

        def subscribe_actual(self, subscriber) -> None:
            self.source.subscribe(EndWithSubscriber(subscriber))

    ts = TestSubscriber(0)
    FlowableEndWithSum(Flowable.range(1, 3)).subscribe(ts)
    ts.request(3)
    ts.assert_values(1, 2, 3).assert_not_complete()
    ts.request(1)
    ts.assert_result(1, 2, 3, 6)
