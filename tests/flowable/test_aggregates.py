"""count, reduce (both forms), collect, to_list, to_sorted_list, any, all, contains, is_empty."""

from __future__ import annotations

import pytest
from probes import ManualSource
from probes import Spy
from probes import failing

from rxpy2 import Flowable
from rxpy2.reactivestreams import LONG_MAX
from rxpy2.single import Single


def boom(*_args):
    raise ZeroDivisionError("boom")


# ----------------------------------------------------------------- count

def test_count_values():
    Flowable.range(1, 5).count().test().assert_result(5)


def test_count_empty():
    src = ManualSource()
    to = src.count().test()
    to.assert_empty()
    src.complete()
    to.assert_result(0)


def test_count_requests_unbounded_once():
    spy = Spy(Flowable.range(1, 3))
    spy.count().test().assert_result(3)
    assert spy.requests == [LONG_MAX]


def test_count_error_passthrough():
    failing(1, 2).count().test().assert_failure(ValueError)


def test_count_dispose_cancels_upstream():
    src = ManualSource()
    to = src.count().test()
    src.emit(1, 2)
    to.dispose()
    assert src.cancelled
    to.assert_empty()


def test_count_disposed_before_subscription_cancels_upstream():
    src = ManualSource()
    src.count().test(cancel=True)
    assert src.cancelled


def test_count_error_after_completion_goes_to_plugins(plugin_errors):
    src = ManualSource()
    to = src.count().test()
    src.complete()
    err = ValueError("late")
    src.error(err)
    to.assert_result(0)
    assert plugin_errors == [err]


# ----------------------------------------------------------------- reduce (Maybe)

def test_reduce_no_seed_values():
    Flowable.range(1, 4).reduce(lambda a, b: a * 10 + b).test().assert_result(1234)


def test_reduce_no_seed_single_item_is_the_result():
    Flowable.just(7).reduce(boom).test().assert_result(7)


def test_reduce_no_seed_empty_completes_without_value():
    src = ManualSource()
    to = src.reduce(lambda a, b: a + b).test()
    src.complete()
    to.assert_result()


def test_reduce_no_seed_requests_unbounded():
    spy = Spy(Flowable.range(1, 3))
    spy.reduce(lambda a, b: a + b).test().assert_result(6)
    assert spy.requests == [LONG_MAX]


def test_reduce_no_seed_error_passthrough():
    failing(1, 2).reduce(lambda a, b: a + b).test().assert_failure(ValueError)


def test_reduce_no_seed_reducer_raises_cancels_upstream():
    spy = Spy(Flowable.range(1, 5))
    spy.reduce(boom).test().assert_failure(ZeroDivisionError)
    assert spy.cancels == 1


def test_reduce_no_seed_reducer_none_is_type_error():
    src = ManualSource()
    to = src.reduce(lambda a, b: None).test()
    src.emit(1, 2, 3)
    to.assert_failure(TypeError)
    assert src.cancelled


def test_reduce_no_seed_dispose_cancels_upstream():
    src = ManualSource()
    to = src.reduce(lambda a, b: a + b).test()
    src.emit(1)
    to.dispose()
    assert src.cancelled


def test_reduce_no_seed_returns_maybe():
    from rxpy2.maybe import Maybe
    assert isinstance(Flowable.just(1).reduce(lambda a, b: a), Maybe)


# ----------------------------------------------------------------- reduce with seed (Single)

def test_reduce_seed_values():
    Flowable.range(1, 4).reduce(lambda a, b: a + b, 100).test().assert_result(110)


def test_reduce_seed_empty_gives_seed():
    src = ManualSource()
    to = src.reduce(lambda a, b: a + b, 5).test()
    src.complete()
    to.assert_result(5)


def test_reduce_seed_returns_single():
    assert isinstance(Flowable.just(1).reduce(lambda a, b: a, 0), Single)


def test_reduce_with_fresh_seed_per_subscriber():
    r = Flowable.range(1, 3).reduce_with(list, lambda acc, x: acc + [x])
    r.test().assert_result([1, 2, 3])
    r.test().assert_result([1, 2, 3])


def test_reduce_seed_requests_unbounded():
    spy = Spy(Flowable.range(1, 3))
    spy.reduce(lambda a, b: a + b, 0).test().assert_result(6)
    assert spy.requests == [LONG_MAX]


def test_reduce_seed_error_passthrough():
    failing(1).reduce(lambda a, b: a + b, 0).test().assert_failure(ValueError)


def test_reduce_seed_reducer_raises_cancels_upstream():
    spy = Spy(Flowable.range(1, 5))
    spy.reduce(boom, 0).test().assert_failure(ZeroDivisionError)
    assert spy.cancels == 1


def test_reduce_seed_reducer_none_is_type_error():
    spy = Spy(Flowable.range(1, 5))
    spy.reduce(lambda a, b: None, 0).test().assert_failure(TypeError)
    assert spy.cancels == 1


def test_reduce_seed_supplier_raises_is_error_without_subscribing():
    spy = Spy(Flowable.range(1, 5))
    spy.reduce_with(boom, lambda a, b: a).test().assert_failure(ZeroDivisionError)
    assert spy.subscriptions == 0


def test_reduce_seed_supplier_none_is_type_error():
    Flowable.range(1, 5).reduce_with(lambda: None, lambda a, b: a).test() \
        .assert_failure(TypeError)


def test_reduce_seed_error_after_completion_goes_to_plugins(plugin_errors):
    src = ManualSource()
    to = src.reduce(lambda a, b: a + b, 0).test()
    src.emit(1)
    src.complete()
    src.emit(2)  # ignored
    err = ValueError("late")
    src.error(err)
    to.assert_result(1)
    assert plugin_errors == [err]


def test_reduce_bad_arguments():
    with pytest.raises(TypeError):
        Flowable.just(1).reduce(None)
    with pytest.raises(TypeError):
        Flowable.just(1).reduce(lambda a, b: a, None)
    with pytest.raises(TypeError):
        Flowable.just(1).reduce_with(None, lambda a, b: a)
    with pytest.raises(TypeError):
        Flowable.just(1).reduce_with(list, None)


# ----------------------------------------------------------------- collect

def test_collect_values():
    Flowable.range(1, 4).collect(set, lambda s, x: s.add(x % 2)).test().assert_result({0, 1})


def test_collect_fresh_container_per_subscriber():
    c = Flowable.range(1, 3).collect(list, list.append)
    to1 = c.test()
    to2 = c.test()
    to1.assert_result([1, 2, 3])
    to2.assert_result([1, 2, 3])
    assert to1.values()[0] is not to2.values()[0]


def test_collect_requests_unbounded():
    spy = Spy(Flowable.range(1, 3))
    spy.collect(list, list.append).test().assert_result([1, 2, 3])
    assert spy.requests == [LONG_MAX]


def test_collect_error_passthrough():
    failing(1).collect(list, list.append).test().assert_failure(ValueError)


def test_collect_collector_raises_cancels_upstream():
    spy = Spy(Flowable.range(1, 5))
    spy.collect(list, boom).test().assert_failure(ZeroDivisionError)
    assert spy.cancels == 1


def test_collect_initial_supplier_raises():
    spy = Spy(Flowable.range(1, 5))
    spy.collect(boom, list.append).test().assert_failure(ZeroDivisionError)
    assert spy.subscriptions == 0


def test_collect_initial_supplier_none_is_type_error():
    Flowable.range(1, 5).collect(lambda: None, list.append).test().assert_failure(TypeError)


def test_collect_dispose_cancels_upstream():
    src = ManualSource()
    to = src.collect(list, list.append).test()
    to.dispose()
    assert src.cancelled


def test_collect_bad_arguments():
    with pytest.raises(TypeError):
        Flowable.just(1).collect(None, list.append)
    with pytest.raises(TypeError):
        Flowable.just(1).collect(list, None)


# ----------------------------------------------------------------- to_list / to_sorted_list

def test_to_list_values():
    Flowable.range(1, 5).to_list().test().assert_result([1, 2, 3, 4, 5])


def test_to_list_empty():
    src = ManualSource()
    to = src.to_list().test()
    src.complete()
    to.assert_result([])


def test_to_list_fresh_list_per_subscriber():
    single = Flowable.range(1, 2).to_list()
    a, b = single.test().values()[0], single.test().values()[0]
    assert a == b == [1, 2]
    assert a is not b


def test_to_list_requests_unbounded():
    spy = Spy(Flowable.range(1, 3))
    spy.to_list().test().assert_result([1, 2, 3])
    assert spy.requests == [LONG_MAX]


def test_to_list_error_passthrough():
    failing(1, 2).to_list().test().assert_failure(ValueError)


def test_to_list_dispose_cancels_upstream():
    src = ManualSource()
    to = src.to_list().test()
    src.emit(1)
    to.dispose()
    assert src.cancelled
    assert to.is_disposed()


def test_to_list_large():
    Flowable.range(0, 10_000).to_list().test().assert_result(list(range(10_000)))


# to_sorted_list is to_list().map(sorted): these also exercise Single.map


def test_to_sorted_list():
    Flowable.just(3, 1, 2).to_sorted_list().test().assert_result([1, 2, 3])


def test_to_sorted_list_key_and_reverse():
    Flowable.just("bb", "a", "ccc").to_sorted_list(key=len, reverse=True).test() \
        .assert_result(["ccc", "bb", "a"])


def test_to_sorted_list_error_passthrough():
    failing(2, 1).to_sorted_list().test().assert_failure(ValueError)


def test_to_sorted_list_bad_key():
    with pytest.raises(TypeError):
        Flowable.just(1).to_sorted_list(key=5)


# ----------------------------------------------------------------- any / contains

def test_any_true_cancels_upstream_at_first_match():
    src = ManualSource()
    seen = []
    to = src.any(lambda x: seen.append(x) or x > 1).test()
    src.emit(1, 2)
    to.assert_result(True)
    assert src.cancelled
    src.emit(3)
    src.complete()
    assert seen == [1, 2]
    to.assert_result(True)


def test_any_false():
    Flowable.range(1, 5).any(lambda x: x > 5).test().assert_result(False)


def test_any_empty_is_false():
    src = ManualSource()
    to = src.any(lambda x: True).test()
    src.complete()
    to.assert_result(False)


def test_any_requests_unbounded():
    spy = Spy(Flowable.range(1, 3))
    spy.any(lambda x: False).test().assert_result(False)
    assert spy.requests == [LONG_MAX]
    assert spy.cancels == 0


def test_any_error_passthrough():
    failing(1).any(lambda x: False).test().assert_failure(ValueError)


def test_any_predicate_raises_cancels_upstream():
    spy = Spy(Flowable.range(1, 5))
    spy.any(boom).test().assert_failure(ZeroDivisionError)
    assert spy.cancels == 1


def test_any_error_after_match_goes_to_plugins(plugin_errors):
    src = ManualSource()
    to = src.any(lambda x: True).test()
    src.emit(1)
    err = ValueError("late")
    src.error(err)
    to.assert_result(True)
    assert plugin_errors == [err]


def test_any_dispose_cancels_upstream():
    src = ManualSource()
    src.any(lambda x: True).test().dispose()
    assert src.cancelled


def test_contains():
    Flowable.range(1, 5).contains(3).test().assert_result(True)
    Flowable.range(1, 5).contains(9).test().assert_result(False)


def test_contains_cancels_upstream_when_found():
    spy = Spy(Flowable.range(1, 100))
    spy.contains(3).test().assert_result(True)
    assert spy.cancels == 1


def test_any_bad_arguments():
    with pytest.raises(TypeError):
        Flowable.just(1).any(None)
    with pytest.raises(TypeError):
        Flowable.just(1).contains(None)


# ----------------------------------------------------------------- all / is_empty

def test_all_true():
    Flowable.range(1, 5).all(lambda x: x < 10).test().assert_result(True)


def test_all_false_cancels_upstream_at_first_failure():
    src = ManualSource()
    seen = []
    to = src.all(lambda x: seen.append(x) or x < 2).test()
    src.emit(1, 2, 3)
    to.assert_result(False)
    assert src.cancelled
    assert seen == [1, 2]


def test_all_empty_is_true():
    src = ManualSource()
    to = src.all(lambda x: False).test()
    src.complete()
    to.assert_result(True)


def test_all_requests_unbounded():
    spy = Spy(Flowable.range(1, 3))
    spy.all(lambda x: True).test().assert_result(True)
    assert spy.requests == [LONG_MAX]


def test_all_error_passthrough():
    failing(1).all(lambda x: True).test().assert_failure(ValueError)


def test_all_predicate_raises_cancels_upstream():
    spy = Spy(Flowable.range(1, 5))
    spy.all(boom).test().assert_failure(ZeroDivisionError)
    assert spy.cancels == 1


def test_all_dispose_cancels_upstream():
    src = ManualSource()
    src.all(lambda x: True).test().dispose()
    assert src.cancelled


def test_all_bad_arguments():
    with pytest.raises(TypeError):
        Flowable.just(1).all(None)
    with pytest.raises(TypeError):
        Flowable.just(1).all(5)


def test_is_empty():
    src = ManualSource()
    to = src.is_empty().test()
    src.complete()
    to.assert_result(True)


def test_is_empty_false_cancels_upstream():
    spy = Spy(Flowable.range(1, 5))
    spy.is_empty().test().assert_result(False)
    assert spy.cancels == 1


def test_is_empty_error_passthrough():
    failing().is_empty().test().assert_failure(ValueError)


# ----------------------------------------------------------------- ignore_elements

def test_ignore_elements_completes():
    from rxpy2.completable import Completable
    c = Flowable.range(1, 5).ignore_elements()
    assert isinstance(c, Completable)
    c.test().assert_result()


def test_ignore_elements_requests_unbounded():
    spy = Spy(Flowable.range(1, 5))
    spy.ignore_elements().test().assert_result()
    assert spy.requests == [LONG_MAX]


def test_ignore_elements_error_passthrough():
    failing(1, 2).ignore_elements().test().assert_failure(ValueError)


def test_ignore_elements_dispose_cancels_upstream():
    src = ManualSource()
    to = src.ignore_elements().test()
    src.emit(1)
    to.dispose()
    assert src.cancelled
    to.assert_empty()


def test_ignore_elements_error_after_completion_goes_to_plugins(plugin_errors):
    src = ManualSource()
    to = src.ignore_elements().test()
    src.complete()
    err = ValueError("late")
    src.error(err)
    to.assert_result()
    assert plugin_errors == [err]


# ---------------------------------------------------------------- RxJava's reduce(seed, reducer)

def test_reduce_seed_first_as_rxjava():
    """The first argument not callable and the second callable: RxJava's order."""
    f = Flowable.range(1, 4)
    s = f.reduce(10, lambda acc, x: acc + x)
    assert isinstance(s, Single)
    s.test().assert_result(20)
    f.reduce("", lambda acc, x: acc + str(x)).test().assert_result("1234")
    f.reduce(lambda acc, x: acc * x, 1).test().assert_result(24)  # rxpy2's order


def test_reduce_a_callable_first_is_always_the_reducer():
    """Both callable: rxpy2's order, the first is the reducer, the second the seed."""
    def seed(x):
        return x

    Flowable.just(1, 2).reduce(lambda acc, x: acc, seed).test().assert_result(seed)


def test_reduce_neither_callable_is_refused():
    with pytest.raises(TypeError, match="reducer must be callable, not int"):
        Flowable.just(1).reduce(0, 1)
    with pytest.raises(TypeError, match="seed is None"):
        Flowable.just(1).reduce(None, lambda acc, x: x)
