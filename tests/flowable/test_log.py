"""Flowable.log and the 0-1 types' log: one logging record per signal (pytest's caplog)."""

from __future__ import annotations

import logging

import pytest
from probes import Boom

from rxpy2 import Completable
from rxpy2 import Flowable
from rxpy2 import Maybe
from rxpy2 import Single
from rxpy2._internal.operators.flowable.flowable_log import LogSubscriber


def messages(caplog, name="rxpy2.log"):
    return [r.getMessage() for r in caplog.records if r.name == name]


def test_every_signal_is_one_record(caplog):
    caplog.set_level(logging.INFO, "rxpy2.log")
    ts = Flowable.range(1, 3).log().test(2)
    ts.request(5)
    ts.assert_result(1, 2, 3)
    assert messages(caplog) == ["on_subscribe(RangeSubscription)", "request(2)", "on_next(1)",
                                "on_next(2)", "request(5)", "on_next(3)", "on_complete()"]
    assert {r.levelno for r in caplog.records if r.name == "rxpy2.log"} == {logging.INFO}


def test_unbounded_request_error_and_cancel(caplog):
    caplog.set_level(logging.INFO, "rxpy2.log")
    Flowable.error(Boom("b")).log().subscribe(lambda x: None, lambda e: None)
    assert messages(caplog)[-2:] == ["request(unbounded)", "on_error(Boom('b'))"]
    caplog.clear()
    Flowable.never().log().test().cancel()
    assert messages(caplog)[-1] == "cancel()"


def test_logger_by_name_by_object_and_level(caplog):
    caplog.set_level(logging.DEBUG, "my.flow")
    Flowable.just("a").log("my.flow", logging.DEBUG).test().assert_result("a")
    assert "on_next('a')" in messages(caplog, "my.flow")
    assert all(r.levelno == logging.DEBUG for r in caplog.records if r.name == "my.flow")
    caplog.clear()
    logger = logging.getLogger("my.other")
    caplog.set_level(logging.WARNING, "my.other")
    Flowable.just(1).log(logger, "WARNING").test().assert_result(1)
    assert messages(caplog, "my.other")[-1] == "on_complete()"
    adapter = logging.LoggerAdapter(logger, {})
    Flowable.just(2).log(adapter, logging.WARNING).test().assert_result(2)
    assert "on_next(2)" in messages(caplog, "my.other")


def test_disabled_logger_leaves_the_stage_out(caplog):
    seen = []

    def capture(down):
        seen.append(down)
        return down

    f = Flowable.range(1, 3).lift(capture).log(level=logging.INFO)
    caplog.set_level(logging.WARNING, "rxpy2.log")
    f.test().assert_result(1, 2, 3)
    assert messages(caplog) == []
    assert not isinstance(seen[-1], LogSubscriber)  # the subscriber itself: no stage
    caplog.set_level(logging.INFO, "rxpy2.log")
    f.test().assert_result(1, 2, 3)
    assert isinstance(seen[-1], LogSubscriber)


def test_enabled_is_decided_at_subscribe(caplog):
    logger = logging.getLogger("rxpy2.log.decided")
    f = Flowable.range(1, 2).log(logger)
    caplog.set_level(logging.WARNING, "rxpy2.log.decided")
    f.test().assert_result(1, 2)
    assert messages(caplog, "rxpy2.log.decided") == []
    caplog.set_level(logging.INFO, "rxpy2.log.decided")
    f.test().assert_result(1, 2)
    assert messages(caplog, "rxpy2.log.decided")[-1] == "on_complete()"


def test_each_item_is_logged_once_in_a_fusable_chain(caplog):
    caplog.set_level(logging.INFO, "rxpy2.log")
    Flowable.range(1, 3).map(lambda x: x * 10).log().filter(lambda x: x > 10).test() \
        .assert_result(20, 30)
    # filter asks for a replacement of the item it dropped: that request is logged too
    logged = messages(caplog)
    assert logged[0].startswith("on_subscribe(")  # the fused source's Subscription
    assert logged[1:] == ["request(unbounded)", "on_next(10)", "request(1)", "on_next(20)",
                          "on_next(30)", "on_complete()"]


def test_bad_arguments():
    with pytest.raises(TypeError):
        Flowable.just(1).log(42)
    with pytest.raises(TypeError):
        Flowable.just(1).log(None, 1.5)
    with pytest.raises(ValueError):
        Flowable.just(1).log(None, "LOUD")
    with pytest.raises(TypeError):
        Single.just(1).log(object())


# ---- Single, Maybe, Completable


def test_single_log(caplog):
    caplog.set_level(logging.INFO, "rxpy2.log")
    Single.just(1).log().test().assert_result(1)
    assert messages(caplog) == ["on_subscribe(EmptyDisposable)", "on_success(1)"]


def test_maybe_and_completable_log(caplog):
    caplog.set_level(logging.INFO, "rxpy2.log")
    Maybe.empty().log().test().assert_result()
    Completable.error(Boom("c")).log().test().assert_failure(Boom)
    assert messages(caplog)[1::2] == ["on_complete()", "on_error(Boom('c'))"]
    assert isinstance(Maybe.just(1).log(), Maybe)
    assert isinstance(Completable.complete().log(), Completable)


def test_zero_one_dispose_is_logged_and_passed_up(caplog):
    caplog.set_level(logging.INFO, "rxpy2.log")
    disposed = []
    to = Single.never().do_on_dispose(lambda: disposed.append(1)).log().test()
    to.dispose()
    assert disposed == [1]
    assert messages(caplog)[-1] == "dispose()"


def test_zero_one_disabled_logger_logs_nothing(caplog):
    caplog.set_level(logging.WARNING, "rxpy2.log")
    Single.just(1).log().test().assert_result(1)
    Maybe.just(1).log(level=logging.DEBUG).test().assert_result(1)
    assert messages(caplog) == []
