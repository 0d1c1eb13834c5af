"""concat_array_eager / concat_array_eager_delay_error: concat_map_eager over the given sources."""

from __future__ import annotations

import pytest
from probes import Boom
from probes import ManualSource

from rxpy2 import Flowable
from rxpy2.processors import PublishProcessor


def test_all_subscribed_at_once_emitted_in_order():
    a, b = PublishProcessor(), PublishProcessor()
    ts = Flowable.concat_array_eager(a, b).test()
    assert a.has_subscribers() and b.has_subscribers()
    b.on_next(3)
    a.on_next(1)
    ts.assert_values(1)
    a.on_complete()
    ts.assert_values(1, 3)
    b.on_complete()
    ts.assert_result(1, 3)


def test_max_concurrency_and_prefetch():
    a, b, c = ManualSource(), ManualSource(), ManualSource()
    ts = Flowable.concat_array_eager(a, b, c, max_concurrency=2, prefetch=4).test()
    assert a.subscriptions == b.subscriptions == 1 and c.subscriptions == 0
    assert a.requests == [4] and b.requests == [4]
    a.complete()
    assert c.subscriptions == 1
    b.complete()
    c.complete()
    ts.assert_result()


def test_empty_and_one():
    Flowable.concat_array_eager().test().assert_result()
    Flowable.concat_array_eager(Flowable.range(1, 3)).test().assert_result(1, 2, 3)
    Flowable.concat_array_eager_delay_error().test().assert_result()


def test_error_is_immediate():
    a, b = PublishProcessor(), PublishProcessor()
    ts = Flowable.concat_array_eager(a, b).test()
    a.on_next(1)
    b.on_error(Boom())
    ts.assert_failure(Boom, 1)
    assert not a.has_subscribers()


def test_delay_error_waits_for_every_source():
    ts = Flowable.concat_array_eager_delay_error(
        Flowable.just(1), Flowable.error(Boom()), Flowable.just(2)).test()
    ts.assert_failure(Boom, 1, 2)


def test_many_synchronous_sources():
    n = 100_000
    ts = Flowable.concat_array_eager(*[Flowable.just(i) for i in range(n)]).test()
    assert len(ts.values()) == n
    ts.assert_complete()


def test_bad_arguments():
    with pytest.raises(TypeError):
        Flowable.concat_array_eager(Flowable.just(1), None)
    with pytest.raises(TypeError):
        Flowable.concat_array_eager_delay_error(1)
    with pytest.raises(ValueError):
        Flowable.concat_array_eager(Flowable.just(1), max_concurrency=0)
    with pytest.raises(ValueError):
        Flowable.concat_array_eager_delay_error(Flowable.just(1), prefetch=0)


def test_race_cancel_vs_items(race_runner, race_rounds):
    for _ in range(race_rounds // 2):
        a, b = PublishProcessor(), PublishProcessor()
        ts = Flowable.concat_array_eager(a, b).test()
        race_runner.race(ts.cancel, lambda a=a: a.on_next(1))
        assert not a.has_subscribers() and not b.has_subscribers()
        assert ts.values() in ([], [1])
