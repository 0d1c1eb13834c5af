"""Backpressured sinks: write a Flowable in batches, asking for a batch only when the
previous write has finished.

``flowable.to(write_batches(write, batch_size))`` is a cold ``Single[WriteSummary]``;
:func:`to_parquet` and :func:`to_table` write each batch through Spark, in a job group of
its own that ``dispose()`` cancels. Demand bounds what the driver holds: one batch, being
filled or being written. The signals in full: ``docs/spark.md``, *Sinks*.
"""

from __future__ import annotations

import itertools
import threading
import time
from collections import deque
from collections.abc import Callable
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any
from typing import Protocol

from rxpy2 import plugins
from rxpy2._internal.arguments import assembly
from rxpy2.disposables import Disposable
from rxpy2.exceptions import MissingBackpressureException
from rxpy2.observers import FlowableSubscriber
from rxpy2.observers import SingleObserver
from rxpy2.operator_kit import AtomicReference
from rxpy2.operator_kit import SubscriptionHelper
from rxpy2.operator_kit import null_item
from rxpy2.operator_kit import null_or_late_error
from rxpy2.operator_kit import require
from rxpy2.operator_kit import require_callable
from rxpy2.operator_kit import require_positive
from rxpy2.operator_kit import require_publisher
from rxpy2.reactivestreams import Publisher
from rxpy2.reactivestreams import Subscription
from rxpy2.single import Single
from rxpy2.spark.errors import SparkJobError
from rxpy2.spark.pyspark_adapter import add_tag
from rxpy2.spark.pyspark_adapter import arrow_to_dataframe
from rxpy2.spark.pyspark_adapter import connect_path_exists
from rxpy2.spark.pyspark_adapter import hadoop_path_exists
from rxpy2.spark.pyspark_adapter import interrupt_tag
from rxpy2.spark.pyspark_adapter import is_connect
from rxpy2.spark.pyspark_adapter import remove_tag

__all__ = ["WriteSummary", "to_parquet", "to_table", "write_batches"]

#: The save modes of Spark's DataFrameWriter.
MODES = frozenset({"error", "errorifexists", "overwrite", "append", "ignore"})

_thread_ids = itertools.count(1)  # next() on a count is atomic under the GIL


@dataclass(frozen=True)
class WriteSummary:
    """What a sink wrote: ``rows`` in ``batches`` writes to ``target``, in ``seconds``
    (from subscription to the end of the last write)."""

    target: str
    rows: int
    batches: int
    seconds: float


class BatchWriter(Protocol):
    """One subscription's writer: ``write`` runs on the sink's worker thread, one batch at
    a time, and returns the number of rows it wrote; ``cancel`` may come from any thread
    while a write runs (dispose) and should make that write stop soon."""

    def write(self, batch: list[Any], index: int) -> int: ...

    def cancel(self) -> None: ...


class _CallableWriter:
    __slots__ = ("fn",)

    def __init__(self, fn: Callable[[list[Any], int], Any]) -> None:
        self.fn = fn

    def write(self, batch: list[Any], index: int) -> int:
        self.fn(batch, index)
        return len(batch)

    def cancel(self) -> None:
        pass


# ---------------------------------------------------------------------------- the Single


class FlowableWriteBatchesSingle(Single[WriteSummary]):
    """Consumes ``source`` in batches of ``batch_size`` through a writer made per subscriber."""

    __slots__ = ("source", "writer_factory", "batch_size", "target")

    def __init__(self, source: Publisher[Any], writer_factory: Callable[[], BatchWriter],
                 batch_size: int, target: str) -> None:
        self.source: Publisher[Any] = source
        self.writer_factory: Callable[[], BatchWriter] = writer_factory
        self.batch_size: int = batch_size
        self.target: str = target

    def subscribe_actual(self, observer: SingleObserver[WriteSummary]) -> None:
        self.source.subscribe(WriteBatchesSubscriber(
            observer, self.writer_factory(), self.batch_size, self.target))


class _Failed:
    """A queued terminal error."""

    __slots__ = ("error",)

    def __init__(self, error: BaseException) -> None:
        self.error = error


_COMPLETE = object()  # a queued completion


class WriteBatchesSubscriber(FlowableSubscriber[Any], Disposable):
    """Fills ``buffer`` on the upstream's thread and queues each full batch (then the
    terminal signal) for the worker thread, which writes, then requests the next batch.

    ``buffer`` is the batch being filled, or ``None`` while no item is requested (a batch
    is queued or being written): only the upstream side touches it while it is a list,
    the worker sets it to a new list right before it requests. ``tasks``, ``thread``,
    ``disposed`` and ``terminated`` are guarded by ``lock``.
    """

    def __init__(self, downstream: SingleObserver[WriteSummary], writer: BatchWriter,
                 batch_size: int, target: str) -> None:
        self.downstream = downstream
        self.writer = writer
        self.batch_size: int = batch_size
        self.target: str = target
        self.upstream: AtomicReference[Subscription] = AtomicReference()
        self.buffer: list[Any] | None = None
        self.done: bool = False  # upstream side: a terminal signal arrived (or was made up)
        self.lock: threading.Lock = threading.Lock()
        self.cond: threading.Condition = threading.Condition(self.lock)
        self.tasks: deque[Any] = deque()
        self.thread: threading.Thread | None = None
        self.disposed: bool = False
        self.terminated: bool = False  # a terminal signal went (or is going) downstream
        # worker side only
        self.index: int = 0
        self.rows: int = 0
        self.start: float = 0.0

    # ------------------------------------------------------------------ upstream side

    def on_subscribe(self, s: Subscription) -> None:
        if SubscriptionHelper.set_once(self.upstream, s):
            self.start = time.monotonic()
            self.downstream.on_subscribe(self)
            if not self.disposed:
                self.buffer = []
                s.request(self.batch_size)

    def on_next(self, item: Any) -> None:
        if item is None:
            raise null_item()  # §2.13
        buf = self.buffer
        if buf is None:
            if self.done or self.disposed:
                return
            # §1.1: more items than requested
            self.done = True
            SubscriptionHelper.cancel(self.upstream)
            self._submit(_Failed(MissingBackpressureException(
                f"{self.target}: an item arrived beyond the {self.batch_size} requested")))
            return
        buf.append(item)
        if len(buf) == self.batch_size:
            self.buffer = None
            self._submit(buf)

    def on_error(self, error: BaseException) -> None:
        if error is None or self.done:
            null_or_late_error(error)  # §2.13, §1.7
            return
        self.done = True
        self.buffer = None  # the partial batch is dropped
        self._submit(_Failed(error))

    def on_complete(self) -> None:
        if self.done:
            return
        self.done = True
        buf = self.buffer
        self.buffer = None
        if buf:
            self._submit(buf, _COMPLETE)
        else:
            self._submit(_COMPLETE)

    def _submit(self, *tasks: Any) -> None:
        """Queue batches/terminal signals for the worker (started with the first batch).

        A terminal signal with no worker yet (nothing was ever written) goes downstream at
        once, on this thread. After dispose or a failed write an error goes to plugins.
        """
        signal_now = False
        with self.lock:
            if self.disposed or self.terminated:
                late = True
            elif self.thread is None and not isinstance(tasks[0], list):
                self.terminated = True
                late = False
                signal_now = True
            else:
                late = False
                self.tasks.extend(tasks)
                if self.thread is None:
                    self.thread = threading.Thread(
                        target=self._run, name=f"rxpy2-spark-sink-{next(_thread_ids)}",
                        daemon=True)
                    self.thread.start()
                else:
                    self.cond.notify()
        if signal_now:
            self._signal(tasks[0])
        elif late:
            self._undeliverable(tasks)

    @staticmethod
    def _undeliverable(tasks: Any) -> None:
        for t in tasks:
            if isinstance(t, _Failed):
                plugins.on_error(t.error)

    # ------------------------------------------------------------------ worker side

    def _run(self) -> None:
        lock = self.lock
        cond = self.cond
        tasks = self.tasks
        writer = self.writer
        batch_size = self.batch_size
        try:
            while True:
                with lock:
                    while not tasks and not self.disposed:
                        cond.wait()
                    if self.disposed:
                        return
                    task = tasks.popleft()
                    if not isinstance(task, list):
                        self.terminated = True
                if not isinstance(task, list):
                    self._signal(task)
                    return
                index = self.index
                try:
                    rows = writer.write(task, index)
                except Exception as e:
                    self._write_failed(e)
                    return
                self.index = index + 1
                self.rows += rows
                with lock:
                    if self.disposed:
                        return  # the write's outcome is dropped
                    more = not tasks and len(task) == batch_size
                if more:  # the write finished: now, and only now, the next batch
                    self.buffer = []
                    s = self.upstream.get()
                    if s is not None:
                        s.request(batch_size)
        except Exception as e:  # a downstream or upstream method raised: nowhere else to go
            plugins.on_error(e)

    def _signal(self, task: Any) -> None:
        if isinstance(task, _Failed):
            self.downstream.on_error(task.error)
        else:
            self.downstream.on_success(WriteSummary(
                self.target, self.rows, self.index, time.monotonic() - self.start))

    def _write_failed(self, error: BaseException) -> None:
        with self.lock:
            if self.disposed:
                return  # most likely the cancellation dispose asked for: dropped
            self.terminated = True
            dropped = list(self.tasks)
            self.tasks.clear()
        self.done = True
        SubscriptionHelper.cancel(self.upstream)
        if dropped and isinstance(dropped[0], _Failed):  # the upstream's error came first
            plugins.on_error(error)
            self.downstream.on_error(dropped[0].error)
            return
        self._undeliverable(dropped)
        self.downstream.on_error(error)

    # ------------------------------------------------------------------ Disposable

    def dispose(self) -> None:
        with self.lock:
            if self.disposed:
                return
            self.disposed = True
            terminated = self.terminated
            dropped = list(self.tasks)
            self.tasks.clear()
            self.cond.notify()
        SubscriptionHelper.cancel(self.upstream)
        if not terminated:
            self.writer.cancel()
            self._undeliverable(dropped)

    def is_disposed(self) -> bool:
        return self.disposed or self.terminated


# ---------------------------------------------------------------------------- converters


def _sink(writer_factory: Callable[[], BatchWriter], batch_size: int,
          target: str) -> Callable[[Publisher[Any]], Single[WriteSummary]]:
    def convert(source: Publisher[Any]) -> Single[WriteSummary]:
        require_publisher(source, "source")
        return assembly("single",
            FlowableWriteBatchesSingle(source, writer_factory, batch_size, target))

    return convert


def write_batches(write: Callable[[list[Any], int], Any], batch_size: int = 10_000, *,
                  name: str = "write_batches",
                  ) -> Callable[[Publisher[Any]], Single[WriteSummary]]:
    """A converter for ``flowable.to(...)``: a Single that calls ``write(batch, batch_index)``
    with lists of ``batch_size`` items (the last one may be shorter), requesting the next
    batch only after ``write`` returned; its value is a :class:`WriteSummary` whose
    ``target`` is ``name``. See the module docstring for the signals."""
    require_callable(write, "write")
    require_positive(batch_size, "batch_size")
    if not isinstance(name, str):
        raise TypeError(f"name must be a str, not {type(name).__name__}")
    return _sink(lambda: _CallableWriter(write), batch_size, name)


# ---------------------------------------------------------------------------- Spark


def _arrow_table(batch: list[Any]) -> Any:
    """One ``pyarrow.Table`` of a batch of Tables/RecordBatches."""
    import pyarrow as pa

    tables = []
    for x in batch:
        if isinstance(x, pa.Table):
            tables.append(x)
        elif isinstance(x, pa.RecordBatch):
            tables.append(pa.Table.from_batches([x]))
        else:
            raise TypeError("a batch mixes pyarrow tables with "
                            f"{type(x).__name__} items")
    return tables[0] if len(tables) == 1 else pa.concat_tables(tables)


def _is_arrow(item: Any) -> bool:
    return type(item).__module__.startswith("pyarrow") and type(item).__name__ in (
        "Table", "RecordBatch")


class _SparkWriter:
    """Writes a batch as a DataFrame through ``save(writer, mode)``, each write in a job
    group of its own (on Spark Connect: a tag of its own); ``cancel`` cancels the running
    write's group (interrupts its tag)."""

    def __init__(self, spark: Any, target: str, schema: Any, mode: str,
                 save: Callable[[Any, str], None], exists: Callable[[], bool]) -> None:
        self.spark = spark
        self.target = target
        self.schema = schema
        self.mode = mode
        self.save = save
        self.exists = exists
        self.prefix = f"rxpy2-spark-sink-{next(_thread_ids)}"
        self.group: str | None = None
        self.cancelled = False
        self.skip = False  # mode "ignore" found the target: nothing is written

    def _enter(self, group: str, index: int) -> None:
        if is_connect(self.spark):
            add_tag(self.spark, group)
        else:
            self.spark.sparkContext.setJobGroup(
                group, f"rxpy2 sink: batch {index} to {self.target}", True)

    def _leave(self, group: str) -> None:
        try:
            if is_connect(self.spark):
                remove_tag(self.spark, group)
            else:
                sc = self.spark.sparkContext
                sc.setLocalProperty("spark.jobGroup.id", None)
                sc.setLocalProperty("spark.job.description", None)
        except Exception:  # the session is gone: nothing left to clear
            pass

    def write(self, batch: list[Any], index: int) -> int:
        group = f"{self.prefix}-{index}"
        self.group = group  # before the group is set: a dispose from now on cancels it
        try:
            self._enter(group, index)
            if self.cancelled:
                return 0
            mode = self.mode
            if index > 0:
                mode = "append"
            elif mode == "ignore" and self.exists():
                self.skip = True
            if self.skip:
                return 0
            if _is_arrow(batch[0]):
                table = _arrow_table(batch)
                rows: int = table.num_rows
                df = arrow_to_dataframe(self.spark, table, self.schema)
            else:
                rows = len(batch)
                df = self.spark.createDataFrame(batch, self.schema)
            self.save(df.write.mode(mode), mode)
            return rows
        except Exception as e:
            raise SparkJobError.caused_by(f"writing batch {index} to {self.target} failed", e,
                                          job_group=group) from e
        finally:
            self.group = None
            self._leave(group)

    def cancel(self) -> None:
        self.cancelled = True
        group = self.group
        if group is not None:
            if is_connect(self.spark):
                interrupt_tag(self.spark, group)
            else:
                self.spark.sparkContext.cancelJobGroup(group)


def _check_spark_args(target: Any, target_name: str, spark: Any, mode: Any) -> None:
    require(target, target_name)
    if not isinstance(target, str):
        raise TypeError(f"{target_name} must be a str, not {type(target).__name__}")
    require(spark, "spark")
    if mode not in MODES:
        raise ValueError(f"mode must be one of {sorted(MODES)}, not {mode!r}")


def to_parquet(path: str, spark: Any, batch_size: int = 10_000, schema: Any = None,
               mode: str = "error", partition_by: str | Sequence[str] | None = None,
               ) -> Callable[[Publisher[Any]], Single[WriteSummary]]:
    """A converter for ``flowable.to(...)``: writes the items as parquet at ``path`` through
    ``spark``, ``batch_size`` items per write, asking for the next batch only after the
    write finished; a ``Single[WriteSummary]``.

    Items are what ``spark.createDataFrame(batch, schema)`` takes (``Row``, ``dict``,
    ``tuple``), or ``pyarrow.Table``/``RecordBatch`` objects, concatenated per batch
    (``rows`` then counts their rows). The first write uses ``mode`` (``"error"``,
    ``"errorifexists"``, ``"overwrite"``, ``"append"``, ``"ignore"``: with ``"ignore"`` and
    an existing path nothing at all is written and ``rows`` is 0), later ones append.
    ``partition_by``: a column or columns for ``partitionBy``. An empty stream writes
    nothing (no directory is created).
    """
    _check_spark_args(path, "path", spark, mode)
    require_positive(batch_size, "batch_size")
    cols: list[str] = []
    if partition_by is not None:
        cols = [partition_by] if isinstance(partition_by, str) else list(partition_by)

    def save(writer: Any, _mode: str) -> None:
        if cols:
            writer = writer.partitionBy(*cols)
        writer.parquet(path)

    def exists() -> bool:
        if is_connect(spark):
            return connect_path_exists(spark, path)
        return hadoop_path_exists(spark, path)

    return _sink(lambda: _SparkWriter(spark, path, schema, mode, save, exists),
                 batch_size, path)


def to_table(table: str, spark: Any, batch_size: int = 10_000, schema: Any = None,
             mode: str = "error") -> Callable[[Publisher[Any]], Single[WriteSummary]]:
    """As :func:`to_parquet`, into the table ``table`` (``DataFrameWriter.saveAsTable``)."""
    _check_spark_args(table, "table", spark, mode)
    require_positive(batch_size, "batch_size")

    def save(writer: Any, _mode: str) -> None:
        writer.saveAsTable(table)

    def exists() -> bool:
        return bool(spark.catalog.tableExists(table))

    return _sink(lambda: _SparkWriter(spark, table, schema, mode, save, exists),
                 batch_size, table)
