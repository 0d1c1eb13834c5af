"""RxJava 2.2.21 fidelity of skip_last's requests and of the eager concatenations'
defaults (issue 15): items, terminal events and the exact upstream requests."""

from __future__ import annotations

import pytest
from probes import ManualSource
from probes import Recorded

from rxpy2 import Flowable
from rxpy2.reactivestreams import LONG_MAX

# ------------------------------------------------------------------------ skip_last


def test_skip_last_requests_one_per_item_buffered_then_passes_requests_through():
    """RxJava 2.2.21 FlowableSkipLast: ``request(n)`` passes through unchanged; an
    ``onNext`` that finds fewer than ``n`` items buffered requests 1 upstream, one that
    finds ``n`` emits the oldest instead."""
    rec = Recorded(0, 10)
    ts = rec.flowable.skip_last(3).test(0)
    assert rec.requests == []
    ts.request(1)
    ts.assert_values(0).assert_not_complete()
    assert rec.requests == [1, 1, 1, 1]
    ts.request(2)
    ts.assert_values(0, 1, 2).assert_not_complete()
    assert rec.requests == [1, 1, 1, 1, 2]
    ts.request(10)
    ts.assert_result(0, 1, 2, 3, 4, 5, 6)
    assert rec.requests == [1, 1, 1, 1, 2, 10]
    assert rec.cancels == []


def test_skip_last_unbounded_request():
    """RxJava 2.2.21 FlowableSkipLast: the unbounded request goes upstream as it is,
    followed by the ``request(1)`` of each of the first ``n`` items."""
    rec = Recorded(0, 10)
    rec.flowable.skip_last(3).test().assert_result(0, 1, 2, 3, 4, 5, 6)
    assert rec.requests == [LONG_MAX, 1, 1, 1]


def test_skip_last_source_shorter_than_n_completes_empty():
    """RxJava 2.2.21 FlowableSkipLast: a source with fewer than ``n`` items is all
    buffered, each item replaced by ``request(1)``, and completes with nothing, after
    a single downstream ``request(1)``."""
    rec = Recorded(0, 2)
    ts = rec.flowable.skip_last(3).test(0)
    ts.assert_empty()
    assert rec.requests == []
    ts.request(1)
    ts.assert_result()
    assert rec.requests == [1, 1, 1]


# ------------------------------------------------------------ concat eager defaults


def test_concat_map_eager_default_max_concurrency_and_prefetch_are_buffer_size():
    """RxJava 2.2.21 Flowable.concatMapEager(mapper) is concatMapEager(mapper,
    bufferSize(), bufferSize()): ``request(128)`` upstream, 128 inners subscribed at
    once, each asked for 128; a finished inner is replaced with ``request(1)``."""
    rec = Recorded(0, 200)
    inners = [ManualSource() for _ in range(200)]
    ts = rec.flowable.concat_map_eager(lambda i: inners[i]).test()
    assert rec.requests == [128]
    assert [s.subscriptions for s in inners] == [1] * 128 + [0] * 72
    assert all(s.requests == [128] for s in inners[:128])
    inners[0].emit(0)
    inners[0].complete()
    ts.assert_values(0)
    assert rec.requests == [128, 1]
    assert [s.subscriptions for s in inners] == [1] * 129 + [0] * 71


@pytest.mark.parametrize(("make", "upstream_requests"), [
    (lambda rec, inner: rec.flowable.concat_map_eager_delay_error(inner), [128]),
    (lambda rec, inner: rec.flowable.concat_map_eager_delay_error(inner, False), [128]),
    (lambda rec, inner: Flowable.concat_eager(rec.flowable.map(inner)), [128]),
    (lambda rec, inner: Flowable.concat_eager([inner(i) for i in range(200)]), []),
], ids=["delay_error_till_the_end", "delay_error_boundary", "concat_eager_publisher",
        "concat_eager_iterable"])
def test_eager_defaults_are_buffer_size(make, upstream_requests):
    """RxJava 2.2.21 Flowable.concatMapEagerDelayError(mapper, tillTheEnd) and
    concatEager(Publisher) / concatEager(Iterable) use bufferSize() (128) for both
    maxConcurrency and prefetch."""
    rec = Recorded(0, 200)
    inners = [ManualSource() for _ in range(200)]
    make(rec, inners.__getitem__).test()
    assert [s.subscriptions for s in inners] == [1] * 128 + [0] * 72
    assert all(s.requests == [128] for s in inners[:128])
    assert rec.requests == upstream_requests  # the Iterable case does not use rec
