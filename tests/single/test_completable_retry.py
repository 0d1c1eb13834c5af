"""Completable.retry / retry_when / repeat / repeat_until / repeat_when.

RxJava 2 builds each as ``fromPublisher(toFlowable().<operator>(...))``: a Completable
again, whose handler completion (retry_when, repeat_when) completes it.
"""

from __future__ import annotations

import pytest
from probes import Boom
from probes import ProbeCompletable
from test_maybe_retry import RETRIES
from test_maybe_retry import N
from test_maybe_retry import RecordingCompletable
from test_maybe_retry import failing as failing_of

from rxpy2 import Completable
from rxpy2 import CompositeException
from rxpy2 import Flowable
from rxpy2.processors import PublishProcessor

pytestmark = pytest.mark.usefixtures("shutdown_schedulers")


def failing(n_failures):
    """A Completable that fails ``n_failures`` times (per instance), then completes;
    ``count[0]`` counts the subscriptions."""
    return failing_of(n_failures, cls=Completable)


# ---------------------------------------------------------------- arguments

def test_arguments_checked_at_assembly():
    c = Completable.complete()
    for bad in (lambda: c.retry(-1), lambda: c.repeat(-1)):
        with pytest.raises(ValueError):
            bad()
    for bad in (lambda: c.retry("3"), lambda: c.retry(predicate=1),
                lambda: c.retry(bi_predicate=1), lambda: c.retry(3, bi_predicate=lambda n, e: True),
                lambda: c.retry_when(None), lambda: c.retry_when(1),
                lambda: c.repeat(2.0), lambda: c.repeat_until(None), lambda: c.repeat_until(1),
                lambda: c.repeat_when(None), lambda: c.repeat_when(1)):
        with pytest.raises(TypeError):
            bad()


def test_all_return_completable():
    c = Completable.complete()
    for r in (c.retry(), c.retry(bi_predicate=lambda n, e: True), c.retry_when(lambda e: e),
              c.repeat(), c.repeat_until(lambda: True), c.repeat_when(lambda r: r)):
        assert isinstance(r, Completable)


# ---------------------------------------------------------------- retry

def test_retry_forever_until_complete():
    s, count = failing(5)
    s.retry().test().assert_result()
    assert count[0] == 6


def test_retry_times_and_predicate():
    s, count = failing(5)
    to = s.retry(3).test()
    to.assert_failure(Boom)
    assert to.errors()[0].args == (4,)
    s, count = failing(1)
    s.retry(0).test().assert_failure(Boom)
    assert count[0] == 1
    s, _ = failing(10)
    to = s.retry(predicate=lambda e: e.args[0] < 3).test()
    assert to.errors()[0].args == (3,)
    s, count = failing(10)
    s.retry(2, lambda e: True).test().assert_failure(Boom)
    assert count[0] == 3


def test_retry_bi_predicate():
    s, count = failing(10)
    seen = []
    s.retry(bi_predicate=lambda n, e: seen.append(n) or n < 3).test().assert_failure(Boom)
    assert seen == [1, 2, 3] and count[0] == 3
    s, _ = failing(2)
    s.retry(bi_predicate=lambda n, e: True).test().assert_result()


@pytest.mark.parametrize("how", ["predicate", "bi_predicate"])
def test_retry_predicate_raises_is_composite(how):
    c = Completable.error(Boom())
    r = (c.retry(predicate=lambda e: 1 / 0) if how == "predicate"
         else c.retry(bi_predicate=lambda n, e: 1 / 0))
    to = r.test()
    to.assert_failure(CompositeException)
    assert [type(x) for x in to.errors()[0].exceptions] == [Boom, ZeroDivisionError]


# dispose, the handler's errors, and the race of dispose with resubscription: in
# test_maybe_retry.py, for the three types at once


@pytest.mark.parametrize("how", sorted(RETRIES))
def test_retry_stack_safe_100k(how):
    s, count = failing(N - 1)
    RETRIES[how](s).test().assert_result()
    assert count[0] == N


# ---------------------------------------------------------------- retry_when

def test_retry_when_resubscribes_per_item():
    s, count = failing(3)
    s.retry_when(lambda errors: errors).test().assert_result()
    assert count[0] == 4


def test_retry_when_handler_completion_completes():
    # RxJava 2: fromPublisher(toFlowable().retryWhen(h)): the handler's completion
    # completes the stream
    s, count = failing(10)
    s.retry_when(lambda errors: errors.take(2)).test().assert_result()
    assert count[0] == 2
    s, count = failing(0)
    s.retry_when(lambda errors: Flowable.empty()).test().assert_result()
    assert count[0] == 0


def test_retry_when_completion_cancels_handler():
    pp = PublishProcessor()
    s, count = failing(1)
    to = s.retry_when(lambda errors: pp).test()
    to.assert_empty()
    pp.on_next(0)
    to.assert_result()
    assert count[0] == 2 and not pp.has_subscribers()


def test_retry_when_backoff_with_timer(sched):
    s, count = failing(2)
    to = s.retry_when(lambda errors: errors.zip_with(Flowable.range(1, 5), lambda e, i: i)
                      .flat_map(lambda i: Flowable.timer(i, sched))).test()
    sched.advance_time_by(1)
    assert count[0] == 2
    to.assert_empty()
    sched.advance_time_by(2)
    to.assert_result()


# ---------------------------------------------------------------- repeat / repeat_until

def test_repeat_counts():
    s, count = failing(0)
    s.repeat(3).test().assert_result()
    assert count[0] == 3
    s, count = failing(0)
    s.repeat(0).test().assert_result()
    assert count[0] == 0


def test_repeat_forever_until_dispose():
    p = ProbeCompletable()
    to = p.repeat().test()
    for _ in range(5):
        p.complete()
    assert len(p.observers) == 6
    to.assert_empty()
    to.dispose()
    assert p.disposed == 1


def test_repeat_error_stops():
    n = [0]

    def make():
        n[0] += 1
        return Completable.error(Boom()) if n[0] == 2 else Completable.complete()
    Completable.defer(make).repeat(5).test().assert_failure(Boom)
    assert n[0] == 2


def test_repeat_until():
    s, count = failing(0)
    s.repeat_until(lambda: count[0] == 3).test().assert_result()
    assert count[0] == 3
    Completable.complete().repeat_until(lambda: 1 / 0).test().assert_failure(ZeroDivisionError)


def test_repeat_stack_safe_100k():
    s, count = failing(0)
    s.repeat(N).test().assert_result()
    assert count[0] == N


def test_repeat_until_stack_safe_100k():
    s, count = failing(0)
    s.repeat_until(lambda: count[0] == N).test().assert_result()
    assert count[0] == N


# ---------------------------------------------------------------- repeat_when

def test_repeat_when_take():
    # take(3) lets 3 repetitions through (its completion comes with its last item)
    s, count = failing(0)
    s.repeat_when(lambda r: r.take(3)).test().assert_result()
    assert count[0] == 3


def test_repeat_when_handler_empty_completes_before_first():
    s, count = failing(0)
    s.repeat_when(lambda r: Flowable.empty()).test().assert_result()
    assert count[0] == 0


def test_repeat_when_external_trigger():
    pp = PublishProcessor()
    s, count = failing(0)
    to = s.repeat_when(lambda r: pp).test()
    to.assert_empty()
    pp.on_next(0)
    assert count[0] == 2
    pp.on_complete()
    to.assert_result()


def test_repeat_when_stack_safe_100k():
    s, count = failing(0)
    s.repeat_when(lambda r: r.take(N)).test().assert_result()
    assert count[0] == N


def test_repeat_when_with_timer(sched):
    s, count = failing(0)
    to = s.repeat_when(lambda r: r.take(2).flat_map(lambda _x: Flowable.timer(1, sched))).test()
    assert count[0] == 1
    sched.advance_time_by(1)
    assert count[0] == 2
    to.assert_empty()
    sched.advance_time_by(1)
    to.assert_result()


# ---------------------------------------------------------------- races

def test_race_dispose_vs_repeat(race_runner, race_rounds):
    for _ in range(race_rounds):
        src = RecordingCompletable()
        to = src.repeat().test()
        race_runner.race(to.dispose, lambda src=src: src.subs[-1][0].on_complete())
        to.assert_empty()
        assert len(src.subs) in (1, 2)
        assert src.subs[-1][1].disposed


def test_race_dispose_vs_repeat_when_trigger(race_runner, race_rounds):
    for _ in range(race_rounds):
        pp = PublishProcessor()
        src = RecordingCompletable()
        to = src.repeat_when(lambda r, pp=pp: pp).test()
        src.subs[-1][0].on_complete()
        race_runner.race(to.dispose, lambda pp=pp: pp.on_next(0))
        to.assert_empty()
        assert len(src.subs) in (1, 2)
        assert src.subs[-1][1].disposed
        assert not pp.has_subscribers()
