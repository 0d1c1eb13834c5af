"""The Reactive Streams TCK (publisher verification) on ``from_stream``.

``create_publisher(n)`` streams ``n`` values in micro-batches of 7 through a stand-in
query that keeps Spark's ``foreachBatch`` contract (``tests/spark/fake_stream.py``) and
ends by itself after the last batch, as an ``availableNow`` query does; the failed
publisher is a query that cannot start. ``TestTckFromStreamOnConnect``: the same on a
stand-in of a Spark Connect streaming DataFrame (``tests/spark/fake_connect_stream.py``):
the client-run rounds of ``ConnectStreamSubscription``; its failed publisher is a plan whose
analysis fails (the subscription asks for the schema before any demand). The real-Spark behaviour is in
test_stream.py.
"""

from __future__ import annotations

from typing import Any

from fake_connect_stream import FakeConnectStream
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


class TestTckFromStreamOnConnect(TestTckFromStream):
    def create_publisher(self, elements: int) -> Publisher[Any]:
        return from_stream(FakeConnectStream(rows=elements, batch_size=7), 2,
                           row_format="tuple", trigger={"availableNow": True})

    def create_failed_publisher(self) -> Publisher[Any]:
        # a plan that cannot be analysed fails at subscription; a query that cannot start
        # fails at the first round, which needs demand (test_stream.py)
        return from_stream(FakeConnectStream(3, bad_plan=True))
