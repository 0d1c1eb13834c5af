"""A cancel stops what follows it, as in RxJava 2.2.21 (found by tests/fidelity)."""

from __future__ import annotations

from typing import Any

import pytest

from rxpy2 import Flowable
from rxpy2.reactivestreams import LONG_MAX
from rxpy2.reactivestreams import Subscription
from rxpy2.testing import TestSubscriber


class _CancelThenRequest(TestSubscriber[Any]):
    """Cancels, then requests, from ``on_subscribe``: nothing may arrive (§3.6)."""

    def __init__(self, n: int) -> None:
        super().__init__(initial_request=0)
        self.n = n

    def on_subscribe(self, s: Subscription) -> None:
        super().on_subscribe(s)
        s.cancel()
        s.request(self.n)


@pytest.mark.parametrize("n", [LONG_MAX, 2], ids=["fast_path", "slow_path"])
@pytest.mark.parametrize("source", [
    lambda: Flowable.from_iterable([0, 1, 2]),
    lambda: Flowable.from_iterable(iter([0, 1, 2])),
    lambda: Flowable.from_iterable([0, 1, 2]).hide(),
    lambda: Flowable.from_iterable([0, 1, 2]).filter(lambda x: True),  # conditional
], ids=["list", "iterator", "hidden", "conditional"])
def test_from_iterable_cancelled_before_the_first_request_emits_nothing(
        source: Any, n: int) -> None:
    """RxJava 2.2.21 FlowableFromIterable: both emission loops check ``cancelled``
    before the first ``onNext`` (rxpy2 reads one item ahead and used to emit it)."""
    sub = _CancelThenRequest(n)
    source().subscribe(sub)
    sub.assert_empty()


def test_default_if_empty_does_not_complete_after_a_cancel_in_on_next() -> None:
    """RxJava 2.2.21 ``defaultIfEmpty(x)`` is ``switchIfEmpty(just(x))``: the scalar
    subscription skips ``onComplete`` when ``onNext`` cancelled it."""
    ts: TestSubscriber[int] = TestSubscriber(initial_request=0)
    seen: list[int] = []

    def cancel_on_first(x: int) -> None:
        seen.append(x)
        ts.cancel()

    Flowable.empty().default_if_empty(5).do_on_next(cancel_on_first).subscribe(ts)
    ts.request(1)
    assert seen == [5]
    ts.assert_values(5)
    ts.assert_not_complete()
    ts.assert_no_errors()


def test_default_if_empty_item_waits_for_demand_and_passes_requests_through() -> None:
    requests: list[int] = []
    ts = Flowable.empty().do_on_request(requests.append).default_if_empty(7).test(0)
    ts.assert_no_values().assert_not_complete()
    ts.request(3)
    ts.assert_result(7)
    ts2 = Flowable.range(1, 3).do_on_request(requests.append).default_if_empty(7).test(2)
    ts2.assert_values(1, 2)
    ts2.request(1)
    ts2.assert_result(1, 2, 3)
    assert requests == [2, 1]  # the empty source completed before any request reached it
