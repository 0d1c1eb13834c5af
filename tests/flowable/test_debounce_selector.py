"""Flowable.debounce(selector): RxJava 2's FlowableDebounce."""

from __future__ import annotations

import pytest

from rxpy2 import Flowable
from rxpy2.exceptions import MissingBackpressureException
from rxpy2.processors import PublishProcessor
from rxpy2.testing import RaceRunner
from tests.probes import Boom
from tests.probes import ManualSource


def test_item_due_when_indicator_signals():
    src = PublishProcessor()
    inds = [PublishProcessor() for _ in range(4)]
    ts = src.debounce(lambda x: inds[x]).test()
    src.on_next(0)
    src.on_next(1)  # 0 is dropped: its indicator is cancelled
    assert not inds[0].has_subscribers()
    inds[1].on_next("go")
    ts.assert_values(1)
    assert not inds[1].has_subscribers()
    src.on_next(2)
    inds[2].on_complete()  # completion makes it due too
    src.on_next(3)
    src.on_complete()  # the waiting item goes out at once
    ts.assert_result(1, 2, 3)
    assert not inds[3].has_subscribers()


def test_requests_upstream_unbounded_and_lack_of_demand_fails():
    src = ManualSource()
    ts = src.debounce(lambda x: Flowable.empty()).test(1)
    assert src.requests == [2**63 - 1]
    src.emit(1, 2)
    ts.assert_values(1).assert_error(MissingBackpressureException)
    assert src.cancelled


def test_indicator_error_ends_the_stream_and_cancels_upstream():
    src, ind = ManualSource(), PublishProcessor()
    ts = src.debounce(lambda x: ind).test()
    src.emit(1)
    ind.on_error(Boom())
    ts.assert_no_values().assert_error(Boom)
    assert src.cancelled


def test_selector_raises_or_returns_garbage():
    src = ManualSource()
    ts = src.debounce(lambda x: 1 // 0).test()
    src.emit(1)
    ts.assert_error(ZeroDivisionError)
    assert src.cancelled
    Flowable.just(1).debounce(lambda x: None).test().assert_error(TypeError)
    Flowable.just(1).debounce(lambda x: "x").test().assert_error(TypeError)


def test_main_error_drops_the_waiting_item():
    src, ind = PublishProcessor(), PublishProcessor()
    ts = src.debounce(lambda x: ind).test()
    src.on_next(1)
    src.on_error(Boom())
    ts.assert_no_values().assert_error(Boom)
    assert not ind.has_subscribers()


def test_cancel_disposes_indicator():
    src, ind = PublishProcessor(), PublishProcessor()
    ts = src.debounce(lambda x: ind).test()
    src.on_next(1)
    ts.cancel()
    assert not src.has_subscribers() and not ind.has_subscribers()


def test_stale_indicator_error_goes_to_plugins(plugin_errors):
    src = ManualSource()
    inds = [ManualSource(), ManualSource()]
    ts = src.debounce(lambda x: inds[x]).test()
    src.emit(0, 1)
    assert inds[0].cancelled
    inds[0].error(Boom())
    assert [type(e) for e in plugin_errors.causes()] == [Boom]
    plugin_errors.clear()
    ts.assert_no_values().assert_no_errors()


def test_arguments():
    with pytest.raises(TypeError):
        Flowable.never().debounce(None)
    with pytest.raises(TypeError):
        Flowable.never().debounce(lambda x: Flowable.never(), object())
    Flowable.never().debounce(1.0)  # the timed form still builds


def test_race_indicator_vs_next_item():
    with RaceRunner() as r:
        for _ in range(300):
            src, ind = PublishProcessor(), PublishProcessor()
            ts = src.debounce(lambda x, ind=ind: ind if x == 1 else Flowable.never()).test()
            src.on_next(1)
            r.race(lambda src=src: src.on_next(2), lambda ind=ind: ind.on_next(0))
            src.on_complete()
            assert ts.values() in ([1, 2], [2]), ts.values()
            ts.assert_complete().assert_no_errors()


def test_race_indicator_vs_completion():
    with RaceRunner() as r:
        for _ in range(300):
            src, ind = PublishProcessor(), PublishProcessor()
            ts = src.debounce(lambda x, ind=ind: ind).test()
            src.on_next(1)
            r.race(src.on_complete, lambda ind=ind: ind.on_next(0))
            ts.assert_result(1)  # once, never twice
