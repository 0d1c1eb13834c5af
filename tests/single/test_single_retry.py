"""Single.retry / repeat / repeat_until (RxJava 2 builds them on the Flowable operators)."""

from __future__ import annotations

import pytest
from probes import Boom

from rxpy2 import Flowable
from rxpy2 import Single


def failing(n_failures, value=1):
    """A Single that fails ``n_failures`` times (per instance), then succeeds."""
    count = [0]

    def supplier():
        count[0] += 1
        if count[0] <= n_failures:
            return Single.error(Boom(count[0]))
        return Single.just(value)
    return Single.defer(supplier), count


def test_retry_arguments_checked():
    with pytest.raises(ValueError):
        Single.just(1).retry(-1)
    with pytest.raises(TypeError):
        Single.just(1).retry("3")
    with pytest.raises(TypeError):
        Single.just(1).retry(predicate=1)


def test_retry_forever_until_success():
    s, count = failing(5)
    s.retry().test().assert_result(1)
    assert count[0] == 6


def test_retry_times():
    s, count = failing(5)
    s.retry(3).test().assert_failure(Boom)
    assert count[0] == 4
    s, count = failing(3)
    s.retry(3).test().assert_result(1)


def test_retry_zero_is_no_retry():
    s, count = failing(1)
    s.retry(0).test().assert_failure(Boom)
    assert count[0] == 1


def test_retry_predicate():
    s, count = failing(10)
    to = s.retry(predicate=lambda e: e.args[0] < 3).test()
    to.assert_failure(Boom)
    assert to.errors()[0].args == (3,)


def test_retry_times_and_predicate():
    s, count = failing(10)
    s.retry(2, lambda e: True).test().assert_failure(Boom)
    assert count[0] == 3


def test_retry_success_passes():
    Single.just(1).retry(3).test().assert_result(1)


def test_retry_stack_safe_100k():
    s, count = failing(99_999, value=7)
    s.retry().test().assert_result(7)
    assert count[0] == 100_000


def test_retry_dispose_stops():
    subscribed = [0]
    s = Single.defer(lambda: subscribed.__setitem__(0, subscribed[0] + 1) or Single.never())
    to = s.retry().test()
    to.dispose()
    to.assert_empty()
    assert subscribed[0] == 1


def test_repeat():
    assert isinstance(Single.just(1).repeat(3), Flowable)
    Single.just(1).repeat(3).test().assert_result(1, 1, 1)
    Single.just(1).repeat(0).test().assert_result()
    Single.just(1).repeat().take(5).test().assert_result(1, 1, 1, 1, 1)


def test_repeat_arguments_checked():
    with pytest.raises(ValueError):
        Single.just(1).repeat(-1)
    with pytest.raises(TypeError):
        Single.just(1).repeat_until(None)


def test_repeat_error_stops():
    s, count = failing(1)
    # first subscription fails
    s.repeat(3).test().assert_failure(Boom)


def test_repeat_backpressure():
    ts = Single.just(1).repeat(5).test(0)
    ts.assert_empty()
    ts.request(2)
    ts.assert_values(1, 1)
    ts.request(10)
    ts.assert_result(1, 1, 1, 1, 1)


def test_repeat_stack_safe_100k():
    ts = Single.just(1).repeat(100_000).count().test()
    ts.assert_result(100_000)


def test_repeat_until():
    n = [0]

    def stop():
        n[0] += 1
        return n[0] == 3
    Single.just(2).repeat_until(stop).test().assert_result(2, 2, 2)


def test_repeat_until_stop_raises():
    Single.just(2).repeat_until(lambda: 1 / 0).test().assert_failure(ZeroDivisionError, 2)


# ---------------------------------------------------------------- retry(bi_predicate=...)

def test_retry_bi_predicate_counts_attempts():
    s, count = failing(10)
    seen = []
    to = s.retry(bi_predicate=lambda n, e: seen.append((n, e.args[0])) or n < 3).test()
    to.assert_failure(Boom)
    assert seen == [(1, 1), (2, 2), (3, 3)]
    assert count[0] == 3


def test_retry_bi_predicate_success():
    s, count = failing(2)
    s.retry(bi_predicate=lambda n, e: True).test().assert_result(1)


def test_retry_bi_predicate_raises_is_composite():
    from rxpy2 import CompositeException
    to = Single.error(Boom()).retry(bi_predicate=lambda n, e: 1 / 0).test()
    to.assert_failure(CompositeException)
    assert [type(x) for x in to.errors()[0].exceptions] == [Boom, ZeroDivisionError]


def test_retry_bi_predicate_arguments_checked():
    with pytest.raises(TypeError):
        Single.just(1).retry(bi_predicate=1)
    with pytest.raises(TypeError):
        Single.just(1).retry(3, bi_predicate=lambda n, e: True)


def test_retry_bi_predicate_stack_safe_100k():
    s, count = failing(99_999, value=3)
    s.retry(bi_predicate=lambda n, e: True).test().assert_result(3)
    assert count[0] == 100_000


def test_retry_bi_predicate_dispose_stops():
    subscribed = [0]
    s = Single.defer(lambda: subscribed.__setitem__(0, subscribed[0] + 1) or Single.never())
    to = s.retry(bi_predicate=lambda n, e: True).test()
    to.dispose()
    to.assert_empty()
    assert subscribed[0] == 1
