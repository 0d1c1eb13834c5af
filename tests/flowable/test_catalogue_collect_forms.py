"""Flowable names RxJava 2 builds from other operators: of_type, cast, collect_into, to_map,
to_multimap, sorted, zip_array, switch_on_next(_delay_error), throttle_with_timeout,
retry_until, on_exception_resume_next."""

from __future__ import annotations

import collections
from typing import Any

import pytest
from probes import Boom
from probes import Manual

from rxpy2 import Flowable
from rxpy2.processors import PublishProcessor
from rxpy2.reactivestreams import LONG_MAX
from rxpy2.schedulers import TestScheduler

# ---------------------------------------------------------------- of_type / cast


def test_of_type_keeps_instances():
    Flowable.from_iterable([1, "a", 2.5, "b", True]).of_type(str).test().assert_result("a", "b")
    Flowable.from_iterable([1, "a", 2.5]).of_type((int, float)).test().assert_result(1, 2.5)


def test_of_type_requests_more_for_a_dropped_item():
    src = Manual()
    ts = src.of_type(int).test(1)
    src.subscriber.on_next("x")
    assert src.probe.requests == [1, 1]
    src.subscriber.on_next(3)
    ts.assert_values(3)


def test_cast_passes_instances_and_fails_on_others():
    Flowable.just(1, 2).cast(int).test().assert_result(1, 2)
    src = Manual()
    ts = src.cast(int).test()
    src.subscriber.on_next(1)
    src.subscriber.on_next("two")
    ts.assert_failure(TypeError, 1)
    assert "cannot cast str to int" in str(ts.errors()[0])
    assert src.probe.cancelled


@pytest.mark.parametrize("name", ["of_type", "cast"])
@pytest.mark.parametrize("bad", [None, 1, "int", (int, 2)])
def test_of_type_and_cast_check_the_class(name, bad):
    with pytest.raises(TypeError):
        getattr(Flowable.just(1), name)(bad)


# ---------------------------------------------------------------- collect_into / to_map / to_multimap


def test_collect_into_shares_the_one_container():
    box: list[int] = []
    f = Flowable.range(1, 3).collect_into(box, list.append)
    assert f.blocking_get() is box
    f.blocking_get()
    assert box == [1, 2, 3, 1, 2, 3]  # RxJava's collectInto: one container for all


def test_to_map_later_keys_replace_earlier():
    words = Flowable.from_iterable(["apple", "avocado", "banana", "blueberry", "cherry"])
    words.to_map(lambda w: w[0]).test().assert_result(
        {"a": "avocado", "b": "blueberry", "c": "cherry"})
    words.to_map(lambda w: w[0], len).test().assert_result({"a": 7, "b": 9, "c": 6})


def test_to_map_uses_the_supplier_per_subscriber():
    made: list[dict[Any, Any]] = []

    def supplier() -> dict[Any, Any]:
        made.append(collections.OrderedDict())
        return made[-1]

    f = Flowable.range(1, 3).to_map(lambda x: x % 2, map_supplier=supplier)
    assert f.blocking_get() is made[0]
    assert f.blocking_get() is made[1]
    assert made[0] == {1: 3, 0: 2}


def test_to_multimap_groups_in_arrival_order():
    words = Flowable.from_iterable(["apple", "avocado", "banana", "blueberry", "apple"])
    words.to_multimap(lambda w: w[0]).test().assert_result(
        {"a": ["apple", "avocado", "apple"], "b": ["banana", "blueberry"]})
    words.to_multimap(lambda w: w[0], len).test().assert_result(
        {"a": [5, 7, 5], "b": [6, 9]})


def test_to_multimap_collection_factory_append_or_add():
    words = Flowable.from_iterable(["apple", "avocado", "apple"])
    words.to_multimap(lambda w: w[0], collection_factory=lambda k: set()).test().assert_result(
        {"a": {"apple", "avocado"}})
    m = words.to_multimap(lambda w: w[0],
                          collection_factory=lambda k: collections.deque()).blocking_get()
    assert m == {"a": collections.deque(["apple", "avocado", "apple"])}


def test_to_map_raising_selector_is_an_error_and_cancels():
    src = Manual()
    ts = src.to_map(lambda x: 1 // x).test()
    src.subscriber.on_next(0)
    ts.assert_failure(ZeroDivisionError)
    assert src.probe.cancelled


def test_to_multimap_none_collection_is_an_error():
    Flowable.just(1).to_multimap(lambda x: x, collection_factory=lambda k: None) \
        .test().assert_failure(TypeError)


@pytest.mark.parametrize("call", [
    lambda f: f.to_map(None), lambda f: f.to_map(len, 1), lambda f: f.to_map(len, map_supplier=2),
    lambda f: f.to_multimap(None), lambda f: f.to_multimap(len, collection_factory=3),
    lambda f: f.collect_into(None, list.append), lambda f: f.collect_into([], None),
])
def test_bad_arguments_are_refused_at_assembly(call):
    with pytest.raises(TypeError):
        call(Flowable.just("a"))


# ---------------------------------------------------------------- sorted


def test_sorted_waits_for_the_end_then_emits_under_demand():
    src = Manual()
    ts = src.sorted().test(0)
    assert src.probe.requests == [LONG_MAX]
    for x in (3, 1, 2):
        src.subscriber.on_next(x)
    ts.assert_no_values()
    src.subscriber.on_complete()
    ts.assert_no_values()
    ts.request(2)
    ts.assert_values(1, 2).assert_not_complete()
    ts.request(1)
    ts.assert_result(1, 2, 3)


def test_sorted_key_and_reverse_are_stable():
    pairs = [("b", 1), ("a", 2), ("b", 0), ("a", 1)]
    Flowable.from_iterable(pairs).sorted(key=lambda p: p[0]).test().assert_result(
        ("a", 2), ("a", 1), ("b", 1), ("b", 0))
    Flowable.from_iterable([2, 3, 1]).sorted(reverse=True).test().assert_result(3, 2, 1)


def test_sorted_error_and_empty():
    Flowable.error(Boom()).sorted().test().assert_failure(Boom)
    Flowable.empty().sorted().test().assert_result()


# ---------------------------------------------------------------- zip_array


def test_zip_array_is_zip_with_the_zipper_first():
    Flowable.zip_array(lambda a, b, c: a + b + c, Flowable.range(1, 3), Flowable.range(10, 3),
                       Flowable.range(100, 5)).test().assert_result(111, 114, 117)
    with pytest.raises(TypeError):
        Flowable.zip_array(None, Flowable.just(1))


# ---------------------------------------------------------------- switch_on_next


def test_switch_on_next_follows_the_latest_inner():
    outer: PublishProcessor[Any] = PublishProcessor.create()
    a: PublishProcessor[int] = PublishProcessor.create()
    b: PublishProcessor[int] = PublishProcessor.create()
    ts = Flowable.switch_on_next(outer).test()
    outer.on_next(a)
    a.on_next(1)
    outer.on_next(b)
    a.on_next(2)
    b.on_next(3)
    assert not a.has_subscribers()
    outer.on_complete()
    b.on_complete()
    ts.assert_result(1, 3)


def test_switch_on_next_delay_error_waits_for_the_inner():
    outer: PublishProcessor[Any] = PublishProcessor.create()
    a: PublishProcessor[int] = PublishProcessor.create()
    ts = Flowable.switch_on_next_delay_error(outer).test()
    outer.on_next(a)
    outer.on_error(Boom())
    a.on_next(1)
    ts.assert_values(1).assert_not_complete()
    a.on_complete()
    ts.assert_failure(Boom, 1)
    with pytest.raises(TypeError):
        Flowable.switch_on_next(None)  # type: ignore[arg-type]


# ---------------------------------------------------------------- throttle_with_timeout


def test_throttle_with_timeout_is_debounce():
    sched = TestScheduler()
    src: PublishProcessor[int] = PublishProcessor.create()
    ts = src.throttle_with_timeout(1.0, sched).test()
    src.on_next(1)
    sched.advance_time_by(0.5)
    src.on_next(2)
    sched.advance_time_by(1.0)
    src.on_next(3)
    src.on_complete()
    ts.assert_result(2, 3)


# ---------------------------------------------------------------- retry_until


def test_retry_until_resubscribes_until_stop():
    attempts: list[int] = []

    def source() -> Flowable[int]:
        attempts.append(1)
        return Flowable.error(Boom())

    Flowable.defer(source).retry_until(lambda: len(attempts) >= 4).test().assert_failure(Boom)
    assert len(attempts) == 4
    with pytest.raises(TypeError):
        Flowable.just(1).retry_until(None)  # type: ignore[arg-type]


def test_retry_until_raising_stop_is_the_error():
    ts = Flowable.error(Boom()).retry_until(lambda: 1 // 0).test()
    ts.assert_error(Exception)


# ---------------------------------------------------------------- on_exception_resume_next


class NotAnException(BaseException):
    """A BaseException that is not fatal to rxpy2 but is not an Exception either."""


def test_on_exception_resume_next_resumes_on_exception():
    Flowable.just(1).concat_with(Flowable.error(Boom())) \
        .on_exception_resume_next(Flowable.just(2, 3)).test().assert_result(1, 2, 3)


def test_on_exception_resume_next_lets_other_base_exceptions_through():
    err = NotAnException()
    ts = Flowable.error(err).on_exception_resume_next(Flowable.just(2)).test()
    ts.assert_error(NotAnException)
    ts.assert_no_values()
    with pytest.raises(TypeError):
        Flowable.just(1).on_exception_resume_next(None)  # type: ignore[arg-type]
