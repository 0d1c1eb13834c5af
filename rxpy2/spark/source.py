"""Spark partition sources: ``from_dataframe`` and ``from_rdd``.

A :class:`SparkFlowable` runs one Spark job per partition, in partition order, only when
downstream demand reaches that partition. Jobs run off the caller's thread, on threads of
the subscription's own (``rxpy2-spark-*``), each in the subscription's job group, so that
``cancel()`` can cancel them.

How one partition travels: the job computes it and the driver's JVM keeps the result; the
job thread connects to the local socket the JVM serves it on; the drain loop then reads the
socket batch by batch (the JVM pickles rows itself, the same path ``toLocalIterator`` takes),
so the Python driver holds one batch at a time, however large the partition.

Demand and prefetch (``prefetch_partitions = p``): a partition is *held* from its launch
until its last item was emitted. A new partition is launched only while downstream has
unmet demand and fewer than ``1 + p`` partitions are held. With ``request(1)`` on a
source of 8 non-empty partitions that is exactly ``1 + p`` jobs; with everything requested
it is one job per partition (empty ones included: a partition is known to be empty only
once its job ran), at most ``1 + p`` running at once, so a heavy stage fused into Spark
keeps two executors busy while the driver consumes.

Fusion: ``map``, ``filter``, ``flat_map_iterable`` (also under the name
``concat_map_iterable``) and ``map_partitions`` applied directly to a SparkFlowable with a
function that cloudpickle can serialize return a new SparkFlowable whose plan has one more
stage; the stages become one ``mapPartitions`` of the RDD and run on the executors. The
first operator that cannot fuse (or anything after :meth:`SparkFlowable.on_driver`) runs on
the driver, under backpressure. :meth:`SparkFlowable.explain` shows the split.
"""

from __future__ import annotations

import itertools
import threading
import uuid
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any, Generic, Literal, TypeVar, overload

from rxpy2.flowable import Flowable
from rxpy2.operators import (
    BUFFER_SIZE,
    AtomicInteger,
    AtomicLong,
    Drain,
    EmptySubscription,
    add_request,
    require_non_negative,
    validate_request,
)
from rxpy2.reactivestreams import Subscriber, Subscription
from rxpy2.spark import _executor
from rxpy2.spark.errors import SparkJobError, describe

if TYPE_CHECKING:
    import pyarrow
    from pyspark.sql import Row

__all__ = ["SparkFlowable", "from_dataframe", "from_rdd"]

T = TypeVar("T")
R = TypeVar("R")

ROW_FORMATS = ("row", "dict", "tuple")
EMITS = ("rows", "partitions", "arrow")
_CHUNK = 1024  # items per batch when a serializer does not batch by itself
_NO_ITEMS: list[Any] = []


def _require_choice(value: Any, name: str, choices: tuple[str, ...]) -> None:
    if value not in choices:
        raise ValueError(f"{name} must be one of {', '.join(map(repr, choices))}, not {value!r}")


def _pyspark() -> Any:
    try:
        import pyspark
    except ImportError as e:  # pragma: no cover - depends on the installation
        raise ImportError("rxpy2.spark needs pyspark: pip install 'rxpy2[spark]'") from e
    return pyspark


def _pickling_problem(fn: Callable[..., Any]) -> str | None:
    """Why ``fn`` cannot be shipped to the executors, or ``None`` when it can."""
    from pyspark import cloudpickle

    try:
        cloudpickle.dumps(fn)
    except Exception as e:  # any failure means: keep it on the driver
        return f"{type(e).__name__}: {e}"
    return None


_by_value_registered = False


def _ship_executor_module() -> None:
    """Pickle :mod:`rxpy2.spark._executor` by value: executors need PySpark, not rxpy2."""
    global _by_value_registered
    if not _by_value_registered:
        from pyspark import cloudpickle

        cloudpickle.register_pickle_by_value(_executor)
        _by_value_registered = True


def _label(fn: Callable[..., Any]) -> str:
    return getattr(fn, "__qualname__", None) or getattr(fn, "__name__", None) or repr(fn)


# ---------------------------------------------------------------------------- the plan

class _Plan:
    """What a SparkFlowable computes: a DataFrame or RDD, the stages fused into Spark, and
    ``map_partitions`` stages kept on the driver (after ``on_driver()``)."""

    __slots__ = ("df", "rdd", "row_format", "emit", "spark_steps", "driver_steps", "fuse",
                 "labels")

    def __init__(self, df: Any, rdd: Any, row_format: str, emit: str, fuse: bool,
                 spark_steps: tuple[_executor.Step, ...] = (),
                 driver_steps: tuple[_executor.Step, ...] = (),
                 labels: tuple[tuple[str, str], ...] = ()) -> None:
        self.df = df
        self.rdd = rdd
        self.row_format = row_format
        self.emit = emit
        self.fuse = fuse
        self.spark_steps = spark_steps
        self.driver_steps = driver_steps
        self.labels = labels  # (where, text) per stage, in order, for explain()

    def with_step(self, kind: str, fn: Callable[..., Any], on_spark: bool) -> _Plan:
        where = "spark" if on_spark else "driver"
        label = (where, f"{kind}({_label(fn)})")
        if on_spark:
            return _Plan(self.df, self.rdd, self.row_format, self.emit, self.fuse,
                         self.spark_steps + ((kind, fn),), self.driver_steps,
                         self.labels + (label,))
        return _Plan(self.df, self.rdd, self.row_format, self.emit, self.fuse,
                     self.spark_steps, self.driver_steps + ((kind, fn),), self.labels + (label,))

    def driver_only(self) -> _Plan:
        return _Plan(self.df, self.rdd, self.row_format, self.emit, False, self.spark_steps,
                     self.driver_steps, self.labels)

    def context(self) -> Any:
        return self.df.sparkSession.sparkContext if self.df is not None else self.rdd.context

    def compile(self) -> _Compiled:
        """Build the JVM side once: the RDD whose partitions the jobs compute."""
        from pyspark.serializers import BatchedSerializer, CPickleSerializer

        sc = self.context()
        names: tuple[str, ...] | None = None
        arrow_schema = None
        convert: Callable[[list[Any]], list[Any]] | None = None
        if self.df is not None:
            names = tuple(self.df.columns)
            if self.emit == "arrow":
                jrdd = self.df._jdf.toArrowBatchRdd().toJavaRDD()
                arrow_schema = _arrow_schema(self.df)
                serializer = None
            elif self.spark_steps:
                _ship_executor_module()
                fn = _executor.partition_function(self.row_format, names, self.spark_steps)
                rdd = self.df.rdd.mapPartitions(fn, preservesPartitioning=True)
                jrdd, serializer = rdd._jrdd, rdd._jrdd_deserializer
            else:
                jrdd = self.df._jdf.javaToPython()
                serializer = BatchedSerializer(CPickleSerializer())
                convert = _row_converter(self.row_format, names)
        else:
            rdd = self.rdd
            if self.spark_steps:
                _ship_executor_module()
                fn = _executor.partition_function("row", None, self.spark_steps)
                rdd = rdd.mapPartitions(fn, preservesPartitioning=True)
            jrdd, serializer = rdd._jrdd, rdd._jrdd_deserializer
        return _Compiled(sc, jrdd, jrdd.getNumPartitions(), serializer, convert,
                         self.df is None and not self.spark_steps, arrow_schema, self.emit,
                         self.driver_steps)


def _row_converter(row_format: str, names: tuple[str, ...]) -> Callable[[list[Any]], list[Any]] | None:
    if row_format == "tuple":
        return lambda batch: list(map(tuple, batch))
    if row_format == "dict":
        return lambda batch: [dict(zip(names, r, strict=True)) for r in batch]
    return None


def _arrow_schema(df: Any) -> Any:
    """The Arrow schema of ``df``'s batches, as ``DataFrame.toArrow()`` gives it (timestamps
    are UTC instants; the label is only metadata, the batches carry no schema)."""
    from pyspark.sql.pandas.types import to_arrow_schema

    large = str(df.sparkSession.conf.get("spark.sql.execution.arrow.useLargeVarTypes",
                                         "false")).lower() == "true"
    return to_arrow_schema(df.schema, error_on_duplicated_field_names_in_struct=True,
                           timezone="UTC", prefers_large_types=large)


class _Compiled:
    """The JVM RDD and how to read one computed partition of it."""

    __slots__ = ("sc", "jrdd", "num_partitions", "serializer", "convert", "check_none",
                 "arrow_schema", "emit", "driver_steps")

    def __init__(self, sc: Any, jrdd: Any, num_partitions: int, serializer: Any,
                 convert: Callable[[list[Any]], list[Any]] | None, check_none: bool,
                 arrow_schema: Any, emit: str, driver_steps: tuple[_executor.Step, ...]) -> None:
        self.sc = sc
        self.jrdd = jrdd
        self.num_partitions = num_partitions
        self.serializer = serializer
        self.convert = convert
        self.check_none = check_none
        self.arrow_schema = arrow_schema
        self.emit = emit
        self.driver_steps = driver_steps

    def run_job(self, index: int) -> _PartitionReader:
        """Compute partition ``index`` (blocks this thread for the job) and connect to the
        socket the driver's JVM serves it on."""
        sc = self.sc
        sock_info = sc._jvm.PythonRDD.runJob(sc._jsc.sc(), self.jrdd, [index])
        return _PartitionReader(self, sock_info)


def _connect(sock_info: Any) -> tuple[Any, Any]:
    try:
        from pyspark.util import _create_local_socket
    except ImportError:  # pragma: no cover - older PySpark layouts
        from pyspark.rdd import _create_local_socket  # type: ignore[no-redef]  # the fallback location of the same function
    return _create_local_socket((sock_info[0], sock_info[1]))


class _PartitionReader:
    """One computed partition, read from its socket in batches by the drain loop."""

    __slots__ = ("plan", "sockfile", "sock", "batches")

    def __init__(self, plan: _Compiled, sock_info: Any) -> None:
        self.plan = plan
        self.sockfile, self.sock = _connect(sock_info)
        self.batches: Iterator[list[Any]] | None = None

    def _open(self) -> Iterator[list[Any]]:
        from pyspark.serializers import BatchedSerializer, NoOpSerializer

        plan = self.plan
        if plan.emit == "arrow":
            return self._arrow()
        ser = plan.serializer
        if isinstance(ser, BatchedSerializer):
            raw: Iterator[list[Any]] = ser._load_stream_without_unbatching(self.sockfile)
        else:
            if ser is None:  # pragma: no cover - only the arrow plan has no serializer
                ser = NoOpSerializer()
            items = ser.load_stream(self.sockfile)
            raw = iter(lambda: list(itertools.islice(items, _CHUNK)), [])
        if plan.driver_steps:
            flat = _executor.apply_steps(itertools.chain.from_iterable(raw), plan.driver_steps)
            raw = iter(lambda: list(itertools.islice(flat, _CHUNK)), [])
        if plan.emit == "partitions":
            return self._whole(raw)
        return raw

    def _whole(self, raw: Iterator[list[Any]]) -> Iterator[list[Any]]:
        rows: list[Any] = []
        for batch in raw:
            rows.extend(batch)
        if rows:
            if self.plan.convert is not None:
                rows = self.plan.convert(rows)
            yield [rows]

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
        try:
            self.sockfile.close()
        finally:
            self.sock.close()


# ---------------------------------------------------------------------------- the Flowable

class SparkFlowable(Flowable[T], Generic[T]):
    """A Flowable over the partitions of a DataFrame or RDD (see the module docstring)."""

    __slots__ = ("_plan", "_prefetch", "_compiled", "_lock", "_group_prefix", "_subscriptions")

    def __init__(self, plan: _Plan, prefetch_partitions: int) -> None:
        self._plan = plan
        self._prefetch = prefetch_partitions
        self._compiled: _Compiled | None = None
        self._lock = threading.Lock()
        self._group_prefix = f"rxpy2-spark-{uuid.uuid4().hex[:12]}"
        self._subscriptions = 0

    # -- subscribing

    def subscribe_actual(self, subscriber: Subscriber[T]) -> None:
        try:
            compiled = self._compile()
        except Exception as e:
            err = SparkJobError(f"preparing the Spark source failed: {describe(e)}")
            err.__cause__ = e
            EmptySubscription.error(err, subscriber)
            return
        with self._lock:
            self._subscriptions += 1
            group = f"{self._group_prefix}-{self._subscriptions}"
        parent: PartitionSubscription[T] = PartitionSubscription(
            subscriber, compiled, self._prefetch, group)
        subscriber.on_subscribe(parent)
        parent.drain()  # an RDD of no partitions completes at once

    def _compile(self) -> _Compiled:
        compiled = self._compiled
        if compiled is None:
            with self._lock:
                compiled = self._compiled
                if compiled is None:
                    compiled = self._compiled = self._plan.compile()
        return compiled

    def job_group(self, subscription_number: int) -> str:
        """The Spark job group of this Flowable's ``subscription_number``-th subscription
        (from 1): its jobs are ``sc.statusTracker().getJobIdsForGroup(...)`` of it."""
        return f"{self._group_prefix}-{subscription_number}"

    @property
    def num_partitions(self) -> int:
        """The number of partitions (one Spark job each); computing it builds the plan."""
        return self._compile().num_partitions

    # -- fusion

    def _fused(self, kind: str, fn: Callable[..., Any]) -> SparkFlowable[Any] | None:
        plan = self._plan
        if not plan.fuse or plan.emit == "arrow" or plan.driver_steps:
            return None
        if _pickling_problem(fn) is not None:
            return None
        return SparkFlowable(plan.with_step(kind, fn, True), self._prefetch)

    def map(self, mapper: Callable[[T], R]) -> Flowable[R]:
        """Fused into Spark when ``mapper`` pickles (see the module docstring)."""
        if not callable(mapper):
            return super().map(mapper)  # the base reports the error
        return self._fused("map", mapper) or super().map(mapper)

    def filter(self, predicate: Callable[[T], bool]) -> Flowable[T]:
        if not callable(predicate):
            return super().filter(predicate)
        return self._fused("filter", predicate) or super().filter(predicate)

    def flat_map_iterable(self, mapper: Callable[[T], Iterable[R]],
                          prefetch: int = BUFFER_SIZE) -> Flowable[R]:
        if not callable(mapper):
            return super().flat_map_iterable(mapper, prefetch)
        return self._fused("flat_map_iterable", mapper) or super().flat_map_iterable(
            mapper, prefetch)

    def concat_map_iterable(self, mapper: Callable[[T], Iterable[R]],
                            prefetch: int = 2) -> Flowable[R]:
        if not callable(mapper):
            return super().concat_map_iterable(mapper, prefetch)
        return self._fused("flat_map_iterable", mapper) or super().concat_map_iterable(
            mapper, prefetch)

    def map_partitions(self, fn: Callable[[Iterator[T]], Iterable[R]]) -> SparkFlowable[R]:
        """Apply ``fn`` to the iterator of each partition's items (Spark's ``mapPartitions``).

        Runs on the executors when it can fuse; otherwise on the driver, per partition, as
        the partition is read (``fn`` sees the same items in both places)."""
        if not callable(fn):
            raise TypeError(f"fn must be callable, not {type(fn).__name__}")
        if self._plan.emit == "arrow":
            raise ValueError("map_partitions works on rows; emit='arrow' gives whole tables")
        fused = self._fused("map_partitions", fn)
        if fused is not None:
            return fused
        return SparkFlowable(self._plan.with_step("map_partitions", fn, False), self._prefetch)

    def on_driver(self) -> SparkFlowable[T]:
        """The same source with fusion off: every operator applied after this runs on the
        driver (stages fused before it stay in Spark)."""
        return SparkFlowable(self._plan.driver_only(), self._prefetch)

    # -- explain

    def explain(self) -> str:
        """Which stages of this source run in Spark and which on the driver."""
        plan = self._plan
        if plan.df is not None:
            what = f"DataFrame[{', '.join(f'{n}: {t}' for n, t in plan.df.dtypes)}]"
        else:
            what = f"RDD[{plan.rdd.id()}]"
        shape = {"rows": f"rows as {plan.row_format}" if plan.df is not None else "elements", "partitions": "one list per partition",
                 "arrow": "one pyarrow.Table per partition"}[plan.emit]
        lines = [f"spark   source    {what} ({shape}; one job per partition, "
                 f"prefetch {self._prefetch} partition(s))"]
        for where, text in plan.labels:
            lines.append(f"{where:<7} stage     {text}"
                         + ("  [executors]" if where == "spark" else "  [driver, per partition]"))
        if not plan.fuse:
            lines.append("driver  (fusion off: operators applied next run on the driver)")
        return "\n".join(lines)

    def __repr__(self) -> str:
        return f"SparkFlowable({len(self._plan.labels)} stage(s))"


# The item type follows row_format and emit (Literal overloads); a str not known statically
# gives SparkFlowable[Any].
@overload
def from_dataframe(df: Any, prefetch_partitions: int = ..., row_format: Literal["row"] = ..., *,
                   emit: Literal["rows"] = ..., fuse: bool = ...) -> SparkFlowable[Row]: ...


@overload
def from_dataframe(df: Any, prefetch_partitions: int = ..., *, row_format: Literal["dict"],
                   emit: Literal["rows"] = ..., fuse: bool = ...) -> SparkFlowable[dict[str, Any]]: ...


@overload
def from_dataframe(df: Any, prefetch_partitions: int, row_format: Literal["dict"], *,
                   emit: Literal["rows"] = ..., fuse: bool = ...) -> SparkFlowable[dict[str, Any]]: ...


@overload
def from_dataframe(df: Any, prefetch_partitions: int = ..., *, row_format: Literal["tuple"],
                   emit: Literal["rows"] = ..., fuse: bool = ...) -> SparkFlowable[tuple[Any, ...]]: ...


@overload
def from_dataframe(df: Any, prefetch_partitions: int, row_format: Literal["tuple"], *,
                   emit: Literal["rows"] = ..., fuse: bool = ...) -> SparkFlowable[tuple[Any, ...]]: ...


@overload
def from_dataframe(df: Any, prefetch_partitions: int = ..., row_format: Literal["row"] = ..., *,
                   emit: Literal["partitions"], fuse: bool = ...) -> SparkFlowable[list[Row]]: ...


@overload
def from_dataframe(df: Any, prefetch_partitions: int = ..., row_format: str = ..., *,
                   emit: Literal["arrow"], fuse: bool = ...) -> SparkFlowable[pyarrow.Table]: ...


@overload
def from_dataframe(df: Any, prefetch_partitions: int = ..., row_format: str = ..., *,
                   emit: str = ..., fuse: bool = ...) -> SparkFlowable[Any]: ...


def from_dataframe(df: Any, prefetch_partitions: int = 1, row_format: str = "row", *,
                   emit: str = "rows", fuse: bool = True) -> SparkFlowable[Any]:
    """A Flowable of the rows of ``df``, one Spark job per partition, under demand.

    ``row_format``: ``"row"`` (pyspark ``Row``), ``"dict"`` or ``"tuple"``.
    ``emit``: ``"rows"`` (each row), ``"partitions"`` (one list of rows per non-empty
    partition) or ``"arrow"`` (one ``pyarrow.Table`` per non-empty partition, through
    Spark's Arrow path: the fast way to move wide data). ``fuse=False`` keeps every
    operator on the driver.
    """
    if df is None:
        raise TypeError("df is None")
    _pyspark()
    if not hasattr(df, "_jdf"):
        raise TypeError(f"df must be a classic pyspark DataFrame, not {type(df).__name__}")
    require_non_negative(prefetch_partitions, "prefetch_partitions")
    _require_choice(row_format, "row_format", ROW_FORMATS)
    _require_choice(emit, "emit", EMITS)
    return SparkFlowable(_Plan(df, None, row_format, emit, bool(fuse)), prefetch_partitions)


def from_rdd(rdd: Any, prefetch_partitions: int = 1, *, emit: str = "rows",
             fuse: bool = True) -> SparkFlowable[Any]:
    """A Flowable of the elements of ``rdd``, one Spark job per partition, under demand.

    ``emit``: ``"rows"`` (each element) or ``"partitions"`` (one list per non-empty
    partition). A ``None`` element is a ``TypeError`` downstream."""
    if rdd is None:
        raise TypeError("rdd is None")
    _pyspark()
    if not hasattr(rdd, "_jrdd"):
        raise TypeError(f"rdd must be a pyspark RDD, not {type(rdd).__name__}")
    require_non_negative(prefetch_partitions, "prefetch_partitions")
    _require_choice(emit, "emit", EMITS[:2])
    return SparkFlowable(_Plan(None, rdd, "row", emit, bool(fuse)), prefetch_partitions)


# ---------------------------------------------------------------------------- the subscription

_thread_ids = itertools.count(1)


class _JobFailure:
    """A partition whose job failed: its error, signalled when emission reaches it."""

    __slots__ = ("error",)

    def __init__(self, error: BaseException) -> None:
        self.error = error

    def close(self) -> None:
        pass


class PartitionSubscription(Subscription, Generic[T]):
    """Launches partition jobs under demand and emits their items in partition order.

    Job threads only compute and connect; everything else happens in the drain loop,
    serialized by a :class:`~rxpy2.operators.Drain` (``gate``): it runs on the thread that
    requested or cancelled, or on the subscription's one emitter thread when a job
    finished; a signal that finds it running is counted and makes it run another pass.
    After the terminal signal (or a cancel) the drain stays owned for good."""

    def __init__(self, downstream: Subscriber[T], plan: _Compiled, prefetch: int,
                 group: str) -> None:
        self.downstream = downstream
        self.plan = plan
        self.n = plan.num_partitions
        self.max_held = 1 + prefetch
        self.job_group = group
        self.requested = AtomicLong()
        self.gate = Drain()
        self.cancelled = False
        self.done = False
        # computed partitions (or their failures), by index; job threads put, the drain pops
        self.ready: dict[int, _PartitionReader | _JobFailure] = {}
        self.launched = 0  # partitions launched so far (drain loop only)
        self.index = 0  # the partition being emitted (drain loop only)
        self.emitted = 0
        self.current: _PartitionReader | None = None
        self.batch: list[Any] = _NO_ITEMS
        self.pos = 0
        self.pool: ThreadPoolExecutor | None = None
        self.emitter: ThreadPoolExecutor | None = None
        self.emitter_lock = threading.Lock()
        self.thread_prefix = f"rxpy2-spark-{next(_thread_ids)}"
        # jobs launched and not yet returned (also read by tests and tools to wait for them)
        self.active_jobs = AtomicInteger()

    # -- Subscription

    def request(self, n: int) -> None:
        if validate_request(n):  # §3.9
            add_request(self.requested, n)
            self.drain()

    def cancel(self) -> None:
        if self.cancelled:
            return
        self.cancelled = True  # §3.5: job threads check it before they launch
        if self.launched and not self.done:
            self._cancel_jobs()
        self.drain()

    # -- job threads

    def _job(self, index: int) -> None:
        try:
            self._run_job(index)
        finally:
            self.active_jobs.decrement_and_get()

    def _run_job(self, index: int) -> None:
        if self.cancelled or self.done:
            return
        sc = self.plan.sc
        try:
            sc.setJobGroup(self.job_group,
                           f"rxpy2: partition {index} of {self.n}", True)
            reader = self.plan.run_job(index)
        except Exception as e:  # Py4J/PySpark errors of the job, or of the connect
            if self.cancelled:
                return  # cancelled by cancel(): nothing to report
            err = SparkJobError(f"Spark job for partition {index} failed: {describe(e)}",
                                partition=index, job_group=self.job_group)
            err.__cause__ = e
            self.ready[index] = _JobFailure(err)  # signalled in partition order
            self._drain_on_emitter()
            return
        self.ready[index] = reader
        if self.done:  # the drain loop ended meanwhile: whoever pops the reader closes it
            leftover = self.ready.pop(index, None)
            if leftover is not None:
                leftover.close()
            return
        self._drain_on_emitter()

    def _drain_on_emitter(self) -> None:
        """A finished job hands the drain to the subscription's one emitter thread instead
        of running it here: reading and unpickling batches on one thread, not on each job
        thread, keeps the driver's memory where a single reader's is (every thread that
        allocates large buffers keeps a malloc arena of its own)."""
        emitter = self.emitter
        if emitter is None:
            with self.emitter_lock:
                emitter = self.emitter
                if emitter is None:
                    if self.done:
                        return
                    emitter = self.emitter = ThreadPoolExecutor(
                        max_workers=1, thread_name_prefix=f"{self.thread_prefix}-emit")
        try:
            emitter.submit(self.drain)
        except RuntimeError:  # shut down: the subscription ended meanwhile
            pass

    def _cancel_jobs(self) -> None:
        try:
            jsc = self.plan.sc._jsc.sc()
            try:  # Spark ≥ 4.0: jobs of the group submitted later are refused as well
                jsc.cancelJobGroupAndFutureJobs(self.job_group,
                                                "rxpy2: the subscription was cancelled")
            except Exception:
                jsc.cancelJobGroup(self.job_group)
        except Exception as e:  # a stopped SparkContext: nothing runs any more
            from rxpy2 import plugins

            if "stopped" not in str(e).lower():
                plugins.on_error(e)

    def _launch(self, outstanding: int) -> None:
        """Start jobs while demand is unmet and fewer than ``1 + prefetch`` are held."""
        n = self.n
        while (outstanding > 0 and self.launched < n and not self.cancelled
               and self.launched - self.index < self.max_held):
            pool = self.pool
            if pool is None:
                pool = self.pool = ThreadPoolExecutor(
                    max_workers=self.max_held, thread_name_prefix=f"{self.thread_prefix}-job")
            self.active_jobs.increment_and_get()
            try:
                pool.submit(self._job, self.launched)
            except RuntimeError:  # shut down by a cancel in between: nothing more starts
                self.active_jobs.decrement_and_get()
                return
            self.launched += 1

    # -- drain loop

    def drain(self) -> None:
        gate = self.gate
        if not gate.enter():
            return  # counted: the owner makes another pass
        downstream = self.downstream
        while True:
            if self.cancelled:
                self._clear()
                return
            r = self.requested.get()
            e = self.emitted
            batch = self.batch
            pos = self.pos
            while True:
                if pos == len(batch):
                    reader = self.current
                    if reader is None:
                        if self.index == self.n:
                            self._complete()
                            return
                        got = self.ready.pop(self.index, None)
                        if got is None:
                            break  # the job of the next partition has not finished
                        if isinstance(got, _JobFailure):
                            self._fail(got.error)
                            return
                        reader = self.current = got
                    # the spent batch goes before the next is read: one batch in memory
                    batch = self.batch = _NO_ITEMS
                    pos = 0
                    try:
                        nb = reader.next_batch()
                    except Exception as ex:
                        if isinstance(ex, (OSError, EOFError)):  # the socket, not the items
                            err = SparkJobError(
                                f"reading partition {self.index} failed: {describe(ex)}",
                                partition=self.index, job_group=self.job_group)
                            err.__cause__ = ex
                            ex = err
                        self._fail(ex)  # a driver-side stage's own error goes as it is
                        return
                    if nb is None:
                        reader.close()
                        self.current = None
                        self.index += 1
                        self._launch(r - e)
                        continue
                    batch = nb
                    nb = None  # only `batch` may hold it, or two batches live at the next read
                    continue
                if e == r:
                    break
                end = min(len(batch), pos + (r - e))
                for i in range(pos, end):
                    if self.cancelled:
                        self._clear()
                        return
                    downstream.on_next(batch[i])
                e += end - pos
                pos = end
            self.batch = batch
            self.pos = pos
            self.emitted = e
            self._launch(self.requested.get() - e)
            if not gate.leave():
                return

    def _finish(self) -> None:
        """Release everything: readers, the thread pool (its threads end after their job)."""
        self.done = True
        current, self.current = self.current, None
        if current is not None:
            current.close()
        while self.ready:
            _, reader = self.ready.popitem()
            reader.close()
        self.batch = _NO_ITEMS
        pool, self.pool = self.pool, None
        if pool is not None:
            # queued jobs still run _job, which sees the end and returns at once
            pool.shutdown(wait=False)
        with self.emitter_lock:
            emitter, self.emitter = self.emitter, None
        if emitter is not None:
            emitter.shutdown(wait=False)

    def _clear(self) -> None:
        # once done the drain never runs again (it stays owned); a job that finishes later
        # closes its own reader in _run_job
        if not self.done:
            self._finish()

    def _fail(self, error: BaseException) -> None:
        self.cancelled = True
        if self.launched:
            self._cancel_jobs()
        self._finish()
        self.downstream.on_error(error)

    def _complete(self) -> None:
        self.cancelled = True
        self._finish()
        self.downstream.on_complete()
