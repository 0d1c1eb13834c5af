"""The Reactive Streams TCK (publisher verification) on ``from_stream``.

``create_publisher(n)`` streams ``n`` values in micro-batches of 7 through a stand-in
query that keeps Spark's ``foreachBatch`` contract (``tests/spark/fake_stream.py``) and
ends by itself after the last batch, as an ``availableNow`` query does; the failed
publisher is a query that cannot start. The real-Spark behaviour is in test_stream.py.
"""

from __future__ import annotations

from typing import Any

from fake_stream import FakeStream

from rxpy2.reactivestreams import Publisher
from rxpy2.spark import from_stream
from rxpy2.tck import PublisherVerification
from rxpy2.tck import TestEnvironment


class TestTckFromStream(PublisherVerification):
    publisher_reference_gc_timeout_ms = 10_000

    def create_environment(self) -> TestEnvironment:
        return TestEnvironment(default_timeout_ms=10_000, default_no_signals_timeout_ms=50,
                               default_poll_timeout_ms=5)

    def max_elements_from_publisher(self) -> int:
        return 1000

    def create_publisher(self, elements: int) -> Publisher[Any]:
        return from_stream(FakeStream(elements, 7), 2, row_format="tuple")

    def create_failed_publisher(self) -> Publisher[Any]:
        return from_stream(FakeStream(3, fail_start=True))
