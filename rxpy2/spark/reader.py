"""Reading one computed partition on the driver: the compiled job and its partition reader.

A partition job's result stays in the driver's JVM, which serves it on a local socket; a
:class:`PartitionReader` reads it batch by batch (the JVM pickles rows itself, as for
``toLocalIterator``), so the driver holds one batch at a time however large the partition.
The row and Arrow conversions the driver applies to a batch live here too.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from collections.abc import Iterator
from typing import Any
from typing import Protocol

from rxpy2.spark import executor_code
from rxpy2.spark.pyspark_adapter import cancel_job_group
from rxpy2.spark.pyspark_adapter import connect
from rxpy2.spark.pyspark_adapter import load_batches
from rxpy2.spark.pyspark_adapter import run_partition_job
from rxpy2.spark.pyspark_adapter import spark_to_arrow_schema

__all__ = ["CHUNK", "BatchReader", "Compiled", "PartitionReader", "Partitions", "arrow_schema",
           "converting", "row_converter", "shaped"]

CHUNK = 1024  # items per batch when a serializer does not batch by itself


def _first_values(batch: list[Any]) -> list[Any]:
    out = [r[0] for r in batch]
    for v in out:
        if v is None:
            raise TypeError("the Column expression of map() gave null for a row (None is "
                            "never an item): filter the nulls out first, e.g. "
                            "filter(F.col(...).isNotNull())")
    return out


def converting(convert: Callable[[list[Any]], list[Any]]) -> Callable[[Iterator[Any]], Iterator[Any]]:
    """A batch converter as a ``map_partitions`` function (for the driver stages)."""

    def run(rows: Iterator[Any]) -> Iterator[Any]:
        while batch := list(itertools.islice(rows, CHUNK)):
            yield from convert(batch)

    return run


def row_converter(row_format: str, names: tuple[str, ...],
                  unwrap: bool = False) -> Callable[[list[Any]], list[Any]] | None:
    """What turns a batch of ``Row`` objects into items of ``row_format`` (``unwrap``: the
    row's only value), or ``None`` when the rows are the items."""
    if unwrap:
        return _first_values
    if row_format == "tuple":
        return lambda batch: list(map(tuple, batch))
    if row_format == "dict":
        return lambda batch: [dict(zip(names, r, strict=True)) for r in batch]
    return None


def arrow_schema(df: Any) -> Any:
    """The Arrow schema of ``df``'s batches, as ``DataFrame.toArrow()`` gives it (timestamps
    are UTC instants; the label is only metadata, the batches carry no schema)."""
    large = str(df.sparkSession.conf.get("spark.sql.execution.arrow.useLargeVarTypes",
                                         "false")).lower() == "true"
    return spark_to_arrow_schema(df.schema, large)


class BatchReader(Protocol):
    """One computed partition, read batch by batch by a subscription's drain loop."""

    def next_batch(self) -> list[Any] | None:
        """The next non-empty batch of items to emit, or ``None`` at the partition's end."""
        ...

    def close(self) -> None:
        """Release what the partition holds (its socket or its query)."""
        ...


class Partitions(Protocol):
    """A compiled Spark source as its subscriptions use it: the partitions, one job (a
    classic job, a Connect query) per partition, the jobs' group and its cancel.
    :class:`Compiled` is the classic one, ``connect_reader.ConnectCompiled`` the Spark
    Connect one."""

    num_partitions: int
    limit: int | None

    def run_job(self, index: int) -> BatchReader:
        """Compute partition ``index`` (blocks this thread) and open it for reading."""
        ...

    def enter_group(self, group: str, what: str) -> None:
        """Put the jobs this thread starts from now on into ``group``."""
        ...

    def cancel_group(self, group: str) -> bool:
        """Cancel the jobs of ``group`` (from any thread); whether jobs of the group started
        after this call are refused too (else the caller cancels again while its job
        threads may still start one)."""
        ...


def shaped(raw: Iterator[list[Any]], driver_steps: tuple[executor_code.Step, ...],
           emit: str, convert: Callable[[list[Any]], list[Any]] | None) -> Iterator[list[Any]]:
    """A partition's batches of items after the driver stages (``emit="partitions"``: one
    list of all its items, ``convert``ed; empty partitions give none)."""
    if driver_steps:
        flat = executor_code.apply_steps(itertools.chain.from_iterable(raw), driver_steps)
        raw = iter(lambda: list(itertools.islice(flat, CHUNK)), [])
    if emit == "partitions":
        return _whole(raw, convert)
    return raw


def _whole(raw: Iterator[list[Any]],
           convert: Callable[[list[Any]], list[Any]] | None) -> Iterator[list[Any]]:
    rows: list[Any] = []
    for batch in raw:
        rows.extend(batch)
    if rows:
        if convert is not None:
            rows = convert(rows)
        yield [rows]


class Compiled:
    """The JVM RDD and how to read one computed partition of it."""

    __slots__ = ("sc", "jrdd", "num_partitions", "serializer", "convert", "check_none",
                 "arrow_schema", "emit", "driver_steps", "limit", "arrow_input")

    def __init__(self, sc: Any, jrdd: Any, num_partitions: int, serializer: Any,
                 convert: Callable[[list[Any]], list[Any]] | None, check_none: bool,
                 arrow_schema: Any, emit: str, driver_steps: tuple[executor_code.Step, ...],
                 arrow_input: bool = False) -> None:
        self.sc: Any = sc
        self.jrdd: Any = jrdd
        self.num_partitions: int = num_partitions
        self.serializer: Any = serializer
        self.convert: Callable[[list[Any]], list[Any]] | None = convert
        self.check_none: bool = check_none
        self.arrow_schema: Any = arrow_schema
        self.emit: str = emit
        self.driver_steps: tuple[executor_code.Step, ...] = driver_steps
        self.limit: int | None = None  # a take/limit: the source completes after this many
        #: the fused stages read Arrow batches (``mapInArrow``): the JVM RDD's rows are
        #: pickled payloads, each a list of items
        self.arrow_input: bool = arrow_input

    def run_job(self, index: int) -> PartitionReader:
        """Compute partition ``index`` (blocks this thread for the job) and connect to the
        socket the driver's JVM serves it on."""
        return PartitionReader(self, run_partition_job(self.sc, self.jrdd, index))

    def enter_group(self, group: str, what: str) -> None:
        """This thread's jobs from now on in the job group ``group`` (interruptible)."""
        self.sc.setJobGroup(group, what, True)

    def cancel_group(self, group: str) -> bool:
        """Cancel the jobs of ``group``, running (and later ones, on Spark ≥ 4.0)."""
        return cancel_job_group(self.sc, group)


class PartitionReader:
    """One computed partition, read from its socket in batches by the drain loop."""

    __slots__ = ("plan", "sockfile", "sock", "batches")

    sockfile: Any  # the socket's file, as ``connect`` returns it
    sock: Any

    def __init__(self, plan: Compiled, sock_info: Any) -> None:
        self.plan: Compiled = plan
        self.sockfile, self.sock = connect(sock_info)
        self.batches: Iterator[list[Any]] | None = None

    def _open(self) -> Iterator[list[Any]]:
        from pyspark.serializers import BatchedSerializer
        from pyspark.serializers import NoOpSerializer

        plan = self.plan
        if plan.emit == "arrow":
            return self._arrow()
        ser = plan.serializer
        if isinstance(ser, BatchedSerializer):
            raw: Iterator[list[Any]] = load_batches(ser, self.sockfile)
            if plan.arrow_input:  # rows of pickled payloads: one payload's items a batch
                raw = executor_code.payload_lists(itertools.chain.from_iterable(raw))
        else:
            if ser is None:  # pragma: no cover - only the arrow plan has no serializer
                ser = NoOpSerializer()
            items = ser.load_stream(self.sockfile)
            raw = iter(lambda: list(itertools.islice(items, CHUNK)), [])
        return shaped(raw, plan.driver_steps, plan.emit, plan.convert)

    def _arrow(self) -> Iterator[list[Any]]:
        import pyarrow as pa
        from pyspark.serializers import NoOpSerializer

        schema = self.plan.arrow_schema
        batches = [pa.ipc.read_record_batch(pa.py_buffer(frame), schema)
                   for frame in NoOpSerializer().load_stream(self.sockfile)]
        table = pa.Table.from_batches(batches, schema=schema)
        if table.num_rows:
            yield [table]

    def next_batch(self) -> list[Any] | None:
        """The next non-empty batch of items to emit, or ``None`` at the partition's end."""
        batches = self.batches
        if batches is None:
            batches = self.batches = self._open()
        plan = self.plan
        for batch in batches:
            if not batch:
                continue
            if plan.emit == "rows":
                if plan.convert is not None:
                    batch = plan.convert(batch)
                if plan.check_none:
                    for x in batch:
                        if x is None:
                            raise TypeError("the RDD holds a None element (None is never an item)")
            return batch
        return None

    def close(self) -> None:
        """Close the partition's socket file and its socket (the socket even when closing the
        file raises)."""
        try:
            self.sockfile.close()
        finally:
            self.sock.close()
