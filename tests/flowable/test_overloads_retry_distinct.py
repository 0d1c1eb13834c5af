"""Keyword overloads: retry(bi_predicate=), distinct(collection_factory=), start_with(Publisher)."""

from __future__ import annotations

import pytest
from probes import Boom
from probes import ManualSource

from rxpy2 import Flowable
from rxpy2.exceptions import CompositeException


def failing_after(*items):
    subs = []

    def make():
        subs.append(1)
        return Flowable.just(*items).concat_with(Flowable.error(Boom(len(subs))))

    return Flowable.defer(make), subs


# ---- retry(bi_predicate=)


def test_retry_bi_predicate_counts_from_one():
    src, subs = failing_after(1)
    calls = []

    def pred(attempt, error):
        calls.append((attempt, error.args[0]))
        return attempt < 3

    src.retry(bi_predicate=pred).test().assert_failure(Boom, 1, 1, 1)
    assert calls == [(1, 1), (2, 2), (3, 3)] and len(subs) == 3


def test_retry_bi_predicate_success_after_retries():
    n = [0]

    def make():
        n[0] += 1
        return Flowable.just(n[0]) if n[0] == 3 else Flowable.error(Boom())

    Flowable.defer(make).retry(bi_predicate=lambda a, e: True).test().assert_result(3)


def test_retry_bi_predicate_raising_gives_composite():
    ts = Flowable.error(Boom()).retry(bi_predicate=lambda a, e: 1 / 0).test()
    ts.assert_error(CompositeException)
    kinds = [type(e) for e in ts.errors()[0].exceptions]
    assert kinds == [Boom, ZeroDivisionError]


def test_retry_bi_predicate_carries_demand_and_is_stack_safe():
    src, subs = failing_after(1)
    ts = src.retry(bi_predicate=lambda a, e: a < 20_000).test(5)
    ts.assert_values(1, 1, 1, 1, 1).assert_not_complete()
    ts.cancel()
    ts = src.retry(bi_predicate=lambda a, e: a < 20_000).test()
    ts.assert_error(Boom)
    assert len(ts.values()) == 20_000  # 20x the recursion limit


def test_retry_bi_predicate_cancel():
    src = ManualSource()
    ts = src.retry(bi_predicate=lambda a, e: True).test()
    src.error(Boom())
    assert src.subscriptions == 2
    ts.cancel()
    assert src.cancels == 1


def test_retry_bi_predicate_arguments():
    f = Flowable.just(1)
    with pytest.raises(TypeError):
        f.retry(bi_predicate=3)
    with pytest.raises(TypeError):
        f.retry(2, bi_predicate=lambda a, e: True)
    with pytest.raises(TypeError):
        f.retry(predicate=lambda e: True, bi_predicate=lambda a, e: True)


def test_retry_bi_predicate_race_cancel_vs_error(race_runner, race_rounds):
    for _ in range(race_rounds // 2):
        src = ManualSource()
        ts = src.retry(bi_predicate=lambda a, e: True).test()
        race_runner.race(ts.cancel, lambda src=src: src.error(Boom()))
        ts.assert_no_errors().assert_not_complete()
        assert src.subscriptions in (1, 2)


# ---- distinct(collection_factory=)


class Recent:
    """Remembers the last two keys only (a bounded "seen" collection)."""

    def __init__(self):
        self.keys = []
        self.cleared = 0

    def __contains__(self, k):
        return k in self.keys

    def add(self, k):
        self.keys = (self.keys + [k])[-2:]

    def clear(self):
        self.cleared += 1
        self.keys = []


def test_distinct_collection_factory():
    made = []

    def factory():
        made.append(Recent())
        return made[-1]

    f = Flowable.just(1, 2, 1, 3, 1, 2, 2).distinct(collection_factory=factory)
    f.test().assert_result(1, 2, 3, 1, 2)
    f.test().assert_result(1, 2, 3, 1, 2)
    assert len(made) == 2 and made[0].cleared == 1  # one per subscriber, cleared at the end


def test_distinct_collection_factory_with_key_and_list():
    Flowable.just("a", "B", "b", "A").distinct(str.lower, collection_factory=list) \
        .test().assert_result("a", "B")


def test_distinct_collection_factory_fused_and_hidden():
    Flowable.range(0, 10).map(lambda x: x % 3).distinct(collection_factory=set) \
        .test().assert_result(0, 1, 2)
    Flowable.range(0, 10).hide().map(lambda x: x % 3).distinct(collection_factory=set) \
        .filter(lambda x: True).test().assert_result(0, 1, 2)


def test_distinct_collection_factory_failing():
    src = ManualSource()
    src.distinct(collection_factory=lambda: 1 / 0).test().assert_failure(ZeroDivisionError)
    src.distinct(collection_factory=lambda: None).test().assert_failure(TypeError)
    src.distinct(collection_factory=lambda: 42).test().assert_failure(TypeError)
    assert src.subscriptions == 0


def test_distinct_collection_factory_argument():
    with pytest.raises(TypeError):
        Flowable.just(1).distinct(collection_factory=3)


# ---- start_with(Publisher): already in start_with(item_or_source)


def test_start_with_a_publisher():
    Flowable.just(3).start_with(Flowable.range(1, 2)).test().assert_result(1, 2, 3)
    src = ManualSource()
    ts = Flowable.just(3).start_with(src).test(1)
    assert src.requests == [1]
    src.emit(1)
    src.complete()
    ts.assert_values(1).assert_not_complete()
    ts.request(1)
    ts.assert_result(1, 3)


# ---------------------------------------------------------------- RxJava 2's retry(BiPredicate) / retry(Predicate)

def _failing_times(n):
    """A Flowable that fails ``n`` times with Boom(attempt), then emits 7; and its
    subscription count."""
    count = [0]

    def supplier():
        count[0] += 1
        return Flowable.error(Boom(count[0])) if count[0] <= n else Flowable.just(7)
    return Flowable.defer(supplier), count


def test_retry_two_argument_function_is_the_bi_predicate():
    source, count = _failing_times(5)
    seen = []

    def again(attempt, error):
        seen.append((attempt, error.args[0]))
        return attempt < 3

    source.retry(again).test().assert_failure(Boom)
    assert seen == [(1, 1), (2, 2), (3, 3)]
    assert count[0] == 3


def test_retry_one_argument_function_is_the_predicate():
    source, count = _failing_times(2)
    source.retry(lambda e: isinstance(e, Boom)).test().assert_result(7)
    assert count[0] == 3
    source2, _ = _failing_times(2)
    source2.retry(lambda e: False).test().assert_failure(Boom)


def test_retry_function_of_unclear_arity_names_the_keyword_forms():
    f = Flowable.just(1)
    with pytest.raises(TypeError, match=r"did you mean retry\(predicate=fn\) or "
                                        r"retry\(bi_predicate=fn\)\?"):
        f.retry(lambda *args: True)
    with pytest.raises(TypeError, match="did you mean"):
        f.retry(lambda a, b=None: True)
    with pytest.raises(TypeError, match="takes the function alone"):
        f.retry(lambda e: True, lambda e: True)
    with pytest.raises(TypeError, match="times must be an int, not str"):
        f.retry("3")
