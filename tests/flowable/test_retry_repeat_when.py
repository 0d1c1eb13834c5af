"""Flowable.retry_when / repeat_when (RxJava 2's FlowableRetryWhen / FlowableRepeatWhen)."""

from __future__ import annotations

from typing import Any

import pytest
from probes import Boom
from probes import Manual

from rxpy2 import Flowable
from rxpy2.processors import PublishProcessor
from rxpy2.schedulers import TestScheduler
from rxpy2.testing import race


def flaky(fail_times: int, *items: int) -> tuple[Flowable[int], list[int]]:
    """A source that fails its first ``fail_times`` subscriptions (after ``items``)."""
    calls: list[int] = []

    def make() -> Flowable[int]:
        calls.append(1)
        f = Flowable.from_iterable(items)
        return f.concat_with(Flowable.error(Boom(len(calls)))) if len(calls) <= fail_times else f
    return Flowable.defer(make), calls


# ---------------------------------------------------------------- retry_when


def test_retry_when_resubscribes_per_handler_item():
    src, calls = flaky(2, 1, 2)
    src.retry_when(lambda errors: errors).test().assert_result(1, 2, 1, 2, 1, 2)
    assert len(calls) == 3


def test_retry_when_handler_error_ends_the_stream():
    src, calls = flaky(5, 1)
    errors_seen: list[Any] = []

    def handler(errors: Flowable[BaseException]) -> Flowable[Any]:
        return errors.do_on_next(errors_seen.append).take(2).concat_with(
            Flowable.error(KeyError("gave up")))

    # as in RxJava 2: the handler's error, right after its last item on the same stack,
    # ends the stream before that item's (trampolined) resubscription runs
    src.retry_when(handler).test().assert_failure(KeyError, 1, 1)
    assert [str(e) for e in errors_seen] == ["1", "2"]


def test_retry_when_handler_completion_completes():
    src = Manual()
    when: PublishProcessor[Any] = PublishProcessor.create()
    ts = src.retry_when(lambda errors: when).test()
    src.subscriber.on_next(1)
    when.on_complete()
    ts.assert_result(1)
    assert src.probe.cancelled
    Flowable.error(Boom()).retry_when(lambda errors: Flowable.empty()).test().assert_result()


def test_retry_when_with_a_growing_timer():
    sched = TestScheduler()
    src, calls = flaky(3, 7)

    def backoff(errors: Flowable[BaseException]) -> Flowable[Any]:
        return errors.zip_with(Flowable.range(1, 10), lambda e, n: n).flat_map(
            lambda n: Flowable.timer(n, sched))

    ts = src.retry_when(backoff).test()
    ts.assert_values(7)
    sched.advance_time_by(0.9)
    assert len(calls) == 1
    sched.advance_time_by(0.1)
    assert len(calls) == 2
    sched.advance_time_by(2)
    assert len(calls) == 3
    sched.advance_time_by(3)
    ts.assert_result(7, 7, 7, 7)


def test_retry_when_asks_each_attempt_for_the_outstanding_demand():
    attempts: list[Manual] = []

    def make() -> Flowable[Any]:
        attempts.append(Manual())
        return attempts[-1]

    ts = Flowable.defer(make).retry_when(lambda e: e).test(5)
    assert attempts[0].probe.requests == [5]
    attempts[0].subscriber.on_next(1)
    attempts[0].subscriber.on_next(2)
    attempts[0].subscriber.on_error(Boom())
    assert attempts[1].probe.requests == [3]
    ts.request(4)
    assert attempts[1].probe.requests == [3, 4]
    attempts[1].subscriber.on_next(3)
    attempts[1].subscriber.on_complete()
    ts.assert_result(1, 2, 3)


def test_retry_when_handler_raising_or_returning_none():
    Flowable.error(Boom()).retry_when(lambda e: 1 // 0).test().assert_failure(ZeroDivisionError)
    Flowable.error(Boom()).retry_when(lambda e: None).test().assert_failure(TypeError)


def test_retry_when_cancel_cancels_source_and_handler():
    src = Manual()
    when: PublishProcessor[Any] = PublishProcessor.create()
    ts = src.retry_when(lambda e: when).test()
    assert when.has_subscribers()
    ts.cancel()
    assert src.probe.cancelled
    assert not when.has_subscribers()


def test_retry_when_completion_cancels_the_handler():
    when: PublishProcessor[Any] = PublishProcessor.create()
    Flowable.just(1).retry_when(lambda e: when).test().assert_result(1)
    assert not when.has_subscribers()


def test_retry_when_is_stack_safe():
    # 20x the recursion limit: one frame per resubscription would overflow long before
    src, calls = flaky(20_000)
    src.retry_when(lambda e: e).test().assert_result()
    assert len(calls) == 20_001


# ---------------------------------------------------------------- repeat_when


def test_repeat_when_resubscribes_per_handler_item():
    # RxJava 2 too: the handler's completion right after its last item ends the stream
    # before that item's (trampolined) resubscription runs
    Flowable.range(1, 2).repeat_when(lambda c: c.take(2)).test().assert_result(1, 2, 1, 2)
    Flowable.range(1, 2).repeat_when(lambda c: c.take(2).concat_with(Flowable.never())) \
        .take(6).test().assert_result(1, 2, 1, 2, 1, 2)


def test_repeat_when_signals_zero_per_completion():
    seen: list[Any] = []
    Flowable.just(1).repeat_when(lambda c: c.do_on_next(seen.append).take(3)).test()
    assert seen == [0, 0, 0]


def test_repeat_when_error_cancels_handler_and_goes_downstream():
    when: PublishProcessor[Any] = PublishProcessor.create()
    Flowable.error(Boom()).repeat_when(lambda c: when).test().assert_failure(Boom)
    assert not when.has_subscribers()


def test_repeat_when_handler_error():
    Flowable.just(1).repeat_when(lambda c: c.flat_map(lambda _: Flowable.error(KeyError()))) \
        .test().assert_failure(KeyError, 1)


def test_repeat_when_is_stack_safe():
    ts = Flowable.just(1).repeat_when(lambda c: c.take(100_000)).test()
    assert len(ts.values()) == 100_000


@pytest.mark.parametrize("name", ["retry_when", "repeat_when"])
@pytest.mark.parametrize("bad", [None, 3])
def test_handler_is_checked_at_assembly(name, bad):
    with pytest.raises(TypeError):
        getattr(Flowable.just(1), name)(bad)


# ---------------------------------------------------------------- races


def _cancel_vs_resubscribe() -> None:
    src = Manual()
    when: PublishProcessor[Any] = PublishProcessor.create()
    ts = Flowable.defer(lambda: src).retry_when(lambda e: when).test()
    src.subscriber.on_error(Boom())
    subscriptions = src.subscriptions
    race(lambda: when.on_next(1), ts.cancel)
    assert not when.has_subscribers()
    assert src.subscriptions in (subscriptions, subscriptions + 1)
    assert src.probe.cancelled or src.subscriptions == subscriptions
    ts.assert_not_complete().assert_no_errors()


def test_cancel_races_resubscription():
    for _ in range(300):
        _cancel_vs_resubscribe()


def _handler_end_vs_items() -> None:
    src = Manual()
    when: PublishProcessor[Any] = PublishProcessor.create()
    ts = src.retry_when(lambda e: when).test()

    def emit() -> None:
        for i in range(20):
            src.subscriber.on_next(i)

    race(emit, when.on_complete)
    ts.assert_complete()
    values = ts.values()
    assert values == list(range(len(values)))
    assert src.probe.cancelled


def test_handler_completion_races_items():
    for _ in range(300):
        _handler_end_vs_items()
