"""Single.retry_when (RxJava 2: toFlowable().retryWhen(handler), then toSingle).

The handler's errors and dispose: in test_maybe_retry.py, for the three types at once.
"""

from __future__ import annotations

import pytest
from test_single_retry import failing

from rxpy2 import Flowable
from rxpy2 import Single
from rxpy2.processors import PublishProcessor

pytestmark = pytest.mark.usefixtures("shutdown_schedulers")


def test_retry_when_handler_checked():
    with pytest.raises(TypeError):
        Single.just(1).retry_when(None)
    with pytest.raises(TypeError):
        Single.just(1).retry_when(1)


def test_retry_when_success_at_once():
    Single.just(1).retry_when(lambda errors: errors).test().assert_result(1)


def test_retry_when_resubscribes_per_item():
    s, count = failing(3)
    s.retry_when(lambda errors: errors).test().assert_result(1)
    assert count[0] == 4


def test_retry_when_limited_by_take_completes_with_index_error():
    s, count = failing(10)
    s.retry_when(lambda errors: errors.take(2)).test().assert_failure(IndexError)
    # as in RxJava 2: take's completion follows its 2nd item at once, before the
    # trampolined resubscription runs, so the source was subscribed twice
    assert count[0] == 2


def test_retry_when_external_trigger():
    pp = PublishProcessor()
    s, count = failing(2)
    to = s.retry_when(lambda errors: pp).test()
    to.assert_empty()
    pp.on_next(0)
    assert count[0] == 2
    pp.on_next(0)
    to.assert_result(1)
    assert not pp.has_subscribers()


def test_retry_when_stack_safe_100k():
    s, count = failing(99_999, value=5)
    s.retry_when(lambda errors: errors).test().assert_result(5)
    assert count[0] == 100_000


def test_retry_when_backoff_with_timer(sched):
    s, count = failing(3)
    to = s.retry_when(lambda errors: errors.zip_with(Flowable.range(1, 5), lambda e, i: i)
                      .flat_map(lambda i: Flowable.timer(i, sched))).test()
    to.assert_empty()
    sched.advance_time_by(1)
    assert count[0] == 2
    sched.advance_time_by(2)
    assert count[0] == 3
    sched.advance_time_by(3)
    to.assert_result(1)


def test_retry_when_race_dispose_vs_retry(race_runner, race_rounds):
    for _ in range(race_rounds):
        pp = PublishProcessor()
        s, count = failing(1)
        to = s.retry_when(lambda errors, pp=pp: pp).test()
        race_runner.race(to.dispose, lambda pp=pp: pp.on_next(0))
        assert len(to.values()) <= 1 and not to.errors()
        to.assert_protocol_ok()
