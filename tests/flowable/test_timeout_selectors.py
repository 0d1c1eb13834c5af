"""Flowable.timeout(item_timeout=..., first_timeout=..., fallback=...): RxJava 2's FlowableTimeout."""

from __future__ import annotations

import pytest

from rxpy2 import Flowable
from rxpy2.processors import PublishProcessor
from rxpy2.testing import RaceRunner
from tests.probes import Boom
from tests.probes import ManualSource


def test_item_timeout_fires_after_an_item():
    src, ind = PublishProcessor(), PublishProcessor()
    ts = src.timeout(item_timeout=lambda x: ind).test()
    assert not ind.has_subscribers()  # no first timeout: the first item may take forever
    src.on_next(1)
    assert ind.has_subscribers()
    src.on_next(2)
    ind.on_next("t")
    ts.assert_values(1, 2).assert_error(TimeoutError)
    assert not src.has_subscribers() and not ind.has_subscribers()
    assert str(ts.errors()[0]) == ""  # RxJava 2's bare TimeoutException


def test_first_timeout_fires_before_the_first_item():
    src, first = PublishProcessor(), PublishProcessor()
    ts = src.timeout(item_timeout=lambda x: Flowable.never(), first_timeout=first).test()
    first.on_complete()  # completion is a timeout too
    ts.assert_no_values().assert_error(TimeoutError)
    assert not src.has_subscribers()


def test_item_cancels_the_previous_indicator():
    src = PublishProcessor()
    inds = [PublishProcessor() for _ in range(3)]
    first = PublishProcessor()
    ts = src.timeout(item_timeout=lambda x: inds[x], first_timeout=first).test()
    src.on_next(0)
    assert not first.has_subscribers() and inds[0].has_subscribers()
    src.on_next(1)
    assert not inds[0].has_subscribers() and inds[1].has_subscribers()
    src.on_complete()
    assert not inds[1].has_subscribers()
    ts.assert_result(0, 1)


def test_fallback_takes_over_with_the_remaining_demand():
    src, ind = ManualSource(), PublishProcessor()
    fb_requests: list[int] = []
    fallback = Flowable.range(10, 5).do_on_request(fb_requests.append)
    ts = src.timeout(item_timeout=lambda x: ind, fallback=fallback).test(3)
    src.emit(1)
    ind.on_next(0)
    assert src.cancelled
    assert fb_requests == [2]
    ts.assert_values(1, 10, 11).assert_not_complete()
    ts.request(10)
    ts.assert_result(1, 10, 11, 12, 13, 14)


def test_first_timeout_to_fallback():
    ts = Flowable.never().timeout(item_timeout=lambda x: Flowable.never(),
                                  first_timeout=Flowable.empty(),
                                  fallback=Flowable.just(7)).test()
    ts.assert_result(7)


def test_indicator_error_is_the_error():
    src, ind = PublishProcessor(), PublishProcessor()
    ts = src.timeout(item_timeout=lambda x: ind).test()
    src.on_next(1)
    ind.on_error(Boom())
    ts.assert_values(1).assert_error(Boom)
    assert not src.has_subscribers()


def test_stale_indicator_error_goes_to_plugins(plugin_errors):
    src = ManualSource()
    inds = [ManualSource(), ManualSource()]
    ts = src.timeout(item_timeout=lambda x: inds[x]).test()
    src.emit(0)
    src.emit(1)
    assert inds[0].cancelled
    inds[0].error(Boom())  # too late: the item won
    assert [type(e) for e in plugin_errors.causes()] == [Boom]
    plugin_errors.clear()
    ts.assert_values(0, 1).assert_no_errors()


def test_selector_raises_cancels_upstream():
    src = ManualSource()
    ts = src.timeout(item_timeout=lambda x: 1 // 0).test()
    src.emit(1)
    ts.assert_values(1).assert_error(ZeroDivisionError)
    assert src.cancelled


def test_selector_returns_none_or_not_a_publisher():
    Flowable.just(1).timeout(item_timeout=lambda x: None).test().assert_values(1).assert_error(TypeError)
    Flowable.just(1).timeout(item_timeout=lambda x: 5).test().assert_values(1).assert_error(TypeError)


def test_main_error_and_completion():
    Flowable.error(Boom()).timeout(item_timeout=lambda x: Flowable.never(),
                                   first_timeout=Flowable.never()).test().assert_error(Boom)
    Flowable.range(1, 3).timeout(item_timeout=lambda x: Flowable.never()).test().assert_result(1, 2, 3)


def test_cancel_cancels_indicator_and_upstream():
    src, first = PublishProcessor(), PublishProcessor()
    ts = src.timeout(item_timeout=lambda x: Flowable.never(), first_timeout=first).test()
    ts.cancel()
    assert not src.has_subscribers() and not first.has_subscribers()
    src2, first2 = PublishProcessor(), PublishProcessor()
    ts2 = src2.timeout(item_timeout=lambda x: Flowable.never(), first_timeout=first2,
                       fallback=Flowable.just(1)).test()
    ts2.cancel()
    assert not src2.has_subscribers() and not first2.has_subscribers()


def test_request_passes_through():
    src = ManualSource()
    ts = src.timeout(item_timeout=lambda x: Flowable.never()).test(0)
    ts.request(5)
    ts.request(2)
    assert src.requests == [5, 2]


def test_arguments_checked_at_assembly():
    f = Flowable.never()
    with pytest.raises(TypeError):
        f.timeout(item_timeout=5)
    with pytest.raises(TypeError):
        f.timeout(first_timeout=Flowable.never())  # first alone is not an RxJava overload
    with pytest.raises(TypeError):
        f.timeout(item_timeout=lambda x: f, first_timeout=3)
    with pytest.raises(TypeError):
        f.timeout(1.0, item_timeout=lambda x: f)
    with pytest.raises(TypeError):
        f.timeout(item_timeout=lambda x: f, fallback=3)
    with pytest.raises(TypeError):
        f.timeout()
    f.timeout(1.0)  # the timed form still builds


@pytest.mark.parametrize("with_fallback", [False, True])
def test_race_item_vs_indicator(with_fallback):
    with RaceRunner() as r:
        for _ in range(300):
            src, ind = PublishProcessor(), PublishProcessor()
            kw = {"fallback": Flowable.just(99)} if with_fallback else {}
            ts = src.timeout(item_timeout=lambda x, ind=ind: ind if x == 1 else Flowable.never(),
                             **kw).test()
            src.on_next(1)
            r.race(lambda src=src: src.on_next(2), lambda ind=ind: ind.on_next(0))
            vals = ts.values()
            if with_fallback:
                assert vals in ([1, 2], [1, 99]), vals
                if vals == [1, 99]:
                    ts.assert_complete()
            else:
                if vals == [1]:
                    ts.assert_error(TimeoutError)
                else:
                    assert vals == [1, 2]
                    ts.assert_no_errors()
            assert len(ts.errors()) <= 1
