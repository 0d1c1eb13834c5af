"""Where RxJava 2.2.21 fuses and where it does not, and what a user sees of it.

A consumer whose drain may run elsewhere than its source emits asks ``ANY | BOUNDARY``
(zip's sources, concat_map's upstream, flat_map's and switch_map's inners, observe_on):
a stage that runs user code (``map``, ``filter``) then refuses, and runs on its own.
``on_backpressure_buffer`` offers ASYNC fusion: a fused consumer polls its queue itself,
so a bounded buffer holds at most its capacity whatever the consumer's prefetch.

The expected outcomes were measured on RxJava 2.2.21 built from its source (the same chains
in Java, ``test()`` with unbounded demand).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from rxpy2 import Flowable
from rxpy2 import MissingBackpressureException
from rxpy2.schedulers import Schedulers

pytestmark = pytest.mark.usefixtures("shutdown_schedulers")


def bounded() -> Flowable[int]:
    return Flowable.range(1, 100).on_backpressure_buffer(16)


def other() -> Flowable[int]:
    return Flowable.range(1, 100)


CASES: list[Any] = [
    # a fused consumer that cannot drain while the buffer fills: RxJava 2.2.21 overflows
    pytest.param(lambda: Flowable.zip(bounded(), other(), zipper=lambda x, y: x + y), 0, True,
                 id="zip"),
    pytest.param(lambda: Flowable.sequence_equal(bounded(), other()).to_flowable(), 0, True,
                 id="sequence_equal"),
    pytest.param(lambda: bounded().observe_on(Schedulers.single()), 0, True, id="observe_on"),
    # a map in between runs user code: not fused under zip, so zip's prefetch applies
    pytest.param(lambda: Flowable.zip(bounded().map(lambda x: x), other(),
                                      zipper=lambda x, y: x + y), 100, False, id="map_zip"),
    pytest.param(lambda: Flowable.zip(other().rebatch_requests(4), other(),
                                      zipper=lambda x, y: x + y), 100, False, id="rebatch_zip"),
    # a fused consumer that drains as the buffer fills: all of it
    pytest.param(lambda: Flowable.merge_array(bounded(), other()), 200, False, id="merge_array"),
    pytest.param(lambda: Flowable.merge([bounded(), other()]), 200, False, id="merge"),
    pytest.param(lambda: bounded().merge_with(other()), 200, False, id="merge_with"),
    pytest.param(lambda: Flowable.just(1).hide().flat_map(lambda _: bounded()), 100, False,
                 id="flat_map_inner"),
    pytest.param(lambda: Flowable.just(1).concat_map(lambda _: bounded()), 100, False,
                 id="concat_map_inner"),
    pytest.param(lambda: Flowable.concat_eager([bounded()]), 100, False, id="concat_eager"),
]


@pytest.mark.parametrize(("make", "values", "overflows"), CASES)
def test_a_bounded_buffer_behind_a_consumer_as_in_rxjava(make: Callable[[], Flowable[Any]],
                                                         values: int, overflows: bool) -> None:
    ts = make().test().await_done(10)
    ts.assert_value_count(values)
    if overflows:
        ts.assert_error(MissingBackpressureException)
    else:
        ts.assert_complete().assert_no_errors()


def test_a_map_under_zip_fails_before_any_pair() -> None:
    """Not fused, the map runs while zip subscribes its first source: its error ends the zip
    before the second source is subscribed (RxJava 2.2.21: no value, then the error)."""
    Flowable.zip(Flowable.range(0, 5).map(lambda x: 1 // (2 - x)), other()).test() \
        .assert_failure(ZeroDivisionError)


def test_a_map_under_concat_map_fails_after_the_inners_before_it() -> None:
    Flowable.range(0, 5).map(lambda x: 1 // (2 - x)).concat_map(lambda x: Flowable.just(x, x)) \
        .test().assert_failure(ZeroDivisionError, 0, 0, 1, 1)


def test_the_buffer_offers_async_fusion_and_a_fused_consumer_polls_it() -> None:
    from rxpy2._internal.fuseable import ANY
    from rxpy2._internal.fuseable import ASYNC
    from rxpy2._internal.fuseable import BOUNDARY
    from rxpy2.observers import FlowableSubscriber
    from rxpy2.processors import PublishProcessor

    seen: list[Any] = []

    class Fused(FlowableSubscriber[int]):
        def on_subscribe(self, s: Any) -> None:
            self.s = s
            seen.append(s.request_fusion(ANY | BOUNDARY))

        def on_next(self, x: Any) -> None:
            seen.append(("ready", x, self.s.poll()))

        def on_error(self, e: BaseException) -> None:
            seen.append(e)

        def on_complete(self) -> None:
            seen.append("complete")

    pp: PublishProcessor[int] = PublishProcessor.create()
    pp.on_backpressure_buffer(4).subscribe(Fused())
    pp.on_next(7)
    pp.on_complete()
    assert seen == [ASYNC, ("ready", None, 7), "complete"]
