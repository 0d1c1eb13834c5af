"""The exemplar operators: range, just, from_array, map, filter, lift."""

from __future__ import annotations

import pytest

from rxpy2 import Flowable
from rxpy2 import Subscriber
from rxpy2 import Subscription
from rxpy2._internal.fuseable import SYNC
from rxpy2.testing import TestSubscriber


def test_range_map_filter_values():
    Flowable.range(1, 10).map(lambda x: x * 2).filter(lambda x: x % 3 == 0).test() \
        .assert_result(6, 12, 18)


def test_range_backpressure_exact():
    ts = Flowable.range(1, 5).test(0)
    ts.assert_empty()
    ts.request(2)
    ts.assert_values(1, 2).assert_not_complete()
    ts.request(3)
    ts.assert_result(1, 2, 3, 4, 5)


def test_map_none_result_is_type_error():
    Flowable.just(1, 2).map(lambda x: None).test().assert_failure(TypeError)


def test_map_raises_cancels_upstream():
    cancelled = []
    ts = Flowable.range(1, 5).do_on_cancel(lambda: cancelled.append(1)) \
        .map(lambda x: 1 // 0).test()
    ts.assert_failure(ZeroDivisionError)
    assert cancelled == [1]


def test_filter_requests_one_per_dropped_item_without_conditional_source():
    requests = []
    Flowable.range(1, 6).hide().do_on_request(requests.append) \
        .filter(lambda x: x % 2 == 0).test(3).assert_values(2, 4, 6)
    assert requests == [3, 1, 1, 1]


def test_sync_fusion_range_map():
    ts = TestSubscriber().with_fusion(SYNC)
    Flowable.range(1, 3).map(lambda x: x + 1).subscribe(ts)
    ts.assert_fusion_mode(SYNC).assert_result(2, 3, 4)


def test_lift_custom_operator():
    class Doubler(Subscriber[int], Subscription):
        def __init__(self, down):
            self.down = down

        def on_subscribe(self, s):
            self.up = s
            self.down.on_subscribe(self)

        def on_next(self, item):
            self.down.on_next(item * 2)

        def on_error(self, error):
            self.down.on_error(error)

        def on_complete(self):
            self.down.on_complete()

        def request(self, n):
            self.up.request(n)

        def cancel(self):
            self.up.cancel()

    Flowable.range(1, 3).lift(Doubler).test().assert_result(2, 4, 6)


def test_subscribe_none_is_type_error():
    with pytest.raises(TypeError):
        Flowable.just(1).subscribe(None)


def test_plain_subscriber_request_zero_is_on_error_value_error():
    class S(Subscriber[int]):
        def __init__(self):
            self.errors = []
            self.items = []

        def on_subscribe(self, s):
            s.request(0)

        def on_next(self, item):
            self.items.append(item)

        def on_error(self, error):
            self.errors.append(error)

        def on_complete(self):
            raise AssertionError("must not complete")

    s = S()
    Flowable.range(1, 3).subscribe(s)
    assert s.items == []
    assert len(s.errors) == 1 and isinstance(s.errors[0], ValueError)
    assert "§3.9" in str(s.errors[0])
