"""A Spark source's plan and its compilation into the JVM RDD the partition jobs compute.

The plan is immutable: every fused stage, Column stage, ``on_driver()`` or pushed-down
``take`` makes a new one (:meth:`Plan.replace`), and :func:`compile_plan` turns it into a
:class:`~rxpy2.spark.reader.Compiled` once, at first subscription. Why a stage fuses or
stays on the driver, and how ``explain()`` shows it: ``docs/spark.md``, *Fusion*.
"""

from __future__ import annotations

import functools
import importlib.util
import logging
import operator
import os
import re
import threading
from collections.abc import Callable
from typing import Any

from rxpy2.spark import executor_code
from rxpy2.spark.pyspark_adapter import analyzed_condition
from rxpy2.spark.pyspark_adapter import arrow_batch_jrdd
from rxpy2.spark.pyspark_adapter import binary_as_bytes
from rxpy2.spark.pyspark_adapter import java_rdd
from rxpy2.spark.pyspark_adapter import local_limit
from rxpy2.spark.pyspark_adapter import map_in_arrow_driver_modules
from rxpy2.spark.pyspark_adapter import python_rows_jrdd
from rxpy2.spark.pyspark_adapter import row_class
from rxpy2.spark.reader import Compiled
from rxpy2.spark.reader import arrow_schema
from rxpy2.spark.reader import converting
from rxpy2.spark.reader import row_converter

__all__ = ["ARROW_SWITCH", "Lineage", "Plan", "Stage",
           "arrow_input", "arrow_input_text", "arrow_type_problem", "column_text", "compile_plan", "executors_have_pyarrow",
           "filter_text", "function_label", "pickling_problem", "ship_executor_module"]


def pickling_problem(fn: Callable[..., Any]) -> str | None:
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


def ship_executor_module() -> None:
    """Pickle :mod:`rxpy2.spark.executor_code` by value: executors need PySpark (and
    pyarrow for the Arrow path), not rxpy2."""
    global _by_value_registered
    if not _by_value_registered:
        from pyspark import cloudpickle

        cloudpickle.register_pickle_by_value(executor_code)
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


def filter_text(filtered: Any, expr: Any) -> str:
    """The condition of ``filtered`` (a ``df.filter(expr)``) as Spark SQL reads it after
    analysis: ``(amount > CAST(100 AS BIGINT))``."""
    try:
        return analyzed_condition(filtered)
    except Exception:  # another plan shape: PySpark's own text of the Column
        return column_text(expr)


_log = logging.getLogger("rxpy2.spark")


class Stage:
    """One stage of a Spark source's plan, for ``explain()``: where it runs (``"spark"``: a
    Python stage on the executors, ``"column"``: a Column expression applied to the
    DataFrame, ``"driver"``: a ``map_partitions`` kept on the driver), its kind, its
    function's label (a Column's text) and, on the driver, why it did not fuse."""

    __slots__ = ("where", "kind", "label", "reason")

    def __init__(self, where: str, kind: str, label: str, reason: str | None = None) -> None:
        self.where: str = where
        self.kind: str = kind
        self.label: str = label
        self.reason: str | None = reason

    def text(self) -> str:
        """Return the stage as ``explain()`` names it: ``kind(label)``, e.g. ``map(parse)``."""
        return f"{self.kind}({self.label})"


class Lineage:
    """Shared by every plan derived from one ``from_dataframe``/``from_rdd`` call: the
    driver fallback is logged once per lineage."""

    __slots__ = ("warned", "lock")

    def __init__(self) -> None:
        self.warned: bool = False
        self.lock: threading.Lock = threading.Lock()

    def warn_once(self, stage: str, reason: str) -> None:
        """Log on the ``rxpy2.spark`` logger, at WARNING, that ``stage`` runs on the driver and
        why; only the first call of a lineage logs. Thread-safe."""
        with self.lock:
            if self.warned:
                return
            self.warned = True
        _log.warning("%s runs on the driver, not in Spark: %s (the stages after it run on the "
                     "driver too; fuse=\"require\" makes this an error at assembly)",
                     stage, reason)


# ---------------------------------------------------------------------------- Arrow input

#: The environment variable that switches the Arrow input of fused stages off: ``0``
#: (``false``, ``no``, ``off``) makes them read pickled rows, as before Arrow; read when a
#: source is compiled (its first subscription or aggregation).
ARROW_SWITCH = "RXPY2_SPARK_ARROW"
#: A take/limit of fewer items than this reads pickled rows: the Arrow path costs each task
#: a fixed ~0.3 s here (a Python worker importing pyarrow, ended early by the limit, and a
#: first record batch of 10,000 rows, ``spark.sql.execution.arrow.maxRecordsPerBatch``'s
#: default) that a few rows never win back (``map(f).take(5)``: 0.30 s pickled, 0.62 s Arrow)
ARROW_MIN_LIMIT = 10_000


def arrow_type_problem(dt: Any) -> str | None:
    """Why values of the Spark type ``dt`` cannot be read from Arrow batches into the values
    of pickled rows (its text, or a nested type's), ``None`` when they can: the types
    :func:`rxpy2.spark.executor_code.internal_values` converts."""
    from pyspark.sql import types as T

    if isinstance(dt, T.ArrayType):
        return arrow_type_problem(dt.elementType)
    if isinstance(dt, T.MapType):
        return arrow_type_problem(dt.keyType) or arrow_type_problem(dt.valueType)
    if isinstance(dt, T.StructType):
        for f in dt.fields:
            problem = arrow_type_problem(f.dataType)
            if problem is not None:
                return problem
        return None
    atomic = (T.NullType, T.BooleanType, T.ByteType, T.ShortType, T.IntegerType, T.LongType,
              T.FloatType, T.DoubleType, T.StringType, T.BinaryType, T.DecimalType, T.DateType,
              T.TimestampType, T.TimestampNTZType)
    if isinstance(dt, atomic) and not isinstance(dt, T.UserDefinedType):
        return None
    return str(dt.simpleString())


def _static_arrow_refusal(plan: Plan, limit: int | None) -> str | None:
    switch = os.environ.get(ARROW_SWITCH, "").strip().lower()
    if switch in ("0", "false", "no", "off"):
        return f"{ARROW_SWITCH}={os.environ[ARROW_SWITCH]}"
    if plan.df is None:
        return "an RDD source (its elements are not rows)"
    if limit is not None and limit < ARROW_MIN_LIMIT:
        return f"a take/limit of {limit:,} (< {ARROW_MIN_LIMIT:,} items: Arrow's start costs more)"
    for module in map_in_arrow_driver_modules():
        if importlib.util.find_spec(module) is None:
            if module == "pyarrow":
                return "pyarrow is not installed"
            return f"{module} is not installed (PySpark's mapInArrow needs it on the driver)"
    if not hasattr(plan.df, "mapInArrow"):  # pragma: no cover - PySpark < 3.3
        return "this PySpark has no DataFrame.mapInArrow"
    for f in plan.df.schema.fields:
        problem = arrow_type_problem(f.dataType)
        if problem is not None:
            whole = f.dataType.simpleString()
            if problem == whole:
                return f"column {f.name!r} has type {whole}, which has no Arrow conversion here"
            return (f"column {f.name!r} has type {whole}, whose {problem} has no Arrow "
                    "conversion here")
    return None


_probe_lock = threading.Lock()
_executors_pyarrow: dict[tuple[str, str], bool] = {}


def _probe_key(sc: Any) -> tuple[str, str]:
    return str(sc.applicationId), str(sc.pythonExec)


def executors_have_pyarrow(sc: Any) -> bool:
    """Whether the executors' Python can import pyarrow (``mapInArrow`` needs it there):
    asked once per application and executor Python with a one-task job, then remembered."""
    key = _probe_key(sc)
    with _probe_lock:
        known = _executors_pyarrow.get(key)
    if known is not None:
        return known
    ship_executor_module()
    try:
        found = bool(all(sc.parallelize([0], 1).map(executor_code.can_import_pyarrow).collect()))
    except Exception:  # the probe could not run: no Arrow this time, ask again next time
        return False
    with _probe_lock:
        _executors_pyarrow[key] = found
    return found


def arrow_input(plan: Plan, limit: int | None) -> str | None:
    """Why the fused stages of ``plan`` read pickled rows rather than Arrow batches
    (``None``: they read Arrow batches, in ``DataFrame.mapInArrow``); ``limit``: the
    take/limit pushed into Spark, if any."""
    why = _static_arrow_refusal(plan, limit)
    if why is None and not executors_have_pyarrow(plan.context()):
        return "the executors cannot import pyarrow"
    return why


def arrow_input_text(plan: Plan) -> str:
    """How the fused stages of ``plan`` read their rows, for ``explain()`` (no Spark job:
    the executors' pyarrow is shown as far as it has been asked)."""
    why = _static_arrow_refusal(plan, plan.limit)
    if why is None:
        with _probe_lock:
            known = _executors_pyarrow.get(_probe_key(plan.context()))
        if known is False:
            why = "the executors cannot import pyarrow"
        elif known is None:
            return ("fused stages read Arrow batches (mapInArrow) if the executors can import "
                    "pyarrow, asked at the first job")
    if why is None:
        return "fused stages read Arrow batches (mapInArrow)"
    return f"fused stages read pickled rows: {why}"


# ---------------------------------------------------------------------------- the plan

class Plan:
    """What a SparkFlowable computes: a DataFrame (after its Column stages) or RDD, the
    Python stages fused into Spark, and ``map_partitions`` stages kept on the driver.

    Immutable: each operator makes a new plan with :meth:`replace`."""

    __slots__ = ("df", "rdd", "row_format", "emit", "spark_steps", "driver_steps", "fuse",
                 "labels", "off", "lineage", "source_df", "unwrap", "limit")

    def __init__(self, df: Any, rdd: Any, row_format: str, emit: str,
                 fuse: bool | str) -> None:
        self.df: Any = df
        self.rdd: Any = rdd
        self.row_format: str = row_format
        self.emit: str = emit
        self.fuse: bool | str = fuse  # True, False or "require"
        self.spark_steps: tuple[executor_code.Step, ...] = ()
        self.driver_steps: tuple[executor_code.Step, ...] = ()
        self.labels: tuple[Stage, ...] = ()  # every stage, in order, for explain()
        # why Python stages applied next stay on the driver: None (they fuse), "fuse=False"
        # or "on_driver()"
        self.off: str | None = None if fuse else "fuse=False"
        self.lineage: Lineage = Lineage()
        self.source_df: Any = df  # the DataFrame given, before Column stages (for explain())
        self.unwrap: bool = False  # a one-Column map: each item is the row's only value
        self.limit: int | None = None  # take/limit pushed into Spark: at most this many items

    def replace(self, **changes: Any) -> Plan:
        """Return a new plan with the fields named in ``changes`` replaced and the others shared;
        an unknown field raises ``AttributeError``."""
        new = object.__new__(Plan)
        for name in Plan.__slots__:
            setattr(new, name, changes.pop(name) if name in changes else getattr(self, name))
        if changes:  # pragma: no cover - a typo in this module
            raise AttributeError(f"Plan has no field {next(iter(changes))!r}")
        return new

    def off_reason(self) -> str | None:
        """Return why Python stages applied next stay on the driver (``fuse=False`` or after
        ``on_driver()``), or ``None`` when fusion is on."""
        if self.off == "fuse=False":
            return "fusion off (fuse=False)"
        if self.off is not None:
            return f"after {self.off}"
        return None

    def refusal(self, fn: Callable[..., Any], kind: str = "map") -> str | None:
        """Why a Python stage ``kind`` of ``fn`` applied to this plan cannot run in Spark
        (``None``: it fuses). Every reason a Python stage has to run on the driver comes
        from here (``explain()`` shows it; the warning logs the ``not picklable`` one)."""
        off = self.off_reason()
        if off is not None:
            return off
        if self.limit is not None:
            return f"after take/limit ({self.limit})"
        if self.emit == "arrow":
            return 'not fusable with emit="arrow" (the items are whole tables)'
        if self.emit == "partitions" and kind != "map_partitions":
            # map_partitions works on a partition's rows wherever it runs; an item is a list
            return 'not fusable with emit="partitions" (the items are whole partitions)'
        if self.driver_steps:
            first = next(s for s in self.labels if s.where == "driver")
            return f"after a driver operator ({first.text()})"
        problem = pickling_problem(fn)
        if problem is not None:
            return f"not picklable: {problem}"
        return None

    def with_step(self, kind: str, fn: Callable[..., Any], on_spark: bool,
                  reason: str | None = None) -> Plan:
        """Return the plan with a Python stage added: fused into the Spark job when ``on_spark``,
        else on the driver, ``reason`` telling ``explain()`` why."""
        label = function_label(fn)
        if on_spark:
            return self.replace(spark_steps=self.spark_steps + ((kind, fn),),
                                labels=self.labels + (Stage("spark", kind, label),))
        return self.replace(driver_steps=self.driver_steps + ((kind, fn),),
                            labels=self.labels + (Stage("driver", kind, label, reason),))

    def with_column(self, kind: str, df: Any, label: str, unwrap: bool) -> Plan:
        """Return the plan over ``df``, the DataFrame with a Column stage applied (``unwrap``:
        items are each row's only value)."""
        return self.replace(df=df, unwrap=unwrap,
                            labels=self.labels + (Stage("column", kind, label),))

    def driver_only(self) -> Plan:
        """Return the plan with fusion off from here on, as ``on_driver()`` asks: later Python
        stages run on the driver."""
        return self.replace(fuse=False, off="on_driver()")

    def with_limit(self, n: int) -> Plan:
        """At most ``n`` items: a ``take``/``limit`` pushed into Spark."""
        return self.replace(limit=n if self.limit is None else min(n, self.limit),
                            labels=self.labels + (Stage("spark", "limit", str(n)),))

    def for_spark(self) -> Plan:
        """The plan to compile: a limit becomes Spark's own. With no Python stage it is a
        Catalyst ``LocalLimit`` on the DataFrame (each partition's plan stops after ``n``
        rows, pushed into the scan where Spark can); otherwise the last executor stage
        takes the first ``n`` items, so the stages before it stop reading there."""
        n = self.limit
        if n is None:
            return self
        if self.df is not None and not self.spark_steps:
            limited = local_limit(self.df, n)
            if limited is not None:
                return self.replace(df=limited, limit=None)
        return self.replace(spark_steps=self.spark_steps + (("limit", executor_code.first(n)),),
                            limit=None)

    def executor_stages(self) -> tuple[str, tuple[executor_code.Step, ...]]:
        """The row format and the stages the executors run for the fused stages: a
        one-Column map reads each row's only value first."""
        if self.unwrap:  # a one-Column map: the row's only value (stdlib, by reference)
            return "row", (("map", operator.itemgetter(0)), *self.spark_steps)
        return self.row_format, self.spark_steps

    def arrow_reader(self, row_format: str) -> Callable[[Any], Any]:
        """What turns the DataFrame's record batches into items of ``row_format`` on the
        executors (:func:`rxpy2.spark.executor_code.arrow_reader`)."""
        df = self.df
        return executor_code.arrow_reader(row_format, tuple(df.columns), df.schema,
                                          binary_as_bytes(df.sparkSession), row_class())

    def context(self) -> Any:
        """Return the SparkContext of the DataFrame's session, or of the RDD."""
        return self.df.sparkSession.sparkContext if self.df is not None else self.rdd.context

    def compile(self, limit: int | None = None) -> Compiled:
        """Build the JVM side once: the RDD whose partitions the jobs compute (``limit``:
        the take/limit :meth:`for_spark` made a stage of, if any)."""
        from pyspark.serializers import BatchedSerializer
        from pyspark.serializers import CPickleSerializer

        sc = self.context()
        names: tuple[str, ...] | None = None
        schema = None
        convert: Callable[[list[Any]], list[Any]] | None = None
        driver_steps = self.driver_steps
        arrow = False  # fused stages read Arrow batches: the items come as pickled payloads
        if self.df is not None:
            names = tuple(self.df.columns)
            if self.emit == "arrow":
                jrdd = arrow_batch_jrdd(self.df)
                schema = arrow_schema(self.df)
                serializer = None
            elif self.spark_steps:
                ship_executor_module()
                row_format, steps = self.executor_stages()
                if arrow_input(self, limit) is None:  # Arrow batches in, pickled payloads out
                    fn = executor_code.arrow_partition_function(self.arrow_reader(row_format),
                                                                steps)
                    jrdd = python_rows_jrdd(self.df.mapInArrow(fn, executor_code.PAYLOAD_SCHEMA))
                    serializer = BatchedSerializer(CPickleSerializer())
                    arrow = True  # the reader emits one payload's items at a time
                else:
                    fn = executor_code.partition_function(row_format, names, steps)
                    rdd = self.df.rdd.mapPartitions(fn, preservesPartitioning=True)
                    jrdd, serializer = java_rdd(rdd)
            else:
                jrdd = python_rows_jrdd(self.df)
                serializer = BatchedSerializer(CPickleSerializer())
                convert = row_converter(self.row_format, names, self.unwrap)
            if convert is not None and driver_steps:
                # the driver stages get the items in the source's format, as fused
                # stages do: convert first, then run them
                driver_steps = (("map_partitions", converting(convert)), *driver_steps)
                convert = None
        else:
            rdd = self.rdd
            if self.spark_steps:
                ship_executor_module()
                fn = executor_code.partition_function("row", None, self.spark_steps)
                rdd = rdd.mapPartitions(fn, preservesPartitioning=True)
            jrdd, serializer = java_rdd(rdd)
        return Compiled(sc, jrdd, jrdd.getNumPartitions(), serializer, convert,
                        self.df is None and not self.spark_steps, schema, self.emit,
                        driver_steps, arrow)


def compile_plan(plan: Plan) -> Compiled:
    """``plan`` compiled for its partition jobs, a pushed-down take/limit included."""
    compiled = plan.for_spark().compile(plan.limit)
    if plan.limit is not None:
        compiled.limit = plan.limit
        if plan.rdd is not None and not plan.spark_steps:
            compiled.check_none = True  # the RDD's own elements, as without the limit
    return compiled


