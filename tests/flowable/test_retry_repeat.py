"""retry, repeat, repeat_until: resubscription with demand carried over, in a trampoline."""

from __future__ import annotations

import pytest
from probes import Manual

from rxpy2 import Flowable
from rxpy2._internal.subscriptions.empty import EmptySubscription
from rxpy2.exceptions import CompositeException
from rxpy2.reactivestreams import LONG_MAX


class FailingSource(Flowable[int]):
    """Emits ``items`` (ignoring backpressure is not needed: tests request enough), then fails;
    after ``fail_times`` failing runs it emits the items and completes."""

    def __init__(self, items=(), fail_times: int = LONG_MAX, error_factory=None) -> None:
        self.items = list(items)
        self.fail_times = fail_times
        self.subscriptions = 0
        self.error_factory = error_factory or (lambda i: RuntimeError(f"fail {i}"))

    def subscribe_actual(self, subscriber) -> None:
        self.subscriptions += 1
        i = self.subscriptions
        if not self.items:
            if i <= self.fail_times:
                EmptySubscription.error(self.error_factory(i), subscriber)
            else:
                EmptySubscription.complete(subscriber)
            return
        tail = (Flowable.error(self.error_factory(i)) if i <= self.fail_times
                else Flowable.empty())
        Flowable.from_array(self.items).concat_with(tail).subscribe(subscriber)


# ---------------------------------------------------------------------------- retry

def test_retry_until_success():
    src = FailingSource([1, 2], fail_times=2)
    src.retry().test().assert_result(1, 2, 1, 2, 1, 2)
    assert src.subscriptions == 3


def test_retry_times_exhausted_error_goes_downstream():
    src = FailingSource([1], fail_times=LONG_MAX)
    ts = src.retry(2).test()
    ts.assert_failure(RuntimeError, 1, 1, 1)
    assert str(ts.errors()[0]) == "fail 3"
    assert src.subscriptions == 3


def test_retry_zero_times_is_no_retry():
    src = FailingSource([], fail_times=LONG_MAX)
    src.retry(0).test().assert_failure(RuntimeError)
    assert src.subscriptions == 1


def test_retry_predicate_false_stops():
    src = FailingSource([7], fail_times=LONG_MAX)
    seen = []

    def pred(e):
        seen.append(str(e))
        return len(seen) < 3

    ts = src.retry(predicate=pred).test()
    ts.assert_failure(RuntimeError, 7, 7, 7)
    assert seen == ["fail 1", "fail 2", "fail 3"]
    assert src.subscriptions == 3


def test_retry_predicate_and_times_both_apply():
    src = FailingSource([], fail_times=LONG_MAX)
    src.retry(2, lambda e: True).test().assert_failure(RuntimeError)
    assert src.subscriptions == 3


def test_retry_predicate_raising_gives_composite():
    original = RuntimeError("original")
    src = FailingSource([], fail_times=LONG_MAX, error_factory=lambda i: original)

    def pred(e):
        raise ValueError("pred")

    ts = src.retry(predicate=pred).test()
    ts.assert_failure(CompositeException)
    ex = ts.errors()[0]
    assert ex.exceptions[0] is original
    assert isinstance(ex.exceptions[1], ValueError)
    assert src.subscriptions == 1


def test_retry_many_times_no_recursion():
    src = FailingSource([], fail_times=LONG_MAX)
    ts = src.retry(10_000).test()
    ts.assert_failure(RuntimeError)
    assert src.subscriptions == 10_001


def test_retry_many_times_with_items_no_recursion():
    src = FailingSource([1], fail_times=5_000)
    ts = src.retry().test()
    ts.assert_value_count(5_001).assert_complete().assert_no_errors()


def test_retry_carries_remaining_demand():
    requests: list[int] = []
    src = FailingSource([1, 2], fail_times=1)
    ts = src.do_on_request(requests.append).retry().test(3)
    # first run: 1, 2, error -> the second run is asked for the 1 still outstanding
    ts.assert_values(1, 2, 1).assert_not_complete()
    assert requests == [3, 1]
    ts.request(5)
    ts.assert_result(1, 2, 1, 2)
    assert requests == [3, 1, 5]


def test_retry_unbounded_demand():
    requests: list[int] = []
    FailingSource([1], fail_times=2).do_on_request(requests.append).retry().test() \
        .assert_result(1, 1, 1)
    assert requests == [LONG_MAX] * 3


def test_retry_cancel_reaches_source_and_stops_resubscription():
    src = Manual()
    ts = src.retry().test()
    src.subscriber.on_error(RuntimeError())
    assert len(src.subscribers) == 2
    ts.cancel()
    assert src.probes[1].cancelled == 1
    ts.assert_empty()


def test_retry_complete_passes_through():
    Flowable.range(1, 3).retry().test().assert_result(1, 2, 3)


def test_retry_bad_arguments():
    with pytest.raises(ValueError):
        Flowable.just(1).retry(-1)
    with pytest.raises(TypeError):
        Flowable.just(1).retry(1, 42)
    with pytest.raises(TypeError):
        Flowable.just(1).retry("3")


def test_retry_race_request_vs_error(race_runner, race_rounds):
    for _ in range(race_rounds):
        src = Manual()
        ts = src.retry().test(0)
        ts.request(1)
        src.subscriber.on_next(0)
        first = src.subscriber
        race_runner.race(lambda ts=ts: ts.request(2), lambda first=first: first.on_error(RuntimeError()))
        assert len(src.subscribers) == 2
        # the second subscription got exactly the outstanding 2, in one or two requests
        assert sum(src.probes[1].requests) == 2
        src.subscriber.on_next(1)
        src.subscriber.on_next(2)
        src.subscriber.on_complete()
        ts.assert_result(0, 1, 2).assert_protocol_ok()


# ---------------------------------------------------------------------------- repeat

def test_repeat_just():
    Flowable.just(1).repeat(3).test().assert_result(1, 1, 1)


def test_repeat_once_is_the_source():
    Flowable.range(1, 2).repeat(1).test().assert_result(1, 2)


def test_repeat_zero_is_empty():
    Flowable.range(1, 2).repeat(0).test().assert_result()


def test_repeat_request_accounting_carries_over():
    requests: list[int] = []
    ts = Flowable.range(1, 2).do_on_request(requests.append).repeat(3).test(2)
    ts.assert_values(1, 2).assert_not_complete()
    assert requests == [2]  # the second run is subscribed, but nothing is outstanding
    ts.request(3)
    ts.assert_values(1, 2, 1, 2, 1).assert_not_complete()
    assert requests == [2, 3, 1]
    ts.request(1)
    ts.assert_result(1, 2, 1, 2, 1, 2)
    assert requests == [2, 3, 1, 1]


def test_repeat_forever_under_backpressure_then_cancel():
    cancels: list[int] = []
    ts = Flowable.just(1).do_on_cancel(lambda: cancels.append(1)).repeat().test(5)
    ts.assert_values(1, 1, 1, 1, 1).assert_not_complete()
    ts.cancel()
    assert cancels == [1]
    ts.request(3)
    ts.assert_value_count(5)


def test_repeat_many_no_recursion():
    Flowable.just(1).repeat(10_000).test().assert_value_count(10_000).assert_complete()
    Flowable.empty().repeat(10_000).test().assert_result()


def test_repeat_error_stops():
    counter = []
    src = Flowable.defer(lambda: (counter.append(1), Flowable.error(RuntimeError()))[1])
    src.repeat(5).test().assert_failure(RuntimeError)
    assert counter == [1]


def test_repeat_cancel_reaches_source():
    src = Manual()
    ts = src.repeat(3).test()
    src.subscriber.on_next(1)
    src.subscriber.on_complete()
    assert len(src.subscribers) == 2
    ts.cancel()
    assert src.probes[1].cancelled == 1
    assert src.probes[0].cancelled == 0  # it completed: no cancel needed
    ts.assert_values(1).assert_not_complete()


def test_repeat_bad_arguments():
    with pytest.raises(ValueError):
        Flowable.just(1).repeat(-1)
    with pytest.raises(TypeError):
        Flowable.just(1).repeat(1.5)


def test_repeat_race_request_vs_completion(race_runner, race_rounds):
    for _ in range(race_rounds):
        src = Manual()
        ts = src.repeat(2).test(0)
        ts.request(1)
        src.subscriber.on_next(0)
        first = src.subscriber
        race_runner.race(lambda ts=ts: ts.request(3), first.on_complete)
        assert len(src.subscribers) == 2
        assert sum(src.probes[1].requests) == 3
        for i in (1, 2, 3):
            src.subscriber.on_next(i)
        src.subscriber.on_complete()
        ts.assert_result(0, 1, 2, 3).assert_protocol_ok()


# ---------------------------------------------------------------------------- repeat_until

def test_repeat_until():
    runs = []

    def stop():
        return len(runs) >= 3

    Flowable.defer(lambda: (runs.append(1), Flowable.just(len(runs)))[1]) \
        .repeat_until(stop).test().assert_result(1, 2, 3)


def test_repeat_until_stop_true_at_once():
    Flowable.range(1, 2).repeat_until(lambda: True).test().assert_result(1, 2)


def test_repeat_until_stop_raising():
    Flowable.just(1).repeat_until(lambda: 1 // 0).test().assert_failure(ZeroDivisionError, 1)


def test_repeat_until_many_no_recursion():
    n = [0]

    def stop():
        n[0] += 1
        return n[0] >= 10_000

    Flowable.just(1).repeat_until(stop).test().assert_value_count(10_000).assert_complete()


def test_repeat_until_request_accounting():
    requests: list[int] = []
    ts = Flowable.range(1, 3).do_on_request(requests.append).repeat_until(lambda: False).test(4)
    ts.assert_values(1, 2, 3, 1)
    assert requests == [4, 1]


def test_repeat_until_error_passthrough_and_bad_argument():
    Flowable.error(RuntimeError()).repeat_until(lambda: False).test().assert_failure(RuntimeError)
    with pytest.raises(TypeError):
        Flowable.just(1).repeat_until(None)
