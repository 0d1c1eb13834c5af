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
the driver, under backpressure. :meth:`SparkFlowable.explain` shows the split, with each
driver stage's reason; a function that cannot be pickled is logged once per lineage (or,
with ``fuse="require"``, raises :class:`~rxpy2.spark.errors.SparkFusionError`).

Column expressions: ``filter(Column)``, ``map(Column)`` and ``map([Column | name, ...])``
on a DataFrame source, before any Python stage, become ``df.filter``/``df.select`` of the
DataFrame itself, so Catalyst plans them (and pushes predicates into the scan).
"""

from __future__ import annotations

import functools
import itertools
import logging
import operator
import os
import re
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
from rxpy2.operators.arguments import ABSENT
from rxpy2.reactivestreams import Subscriber, Subscription
from rxpy2.single import Single
from rxpy2.spark import _executor
from rxpy2.spark.errors import SparkFusionError, SparkJobError, describe

if TYPE_CHECKING:
    import pyarrow
    from pyspark.sql import Column, Row

    from rxpy2.maybe import Maybe

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
        first = (str(e).strip().splitlines() or [""])[0]
        if len(first) > 200:
            first = first[:197] + "..."
        return f"{type(e).__name__}: {first}" if first else type(e).__name__
    return None


_by_value_registered = False


def _ship_executor_module() -> None:
    """Pickle :mod:`rxpy2.spark._executor` by value: executors need PySpark, not rxpy2."""
    global _by_value_registered
    if not _by_value_registered:
        from pyspark import cloudpickle

        cloudpickle.register_pickle_by_value(_executor)
        _by_value_registered = True


def function_label(fn: Any) -> str:
    """A user function as ``explain()`` names it: ``parse`` for a def (or a method),
    ``<lambda> at etl.py:42`` for a lambda (its file's base name and first line), the class
    name for a callable object, ``partial(parse)`` for a ``functools.partial``."""
    func = getattr(fn, "func", None)
    if isinstance(fn, functools.partial) and func is not None:
        return f"partial({function_label(func)})"
    name = getattr(fn, "__name__", None)
    if not isinstance(name, str):
        return type(fn).__name__
    if name == "<lambda>":
        code = getattr(fn, "__code__", None)
        if code is not None:
            return f"<lambda> at {os.path.basename(code.co_filename)}:{code.co_firstlineno}"
    return name


def column_text(expr: Any) -> str:
    """A Column's text as PySpark prints it (``>(amount, 100)``)."""
    text = str(expr)
    m = re.fullmatch(r"Column<'(.*)'>", text, re.DOTALL)
    return m.group(1) if m else text


def _filter_text(filtered: Any, expr: Any) -> str:
    """The condition of ``filtered`` (a ``df.filter(expr)``) as Spark SQL reads it after
    analysis: ``(amount > CAST(100 AS BIGINT))``."""
    try:
        return str(filtered._jdf.queryExecution().analyzed().condition().sql())
    except Exception:  # another plan shape: PySpark's own text of the Column
        return column_text(expr)


_log = logging.getLogger("rxpy2.spark")

#: Python stages that fuse into Spark: the kinds of ``_executor.Step``
FUSABLE = ("map", "filter", "flat_map_iterable", "map_partitions")


class Stage:
    """One stage of a Spark source's plan, for ``explain()``: where it runs (``"spark"``: a
    Python stage on the executors, ``"column"``: a Column expression applied to the
    DataFrame, ``"driver"``: a ``map_partitions`` kept on the driver), its kind, its
    function's label (a Column's text) and, on the driver, why it did not fuse."""

    __slots__ = ("where", "kind", "label", "reason")

    def __init__(self, where: str, kind: str, label: str, reason: str | None = None) -> None:
        self.where = where
        self.kind = kind
        self.label = label
        self.reason = reason

    def text(self) -> str:
        return f"{self.kind}({self.label})"


class _Lineage:
    """Shared by every plan derived from one ``from_dataframe``/``from_rdd`` call: the
    driver fallback is logged once per lineage."""

    __slots__ = ("warned", "lock")

    def __init__(self) -> None:
        self.warned = False
        self.lock = threading.Lock()

    def warn_once(self, stage: str, reason: str) -> None:
        with self.lock:
            if self.warned:
                return
            self.warned = True
        _log.warning("%s runs on the driver, not in Spark: %s (the stages after it run on the "
                     "driver too; fuse=\"require\" makes this an error at assembly)",
                     stage, reason)


# ---------------------------------------------------------------------------- the plan

class _Plan:
    """What a SparkFlowable computes: a DataFrame (after its Column stages) or RDD, the
    Python stages fused into Spark, and ``map_partitions`` stages kept on the driver.

    Immutable: each operator makes a new plan with :meth:`replace`."""

    __slots__ = ("df", "rdd", "row_format", "emit", "spark_steps", "driver_steps", "fuse",
                 "labels", "off", "lineage", "source_df", "unwrap", "limit")

    def __init__(self, df: Any, rdd: Any, row_format: str, emit: str,
                 fuse: bool | str) -> None:
        self.df = df
        self.rdd = rdd
        self.row_format = row_format
        self.emit = emit
        self.fuse: bool | str = fuse  # True, False or "require"
        self.spark_steps: tuple[_executor.Step, ...] = ()
        self.driver_steps: tuple[_executor.Step, ...] = ()
        self.labels: tuple[Stage, ...] = ()  # every stage, in order, for explain()
        # why Python stages applied next stay on the driver: None (they fuse), "fuse=False"
        # or "on_driver()"
        self.off: str | None = None if fuse else "fuse=False"
        self.lineage = _Lineage()
        self.source_df = df  # the DataFrame given, before Column stages (for explain())
        self.unwrap = False  # a one-Column map: each item is the row's only value
        self.limit: int | None = None  # take/limit pushed into Spark: at most this many items

    def replace(self, **changes: Any) -> _Plan:
        new = object.__new__(_Plan)
        for name in _Plan.__slots__:
            setattr(new, name, changes.pop(name) if name in changes else getattr(self, name))
        if changes:  # pragma: no cover - a typo in this module
            raise AttributeError(f"_Plan has no field {next(iter(changes))!r}")
        return new

    def off_reason(self) -> str | None:
        if self.off == "fuse=False":
            return "fusion off (fuse=False)"
        if self.off is not None:
            return f"after {self.off}"
        return None

    def refusal(self, fn: Callable[..., Any]) -> str | None:
        """Why a Python stage of ``fn`` applied to this plan cannot run in Spark (``None``:
        it fuses)."""
        off = self.off_reason()
        if off is not None:
            return off
        if self.limit is not None:
            return f"after take/limit ({self.limit})"
        if self.emit == "arrow":
            return 'not fusable with emit="arrow" (the items are whole tables)'
        if self.driver_steps:
            first = next(s for s in self.labels if s.where == "driver")
            return f"after a driver operator ({first.text()})"
        problem = _pickling_problem(fn)
        if problem is not None:
            return f"not picklable: {problem}"
        return None

    def with_step(self, kind: str, fn: Callable[..., Any], on_spark: bool,
                  reason: str | None = None) -> _Plan:
        label = function_label(fn)
        if on_spark:
            return self.replace(spark_steps=self.spark_steps + ((kind, fn),),
                                labels=self.labels + (Stage("spark", kind, label),))
        return self.replace(driver_steps=self.driver_steps + ((kind, fn),),
                            labels=self.labels + (Stage("driver", kind, label, reason),))

    def with_column(self, kind: str, df: Any, label: str, unwrap: bool) -> _Plan:
        return self.replace(df=df, unwrap=unwrap,
                            labels=self.labels + (Stage("column", kind, label),))

    def driver_only(self) -> _Plan:
        return self.replace(fuse=False, off="on_driver()")

    def with_limit(self, n: int) -> _Plan:
        """At most ``n`` items: a ``take``/``limit`` pushed into Spark."""
        return self.replace(limit=n if self.limit is None else min(n, self.limit),
                            labels=self.labels + (Stage("spark", "limit", str(n)),))

    def for_spark(self) -> _Plan:
        """The plan to compile: a limit becomes Spark's own. With no Python stage it is a
        Catalyst ``LocalLimit`` on the DataFrame (each partition's plan stops after ``n``
        rows, pushed into the scan where Spark can); otherwise the last executor stage
        takes the first ``n`` items, so the stages before it stop reading there."""
        n = self.limit
        if n is None:
            return self
        if self.df is not None and not self.spark_steps:
            limited = _local_limit(self.df, n)
            if limited is not None:
                return self.replace(df=limited, limit=None)
        return self.replace(spark_steps=self.spark_steps + (("limit", _executor.first(n)),),
                            limit=None)

    def context(self) -> Any:
        return self.df.sparkSession.sparkContext if self.df is not None else self.rdd.context

    def compile(self) -> _Compiled:
        """Build the JVM side once: the RDD whose partitions the jobs compute."""
        from pyspark.serializers import BatchedSerializer, CPickleSerializer

        sc = self.context()
        names: tuple[str, ...] | None = None
        arrow_schema = None
        convert: Callable[[list[Any]], list[Any]] | None = None
        driver_steps = self.driver_steps
        if self.df is not None:
            names = tuple(self.df.columns)
            if self.emit == "arrow":
                jrdd = self.df._jdf.toArrowBatchRdd().toJavaRDD()
                arrow_schema = _arrow_schema(self.df)
                serializer = None
            elif self.spark_steps:
                _ship_executor_module()
                if self.unwrap:  # a one-Column map: the row's only value (stdlib, by reference)
                    fn = _executor.partition_function(
                        "row", names, (("map", operator.itemgetter(0)), *self.spark_steps))
                else:
                    fn = _executor.partition_function(self.row_format, names, self.spark_steps)
                rdd = self.df.rdd.mapPartitions(fn, preservesPartitioning=True)
                jrdd, serializer = rdd._jrdd, rdd._jrdd_deserializer
            else:
                jrdd = self.df._jdf.javaToPython()
                serializer = BatchedSerializer(CPickleSerializer())
                convert = _row_converter(self.row_format, names, self.unwrap)
                if convert is not None and driver_steps:
                    # the driver stages get the items in the source's format, as fused
                    # stages do: convert first, then run them
                    driver_steps = (("map_partitions", _converting(convert)), *driver_steps)
                    convert = None
        else:
            rdd = self.rdd
            if self.spark_steps:
                _ship_executor_module()
                fn = _executor.partition_function("row", None, self.spark_steps)
                rdd = rdd.mapPartitions(fn, preservesPartitioning=True)
            jrdd, serializer = rdd._jrdd, rdd._jrdd_deserializer
        return _Compiled(sc, jrdd, jrdd.getNumPartitions(), serializer, convert,
                         self.df is None and not self.spark_steps, arrow_schema, self.emit,
                         driver_steps)


def _local_limit(df: Any, n: int) -> Any:
    """``df`` under a Catalyst ``LocalLimit(n)``: the same partitions, each cut after its
    first ``n`` rows (``df.limit(n)`` would add a global limit, one partition). ``None``
    when this Spark has no such entry point: the caller cuts the rows in Python."""
    try:
        from pyspark.sql import DataFrame

        jdf = df._jdf
        local = jdf.limit(n).logicalPlan().child()  # GlobalLimit(LocalLimit(n, plan))
        if local.getClass().getSimpleName() != "LocalLimit":
            return None
        jvm = df.sparkSession.sparkContext._jvm
        try:
            dataset = jvm.org.apache.spark.sql.classic.Dataset  # Spark ≥ 4.0
            jlimited = dataset.ofRows(jdf.sparkSession(), local)
        except Exception:  # pragma: no cover - Spark 3.x layout
            jlimited = jvm.org.apache.spark.sql.Dataset.ofRows(jdf.sparkSession(), local)
        return DataFrame(jlimited, df.sparkSession)
    except Exception:  # pragma: no cover - an unknown layout: the Python path is correct too
        return None


def _compile_plan(plan: _Plan) -> _Compiled:
    compiled = plan.for_spark().compile()
    if plan.limit is not None:
        compiled.limit = plan.limit
        if plan.rdd is not None and not plan.spark_steps:
            compiled.check_none = True  # the RDD's own elements, as without the limit
    return compiled


def _first_values(batch: list[Any]) -> list[Any]:
    out = [r[0] for r in batch]
    for v in out:
        if v is None:
            raise TypeError("the Column expression of map() gave null for a row (None is "
                            "never an item): filter the nulls out first, e.g. "
                            "filter(F.col(...).isNotNull())")
    return out


def _converting(convert: Callable[[list[Any]], list[Any]]) -> Callable[[Iterator[Any]], Iterator[Any]]:
    """A batch converter as a ``map_partitions`` function (for the driver stages)."""

    def run(rows: Iterator[Any]) -> Iterator[Any]:
        while batch := list(itertools.islice(rows, _CHUNK)):
            yield from convert(batch)

    return run


def _row_converter(row_format: str, names: tuple[str, ...],
                   unwrap: bool = False) -> Callable[[list[Any]], list[Any]] | None:
    if unwrap:
        return _first_values
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
                 "arrow_schema", "emit", "driver_steps", "limit")

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
        self.limit: int | None = None  # a take/limit: the source completes after this many

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
        group = self._new_group()
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
                    compiled = self._compiled = _compile_plan(self._plan)
        return compiled

    def _new_group(self) -> str:
        """The job group of a new subscription (of this source or of an aggregation of it)."""
        with self._lock:
            self._subscriptions += 1
            return f"{self._group_prefix}-{self._subscriptions}"

    def job_group(self, subscription_number: int) -> str:
        """The Spark job group of this Flowable's ``subscription_number``-th subscription
        (from 1): its jobs are ``sc.statusTracker().getJobIdsForGroup(...)`` of it."""
        if isinstance(subscription_number, bool) or not isinstance(subscription_number, int):
            raise TypeError("subscription_number must be an int, not "
                            f"{type(subscription_number).__name__}")
        if subscription_number < 1:
            raise ValueError("subscriptions are numbered from 1, not "
                             f"{subscription_number}")
        return f"{self._group_prefix}-{subscription_number}"

    @property
    def num_partitions(self) -> int:
        """The number of partitions (one Spark job each); computing it builds the plan."""
        return self._compile().num_partitions

    # -- fusion

    def _fused(self, kind: str, fn: Callable[..., Any]) -> SparkFlowable[Any] | None:
        """This source with one more Python stage run in Spark, or ``None`` when the stage
        runs on the driver (the first fallback of a lineage is logged; under
        ``fuse="require"`` an unpicklable function raises :class:`SparkFusionError`)."""
        plan = self._plan
        reason = plan.refusal(fn)
        if reason is None:
            return SparkFlowable(plan.with_step(kind, fn, True), self._prefetch)
        if reason.startswith("not picklable"):
            stage = f"{kind}({function_label(fn)})"
            if plan.fuse == "require":
                raise SparkFusionError(f"{stage} cannot run in Spark (fuse=\"require\"): "
                                       f"{reason}", stage=stage, reason=reason)
            plan.lineage.warn_once(stage, reason)
        return None

    def _column(self, kind: str, expr: Any) -> SparkFlowable[Any] | None:
        """A Column stage applied to the DataFrame itself, or ``None`` when ``expr`` is not a
        Column (nor, for ``map``, a list of Columns/column names)."""
        from pyspark.sql import Column

        if isinstance(expr, Column):
            exprs: list[Any] = [expr]
        elif kind == "map" and isinstance(expr, (list, tuple)):
            exprs = list(expr)
            for e in exprs:
                if not isinstance(e, (Column, str)):
                    raise TypeError("map([...]) takes Columns and column names, not "
                                    f"{type(e).__name__}")
            if not exprs:
                raise ValueError("map([]) selects no column")
        else:
            return None
        plan = self._plan
        if plan.df is None:
            raise TypeError(f"{kind}(Column) needs a DataFrame source: the items of from_rdd "
                            "are Python objects; use a Python function, or from_dataframe")
        python = next((s for s in plan.labels if s.where != "column"), None)
        if python is not None and python.kind == "limit":
            raise TypeError(f"{kind}(Column) after take/limit would change which rows are "
                            "taken: apply the Column stage before take/limit")
        if python is not None:
            raise TypeError(f"{kind}(Column) applies to the DataFrame's rows, so it must come "
                            f"before the Python stages: after {python.text()} the items are "
                            "Python objects. Apply the Column stage first, or use a Python "
                            "function here")
        if kind == "filter":
            df = plan.df.filter(expr)
            return SparkFlowable(plan.with_column("filter", df, _filter_text(df, expr),
                                                  plan.unwrap), self._prefetch)
        df = plan.df.select(*exprs)
        names = df.columns  # as Spark names the selected columns: "(amount * 2)", an alias
        if isinstance(expr, Column):
            return SparkFlowable(plan.with_column("map", df, names[0], True), self._prefetch)
        return SparkFlowable(plan.with_column("map", df, f"[{', '.join(names)}]", False),
                             self._prefetch)

    @overload
    def map(self, mapper: Column | list[Column | str] | tuple[Column | str, ...]
            ) -> SparkFlowable[Any]: ...

    @overload
    def map(self, mapper: Callable[[T], R]) -> Flowable[R]: ...

    def map(self, mapper: Any) -> Flowable[Any]:
        """Fused into Spark when ``mapper`` pickles (see the module docstring). A
        ``pyspark.sql.Column`` (its values are the items; a struct gives a ``Row``) or a
        list of Columns/column names (rows of those columns, in ``row_format``) is applied
        to the DataFrame itself: ``df.select(...)``."""
        if not callable(mapper):
            col = self._column("map", mapper)
            if col is not None:
                return col
            return super().map(mapper)  # the base reports the error
        return self._fused("map", mapper) or super().map(mapper)

    @overload
    def filter(self, predicate: Column) -> SparkFlowable[T]: ...

    @overload
    def filter(self, predicate: Callable[[T], bool]) -> Flowable[T]: ...

    def filter(self, predicate: Any) -> Flowable[T]:
        """Fused into Spark when ``predicate`` pickles; a ``pyspark.sql.Column`` is applied
        to the DataFrame itself (``df.filter(...)``: Catalyst optimises it and pushes it
        into the scan)."""
        if not callable(predicate):
            col = self._column("filter", predicate)
            if col is not None:
                return col
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
        if self._plan.limit is not None:
            raise ValueError("map_partitions after take/limit: the items are no longer "
                             "partitions; apply it before the take, or use map/buffer")
        fused = self._fused("map_partitions", fn)
        if fused is not None:
            return fused
        reason = self._plan.refusal(fn)
        return SparkFlowable(self._plan.with_step("map_partitions", fn, False, reason),
                             self._prefetch)

    def on_driver(self) -> SparkFlowable[T]:
        """The same source with fusion off: every Python function applied after this runs
        on the driver (stages fused before it stay in Spark; a Column stage still applies
        to the DataFrame)."""
        return SparkFlowable(self._plan.driver_only(), self._prefetch)

    # -- take/limit and terminal aggregations pushed into Spark (docs/spark.md)

    def _limited(self, count: int) -> SparkFlowable[T] | None:
        plan = self._plan
        if count == 0 or not plan.fuse or plan.emit != "rows" or plan.driver_steps:
            return None  # take(0) completes at subscription, before any job
        return SparkFlowable(plan.with_limit(count), self._prefetch)

    def take(self, count: int) -> Flowable[T]:
        """The first ``count`` items. Directly on a Spark source (or after stages fused
        into Spark) the limit runs in Spark: each partition job stops after ``count``
        items, one partition is computed at a time until one comes short, and the source
        completes (cancelling its other jobs) after the ``count``-th item."""
        require_non_negative(count, "count")
        return self._limited(count) or super().take(count)

    def limit(self, count: int) -> Flowable[T]:
        """As :meth:`take` (the items, order and terminal event are the same)."""
        require_non_negative(count, "count")
        return self._limited(count) or super().limit(count)

    def count(self) -> Single[int]:
        """The number of items; counted by Spark when the whole chain runs there (only the
        per-partition counts reach the driver)."""
        from rxpy2.spark import aggregate

        if aggregate.aggregable(self):
            return aggregate.count(self)
        return super().count()

    @overload
    def reduce(self, reducer: Callable[[T, T], T], *,
               associative: bool = ...) -> Maybe[T]: ...

    @overload
    def reduce(self, reducer: Callable[[R, T], R], seed: R, *,
               associative: bool = ...) -> Single[R]: ...

    def reduce(self, reducer: Callable[[Any, T], Any], seed: Any = ABSENT, *,
               associative: bool = False) -> Maybe[Any] | Single[Any]:
        """Fold the items with ``reducer(acc, item)``, from left to right, as
        :meth:`Flowable.reduce`. When the whole chain runs in Spark the fold runs there:
        by default one job per partition, in order, carrying the accumulator (right for
        any function); ``associative=True`` (``reducer`` is associative, items and
        accumulator of one type) folds all partitions at once and their results on the
        driver."""
        from rxpy2.spark import aggregate

        if not callable(reducer) or not aggregate.aggregable(self) or (
                seed is not ABSENT and seed is None):
            if seed is ABSENT:
                return super().reduce(reducer)
            return super().reduce(reducer, seed)
        return aggregate.reduce(self, reducer, seed, bool(associative))

    def to_list(self, *, max_items: int | None = 1_000_000) -> Single[list[T]]:
        """All items in a list. ``max_items`` (default 1,000,000; ``None``: no guard): more
        items is ``on_error(ValueError)``, found without collecting them all (each
        partition sends at most ``max_items + 1``). Collected by one Spark job when the
        whole chain runs in Spark."""
        from rxpy2.spark import aggregate

        if max_items is not None:
            require_non_negative(max_items, "max_items")
        if aggregate.aggregable(self):
            return aggregate.to_list(self, max_items)
        if max_items is None:
            return super().to_list()
        cap = max_items

        def guard(items: list[T]) -> Single[list[T]]:
            return Single.error(aggregate.too_many(cap)) if len(items) > cap \
                else Single.just(items)

        return super().limit(cap + 1).to_list().flat_map(guard)

    def distinct(self, key: Callable[[T], Any] | None = None,
                 collection_factory: Callable[[], Any] | None = None, *,
                 keep_order: bool = True) -> Flowable[T]:
        """Items not seen before. ``keep_order=False`` (order does not matter) with no
        ``key``/``collection_factory``, when the whole chain runs in Spark: a Spark
        ``distinct`` (a shuffle), whose items come in Spark's order, under demand as from
        any Spark source."""
        from rxpy2.spark import aggregate

        if (keep_order or key is not None or collection_factory is not None
                or not aggregate.aggregable(self)):
            return super().distinct(key, collection_factory)
        return SparkFlowable(aggregate.distinct_plan(self), self._prefetch)

    # -- explain

    def explain(self) -> str:
        """Which stages of this source run in Spark and which on the driver: the source,
        then one line per stage (see ``docs/spark.md``, *Fusion*)."""
        plan = self._plan
        if plan.df is not None:
            what = f"DataFrame[{', '.join(f'{n}: {t}' for n, t in plan.source_df.dtypes)}]"
        else:
            what = f"RDD[{plan.rdd.id()}]"
        shape = {"rows": f"rows as {plan.row_format}" if plan.df is not None else "elements",
                 "partitions": "one list per partition",
                 "arrow": "one pyarrow.Table per partition"}[plan.emit]
        if plan.unwrap and plan.emit != "arrow":
            shape = shape.replace(f"rows as {plan.row_format}", "the Column's values")
        lines = [f"spark   source    {what} ({shape}; one job per partition, "
                 f"prefetch {self._prefetch} partition(s))"]
        for st in plan.labels:
            if st.where == "column":
                lines.append(f"spark   column    {st.text()}  [Spark SQL]")
            elif st.where == "spark":
                lines.append(f"spark   stage     {st.text()}  [executors]")
            else:
                lines.append(f"driver  stage     {st.text()}  [driver, per partition: "
                             f"{st.reason}]")
        off = plan.off_reason()
        if off is not None:
            lines.append(f"driver  ({off}: Python stages applied next run on the driver)")
        return "\n".join(lines)

    def refusal(self, fn: Callable[..., Any]) -> str | None:
        """Why a Python stage of ``fn`` applied to this source would run on the driver
        (``None``: it would run in Spark). Used by :func:`rxpy2.spark.explain`."""
        return self._plan.refusal(fn)

    def __repr__(self) -> str:
        return f"SparkFlowable({len(self._plan.labels)} stage(s))"


# The item type follows row_format and emit (Literal overloads); a str not known statically
# gives SparkFlowable[Any].
@overload
def from_dataframe(df: Any, prefetch_partitions: int = ..., row_format: Literal["row"] = ..., *,
                   emit: Literal["rows"] = ..., fuse: bool | Literal["require"] = ...) -> SparkFlowable[Row]: ...


@overload
def from_dataframe(df: Any, prefetch_partitions: int = ..., *, row_format: Literal["dict"],
                   emit: Literal["rows"] = ..., fuse: bool | Literal["require"] = ...) -> SparkFlowable[dict[str, Any]]: ...


@overload
def from_dataframe(df: Any, prefetch_partitions: int, row_format: Literal["dict"], *,
                   emit: Literal["rows"] = ..., fuse: bool | Literal["require"] = ...) -> SparkFlowable[dict[str, Any]]: ...


@overload
def from_dataframe(df: Any, prefetch_partitions: int = ..., *, row_format: Literal["tuple"],
                   emit: Literal["rows"] = ..., fuse: bool | Literal["require"] = ...) -> SparkFlowable[tuple[Any, ...]]: ...


@overload
def from_dataframe(df: Any, prefetch_partitions: int, row_format: Literal["tuple"], *,
                   emit: Literal["rows"] = ..., fuse: bool | Literal["require"] = ...) -> SparkFlowable[tuple[Any, ...]]: ...


@overload
def from_dataframe(df: Any, prefetch_partitions: int = ..., row_format: Literal["row"] = ..., *,
                   emit: Literal["partitions"], fuse: bool | Literal["require"] = ...) -> SparkFlowable[list[Row]]: ...


@overload
def from_dataframe(df: Any, prefetch_partitions: int = ..., row_format: str = ..., *,
                   emit: Literal["arrow"], fuse: bool | Literal["require"] = ...) -> SparkFlowable[pyarrow.Table]: ...


@overload
def from_dataframe(df: Any, prefetch_partitions: int = ..., row_format: str = ..., *,
                   emit: str = ..., fuse: bool | Literal["require"] = ...) -> SparkFlowable[Any]: ...


def from_dataframe(df: Any, prefetch_partitions: int = 1, row_format: str = "row", *,
                   emit: str = "rows", fuse: bool | Literal["require"] = True
                   ) -> SparkFlowable[Any]:
    """A Flowable of the rows of ``df``, one Spark job per partition, under demand.

    ``row_format``: ``"row"`` (pyspark ``Row``), ``"dict"`` or ``"tuple"``.
    ``emit``: ``"rows"`` (each row), ``"partitions"`` (one list of rows per non-empty
    partition) or ``"arrow"`` (one ``pyarrow.Table`` per non-empty partition, through
    Spark's Arrow path: the fast way to move wide data). ``fuse=False`` keeps every
    Python function on the driver; ``fuse="require"`` raises :class:`SparkFusionError`
    at assembly when a function that would run in Spark cannot be pickled.
    """
    if df is None:
        raise TypeError("df is None")
    _pyspark()
    if not hasattr(df, "_jdf"):
        raise TypeError(f"df must be a classic pyspark DataFrame, not {type(df).__name__}")
    require_non_negative(prefetch_partitions, "prefetch_partitions")
    _require_choice(row_format, "row_format", ROW_FORMATS)
    _require_choice(emit, "emit", EMITS)
    return SparkFlowable(_Plan(df, None, row_format, emit, _fuse_mode(fuse)), prefetch_partitions)


def _fuse_mode(fuse: Any) -> bool | str:
    if isinstance(fuse, str):
        if fuse != "require":
            raise ValueError(f"fuse must be True, False or 'require', not {fuse!r}")
        return fuse
    if not isinstance(fuse, int):  # bool is an int
        raise TypeError(f"fuse must be a bool or 'require', not {type(fuse).__name__}")
    return bool(fuse)


def from_rdd(rdd: Any, prefetch_partitions: int = 1, *, emit: str = "rows",
             fuse: bool | Literal["require"] = True) -> SparkFlowable[Any]:
    """A Flowable of the elements of ``rdd``, one Spark job per partition, under demand.

    ``emit``: ``"rows"`` (each element) or ``"partitions"`` (one list per non-empty
    partition). A ``None`` element is a ``TypeError`` downstream. ``fuse`` as for
    :func:`from_dataframe`."""
    if rdd is None:
        raise TypeError("rdd is None")
    _pyspark()
    if not hasattr(rdd, "_jrdd"):
        raise TypeError(f"rdd must be a pyspark RDD, not {type(rdd).__name__}")
    require_non_negative(prefetch_partitions, "prefetch_partitions")
    _require_choice(emit, "emit", EMITS[:2])
    return SparkFlowable(_Plan(None, rdd, "row", emit, _fuse_mode(fuse)), prefetch_partitions)


# ---------------------------------------------------------------------------- the subscription

_thread_ids = itertools.count(1)


def cancel_job_group(sc: Any, group: str) -> None:
    """Cancel the Spark jobs of ``group`` (running, and on Spark ≥ 4.0 also submitted
    later)."""
    try:
        jsc = sc._jsc.sc()
        try:  # Spark ≥ 4.0: jobs of the group submitted later are refused as well
            jsc.cancelJobGroupAndFutureJobs(group, "rxpy2: the subscription was cancelled")
        except Exception:
            jsc.cancelJobGroup(group)
    except Exception as e:  # a stopped SparkContext: nothing runs any more
        from rxpy2 import plugins

        if "stopped" not in str(e).lower():
            plugins.on_error(e)


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
        self.full_held = 1 + prefetch
        # under a take/limit: no prefetch until a partition came short of it
        self.limit = plan.limit
        self.max_held = 1 if plan.limit is not None else self.full_held
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
        cancel_job_group(self.plan.sc, self.job_group)

    def _launch(self, outstanding: int) -> None:
        """Start jobs while demand is unmet and fewer than ``1 + prefetch`` are held."""
        n = self.n
        if self.limit is not None:  # never ahead of the items the limit still lets through
            outstanding = min(outstanding, self.limit - self.emitted)
        while (outstanding > 0 and self.launched < n and not self.cancelled
               and self.launched - self.index < self.max_held):
            pool = self.pool
            if pool is None:
                pool = self.pool = ThreadPoolExecutor(
                    max_workers=self.full_held, thread_name_prefix=f"{self.thread_prefix}-job")
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
                        # a partition came short of the limit: prefetch resumes
                        self.max_held = self.full_held
                        self.emitted = e
                        self._launch(r - e)
                        continue
                    batch = nb
                    nb = None  # only `batch` may hold it, or two batches live at the next read
                    continue
                if e == r:
                    break
                end = min(len(batch), pos + (r - e))
                limit = self.limit
                if limit is not None:
                    end = min(end, pos + (limit - e))
                for i in range(pos, end):
                    if self.cancelled:
                        self._clear()
                        return
                    downstream.on_next(batch[i])
                e += end - pos
                pos = end
                if e == limit:  # the take/limit is complete: later partitions are not needed
                    self.emitted = e
                    self._complete()
                    return
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
        if self.active_jobs.get() > 0:  # a take/limit ended before the jobs launched did
            self._cancel_jobs()
        self._finish()
        self.downstream.on_complete()
