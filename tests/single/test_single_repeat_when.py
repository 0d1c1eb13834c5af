"""Single.repeat_when (RxJava 2: toFlowable().repeatWhen(handler)).

The handler's errors, the source's error and cancel: in test_maybe_retry.py, for the
three types at once.
"""

from __future__ import annotations

import pytest

from rxpy2 import Flowable
from rxpy2 import Single
from rxpy2.processors import PublishProcessor

pytestmark = pytest.mark.usefixtures("shutdown_schedulers")


def test_repeat_when_handler_checked():
    with pytest.raises(TypeError):
        Single.just(1).repeat_when(None)
    with pytest.raises(TypeError):
        Single.just(1).repeat_when(1)


def test_repeat_when_returns_flowable():
    assert isinstance(Single.just(1).repeat_when(lambda r: r), Flowable)


def test_repeat_when_take():
    # as in RxJava 2: take's completion follows its last item at once, before the
    # trampolined resubscription, so take(3) lets 3 repetitions through
    Single.just(1).repeat_when(lambda r: r.take(3)).test().assert_result(1, 1, 1)


def test_repeat_when_empty_handler_completes_before_first():
    # as in RxJava 2: the handler's Publisher is subscribed first; its completion
    # cancels everything before the Single is ever subscribed
    Single.just(1).repeat_when(lambda r: Flowable.empty()).test().assert_result()


def test_repeat_when_backpressure():
    subscribed = [0]

    def make():
        subscribed[0] += 1
        return Single.just(subscribed[0])
    ts = Single.defer(make).repeat_when(lambda r: r.take(4)).test(0)
    ts.assert_empty()
    assert subscribed[0] == 1
    ts.request(1)
    ts.assert_values(1)
    ts.request(2)
    ts.assert_values(1, 2, 3)
    ts.request(5)
    ts.assert_result(1, 2, 3, 4)


def test_repeat_when_external_trigger():
    pp = PublishProcessor()
    ts = Single.just(1).repeat_when(lambda r: pp).test()
    ts.assert_values(1)
    pp.on_next(0)
    ts.assert_values(1, 1)
    pp.on_complete()
    ts.assert_result(1, 1)


def test_repeat_when_stack_safe_100k():
    Single.just(1).repeat_when(lambda r: r.take(100_000)).count().test().assert_result(100_000)


def test_repeat_when_with_timer(sched):
    ts = Single.just(1).repeat_when(lambda r: r.take(2).flat_map(
        lambda _x: Flowable.timer(1, sched))).test()
    ts.assert_values(1)
    sched.advance_time_by(1)
    ts.assert_values(1, 1)
    sched.advance_time_by(1)
    ts.assert_result(1, 1, 1)


def test_repeat_when_race_cancel_vs_trigger(race_runner, race_rounds):
    for _ in range(race_rounds):
        pp = PublishProcessor()
        ts = Single.just(1).repeat_when(lambda r, pp=pp: pp).test()
        race_runner.race(ts.cancel, lambda pp=pp: pp.on_next(0))
        assert ts.values() in ([1], [1, 1])
        ts.assert_no_errors().assert_not_complete()


def test_repeat_when_race_request_vs_trigger(race_runner, race_rounds):
    for _ in range(race_rounds):
        pp = PublishProcessor()
        ts = Single.just(1).repeat_when(lambda r, pp=pp: pp).test(1)
        race_runner.race(lambda ts=ts: ts.request(1), lambda pp=pp: pp.on_next(0))
        ts.assert_values(1, 1)
