"""take, limit, skip, take_last, skip_last, take_while, skip_while."""

from __future__ import annotations

import pytest
from probes import ManualSource
from probes import Recorded
from probes import boom

from rxpy2 import Flowable
from rxpy2._internal.fuseable import NONE
from rxpy2._internal.fuseable import SYNC
from rxpy2._internal.operators.flowable.flowable_limit import FlowableLimit
from rxpy2._internal.operators.flowable.flowable_take import FlowableTake
from rxpy2.reactivestreams import LONG_MAX
from rxpy2.testing import TestSubscriber

# ----------------------------------------------------------------- take


def test_take_values_and_completion():
    Flowable.range(1, 10).take(3).test().assert_result(1, 2, 3)


def test_take_more_than_available():
    Flowable.range(1, 3).take(10).test().assert_result(1, 2, 3)


def test_take_unbounded_requests_exactly_n():
    src = Recorded(1, 100)
    src.flowable.take(3).test().assert_result(1, 2, 3)
    assert src.requests == [3]


def test_take_does_not_over_request():
    src = Recorded(1, 100)
    ts = src.flowable.take(3).test(1)
    ts.assert_values(1).assert_not_complete()
    ts.request(5)
    ts.assert_result(1, 2, 3)
    assert src.requests == [1, 2]


def test_take_requests_after_n_are_not_forwarded():
    src = ManualSource()
    ts = src.take(2).test(0)
    ts.request(1)
    ts.request(1)
    ts.request(7)
    assert src.requests == [1, 1]


def test_take_cancels_upstream_at_n():
    src = Recorded(1, 100)
    src.flowable.take(2).test().assert_result(1, 2)
    assert src.cancels == [1]


def test_take_zero_completes_and_cancels_upstream():
    src = ManualSource()
    ts = src.take(0).test(0)
    ts.assert_subscribed().assert_result()
    assert src.cancelled
    assert src.requests == []


def test_take_zero_on_range():
    src = Recorded(1, 5)
    src.flowable.take(0).test().assert_result()
    assert src.requests == []
    assert src.cancels == [1]


def test_take_error_passthrough():
    src = ManualSource()
    ts = src.take(5).test()
    src.emit(1, 2)
    src.error(ValueError("x"))
    ts.assert_failure(ValueError, 1, 2)


def test_take_error_after_n_goes_to_plugins(plugin_errors):
    src = ManualSource()
    ts = src.take(1).test()
    src.emit(1)
    src.error(ValueError("late"))
    src.complete()
    ts.assert_result(1).assert_protocol_ok()
    assert len(plugin_errors) == 1 and isinstance(plugin_errors.causes()[0], ValueError)


def test_take_downstream_cancel_reaches_upstream():
    src = ManualSource()
    ts = src.take(5).test()
    ts.cancel()
    assert src.cancelled


def test_take_cancel_in_on_next_then_no_more():
    src = Recorded(1, 10)
    values = []

    class Canceller(TestSubscriber):
        def on_next(self, item):
            values.append(item)
            super().on_next(item)
            if item == 2:
                self.cancel()

    ts = Canceller()
    src.flowable.take(5).subscribe(ts)
    assert values == [1, 2]
    assert src.cancels == [1]


def test_take_non_positive_request_is_reported(plugin_errors):
    src = ManualSource()
    ts = src.take(3).test(0)
    ts.request(0)
    assert src.requests == []
    assert len(plugin_errors) == 1 and isinstance(plugin_errors.causes()[0], ValueError)
    assert "3.9" in str(plugin_errors[0])


def test_take_bad_arguments():
    with pytest.raises(ValueError):
        Flowable.range(1, 3).take(-1)
    with pytest.raises(TypeError):
        Flowable.range(1, 3).take("3")  # type: ignore[arg-type]


def test_take_concurrent_requests_never_exceed_n(race_runner, race_rounds):
    for _ in range(race_rounds):
        src = ManualSource()
        ts = src.take(3).test(0)
        race_runner.race(lambda ts=ts: ts.request(2), lambda ts=ts: ts.request(2))
        assert sorted(src.requests) == [1, 2]


# ----------------------------------------------------------------- limit


def test_limit_is_take():
    assert issubclass(FlowableLimit, FlowableTake)
    src = Recorded(1, 100)
    ts = src.flowable.limit(4).test(3)
    ts.assert_values(1, 2, 3)
    ts.request(10)
    ts.assert_result(1, 2, 3, 4)
    assert src.requests == [3, 1]
    assert src.cancels == [1]


def test_limit_zero():
    Flowable.range(1, 3).limit(0).test().assert_result()


def test_limit_bad_argument():
    with pytest.raises(ValueError):
        Flowable.range(1, 3).limit(-2)


# ----------------------------------------------------------------- skip


def test_skip_values():
    Flowable.range(1, 5).skip(2).test().assert_result(3, 4, 5)


def test_skip_more_than_available():
    Flowable.range(1, 3).skip(5).test().assert_result()


def test_skip_requests_the_skipped_items_in_on_subscribe():
    """RxJava 2.2.21 FlowableSkip: ``onSubscribe`` passes the Subscription downstream,
    then requests ``n`` upstream; downstream requests pass through unchanged."""
    src = Recorded(1, 10)
    ts = src.flowable.skip(2).test(3)
    ts.assert_values(3, 4, 5).assert_not_complete()
    assert src.requests == [3, 2]  # the downstream's request comes first (inside on_subscribe)
    ts.request(2)
    ts.assert_values(3, 4, 5, 6, 7)
    assert src.requests == [3, 2, 2]


def test_skip_unbounded_request():
    """RxJava 2.2.21 FlowableSkip: ``request(Long.MAX_VALUE)``, then ``request(n)``."""
    src = Recorded(1, 10)
    src.flowable.skip(2).test().assert_result(*range(3, 11))
    assert src.requests == [LONG_MAX, 2]


def test_skip_zero_is_identity():
    f = Flowable.range(1, 3)
    assert f.skip(0) is f


def test_skip_error_and_cancel():
    src = ManualSource()
    ts = src.skip(1).test()
    src.emit(1, 2)
    src.error(ValueError("x"))
    ts.assert_failure(ValueError, 2)
    src2 = ManualSource()
    src2.skip(1).test().cancel()
    assert src2.cancelled


def test_skip_bad_argument():
    with pytest.raises(ValueError):
        Flowable.range(1, 3).skip(-1)


# ----------------------------------------------------------------- take_last


def test_take_last_values():
    Flowable.range(1, 10).take_last(3).test().assert_result(8, 9, 10)


def test_take_last_fewer_items_than_n():
    Flowable.range(1, 2).take_last(5).test().assert_result(1, 2)


def test_take_last_requests_unbounded_whatever_the_demand():
    src = Recorded(1, 10)
    ts = src.flowable.take_last(3).test(1)
    assert src.requests == [LONG_MAX]
    ts.assert_values(8).assert_not_complete()


def test_take_last_emits_under_demand_after_completion():
    src = ManualSource()
    ts = src.take_last(3).test(0)
    assert src.requests == [LONG_MAX]
    src.emit(1, 2, 3, 4, 5)
    src.complete()
    ts.assert_empty()
    ts.request(1)
    ts.assert_values(3).assert_not_complete()
    ts.request(1)
    ts.assert_values(3, 4).assert_not_complete()
    ts.request(1)
    ts.assert_result(3, 4, 5)


def test_take_last_demand_before_completion():
    src = ManualSource()
    ts = src.take_last(2).test(0)
    ts.request(1)
    src.emit(1, 2, 3)
    ts.assert_empty()
    src.complete()
    ts.assert_values(2).assert_not_complete()
    ts.request(5)
    ts.assert_result(2, 3)


def test_take_last_empty_completes_without_demand():
    src = ManualSource()
    ts = src.take_last(2).test(0)
    src.complete()
    ts.assert_result()


def test_take_last_error_drops_buffer():
    src = ManualSource()
    ts = src.take_last(2).test()
    src.emit(1, 2)
    src.error(ValueError("x"))
    ts.assert_failure(ValueError)


def test_take_last_cancel_reaches_upstream_and_stops_emission():
    src = ManualSource()
    ts = src.take_last(3).test(0)
    src.emit(1, 2, 3)
    src.complete()
    ts.request(1)
    ts.cancel()
    ts.request(5)
    ts.assert_values(1).assert_not_complete()
    assert src.cancelled


def test_take_last_long_stream_no_recursion():
    Flowable.range(0, 50_000).take_last(20_000).test().assert_value_count(20_000) \
        .assert_complete()


def test_take_last_request_races_completion(race_runner, race_rounds):
    for _ in range(race_rounds):
        src = ManualSource()
        ts = src.take_last(3).test(0)
        src.emit(1, 2, 3, 4)
        race_runner.race(src.complete, lambda ts=ts: ts.request(3))
        ts.assert_result(2, 3, 4).assert_protocol_ok()


def test_take_last_one_values():
    Flowable.range(1, 5).take_last(1).test().assert_result(5)


def test_take_last_one_empty_and_error():
    Flowable.empty().take_last(1).test().assert_result()
    Flowable.error(ValueError("x")).take_last(1).test().assert_failure(ValueError)


def test_take_last_one_waits_for_demand():
    src = Recorded(1, 5)
    ts = src.flowable.take_last(1).test(0)
    assert src.requests == [LONG_MAX]
    ts.assert_empty()
    ts.request(1)
    ts.assert_result(5)


def test_take_last_one_cancel_reaches_upstream():
    src = ManualSource()
    ts = src.take_last(1).test()
    ts.cancel()
    assert src.cancelled


def test_take_last_bad_argument():
    with pytest.raises(ValueError):
        Flowable.range(1, 3).take_last(-1)


# ----------------------------------------------------------------- skip_last


def test_skip_last_values():
    Flowable.range(1, 5).skip_last(2).test().assert_result(1, 2, 3)


def test_skip_last_more_than_available():
    Flowable.range(1, 2).skip_last(3).test().assert_result()


def test_skip_last_buffered_items_are_requested_one_by_one():
    """As RxJava 2's FlowableSkipLast: requests pass through; each of the first ``n``
    items is replaced with ``request(1)``."""
    src = Recorded(1, 10)
    ts = src.flowable.skip_last(3).test(2)
    ts.assert_values(1, 2).assert_not_complete()
    assert src.requests == [2, 1, 1, 1]
    ts.request(1)
    ts.assert_values(1, 2, 3)
    assert src.requests == [2, 1, 1, 1, 1]


def test_skip_last_unbounded():
    src = Recorded(1, 10)
    src.flowable.skip_last(3).test().assert_result(*range(1, 8))
    assert src.requests == [LONG_MAX, 1, 1, 1]  # the request(1) per buffered item, as RxJava 2


def test_skip_last_error_drops_buffer_and_cancel():
    src = ManualSource()
    ts = src.skip_last(2).test()
    src.emit(1, 2, 3)
    src.error(ValueError("x"))
    ts.assert_failure(ValueError, 1)
    src2 = ManualSource()
    src2.skip_last(2).test().cancel()
    assert src2.cancelled


def test_skip_last_zero_is_identity_and_bad_argument():
    f = Flowable.range(1, 3)
    assert f.skip_last(0) is f
    with pytest.raises(ValueError):
        f.skip_last(-1)


# ----------------------------------------------------------------- take_while


def test_take_while_values_and_upstream_cancel():
    src = Recorded(1, 10)
    src.flowable.take_while(lambda x: x < 4).test().assert_result(1, 2, 3)
    assert src.cancels == [1]


def test_take_while_all_pass():
    Flowable.range(1, 3).take_while(lambda x: True).test().assert_result(1, 2, 3)


def test_take_while_requests_pass_through():
    src = Recorded(1, 10)
    ts = src.flowable.take_while(lambda x: x < 5).test(2)
    ts.assert_values(1, 2)
    ts.request(3)
    ts.assert_result(1, 2, 3, 4)
    assert src.requests == [2, 3]


def test_take_while_predicate_raises():
    src = Recorded(1, 10)
    src.flowable.take_while(boom).test().assert_failure(ZeroDivisionError)
    assert src.cancels == [1]


def test_take_while_error_passthrough_and_late_error(plugin_errors):
    src = ManualSource()
    ts = src.take_while(lambda x: x < 2).test()
    src.emit(1)
    src.error(ValueError("x"))
    ts.assert_failure(ValueError, 1)
    assert plugin_errors == []
    src2 = ManualSource()
    ts2 = src2.take_while(lambda x: x < 2).test()
    src2.emit(1, 2)
    src2.error(KeyError("late"))
    ts2.assert_result(1)
    assert len(plugin_errors) == 1 and isinstance(plugin_errors.causes()[0], KeyError)


def test_take_while_bad_argument():
    with pytest.raises(TypeError):
        Flowable.range(1, 3).take_while(None)  # type: ignore[arg-type]


# ----------------------------------------------------------------- skip_while


def test_skip_while_values():
    Flowable.range(1, 6).skip_while(lambda x: x < 4).test().assert_result(4, 5, 6)


def test_skip_while_predicate_not_called_after_gate_opens():
    calls = []

    def p(x):
        calls.append(x)
        return x % 2 == 1

    Flowable.range(1, 6).skip_while(p).test().assert_result(2, 3, 4, 5, 6)
    assert calls == [1, 2]


def test_skip_while_requests_one_per_dropped_item():
    src = Recorded(1, 10)
    ts = src.flowable.skip_while(lambda x: x < 4).test(2)
    ts.assert_values(4, 5)
    assert src.requests == [2, 1, 1, 1]


def test_skip_while_conditional_source_needs_no_extra_request():
    # range answers try_on_next: the dropped items use no demand
    ts = Flowable.range(1, 10).skip_while(lambda x: x < 4).test(2)
    ts.assert_values(4, 5).assert_not_complete()


def test_skip_while_offers_no_fusion_as_in_rxjava2():
    """RxJava 2.2.21 FlowableSkipWhile is a plain Subscriber: no SYNC fusion downstream,
    so a flat_map_iterable after a skip_while that skips everything completes in
    on_subscribe as RxJava's does."""
    ts = TestSubscriber().with_fusion(SYNC)
    Flowable.range(1, 6).skip_while(lambda x: x < 3).subscribe(ts)
    ts.assert_fusion_mode(NONE).assert_result(3, 4, 5, 6)
    ts2 = Flowable.range(0, 5).skip_while(lambda x: True).flat_map_iterable(
        lambda x: [x]).test(0)
    ts2.assert_result()


def test_skip_while_predicate_raises():
    src = Recorded(1, 10)
    src.flowable.skip_while(boom).test().assert_failure(ZeroDivisionError)
    assert src.cancels == [1]


def test_skip_while_error_passthrough():
    src = ManualSource()
    ts = src.skip_while(lambda x: x < 2).test()
    src.emit(1, 2)
    src.error(ValueError("x"))
    ts.assert_failure(ValueError, 2)


def test_skip_while_bad_argument():
    with pytest.raises(TypeError):
        Flowable.range(1, 3).skip_while(3)  # type: ignore[arg-type]


def test_skip_while_async_fusion():
    from rxpy2._internal.fuseable import ASYNC
    ts = TestSubscriber().with_fusion(ASYNC)
    Flowable.range(1, 3).take_last(1).skip_while(lambda x: x < 3).subscribe(ts)
    ts.assert_fusion_mode(ASYNC).assert_result(3)
    ts2 = TestSubscriber().with_fusion(ASYNC)
    Flowable.range(1, 3).take_last(1).skip_while(lambda x: x < 5).subscribe(ts2)
    ts2.assert_fusion_mode(ASYNC).assert_result()


def test_take_request_inside_on_next_is_not_recursive():
    class OneByOne(TestSubscriber):
        def on_next(self, item):
            super().on_next(item)
            self.request(1)

    src = Recorded(0, 100_000)
    ts = OneByOne(initial_request=1)
    src.flowable.take(20_000).subscribe(ts)
    ts.assert_value_count(20_000).assert_complete()
    assert sum(src.requests) == 20_000
