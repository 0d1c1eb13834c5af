"""Terminal aggregations of a Spark source on a Spark Connect session: ``count``, ``reduce``
and ``to_list`` computed by Spark, as :mod:`rxpy2.spark.aggregate` computes them on a classic
session (the same conditions, results and errors; its run, thread and cancel are reused).

With no fused stage ``count`` is ``DataFrame.count()`` and ``to_list`` collects the rows;
otherwise the fused stages and the aggregation's own partition function run in one
``mapInArrow`` (:func:`rxpy2.spark.connect_reader.executor_function`), and only the
per-partition results cross to the driver. An in-order ``reduce`` runs one query per
partition holding rows, carrying the accumulator as the classic path's one job per
partition does. ``dispose()`` interrupts the aggregation's tag.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rxpy2.maybe import Maybe
from rxpy2.operator_kit import ABSENT
from rxpy2.single import Single
from rxpy2.spark import executor_code
from rxpy2.spark.aggregate import EMPTY
from rxpy2.spark.aggregate import Origin
from rxpy2.spark.aggregate import Run
from rxpy2.spark.aggregate import SparkAggregateMaybe
from rxpy2.spark.aggregate import SparkAggregateSingle
from rxpy2.spark.aggregate import combine
from rxpy2.spark.aggregate import spark_action
from rxpy2.spark.aggregate import too_many
from rxpy2.spark.connect_reader import ConnectCompiled
from rxpy2.spark.connect_reader import executor_function
from rxpy2.spark.connect_reader import partition_query
from rxpy2.spark.errors import SparkJobError
from rxpy2.spark.reader import row_converter

__all__ = ["count", "reduce", "to_list"]


def _results(source: Origin, *then: Callable[[Any], Any]) -> Any:
    """The DataFrame of ``source``'s items through ``then`` on the executors."""
    fn = executor_function(source.plan, *then)
    return source.plan.df.mapInArrow(fn, executor_code.PAYLOAD_SCHEMA)


def count(spark_source: Origin) -> Single[int]:
    """The number of ``spark_source``'s items, counted by Spark."""
    def compute(source: Origin, compiled: ConnectCompiled, run: Run) -> int:
        plan = source.plan
        df = plan.df
        if not plan.spark_steps:
            return spark_action(run, "count", lambda: int(df.count()))  # no Python worker
        counts = _results(source, executor_code.count_items())
        rows = spark_action(run, "count", counts.collect)
        return sum(sum(batch) for batch in executor_code.payload_lists(rows))

    return SparkAggregateSingle(spark_source, "count", compute)


def reduce(spark_source: Origin, reducer: Callable[[Any, Any], Any], seed: Any,
           associative: bool) -> Single[Any] | Maybe[Any]:
    """The left fold of ``spark_source``'s items by ``reducer`` (from ``seed``; a Maybe
    without one), in Spark: partition by partition, or all at once when ``associative``."""
    def fold(source: Origin, compiled: ConnectCompiled, run: Run, has: bool,
             acc: Any) -> tuple[bool, Any]:
        if associative:
            partial = _results(source, executor_code.fold(reducer, False, None))
            rows = spark_action(run, "reduce", partial.collect)
            return combine((p for batch in executor_code.payload_lists(rows) for p in batch), reducer, has, acc)
        for index, p in enumerate(compiled.partitions):
            if run.disposed:
                raise SparkJobError("cancelled", job_group=run.group)  # not delivered
            fn = executor_function(source.plan, executor_code.fold(reducer, has, acc))
            q = partition_query(source.plan.df, p).mapInArrow(fn, executor_code.PAYLOAD_SCHEMA)
            rows = spark_action(run, f"reduce (partition {index})", q.collect)
            # the partition's one (has, acc): the query's other partitions are empty
            for batch in executor_code.payload_lists(rows):
                ((has, acc),) = batch
        return has, acc

    if seed is ABSENT:
        def compute_maybe(source: Origin, compiled: ConnectCompiled, run: Run) -> Any:
            has, acc = fold(source, compiled, run, False, None)
            return acc if has else EMPTY

        return SparkAggregateMaybe(spark_source, "reduce", compute_maybe)

    def compute(source: Origin, compiled: ConnectCompiled, run: Run) -> Any:
        return fold(source, compiled, run, True, seed)[1]

    return SparkAggregateSingle(spark_source, "reduce", compute)


def to_list(spark_source: Origin, max_items: int | None) -> Single[list[Any]]:
    """All of ``spark_source``'s items in a list, collected by Spark; more than
    ``max_items`` is ``on_error(ValueError)``."""
    def compute(source: Origin, compiled: ConnectCompiled, run: Run) -> list[Any]:
        plan = source.plan
        if not plan.spark_steps:  # the rows themselves: collected by the JVM, converted here
            df = plan.df if max_items is None else plan.df.limit(max_items + 1)
            rows = spark_action(run, "to_list", df.collect)
            convert = row_converter(plan.row_format, tuple(plan.df.columns), plan.unwrap)
            out: list[Any] = rows if convert is None else convert(rows)
        else:
            then = () if max_items is None else (executor_code.capped(max_items),)
            results = _results(source, *then)

            def read() -> list[Any]:
                got: list[Any] = []
                rows = results.toLocalIterator()
                try:
                    for batch in executor_code.payload_lists(rows):
                        got.extend(batch)
                        if max_items is not None and len(got) > max_items:
                            break  # found without reading the rest
                finally:
                    rows.close()
                return got

            out = spark_action(run, "to_list", read)
        if max_items is not None and len(out) > max_items:
            raise too_many(max_items)
        return out

    return SparkAggregateSingle(spark_source, "to_list", compute)
