"""AsyncProcessor: the last item at completion, to each subscriber under its own demand; races."""

from __future__ import annotations

from functools import partial

import pytest
from probes import ManualSource
from processor_probes import race

from rxpy2 import AsyncProcessor
from rxpy2 import Flowable
from rxpy2._internal.fuseable import ANY
from rxpy2._internal.fuseable import ASYNC
from rxpy2.reactivestreams import LONG_MAX
from rxpy2.testing import TestSubscriber


def test_emits_only_the_last_item_on_completion():
    ap = AsyncProcessor.create()
    ts = ap.test()
    ap.on_next(1)
    ap.on_next(2)
    ts.assert_empty()
    assert not ap.has_value() and ap.get_value() is None  # not before completion
    ap.on_complete()
    ts.assert_result(2).assert_protocol_ok()
    assert ap.has_value() and ap.get_value() == 2 and ap.has_complete()
    assert not ap.has_throwable() and ap.get_throwable() is None


def test_each_subscriber_under_its_own_demand():
    ap = AsyncProcessor.create()
    ts1, ts2 = ap.test(0), ap.test()
    ap.on_next(1)
    ap.on_complete()
    ts2.assert_result(1)
    ts1.assert_empty()
    ts1.request(1)
    ts1.assert_result(1).assert_protocol_ok()


def test_request_before_completion():
    ap = AsyncProcessor.create()
    ts = ap.test(1)
    ap.on_next(5)
    ap.on_complete()
    ts.assert_result(5)


def test_no_item_just_completes():
    ap = AsyncProcessor.create()
    ts = ap.test(0)
    ap.on_complete()
    ts.assert_result()
    assert not ap.has_value() and ap.has_complete()
    ap.test(0).assert_result()


def test_error_forgets_the_item():
    ap = AsyncProcessor.create()
    ts = ap.test(0)
    ap.on_next(1)
    e = ValueError()
    ap.on_error(e)
    ts.assert_failure(e)
    assert ap.has_throwable() and ap.get_throwable() is e and not ap.has_value()
    ap.test(0).assert_failure(e).assert_protocol_ok()


def test_late_subscriber_gets_the_item_under_demand():
    ap = AsyncProcessor.create()
    ap.on_next(1)
    ap.on_complete()
    ts = ap.test(0)
    ts.assert_empty()
    ts.request(1)
    ts.assert_result(1)


def test_cancel_removes_the_subscriber():
    ap = AsyncProcessor.create()
    ts1, ts2 = ap.test(0), ap.test()
    ts1.cancel()
    assert ap.has_subscribers()
    ap.on_next(1)
    ap.on_complete()
    ts1.request(1)
    ts1.assert_empty()
    ts2.assert_result(1)
    assert not ap.has_subscribers()


def test_cancel_after_completion_before_request():
    ap = AsyncProcessor.create()
    ts = ap.test(0)
    ap.on_next(1)
    ap.on_complete()
    ts.cancel()
    ts.request(1)
    ts.assert_empty()


def test_cancel_in_on_subscribe():
    ap = AsyncProcessor.create()
    ts = ap.test(cancel=True)
    assert not ap.has_subscribers()
    ap.on_next(1)
    ap.on_complete()
    ts.assert_empty()


def test_async_fusion_of_each_subscription():
    ap = AsyncProcessor.create()
    ts: TestSubscriber[int] = TestSubscriber().with_fusion(ANY)
    ap.subscribe(ts)
    ts.assert_fusion_mode(ASYNC)
    ap.on_next(3)
    ap.on_complete()
    ts.assert_result(3)


def test_none_raises_type_error():
    ap = AsyncProcessor.create()
    with pytest.raises(TypeError):
        ap.on_next(None)
    with pytest.raises(TypeError):
        ap.on_error(None)
    with pytest.raises(TypeError):
        ap.on_subscribe(None)


def test_errors_after_termination_go_to_plugins(plugin_errors):
    ap = AsyncProcessor.create()
    ap.on_next(1)
    ap.on_complete()
    e = ValueError()
    ap.on_error(e)
    ap.on_next(2)
    assert plugin_errors.causes() == [e]
    assert ap.get_value() == 1


def test_as_subscriber():
    ap = AsyncProcessor.create()
    requests: list[int] = []
    Flowable.range(1, 3).do_on_request(requests.append).subscribe(ap)
    assert requests == [LONG_MAX]
    ap.test().assert_result(3)
    src = ManualSource()
    src.subscribe(ap)
    assert src.cancelled


# ---------------------------------------------------------------------------- races


def test_race_on_complete_vs_subscribe(race_runner, race_rounds):
    for _ in range(race_rounds // 2):
        ap = AsyncProcessor.create()
        ap.on_next(1)
        ts: TestSubscriber[int] = TestSubscriber()
        race(race_runner, ap.on_complete, partial(ap.subscribe, ts))
        ts.assert_result(1).assert_protocol_ok()


def test_race_request_vs_on_complete(race_runner, race_rounds):
    for _ in range(race_rounds // 2):
        ap = AsyncProcessor.create()
        ts = ap.test(0)
        ap.on_next(1)
        race(race_runner, ap.on_complete, partial(ts.request, 1))
        ts.assert_result(1).assert_protocol_ok()


def test_race_cancel_vs_on_complete(race_runner, race_rounds):
    for _ in range(race_rounds // 2):
        ap = AsyncProcessor.create()
        ts = ap.test()
        ap.on_next(1)
        race(race_runner, ap.on_complete, ts.cancel)
        # the item (and its completion, unless the cancel came right after the item)
        # or nothing at all
        assert (ts.values(), ts.completions()) in (([], 0), ([1], 0), ([1], 1))
        ts.assert_no_errors().assert_protocol_ok()
        assert not ap.has_subscribers()
