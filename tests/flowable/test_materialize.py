"""materialize (the final notification waits for demand) and dematerialize."""

from __future__ import annotations

from functools import partial
from typing import Any

import pytest
from probes import ManualSource
from probes import Spy
from probes import failing

from rxpy2 import Flowable
from rxpy2._internal.subscriptions.empty import EmptySubscription
from rxpy2.notification import Notification
from rxpy2.reactivestreams import LONG_MAX

on_next = Notification.create_on_next
on_complete = Notification.create_on_complete
on_error = Notification.create_on_error


def boom(*_args):
    raise ZeroDivisionError("boom")


# ----------------------------------------------------------------- materialize

def test_materialize_values_and_completion():
    Flowable.range(1, 3).materialize().test().assert_result(
        on_next(1), on_next(2), on_next(3), on_complete())


def test_materialize_error():
    err = ValueError("boom")
    ts = failing(1, error=err).materialize().test()
    ts.assert_result(on_next(1), on_error(err))
    assert ts.values()[1].error is err


def test_materialize_requests_pass_through():
    spy = Spy(Flowable.range(1, 5))
    ts = spy.materialize().test(0)
    ts.request(2)
    ts.assert_values(on_next(1), on_next(2))
    assert spy.requests == [2]


def test_materialize_completion_waits_for_demand():
    src = ManualSource()
    ts = src.materialize().test(2)
    src.emit(1, 2)
    src.complete()
    ts.assert_values(on_next(1), on_next(2)).assert_not_complete()
    ts.request(1)
    ts.assert_result(on_next(1), on_next(2), on_complete())
    assert src.requests == [2]  # the request that served the notification stayed here


def test_materialize_error_waits_for_demand():
    src = ManualSource()
    ts = src.materialize().test(0)
    err = ValueError("x")
    src.error(err)
    ts.assert_empty()
    ts.request(1)
    ts.assert_result(on_error(err))


def test_materialize_completion_with_leftover_demand_emits_at_once():
    src = ManualSource()
    ts = src.materialize().test(3)
    src.emit(1)
    src.complete()
    ts.assert_result(on_next(1), on_complete())


def test_materialize_unbounded():
    spy = Spy(Flowable.range(1, 2))
    spy.materialize().test().assert_value_count(3).assert_complete()
    assert spy.requests == [LONG_MAX]


def test_materialize_cancel_reaches_source():
    src = ManualSource()
    src.materialize().test().cancel()
    assert src.cancelled


def test_materialize_race_request_vs_complete(race_runner, race_rounds):
    for _ in range(race_rounds):
        src = ManualSource()
        ts = src.materialize().test(1)
        src.emit(1)
        race_runner.race(src.complete, partial(ts.request, 1))
        ts.assert_result(on_next(1), on_complete()).assert_protocol_ok()


def test_materialize_dematerialize_round_trip():
    Flowable.range(1, 4).materialize().dematerialize().test().assert_result(1, 2, 3, 4)
    err = ValueError("boom")
    failing(1, 2, error=err).materialize().dematerialize().test().assert_failure(err, 1, 2)


# ----------------------------------------------------------------- dematerialize

def test_dematerialize_values():
    Flowable.just(on_next(1), on_next(2), on_complete()).dematerialize().test() \
        .assert_result(1, 2)


def test_dematerialize_complete_notification_cancels_upstream():
    src = ManualSource()
    ts = src.dematerialize().test()
    src.emit(on_next(1), on_complete())
    ts.assert_result(1)
    assert src.cancelled
    src.emit(on_next(2))  # dropped
    src.complete()  # dropped
    ts.assert_result(1)


def test_dematerialize_error_notification_cancels_upstream():
    src = ManualSource()
    ts = src.dematerialize().test()
    err = ValueError("boom")
    src.emit(on_next(1), on_error(err))
    ts.assert_failure(err, 1)
    assert src.cancelled


def test_dematerialize_error_notification_after_end_goes_to_plugins(plugin_errors):
    src = ManualSource()
    ts = src.dematerialize().test()
    late = ValueError("late")
    src.emit(on_complete(), on_next(1), on_error(late))
    ts.assert_result()
    assert plugin_errors == [late]


def test_dematerialize_source_completion_without_notification():
    src = ManualSource()
    ts = src.dematerialize().test()
    src.emit(on_next(1))
    src.complete()
    ts.assert_result(1)


def test_dematerialize_source_error_passthrough():
    failing(on_next(1)).dematerialize().test().assert_failure(ValueError, 1)


def test_dematerialize_with_selector():
    Flowable.just(1, 2, 3).dematerialize(
        lambda x: on_next(x * 10) if x < 3 else on_complete()).test().assert_result(10, 20)


def test_dematerialize_requests_pass_through():
    spy = Spy(Flowable.just(on_next(1), on_next(2), on_next(3), on_complete()))
    ts = spy.dematerialize().test(0)
    ts.request(1)
    ts.assert_values(1)
    ts.request(1)
    ts.assert_values(1, 2)
    assert spy.requests == [1, 1]


def test_dematerialize_selector_raises_cancels_upstream():
    spy = Spy(Flowable.range(1, 3))
    spy.dematerialize(boom).test().assert_failure(ZeroDivisionError)
    assert spy.cancels == 1


def test_dematerialize_selector_none_is_type_error():
    spy = Spy(Flowable.range(1, 3))
    spy.dematerialize(lambda x: None).test().assert_failure(TypeError)
    assert spy.cancels == 1


def test_dematerialize_non_notification_item_is_type_error():
    src = ManualSource()
    ts = src.dematerialize().test()
    src.emit(on_next(1), 5)
    ts.assert_failure(TypeError, 1)
    assert src.cancelled


def test_dematerialize_cancel_reaches_source():
    src = ManualSource()
    src.dematerialize().test().cancel()
    assert src.cancelled


def test_dematerialize_bad_selector():
    with pytest.raises(TypeError):
        Flowable.just(1).dematerialize(5)


def test_a_request_after_cancel_emits_nothing_3_6() -> None:
    """§3.6: after cancel, a request is a no-op, even one that finds the completion notice
    waiting (RxJava 2.2.21 emits it then; tools/soak seed 20475950 found it behind
    rebatch_requests, which replenishes right after the item a cancel came in)."""
    from rxpy2.observers import FlowableSubscriber  # not wrapped: no StrictSubscriber between
    from rxpy2.reactivestreams import Subscription

    got: list[object] = []

    class CancelThenRequest(FlowableSubscriber[object]):
        def on_subscribe(self, s: Subscription) -> None:
            self.s = s
            s.request(1)

        def on_next(self, item: object) -> None:
            got.append(item)
            self.s.cancel()
            self.s.request(1)

        def on_error(self, error: BaseException) -> None:
            got.append(error)

        def on_complete(self) -> None:
            got.append("complete")

    Flowable.just(7).materialize().subscribe(CancelThenRequest())
    assert [str(x) for x in got] == ["OnNextNotification[7]"]
    # the fallback item waiting for demand: cancel, then a request, gets nothing either

    class NoDemand(CancelThenRequest):
        def on_subscribe(self, s: Subscription) -> None:
            self.s = s  # no request: the fallback waits

    late = NoDemand()
    got.clear()
    Flowable.error(RuntimeError()).on_error_return_item(5).subscribe(late)
    late.s.cancel()
    late.s.request(1)
    assert got == []

    # the upstream terminates after the cancel (it need not stop at once, §3.5): no final item

    class Late(Flowable[object]):
        def subscribe_actual(self, subscriber: Any) -> None:
            self.subscriber = subscriber
            subscriber.on_subscribe(EmptySubscription.INSTANCE)

    class Demand(CancelThenRequest):
        def on_subscribe(self, s: Subscription) -> None:
            self.s = s
            s.request(1)

    src, d = Late(), Demand()
    src.materialize().subscribe(d)
    d.s.cancel()
    src.subscriber.on_complete()
    assert got == []
