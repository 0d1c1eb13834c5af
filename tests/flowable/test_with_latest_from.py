"""with_latest_from (one other and several): values, dropped early items and their
replacement requests, subscription order, errors, completion rules, cancellation, races."""

from __future__ import annotations

import pytest
from probes import ManualSource
from probes import Recorded
from probes import Spy
from probes import boom

from rxpy2 import Flowable
from rxpy2.reactivestreams import LONG_MAX

# ---------------------------------------------------------------- values


def test_one_other_values():
    main, other = ManualSource(), ManualSource()
    ts = main.with_latest_from(other).test()
    main.emit(1)  # no item of the other yet: dropped
    other.emit(10)
    main.emit(2)
    other.emit(20, 30)
    main.emit(3)
    ts.assert_values((2, 10), (3, 30))
    main.complete()
    ts.assert_result((2, 10), (3, 30)).assert_protocol_ok()


def test_one_other_combiner():
    Flowable.range(0, 3).with_latest_from(Flowable.just(10), combiner=lambda a, b: a + b).test() \
        .assert_result(10, 11, 12)


def test_several_others_values():
    main, o1, o2 = ManualSource(), ManualSource(), ManualSource()
    ts = main.with_latest_from(o1, o2).test()
    o1.emit("a")
    main.emit(1)  # o2 has nothing yet: dropped
    o2.emit("x")
    main.emit(2)
    o1.emit("b")
    main.emit(3)
    ts.assert_values((2, "a", "x"), (3, "b", "x"))


def test_several_others_combiner_gets_item_then_latest():
    seen = []

    def combiner(*args):
        seen.append(args)
        return sum(args)

    Flowable.range(0, 2).with_latest_from(Flowable.just(10), Flowable.just(100), Flowable.just(1000),
                                          combiner=combiner).test().assert_result(1110, 1111)
    assert seen == [(0, 10, 100, 1000), (1, 10, 100, 1000)]


def test_ten_others():
    others = [Flowable.just(i) for i in range(10)]
    Flowable.just("m").with_latest_from(*others).test().assert_result(("m", *range(10)))


def test_synchronous_others_are_subscribed_first():
    order = []
    main = Flowable.range(0, 3).do_on_subscribe(lambda s: order.append("main"))
    o1 = Flowable.just(1).do_on_subscribe(lambda s: order.append("o1"))
    o2 = Flowable.just(2).do_on_subscribe(lambda s: order.append("o2"))
    main.with_latest_from(o1).test().assert_result((0, 1), (1, 1), (2, 1))
    assert order == ["o1", "main"]
    order.clear()
    main.with_latest_from(o1, o2).test().assert_result((0, 1, 2), (1, 1, 2), (2, 1, 2))
    assert order == ["o1", "o2", "main"]


def test_others_are_requested_unbounded():
    main, o1, o2 = ManualSource(), ManualSource(), ManualSource()
    main.with_latest_from(o1).test(0)
    assert o1.requests == [LONG_MAX]
    main.with_latest_from(o1, o2).test(0)
    assert o1.requests == [LONG_MAX, LONG_MAX] and o2.requests == [LONG_MAX]


# ---------------------------------------------------------------- requests


@pytest.mark.parametrize("many", [False, True])
def test_dropped_items_are_replaced_with_request_one(many):
    main = Spy(Flowable.range(0, 5))  # hides the range: plain on_next
    other = ManualSource()
    others = (other, Flowable.just(0)) if many else (other,)
    ts = main.with_latest_from(*others).test(2)
    ts.assert_result()  # all five dropped; each replaced with request(1)
    assert main.requests == [2, 1, 1, 1, 1, 1]


@pytest.mark.parametrize("many", [False, True])
def test_conditional_upstream_drops_without_requests(many):
    other = ManualSource()
    others = (other, Flowable.just(0)) if many else (other,)
    # range sees a ConditionalSubscriber: a dropped item costs no demand
    ts = Flowable.range(0, 5).with_latest_from(*others).test(2)
    ts.assert_result()


def test_dropped_then_emitted_demand_is_exact():
    main, other = ManualSource(), ManualSource()
    ts = main.with_latest_from(other).test(0)
    ts.request(1)
    main.emit(0)  # dropped: replaced
    assert main.requests == [1, 1]
    other.emit("x")
    main.emit(1)
    ts.assert_values((1, "x"))
    assert main.requests == [1, 1]
    ts.request(2)
    main.emit(2, 3)
    ts.assert_values((1, "x"), (2, "x"), (3, "x"))
    assert main.requests == [1, 1, 2]


@pytest.mark.parametrize("many", [False, True])
def test_backpressure_passes_through(many):
    main = Recorded(0, 10)
    others = (Flowable.just("a"), Flowable.just("b")) if many else (Flowable.just("a"),)
    ts = main.flowable.with_latest_from(*others).test(0)
    ts.request(1)
    ts.assert_value_count(1)
    ts.request(3)
    ts.assert_value_count(4).assert_not_complete()
    assert main.requests == [1, 3]


@pytest.mark.parametrize("many", [False, True])
def test_requests_before_main_subscription_are_deferred(many):
    other = ManualSource()
    main = Recorded(0, 10)
    seen = []

    def on_subscribe(s):  # the downstream requests before the main source is subscribed
        seen.append(main.requests[:])

    main.flowable.with_latest_from(*((other, other) if many else (other,))) \
        .do_on_subscribe(on_subscribe).test(5).assert_result()
    assert seen == [[]]
    assert main.requests[0] == 5  # then one request(1) per dropped item
    assert main.requests[1:] == [1] * (len(main.requests) - 1)


@pytest.mark.parametrize("many", [False, True])
def test_non_positive_request_is_reported(many, plugin_errors):
    others = (Flowable.just(1), Flowable.just(2)) if many else (Flowable.just(1),)
    ts = Flowable.range(0, 3).with_latest_from(*others).test(0)
    ts.request(0)
    assert len(plugin_errors) == 1 and "3.9" in str(plugin_errors[0])


# ---------------------------------------------------------------- terminal events


@pytest.mark.parametrize("many", [False, True])
def test_other_error_cancels_main(many):
    main, other, extra = ManualSource(), ManualSource(), ManualSource()
    ts = main.with_latest_from(*((other, extra) if many else (other,))).test()
    other.emit(1)
    other.error(ValueError("x"))
    ts.assert_failure(ValueError)
    assert main.cancelled
    if many:
        assert extra.cancelled
    main.emit(5)
    ts.assert_failure(ValueError)


@pytest.mark.parametrize("many", [False, True])
def test_other_error_at_subscription_skips_main(many):
    main = ManualSource()
    others = (Flowable.error(ValueError("x")), Flowable.just(1)) if many else \
        (Flowable.error(ValueError("x")),)
    main.with_latest_from(*others).test().assert_failure(ValueError)
    assert main.subscriptions == 0


@pytest.mark.parametrize("many", [False, True])
def test_main_error_cancels_others(many):
    main, o1, o2 = ManualSource(), ManualSource(), ManualSource()
    ts = main.with_latest_from(*((o1, o2) if many else (o1,))).test()
    main.error(ValueError("x"))
    ts.assert_failure(ValueError)
    assert o1.cancelled and (o2.cancelled or not many)


@pytest.mark.parametrize("many", [False, True])
def test_main_completion_cancels_others(many):
    main, o1, o2 = ManualSource(), ManualSource(), ManualSource()
    ts = main.with_latest_from(*((o1, o2) if many else (o1,))).test()
    main.complete()
    ts.assert_result()
    assert o1.cancelled and (o2.cancelled or not many)
    assert not main.cancelled


def test_one_other_completing_empty_does_nothing():
    main, other = ManualSource(), ManualSource()
    ts = main.with_latest_from(other).test()
    other.complete()
    ts.assert_empty()
    assert not main.cancelled
    main.emit(1)
    main.complete()
    ts.assert_result()


def test_one_other_completing_keeps_its_last_item():
    main, other = ManualSource(), ManualSource()
    ts = main.with_latest_from(other).test()
    other.emit(7)
    other.complete()
    main.emit(1, 2)
    ts.assert_values((1, 7), (2, 7)).assert_not_complete()


def test_many_other_completing_empty_completes_and_cancels():
    main, o1, o2 = ManualSource(), ManualSource(), ManualSource()
    ts = main.with_latest_from(o1, o2).test()
    o1.complete()
    ts.assert_result()
    assert main.cancelled and o2.cancelled
    main.emit(1)
    ts.assert_result()


def test_many_other_completing_after_an_item_keeps_it():
    main, o1, o2 = ManualSource(), ManualSource(), ManualSource()
    ts = main.with_latest_from(o1, o2).test()
    o1.emit("a")
    o1.complete()
    o2.emit("b")
    main.emit(1)
    ts.assert_values((1, "a", "b")).assert_not_complete()
    assert not main.cancelled


def test_many_empty_other_at_subscription_skips_main():
    main = ManualSource()
    main.with_latest_from(Flowable.empty(), Flowable.just(1)).test().assert_result()
    assert main.subscriptions == 0


@pytest.mark.parametrize("many", [False, True])
def test_late_main_error_goes_to_plugins(many, plugin_errors):
    main, other = ManualSource(), ManualSource()
    ts = main.with_latest_from(*((other, Flowable.just(0)) if many else (other,))).test()
    main.complete()
    ts.assert_result()
    err = ValueError("late")
    main.error(err)
    assert plugin_errors.causes() == [err]


# ---------------------------------------------------------------- user function


@pytest.mark.parametrize("many", [False, True])
def test_combiner_raising_cancels_all(many):
    main, o1, o2 = ManualSource(), ManualSource(), ManualSource()
    ts = main.with_latest_from(*((o1, o2) if many else (o1,)), combiner=boom).test()
    o1.emit(1)
    if many:
        o2.emit(2)
    main.emit(3)
    ts.assert_failure(ZeroDivisionError)
    assert main.cancelled and o1.cancelled and (o2.cancelled or not many)
    main.emit(4)
    ts.assert_failure(ZeroDivisionError)


@pytest.mark.parametrize("many", [False, True])
def test_combiner_returning_none(many):
    others = (Flowable.just(1), Flowable.just(2)) if many else (Flowable.just(1),)
    main = Spy(Flowable.range(0, 5))
    main.with_latest_from(*others, combiner=lambda *a: None).test().assert_failure(TypeError)
    assert main.cancels == 1


# ---------------------------------------------------------------- cancellation


@pytest.mark.parametrize("many", [False, True])
def test_cancel_reaches_main_and_others(many):
    main, o1, o2 = ManualSource(), ManualSource(), ManualSource()
    ts = main.with_latest_from(*((o1, o2) if many else (o1,))).test()
    ts.cancel()
    assert main.cancels == 1 and o1.cancels == 1 and o2.cancels == (1 if many else 0)


@pytest.mark.parametrize("many", [False, True])
def test_cancel_before_subscription(many):
    main, o1, o2 = ManualSource(), ManualSource(), ManualSource()
    main.with_latest_from(*((o1, o2) if many else (o1,))).test(cancel=True).assert_empty()
    assert main.subscriptions == 0
    assert o1.subscriptions == (0 if many else 1) and o1.cancelled == (not many)


# ---------------------------------------------------------------- deep synchronous


@pytest.mark.parametrize("many", [False, True])
def test_deep_synchronous(many):
    others = (Flowable.just(1), Flowable.just(2)) if many else (Flowable.just(1),)
    Flowable.range(0, 100_000).with_latest_from(*others).test() \
        .assert_value_count(100_000).assert_complete()
    Flowable.range(0, 100_000).hide().with_latest_from(*others).test(1) \
        .assert_value_count(1).assert_not_complete()


def test_deep_dropping():
    never = ManualSource()
    Flowable.range(0, 100_000).hide().with_latest_from(never).test(1).assert_result()


# ---------------------------------------------------------------- arguments


def test_bad_arguments():
    with pytest.raises(TypeError):
        Flowable.just(1).with_latest_from()
    with pytest.raises(TypeError):
        Flowable.just(1).with_latest_from(None)
    with pytest.raises(TypeError):
        Flowable.just(1).with_latest_from(Flowable.just(1), [2])
    with pytest.raises(TypeError):
        Flowable.just(1).with_latest_from(Flowable.just(1), combiner=3)


# ---------------------------------------------------------------- races


def _main_with_latest_from_other(many: bool):
    """``main.with_latest_from(other)`` (``many``: and ``just(0)``), ``other`` at 0 already."""
    main, other = ManualSource(), ManualSource()
    ts = main.with_latest_from(*((other, Flowable.just(0)) if many else (other,))).test()
    other.emit(0)
    return main, other, ts


@pytest.mark.parametrize("many", [False, True])
def test_race_main_vs_other_items(many, race_runner, race_rounds):
    for _ in range(race_rounds // 2):
        main, other, ts = _main_with_latest_from_other(many)

        def produce_main(main=main):
            main.emit(*range(10))
            main.complete()

        def produce_other(other=other):
            other.emit(*range(1, 10))

        race_runner.race(produce_main, produce_other)
        ts.assert_complete().assert_value_count(10).assert_protocol_ok()
        latest = [v[1] for v in ts.values()]
        assert latest == sorted(latest)  # the other's items, in order


@pytest.mark.parametrize("many", [False, True])
def test_race_other_error_vs_main_items(many, race_runner, race_rounds):
    for _ in range(race_rounds // 2):
        main, other, ts = _main_with_latest_from_other(many)

        def produce(main=main):
            main.emit(*range(10))

        race_runner.race(produce, lambda other=other: other.error(ValueError("x")))
        k = ts.value_count()
        ts.assert_error(ValueError).assert_not_complete().assert_protocol_ok()
        assert [v[0] for v in ts.values()] == list(range(k))
        assert main.cancelled


@pytest.mark.parametrize("many", [False, True])
def test_race_cancel_vs_main_items(many, race_runner, race_rounds):
    for _ in range(race_rounds // 2):
        main, other, ts = _main_with_latest_from_other(many)

        def produce(main=main):
            main.emit(*range(10))

        race_runner.race(produce, ts.cancel)
        assert main.cancels == 1 and other.cancels == 1
        ts.assert_not_terminated()


# ---------------------------------------------------------------- RxJava 2's withLatestFrom(other, combiner)

def test_combiner_last_positionally():
    """A callable is never a Publisher: the last positional one is the combiner."""
    f, other, third = Flowable.just(1, 2), Flowable.just("a"), Flowable.just(0.5)
    f.with_latest_from(other, lambda i, s: f"{i}{s}").test().assert_result("1a", "2a")
    f.with_latest_from(other, third, lambda i, s, x: (s, i + x)).test() \
        .assert_result(("a", 1.5), ("a", 2.5))
    f.with_latest_from(other).test().assert_result((1, "a"), (2, "a"))
    with pytest.raises(TypeError, match="combiner given twice"):
        f.with_latest_from(other, lambda i, s: s, combiner=lambda i, s: i)
    with pytest.raises(TypeError, match="needs at least one other Publisher"):
        f.with_latest_from(lambda i: i)
