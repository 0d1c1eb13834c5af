"""A Spark source on a Spark Connect session: one query per partition, read under demand.

Spark Connect has no RDDs, no partition jobs and no driver-side socket: a client sends
DataFrame queries to the server and reads their results as a stream of Arrow batches. So a
source's plan compiles (:func:`compile_connect`) into

* the partitions that hold rows, listed by one query that runs in the JVM alone
  (``df.select(spark_partition_id()).distinct()``);
* per partition ``p``, the query ``df.where(spark_partition_id() == p)`` (after the
  source's Column stages), with the fused Python stages as a ``mapInArrow`` over it
  (:func:`rxpy2.spark.executor_code.arrow_partition_function`) and a pushed-down ``take`` as its ``limit``.

A partition's query is started (on a job thread, under the subscription's tag and one of
its own) when demand reaches it, exactly as a classic partition job is launched, and is read
with ``toLocalIterator`` ``CHUNK`` rows at a time: the rows not yet read wait in the
server's and gRPC's buffers, so the driver holds one batch per partition read and the
server one partition's results, not the whole DataFrame's. ``cancel()`` interrupts the
subscription's tag (``interruptTag``). The trade-off against one ``toLocalIterator`` of the
whole DataFrame: ``docs/spark.md``, *Spark Connect*.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from collections.abc import Iterator
from typing import Any

from rxpy2.spark import executor_code
from rxpy2.spark.errors import SparkJobError
from rxpy2.spark.plan import Plan
from rxpy2.spark.plan import ship_executor_module
from rxpy2.spark.pyspark_adapter import add_tag
from rxpy2.spark.pyspark_adapter import interrupt_tag
from rxpy2.spark.pyspark_adapter import remove_tag
from rxpy2.spark.reader import CHUNK
from rxpy2.spark.reader import converting
from rxpy2.spark.reader import row_converter
from rxpy2.spark.reader import shaped

__all__ = ["ConnectCompiled", "ConnectPartitionReader", "compile_connect", "executor_function",
           "listed_partitions", "partition_query"]

_query_ids = itertools.count(1)


def listed_partitions(df: Any) -> list[int]:
    """The partitions of ``df`` that hold rows, in order: one query the JVM answers alone
    (no Python worker)."""
    from pyspark.sql import functions as F

    pid = F.spark_partition_id().alias("p")
    return sorted(int(r[0]) for r in df.select(pid).distinct().collect())


def partition_query(df: Any, p: int) -> Any:
    """The rows of partition ``p`` of ``df``, as a query of their own."""
    from pyspark.sql import functions as F

    return df.where(F.spark_partition_id() == p)


def executor_function(plan: Plan, *then: Callable[[Any], Any]) -> Callable[[Any], Iterator[Any]]:
    """The ``mapInArrow`` function of ``plan`` (the classic path's,
    :func:`~rxpy2.spark.executor_code.arrow_partition_function`): its rows in its row
    format, its fused stages, then the partition functions ``then`` (an aggregation's),
    pickled in payloads; a partition query's empty partitions give nothing."""
    ship_executor_module()
    row_format, steps = plan.executor_stages()
    return executor_code.arrow_partition_function(plan.arrow_reader(row_format), steps, *then,
                                                  skip_empty=True)


def _spark_errors(raw: Iterator[list[Any]], index: int) -> Iterator[list[Any]]:
    """``raw``, a failure of the query as :class:`SparkJobError` (a driver stage's own error,
    applied after this, goes as it is)."""
    while True:
        try:
            batch = next(raw)
        except StopIteration:
            return
        except Exception as e:
            raise SparkJobError.caused_by(f"reading partition {index} failed", e,
                                          partition=index) from e
        yield batch


class ConnectCompiled:
    """A compiled Spark source on a Spark Connect session (a
    :class:`~rxpy2.spark.reader.Partitions`): the partitions that hold rows and the query of
    each."""

    __slots__ = ("spark", "query", "partitions", "num_partitions", "kind", "convert", "emit",
                 "driver_steps", "limit")

    def __init__(self, spark: Any, query: Callable[[int], Any], partitions: list[int],
                 kind: str, convert: Callable[[list[Any]], list[Any]] | None, emit: str,
                 driver_steps: tuple[executor_code.Step, ...]) -> None:
        self.spark: Any = spark
        self.query: Callable[[int], Any] = query  # partition id -> its DataFrame
        self.partitions: list[int] = partitions
        self.num_partitions: int = len(partitions)
        self.kind: str = kind  # "rows", "pickled" (fused stages) or "arrow"
        self.convert: Callable[[list[Any]], list[Any]] | None = convert
        self.emit: str = emit
        self.driver_steps: tuple[executor_code.Step, ...] = driver_steps
        self.limit: int | None = None  # a take/limit: the source completes after this many

    def run_job(self, index: int) -> ConnectPartitionReader:
        """Start the query of the ``index``-th partition holding rows and read its first
        batch (on this thread: its request carries this thread's tags)."""
        tag = f"rxpy2-spark-query-{next(_query_ids)}"
        add_tag(self.spark, tag)
        try:
            return ConnectPartitionReader(self, self.query(self.partitions[index]), tag, index)
        finally:
            remove_tag(self.spark, tag)

    def enter_group(self, group: str, what: str) -> None:
        """Tag the queries this thread starts from now on with ``group``."""
        add_tag(self.spark, group)

    def cancel_group(self, group: str) -> bool:
        """Interrupt the queries tagged ``group`` (running ones only: a query sent later
        with the tag runs)."""
        interrupt_tag(self.spark, group)
        return False


class ConnectPartitionReader:
    """One partition's query, read in batches by the drain loop."""

    __slots__ = ("plan", "tag", "rows", "batches", "finished")

    def __init__(self, plan: ConnectCompiled, query: Any, tag: str, index: int) -> None:
        self.plan: ConnectCompiled = plan
        self.tag: str = tag
        self.finished: bool = False
        self.rows: Any = None  # the toLocalIterator generator, closed by close()
        if plan.kind == "arrow":
            table = query.toArrow()
            self.batches: Iterator[list[Any]] = iter([[table]] if table.num_rows else [])
            self.finished = True  # nothing left running on the server
            return
        rows = self.rows = query.toLocalIterator()
        raw: Iterator[list[Any]]
        if plan.kind == "pickled":
            raw = executor_code.payload_lists(rows)
        else:
            raw = iter(lambda: list(itertools.islice(rows, CHUNK)), [])
        first = next(raw, None)  # sends the query, here, under this thread's tags
        started = iter(()) if first is None else itertools.chain(
            (first,), _spark_errors(raw, index))
        self.batches = shaped(started, plan.driver_steps, plan.emit, plan.convert)

    def next_batch(self) -> list[Any] | None:
        """The next non-empty batch of items to emit, or ``None`` at the partition's end."""
        plan = self.plan
        for batch in self.batches:
            if not batch:
                continue
            if plan.emit == "rows" and plan.convert is not None:
                batch = plan.convert(batch)
            return batch
        self.finished = True
        return None

    def close(self) -> None:
        """Stop the query when it was not read to its end (interrupt its own tag) and close
        its iterator."""
        rows, self.rows = self.rows, None
        if not self.finished:
            self.finished = True
            interrupt_tag(self.plan.spark, self.tag)
        if rows is not None:
            rows.close()


def compile_connect(plan: Plan) -> ConnectCompiled:
    """``plan`` (a DataFrame of a Spark Connect session) compiled into its partition
    queries, a pushed-down take/limit included."""
    df = plan.df
    spark = df.sparkSession
    partitions = listed_partitions(df)
    names = tuple(df.columns)
    n = plan.limit
    convert: Callable[[list[Any]], list[Any]] | None = None
    driver_steps = plan.driver_steps
    if plan.emit == "arrow":
        kind = "arrow"

        def query(p: int) -> Any:
            return partition_query(df, p)
    elif plan.spark_steps:
        kind = "pickled"
        limited = plan.replace(spark_steps=plan.spark_steps + (
            (("limit", executor_code.first(n)),) if n is not None else ()))
        fn = executor_function(limited)

        def query(p: int) -> Any:
            return partition_query(df, p).mapInArrow(fn, executor_code.PAYLOAD_SCHEMA)
    else:
        kind = "rows"
        convert = row_converter(plan.row_format, names, plan.unwrap)
        if convert is not None and driver_steps:
            # the driver stages get the items in the source's format, as fused stages do
            driver_steps = (("map_partitions", converting(convert)), *driver_steps)
            convert = None

        def query(p: int) -> Any:
            q = partition_query(df, p)
            return q if n is None else q.limit(n)
    compiled = ConnectCompiled(spark, query, partitions, kind, convert, plan.emit, driver_steps)
    compiled.limit = n
    return compiled
