"""The Reactive Streams TCK (publisher verification) on the Spark sources.

``create_publisher(n)`` is a DataFrame of ``n`` rows in three partitions (some empty for
small ``n``), read through ``from_dataframe``, and an RDD read through ``from_rdd`` with
a stage fused into Spark. The failed publisher is a source whose plan Spark cannot build
(an Arrow read of a type Arrow has no form for): it fails at subscription, without demand.
Each rule runs real Spark jobs, so the streams are capped at 1000 items and the
environment waits longer than the library's synchronous cases do.
"""

from __future__ import annotations

import sys
from typing import Any

import pytest
from pyspark import cloudpickle

from rxpy2.reactivestreams import Publisher
from rxpy2.spark import from_dataframe
from rxpy2.spark import from_rdd
from rxpy2.tck import PublisherVerification
from rxpy2.tck import TestEnvironment

cloudpickle.register_pickle_by_value(sys.modules[__name__])  # executors can't import tests

_session: dict[str, Any] = {}


@pytest.fixture(autouse=True)
def _spark_for_rules(spark):
    _session["spark"] = spark
    yield


def _inc(x: int) -> int:
    return x + 1


class _SparkVerification(PublisherVerification):
    __test__ = False

    publisher_reference_gc_timeout_ms = 10_000

    def create_environment(self) -> TestEnvironment:
        return TestEnvironment(default_timeout_ms=20_000, default_no_signals_timeout_ms=50,
                               default_poll_timeout_ms=5)

    def max_elements_from_publisher(self) -> int:
        return 1000

    def create_failed_publisher(self) -> Publisher[Any]:
        df = _session["spark"].range(1).selectExpr("make_interval(1, 2) AS i")
        return from_dataframe(df, emit="arrow")


class TestTckFromDataframe(_SparkVerification):
    def create_publisher(self, elements: int) -> Publisher[Any]:
        return from_dataframe(_session["spark"].range(0, elements, numPartitions=3))


class TestTckFromRddFused(_SparkVerification):
    """The stochastic §1.3 rule (100 rounds of Spark jobs, ~20 s) runs on the DataFrame
    case only: both cases share one drain loop and differ in what the jobs compute."""

    def skip_stochastic_tests(self) -> bool:
        return True

    def create_publisher(self, elements: int) -> Publisher[Any]:
        sc = _session["spark"].sparkContext
        return from_rdd(sc.parallelize(range(elements), 3)).map(_inc)
