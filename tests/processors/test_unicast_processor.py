"""UnicastProcessor: one subscriber, an unbounded queue, on_terminate, delay_error, fusion, races."""

from __future__ import annotations

import gc
import weakref
from functools import partial

import pytest
from probes import ManualSource
from processor_probes import emit
from processor_probes import race
from processor_probes import request_each

from rxpy2 import Flowable
from rxpy2 import ProtocolViolationException
from rxpy2 import UnicastProcessor
from rxpy2._internal.fuseable import ANY
from rxpy2._internal.fuseable import ASYNC
from rxpy2._internal.fuseable import NONE
from rxpy2._internal.fuseable import SYNC
from rxpy2.reactivestreams import LONG_MAX
from rxpy2.testing import TestSubscriber


class Item:
    """A weak-referenceable item."""


def test_buffers_until_subscribed_then_replays_under_demand():
    up = UnicastProcessor.create()
    for i in range(5):
        up.on_next(i)
    assert not up.has_subscribers()
    ts = up.test(0)
    assert up.has_subscribers()
    ts.assert_empty()
    ts.request(2)
    ts.assert_values(0, 1)
    up.on_next(5)
    ts.request(10)
    ts.assert_values(0, 1, 2, 3, 4, 5).assert_not_terminated()
    up.on_complete()
    ts.assert_result(0, 1, 2, 3, 4, 5).assert_protocol_ok()
    assert not up.has_subscribers()


def test_completion_waits_for_the_queue():
    up = UnicastProcessor.create()
    ts = up.test(1)
    up.on_next(1)
    up.on_next(2)
    up.on_complete()
    assert up.has_complete() and not up.has_throwable() and up.get_throwable() is None
    ts.assert_values(1).assert_not_complete()
    ts.request(1)
    ts.assert_result(1, 2)


def test_delay_error_by_default():
    up = UnicastProcessor.create()
    up.on_next(1)
    e = ValueError()
    up.on_error(e)
    assert up.has_throwable() and up.get_throwable() is e
    ts = up.test(0)
    ts.assert_empty()
    ts.request(1)
    ts.assert_failure(e, 1)


def test_error_cuts_ahead_without_delay_error():
    up = UnicastProcessor.create(delay_error=False)
    ts = up.test(0)
    up.on_next(1)
    up.on_next(2)
    e = ValueError()
    up.on_error(e)
    ts.assert_failure(e).assert_protocol_ok()


def test_second_subscriber_gets_protocol_violation():
    up = UnicastProcessor.create()
    ts1 = up.test()
    ts2 = up.test()
    ts2.assert_failure(ProtocolViolationException).assert_protocol_ok()
    up.on_next(1)
    ts1.assert_values(1).assert_no_errors()


def test_second_subscriber_after_termination_also_rejected():
    up = UnicastProcessor.create()
    up.on_complete()
    up.test().assert_result()
    up.test().assert_failure(ProtocolViolationException)


def test_on_terminate_runs_once_on_cancel():
    calls: list[str] = []
    up = UnicastProcessor.create(on_terminate=lambda: calls.append("t"))
    ts = up.test()
    up.on_next(1)
    ts.cancel()
    ts.cancel()
    assert calls == ["t"]
    assert not up.has_subscribers()
    up.on_next(2)
    up.on_complete()
    assert calls == ["t"]
    ts.assert_values(1).assert_not_terminated()


def test_on_terminate_runs_once_on_completion_and_error(plugin_errors):
    calls: list[str] = []
    up = UnicastProcessor.create(on_terminate=lambda: calls.append("t"))
    up.on_complete()
    ts = up.test()
    ts.cancel()
    assert calls == ["t"]
    up2 = UnicastProcessor.create(on_terminate=lambda: calls.append("e"))
    e = ValueError()
    up2.on_error(e)
    up2.on_error(ValueError("late"))
    assert calls == ["t", "e"]
    assert len(plugin_errors) == 1


def test_failing_on_terminate_is_reported_and_cancel_returns(plugin_errors):
    def bad() -> None:
        raise ZeroDivisionError()

    up = UnicastProcessor.create(on_terminate=bad)
    ts = up.test()
    ts.cancel()  # §3.15: returns normally
    assert [type(e) for e in plugin_errors.causes()] == [ZeroDivisionError]


def test_cancel_clears_the_queue_and_drops_later_items():
    up = UnicastProcessor.create()
    ts = up.test(0)
    item = Item()
    ref = weakref.ref(item)
    up.on_next(item)
    up.on_next(Item())
    del item
    ts.cancel()
    gc.collect()
    assert ref() is None  # the queued items were released
    up.on_next(Item())
    ts.assert_empty()
    assert up._queue.is_empty()


def test_cancel_in_on_subscribe():
    up = UnicastProcessor.create()
    up.on_next(1)
    ts = up.test(cancel=True)
    ts.assert_empty()
    assert not up.has_subscribers()


def test_async_fusion():
    up = UnicastProcessor.create()
    up.on_next(1)
    ts: TestSubscriber[int] = TestSubscriber().with_fusion(ANY)
    up.subscribe(ts)
    ts.assert_fusion_mode(ASYNC)
    up.on_next(2)
    up.on_next(3)
    up.on_complete()
    ts.assert_result(1, 2, 3).assert_protocol_ok()


def test_async_fusion_error_without_delay():
    up = UnicastProcessor.create(delay_error=False)
    ts: TestSubscriber[int] = TestSubscriber(0).with_fusion(ASYNC)
    up.subscribe(ts)
    e = ValueError()
    up.on_next(1)
    assert ts.value_count() == 1  # the fused consumer polls whatever it is told is ready
    up.on_error(e)
    ts.assert_failure(e, 1)


def test_sync_fusion_is_refused():
    up = UnicastProcessor.create()
    ts: TestSubscriber[int] = TestSubscriber().with_fusion(SYNC)
    up.subscribe(ts)
    ts.assert_fusion_mode(NONE)
    up.on_next(1)
    ts.assert_values(1)


def test_fused_by_an_operator_downstream():
    up = UnicastProcessor.create()
    ts = up.map(lambda x: x + 1).test()
    for i in range(3):
        up.on_next(i)
    up.on_complete()
    ts.assert_result(1, 2, 3)


def test_none_and_bad_arguments():
    up = UnicastProcessor.create()
    with pytest.raises(TypeError):
        up.on_next(None)
    with pytest.raises(TypeError):
        up.on_error(None)
    with pytest.raises(TypeError):
        up.on_subscribe(None)
    with pytest.raises(ValueError):
        UnicastProcessor.create(0)
    with pytest.raises(TypeError):
        UnicastProcessor.create("1")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        UnicastProcessor.create(16, on_terminate=42)  # type: ignore[arg-type]


def test_errors_after_termination_go_to_plugins(plugin_errors):
    up = UnicastProcessor.create()
    up.on_complete()
    e = ValueError()
    up.on_error(e)
    assert plugin_errors.causes() == [e]


def test_as_subscriber():
    up = UnicastProcessor.create()
    requests: list[int] = []
    Flowable.range(1, 3).do_on_request(requests.append).subscribe(up)
    assert requests == [LONG_MAX]
    up.test().assert_result(1, 2, 3)
    src = ManualSource()
    src.subscribe(up)
    assert src.cancelled


def test_request_in_on_next_does_not_recurse():
    up = UnicastProcessor.create()
    for i in range(10_000):
        up.on_next(i)
    up.on_complete()

    class OneByOne(TestSubscriber[int]):
        def on_next(self, item: int) -> None:
            super().on_next(item)
            self.request(1)

    ts = OneByOne(1)
    up.subscribe(ts)
    assert ts.value_count() == 10_000
    ts.assert_complete()


# ---------------------------------------------------------------------------- races


def test_race_on_next_vs_request(race_runner, race_rounds):
    for _ in range(race_rounds // 8):
        up = UnicastProcessor.create()
        ts = up.test(0)
        race(race_runner, partial(emit, up, range(4), True), partial(request_each, ts, 4))
        ts.assert_result(0, 1, 2, 3).assert_protocol_ok()


def test_race_cancel_vs_on_next(race_runner, race_rounds):
    for _ in range(race_rounds // 2):
        calls: list[int] = []
        up = UnicastProcessor.create(on_terminate=partial(calls.append, 1))
        ts = up.test()
        race(race_runner, ts.cancel, partial(up.on_next, 1))
        up.on_next(2)
        up.on_complete()
        assert ts.values() in ([], [1])
        ts.assert_not_terminated().assert_protocol_ok()
        assert calls == [1]
        # an on_next that passed its cancelled-check just before cancel() may leave its item
        # queued (no drain runs after a cancel); later items are not queued at all
        assert len(up._queue) <= 1


def test_race_subscribe_vs_on_next(race_runner, race_rounds):
    for _ in range(race_rounds // 2):
        up = UnicastProcessor.create()
        up.on_next(0)
        ts: TestSubscriber[int] = TestSubscriber()
        race(race_runner, partial(up.on_next, 1), partial(up.subscribe, ts))
        up.on_complete()
        ts.assert_result(0, 1).assert_protocol_ok()


def test_race_cancel_vs_on_complete(race_runner, race_rounds):
    for _ in range(race_rounds // 2):
        calls: list[int] = []
        up = UnicastProcessor.create(on_terminate=partial(calls.append, 1))
        ts = up.test()
        race(race_runner, ts.cancel, up.on_complete)
        assert calls == [1]
        assert ts.completions() in (0, 1)
        ts.assert_no_errors().assert_protocol_ok()


def test_race_fused_drain_vs_on_next(race_runner, race_rounds):
    for _ in range(race_rounds // 4):
        up = UnicastProcessor.create()
        ts: TestSubscriber[int] = TestSubscriber().with_fusion(ANY)
        up.subscribe(ts)
        race(race_runner, partial(emit, up, range(3)), partial(up.on_next, 10))
        up.on_complete()
        values = ts.values()
        assert sorted(values) == [0, 1, 2, 10] and [v for v in values if v < 10] == [0, 1, 2]
        ts.assert_complete()
