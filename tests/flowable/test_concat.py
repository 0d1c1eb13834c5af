"""concat, concat_array, concat_array_delay_error and the combinators built on them:
start_with, start_with_array, start_with_iterable, concat_with."""

from __future__ import annotations

import pytest
from probes import Manual

from rxpy2 import Completable
from rxpy2 import Flowable
from rxpy2 import Maybe
from rxpy2 import Single
from rxpy2._internal.operators.flowable.flowable_concat import FlowableConcatArray
from rxpy2._internal.operators.flowable.flowable_concat import FlowableConcatIterable
from rxpy2.exceptions import CompositeException
from rxpy2.reactivestreams import LONG_MAX


class Counting(Flowable[int]):
    """Counts subscriptions to ``source``."""

    def __init__(self, source: Flowable[int]) -> None:
        self.source = source
        self.subscriptions = 0

    def subscribe_actual(self, subscriber) -> None:
        self.subscriptions += 1
        self.source.subscribe(subscriber)


# ---------------------------------------------------------------------------- values

def test_concat_array_values_in_order():
    Flowable.concat_array(Flowable.range(1, 3), Flowable.just(10), Flowable.range(20, 2)) \
        .test().assert_result(1, 2, 3, 10, 20, 21)


def test_concat_iterable_values_in_order():
    Flowable.concat([Flowable.just(1, 2), Flowable.empty(), Flowable.range(3, 2)]).test() \
        .assert_result(1, 2, 3, 4)


def test_concat_iterable_calls_iter_per_subscriber():
    class Sources:
        def __init__(self):
            self.calls = 0

        def __iter__(self):
            self.calls += 1
            return iter([Flowable.just(1), Flowable.just(2)])

    sources = Sources()
    f = Flowable.concat(sources)
    f.test().assert_result(1, 2)
    f.test().assert_result(1, 2)
    assert sources.calls == 2


def test_concat_empty_iterable_completes():
    Flowable.concat([]).test().assert_result()


def test_concat_hidden_sources():
    Flowable.concat_array(Flowable.range(1, 3).hide(), Flowable.range(4, 3).hide()).test() \
        .assert_result(1, 2, 3, 4, 5, 6)


# ---------------------------------------------------------------------------- errors

def test_concat_error_stops_the_sequence():
    err = RuntimeError("x")
    third = Counting(Flowable.just(3))
    Flowable.concat_array(Flowable.just(1), Flowable.error(err), third).test() \
        .assert_failure(lambda e: e is err, 1)
    assert third.subscriptions == 0


def test_concat_iterable_error_stops_the_sequence():
    third = Counting(Flowable.just(3))
    Flowable.concat([Flowable.just(1), Flowable.error(RuntimeError()), third]).test() \
        .assert_failure(RuntimeError, 1)
    assert third.subscriptions == 0


def test_concat_delay_error_single_error_as_is():
    err = RuntimeError("x")
    Flowable.concat_array_delay_error(Flowable.just(1), Flowable.error(err), Flowable.just(3)) \
        .test().assert_failure(lambda e: e is err, 1, 3)


def test_concat_delay_error_several_errors_composite():
    e1, e2 = RuntimeError("1"), ValueError("2")
    ts = Flowable.concat_array_delay_error(
        Flowable.error(e1), Flowable.just(1), Flowable.error(e2), Flowable.just(2)).test()
    ts.assert_failure(CompositeException, 1, 2)
    assert ts.errors()[0].exceptions == [e1, e2]


def test_concat_delay_error_iterable():
    e1, e2 = RuntimeError("1"), ValueError("2")
    ts = FlowableConcatIterable([Flowable.error(e1), Flowable.just(1), Flowable.error(e2)],
                                True).test()
    ts.assert_failure(CompositeException, 1)
    assert ts.errors()[0].exceptions == [e1, e2]


def test_concat_none_source_in_iterable_is_type_error():
    Flowable.concat([Flowable.just(1), None, Flowable.just(2)]).test() \
        .assert_failure(TypeError, 1)


def test_concat_none_source_delay_error_goes_on():
    ts = FlowableConcatArray((Flowable.just(1), None, Flowable.just(2)), True).test()
    ts.assert_failure(TypeError, 1, 2)


def test_concat_non_publisher_in_iterable_is_type_error():
    Flowable.concat([Flowable.just(1), [2, 3]]).test().assert_failure(TypeError, 1)


def test_concat_iterable_failing_iterator():
    def gen():
        yield Flowable.just(1)
        raise KeyError("gen")

    Flowable.concat(gen()).test().assert_failure(KeyError, 1)


def test_concat_iterable_failing_iterator_with_delayed_errors():
    e1 = RuntimeError("1")

    def gen():
        yield Flowable.error(e1)
        raise KeyError("gen")

    ts = FlowableConcatIterable(gen(), True).test()
    ts.assert_failure(CompositeException)
    assert ts.errors()[0].exceptions[0] is e1
    assert isinstance(ts.errors()[0].exceptions[1], KeyError)


def test_concat_iter_raising():
    class Bad:
        def __iter__(self):
            raise KeyError("iter")

    Flowable.concat(Bad()).test().assert_failure(KeyError)


def test_concat_bad_arguments():
    with pytest.raises(TypeError):
        Flowable.concat(None)
    with pytest.raises(TypeError):
        Flowable.concat_array(Flowable.just(1), None)
    with pytest.raises(TypeError):
        Flowable.concat_array(Flowable.just(1), 2)
    with pytest.raises(TypeError):
        Flowable.concat_array_delay_error(None)


# ---------------------------------------------------------------------------- no recursion

def test_concat_array_many_sync_sources_no_recursion():
    Flowable.concat_array(*[Flowable.just(1)] * 10_000).test() \
        .assert_value_count(10_000).assert_complete().assert_no_errors()


def test_concat_many_empty_sources_no_recursion():
    Flowable.concat([Flowable.empty()] * 100_000).test().assert_result()


def test_concat_many_sources_backpressured_no_recursion():
    ts = Flowable.concat([Flowable.just(1)] * 10_000).test(0)
    for _ in range(100):
        ts.request(100)
    ts.assert_value_count(10_000).assert_complete()


def test_concat_many_error_sources_delay_error_no_recursion():
    ts = FlowableConcatIterable([Flowable.error(RuntimeError())] * 5_000, True).test()
    ts.assert_failure(CompositeException)
    assert len(ts.errors()[0].exceptions) == 5_000


# ---------------------------------------------------------------------------- backpressure

def test_concat_remaining_demand_carries_over():
    r1: list[int] = []
    r2: list[int] = []
    ts = Flowable.concat_array(Flowable.range(1, 5).do_on_request(r1.append),
                               Flowable.range(10, 5).do_on_request(r2.append)).test(0)
    ts.assert_empty()
    assert r1 == [] and r2 == []
    ts.request(3)
    ts.assert_values(1, 2, 3)
    assert r1 == [3] and r2 == []
    ts.request(10)
    # the first source gets the 10; it delivers 2 and completes: the second gets 13 - 5 = 8
    assert r1 == [3, 10]
    assert r2 == [8]
    ts.assert_values(1, 2, 3, 4, 5, 10, 11, 12, 13, 14).assert_complete()


def test_concat_second_source_waits_for_demand():
    r2: list[int] = []
    ts = Flowable.concat_array(Flowable.range(1, 2),
                               Flowable.range(10, 5).do_on_request(r2.append)).test(2)
    ts.assert_values(1, 2).assert_not_complete()
    assert r2 == []  # subscribed, but nothing left to request
    ts.request(1)
    assert r2 == [1]
    ts.assert_values(1, 2, 10)


def test_concat_unbounded_demand():
    r1: list[int] = []
    r2: list[int] = []
    Flowable.concat_array(Flowable.range(1, 3).do_on_request(r1.append),
                          Flowable.range(4, 3).do_on_request(r2.append)).test() \
        .assert_result(1, 2, 3, 4, 5, 6)
    assert r1 == [LONG_MAX] and r2 == [LONG_MAX]


def test_concat_request_before_first_source_subscription_is_kept():
    first = Manual()
    ts = Flowable.concat_array(first, Flowable.just(9)).test(7)
    assert first.probe.requests == [7]
    first.subscriber.on_next(1)
    first.subscriber.on_complete()
    ts.assert_result(1, 9)


def test_concat_invalid_request_reported(plugin_errors):
    ts = Flowable.concat_array(Flowable.just(1), Flowable.just(2)).test(0)
    ts.request(0)
    ts.assert_empty()
    assert [type(e) for e in plugin_errors] == [ValueError]


# ---------------------------------------------------------------------------- cancellation

def test_concat_cancel_reaches_current_source_and_stops():
    first = Manual()
    second = Counting(Flowable.just(2))
    ts = Flowable.concat_array(first, second).test()
    ts.cancel()
    assert first.probe.cancelled == 1
    first.subscriber.on_complete()  # a late completion must not start the next source
    assert second.subscriptions == 0
    ts.assert_empty()


def test_concat_cancel_reaches_the_later_source_only():
    first = Manual()
    second = Manual()
    ts = Flowable.concat_array(first, second).test(3)
    first.subscriber.on_next(1)
    first.subscriber.on_complete()
    assert second.probe.requests == [2]
    ts.cancel()
    assert second.probe.cancelled == 1
    assert first.probe.cancelled == 0  # it had completed: no cancel for it
    ts.request(5)
    assert second.probe.requests == [2]
    ts.assert_values(1).assert_not_complete()


def test_concat_cancel_before_subscribe_subscribes_nothing():
    first = Counting(Flowable.just(1))
    ts = Flowable.concat_array(first, Flowable.just(2)).test(cancel=True)
    ts.assert_no_values().assert_no_errors().assert_not_complete()
    assert first.subscriptions == 0


# ---------------------------------------------------------------------------- races

def test_concat_race_request_vs_inner_completion(race_runner, race_rounds):
    for _ in range(race_rounds):
        first = Manual()
        ts = Flowable.concat_array(first, Flowable.range(1, 5)).test(0)
        ts.request(1)
        assert first.probe.requests == [1]
        first.subscriber.on_next(0)
        race_runner.race(lambda ts=ts: ts.request(5), first.subscriber.on_complete)
        ts.assert_result(0, 1, 2, 3, 4, 5).assert_protocol_ok()


def test_concat_race_request_vs_inner_completion_partial_demand(race_runner, race_rounds):
    for _ in range(race_rounds):
        first = Manual()
        ts = Flowable.concat_array(first, Flowable.range(1, 5), Flowable.range(6, 2)).test(0)
        ts.request(2)
        first.subscriber.on_next(0)
        race_runner.race(lambda ts=ts: ts.request(3), first.subscriber.on_complete)
        # demand 5: item 0 plus 4 of the second source, no more
        ts.assert_values(0, 1, 2, 3, 4).assert_not_complete()
        ts.request(10)
        ts.assert_result(0, 1, 2, 3, 4, 5, 6, 7).assert_protocol_ok()


def test_concat_race_two_requests(race_runner, race_rounds):
    for _ in range(race_rounds):
        ts = Flowable.concat_array(Flowable.range(1, 3), Flowable.range(4, 3)).test(0)
        race_runner.race(lambda ts=ts: ts.request(2), lambda ts=ts: ts.request(2))
        ts.assert_values(1, 2, 3, 4).assert_not_complete()
        ts.request(2)
        ts.assert_result(1, 2, 3, 4, 5, 6).assert_protocol_ok()


# ---------------------------------------------------------------------------- combinators

def test_start_with_item():
    Flowable.range(1, 3).start_with(0).test().assert_result(0, 1, 2, 3)


def test_start_with_publisher():
    Flowable.range(1, 2).start_with(Flowable.just(-1, 0)).test().assert_result(-1, 0, 1, 2)


def test_start_with_none_is_type_error():
    with pytest.raises(TypeError):
        Flowable.just(1).start_with(None)


def test_start_with_array():
    Flowable.just(3).start_with_array(1, 2).test().assert_result(1, 2, 3)
    f = Flowable.just(3)
    assert f.start_with_array() is f


def test_start_with_iterable():
    Flowable.just(3).start_with_iterable([1, 2]).test().assert_result(1, 2, 3)
    Flowable.just(3).start_with_iterable([]).test().assert_result(3)


def test_concat_with():
    Flowable.range(1, 2).concat_with(Flowable.range(3, 2)).test().assert_result(1, 2, 3, 4)
    with pytest.raises(TypeError):
        Flowable.just(1).concat_with(None)
    with pytest.raises(TypeError):
        Flowable.just(1).concat_with([2])


def test_concat_with_a_single_maybe_or_completable():
    """RxJava 2's concatWith(SingleSource | MaybeSource | CompletableSource)."""
    Flowable.range(1, 2).concat_with(Single.just(3)).test().assert_result(1, 2, 3)
    Flowable.range(1, 2).concat_with(Maybe.just(3)).test().assert_result(1, 2, 3)
    Flowable.range(1, 2).concat_with(Maybe.empty()).test().assert_result(1, 2)
    Flowable.range(1, 2).concat_with(Completable.complete()).test().assert_result(1, 2)
    Flowable.range(1, 2).concat_with(Single.error(RuntimeError("x"))).test().assert_values(
        1, 2).assert_error(RuntimeError)
    with pytest.raises(TypeError, match="Publisher, Single, Maybe or Completable, not int"):
        Flowable.just(1).concat_with(3)  # type: ignore[arg-type]


def test_concat_with_single_subscribes_after_completion_and_waits_for_demand():
    subscribed: list[int] = []
    single = Single.just(3).do_on_subscribe(lambda d: subscribed.append(1))
    ts = Flowable.range(1, 2).concat_with(single).test(2)
    ts.assert_values(1, 2).assert_not_complete()
    assert subscribed == [1]  # after the Flowable completed
    ts.request(1)
    ts.assert_result(1, 2, 3)


def test_concat_with_backpressure():
    r2: list[int] = []
    ts = Flowable.range(1, 2).concat_with(Flowable.range(3, 5).do_on_request(r2.append)).test(3)
    ts.assert_values(1, 2, 3)
    assert r2 == [1]


def test_start_with_error_in_first_part():
    later = Counting(Flowable.just(1))
    later.start_with(Flowable.error(RuntimeError())).test().assert_failure(RuntimeError)
    assert later.subscriptions == 0


# ---------------------------------------------------------------- RxJava 2's concat(source1, source2, ...)

@pytest.mark.parametrize(("name", "array"), [("concat", "concat_array"),
                                             ("concat_delay_error", "concat_array_delay_error")])
def test_sources_one_by_one_are_the_array_form(name, array):
    """RxJava 2's concat(p1, p2[, p3, p4]) is concatArray: the second positional argument
    is a Publisher, so every positional argument is a source."""
    concat = getattr(Flowable, name)
    a, b, c = Flowable.just(1, 2), Flowable.just(3), Flowable.range(10, 2)
    concat(a, b).test().assert_result(1, 2, 3)
    concat(a, b, c, a).test().assert_result(1, 2, 3, 10, 11, 1, 2)
    assert type(concat(a, b)) is type(getattr(Flowable, array)(a, b))


def test_concat_delay_error_one_by_one_delays_the_error():
    boom = ValueError("boom")
    Flowable.concat_delay_error(Flowable.error(boom), Flowable.just(1)).test() \
        .assert_failure(ValueError, 1)
    Flowable.concat(Flowable.error(boom), Flowable.just(1)).test().assert_failure(ValueError)


def test_concat_of_a_publisher_keeps_its_prefetch():
    requests: list[int] = []
    inner = Flowable.just(Flowable.just(1), Flowable.just(2)).do_on_request(requests.append)
    Flowable.concat(inner, 1).test().assert_result(1, 2)
    assert requests[0] == 1


def test_concat_one_by_one_refuses_what_is_not_a_source():
    a, b = Flowable.just(1), Flowable.just(2)
    with pytest.raises(TypeError, match="source 2 must be a Publisher, not int"):
        Flowable.concat(a, b, 3)
    with pytest.raises(TypeError, match="takes no keyword arguments, not prefetch"):
        Flowable.concat(a, b, prefetch=2)
    with pytest.raises(TypeError, match=r"prefetch must be an int, not MaybeJust: did you mean "
                                        r"concat_array\(a, b\) or concat\(\[a, b\]\)\?"):
        Flowable.concat(a, Maybe.just(1))
    with pytest.raises(TypeError, match=r"did you mean concat_array_delay_error\(a, b\)"):
        Flowable.concat_delay_error(a, [b])
