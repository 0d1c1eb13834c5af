"""Terminal aggregations of a Spark source computed by Spark: ``count``, ``reduce``,
``to_list`` and an unordered ``distinct``.

They apply when the whole chain before them runs in Spark (:func:`aggregable`); otherwise
:class:`~rxpy2.spark.SparkFlowable` falls back to the ordinary operator, with the same
results. Only the result crosses to the driver. Each subscription runs its jobs on a thread
of its own, in a job group of the source's, which ``dispose()`` cancels; the rules in full:
``docs/spark.md``, *Terminal aggregations in Spark*.
"""

from __future__ import annotations

import functools
import itertools
import operator
import threading
from collections.abc import Callable
from typing import Any
from typing import Generic
from typing import TypeVar

from rxpy2.disposables import Disposable
from rxpy2.maybe import Maybe
from rxpy2.observers import MaybeObserver
from rxpy2.observers import SingleObserver
from rxpy2.operator_kit import ABSENT
from rxpy2.single import Single
from rxpy2.spark import executor_code
from rxpy2.spark.errors import SparkJobError
from rxpy2.spark.plan import Plan
from rxpy2.spark.plan import Stage
from rxpy2.spark.plan import ship_executor_module
from rxpy2.spark.pyspark_adapter import collect_and_serve
from rxpy2.spark.pyspark_adapter import connect
from rxpy2.spark.pyspark_adapter import java_rdd
from rxpy2.spark.pyspark_adapter import wrap_rdd
from rxpy2.spark.reader import Compiled
from rxpy2.spark.reader import Partitions

__all__ = ["DEFAULT_MAX_ITEMS", "EMPTY", "Origin", "Run", "SparkAggregateMaybe",
           "SparkAggregateSingle", "combine", "spark_action", "too_many"]

T = TypeVar("T")

#: ``to_list()``'s default size guard: more items than this is ``on_error(ValueError)``
DEFAULT_MAX_ITEMS = 1_000_000

_thread_ids = itertools.count(1)
#: a computation's result for an empty Maybe
EMPTY: Any = object()


class Origin:
    """What an aggregation needs of its Spark source: the plan, its compilation (made once,
    by the source) and a new job group of the source's per subscription."""

    __slots__ = ("plan", "compile", "new_group")

    def __init__(self, plan: Plan, compile: Callable[[], Any],
                 new_group: Callable[[], str]) -> None:
        self.plan: Plan = plan
        # a Compiled, or a connect_reader.ConnectCompiled on a Spark Connect session
        self.compile: Callable[[], Any] = compile
        self.new_group: Callable[[], str] = new_group


def aggregable(plan: Plan) -> bool:
    """Whether the whole chain of ``plan`` runs in Spark (the source and its fused stages;
    no driver stage, fusion on, ``emit="rows"``, no ``take``/``limit``), so that a terminal
    aggregation can run there too."""
    return (bool(plan.fuse) and plan.emit == "rows" and not plan.driver_steps
            and plan.limit is None)


# ---------------------------------------------------------------------------- the run

class Run(Disposable):
    """One subscription of an aggregation: its job group, and ``dispose()`` to cancel it."""

    __slots__ = ("jobs", "group", "disposed")

    def __init__(self, jobs: Partitions, group: str) -> None:
        self.jobs: Partitions = jobs
        self.group: str = group
        self.disposed: bool = False

    def dispose(self) -> None:
        if not self.disposed:
            self.disposed = True
            self.jobs.cancel_group(self.group)

    def is_disposed(self) -> bool:
        return self.disposed


#: ``compute(source, compiled, run)``: the result; ``compiled`` is what ``source.compile()``
#: gives (classic or Spark Connect), run on the aggregation's thread inside ``run.group``
Compute = Callable[[Origin, Any, Run], Any]


def _start(source: Origin, what: str, compute: Compute,
           observer: SingleObserver[Any] | MaybeObserver[Any]) -> None:
    try:
        compiled = source.compile()
    except Exception as e:
        err = SparkJobError.caused_by("preparing the Spark source failed", e)
        from rxpy2.disposables import Disposables

        observer.on_subscribe(Disposables.empty())
        observer.on_error(err)
        return
    run = Run(compiled, source.new_group())
    observer.on_subscribe(run)
    if run.disposed:
        return

    def work() -> None:
        try:
            compiled.enter_group(run.group, f"rxpy2: {what}")
            result = compute(source, compiled, run)
        except Exception as e:
            if not run.disposed:  # after dispose() the error is the cancellation itself
                run.disposed = True
                observer.on_error(e)
            return
        if run.disposed:
            return
        run.disposed = True
        if result is EMPTY:
            observer.on_complete()  # type: ignore[union-attr]  # only a Maybe's computation gives EMPTY
        else:
            observer.on_success(result)

    threading.Thread(target=work, name=f"rxpy2-spark-agg-{next(_thread_ids)}",
                     daemon=True).start()


class SparkAggregateSingle(Single[T], Generic[T]):
    """A Single computed by Spark jobs at each subscription (see the module docstring)."""

    __slots__ = ("_spark_source", "_what", "_compute")

    def __init__(self, source: Origin, what: str, compute: Compute) -> None:
        self._spark_source = source
        self._what = what
        self._compute = compute

    def subscribe_actual(self, observer: SingleObserver[T]) -> None:
        _start(self._spark_source, self._what, self._compute, observer)


class SparkAggregateMaybe(Maybe[T], Generic[T]):
    """A Maybe computed by Spark jobs at each subscription (see the module docstring)."""

    __slots__ = ("_spark_source", "_what", "_compute")

    def __init__(self, source: Origin, what: str, compute: Compute) -> None:
        self._spark_source = source
        self._what = what
        self._compute = compute

    def subscribe_actual(self, observer: MaybeObserver[T]) -> None:
        _start(self._spark_source, self._what, self._compute, observer)


# ---------------------------------------------------------------------------- Spark side

def spark_action(run: Run, what: str, call: Callable[[], T]) -> T:
    """``call()``, a Spark action; its failure as ``SparkJobError`` (PySpark's error as the
    cause)."""
    try:
        return call()
    except Exception as e:
        raise SparkJobError.caused_by(f"Spark job for {what} failed", e,
                                      job_group=run.group) from e


def items_rdd(source: Origin) -> Any:
    """A PySpark RDD of exactly the items ``source`` emits (rows converted to the row
    format, fused stages applied), computed on the executors. Every function it sends
    there comes from :mod:`~rxpy2.spark.executor_code` (pickled by value), as do the
    aggregations' own, so the executors need not have rxpy2."""
    ship_executor_module()
    plan = source.plan
    compiled = source.compile()
    rdd: Any = wrap_rdd(compiled.jrdd, compiled.sc, compiled.serializer)
    if compiled.arrow_input:  # rows of pickled payloads: their items, on the executors
        return rdd.mapPartitions(executor_code.payload_items, preservesPartitioning=True)
    if compiled.convert is not None:  # rows to convert: convert them on the executors
        names = tuple(plan.df.columns)
        steps: tuple[executor_code.Step, ...] = ()
        row_format = plan.row_format
        if plan.unwrap:  # a one-Column map: the row's only value
            steps, row_format = (("map", operator.itemgetter(0)),), "row"
        fn = executor_code.partition_function(row_format, names, steps)
        rdd = plan.df.rdd.mapPartitions(fn, preservesPartitioning=True)
    if compiled.check_none:
        rdd = rdd.mapPartitions(executor_code.rdd_elements, preservesPartitioning=True)
    return rdd


def count(spark_source: Origin) -> Single[int]:
    def compute(source: Origin, compiled: Compiled, run: Run) -> int:
        plan = source.plan
        if plan.df is not None and not plan.spark_steps:
            df = plan.df
            return spark_action(run, "count", lambda: int(df.count()))  # no Python worker at all
        if compiled.arrow_input:  # the stages on Arrow batches; one count per partition back
            row_format, steps = plan.executor_stages()
            fn = executor_code.arrow_count_function(plan.arrow_reader(row_format), steps)
            source_df: Any = plan.df
            counted = source_df.mapInArrow(fn, executor_code.COUNT_SCHEMA)
            return spark_action(run, "count", lambda: sum(int(r[0]) for r in counted.collect()))
        rdd = items_rdd(source).mapPartitions(executor_code.count_items())
        return spark_action(run, "count", lambda: int(sum(rdd.collect())))

    return SparkAggregateSingle(spark_source, "count", compute)


def _fold_in_order(source: Origin, compiled: Compiled, run: Run, reducer: Callable[[Any, Any], Any],
                   has: bool, acc: Any) -> tuple[bool, Any]:
    rdd = items_rdd(source)
    sc = compiled.sc
    for index in range(compiled.num_partitions):
        if run.disposed:
            raise SparkJobError("cancelled", job_group=run.group)  # not delivered
        job = functools.partial(sc.runJob, rdd, executor_code.fold(reducer, has, acc), [index])
        ((has, acc),) = spark_action(run, f"reduce (partition {index})", job)
    return has, acc


def _fold_associative(source: Origin, compiled: Compiled, run: Run, reducer: Callable[[Any, Any], Any],
                      has: bool, acc: Any) -> tuple[bool, Any]:
    rdd = items_rdd(source).mapPartitions(executor_code.fold(reducer, False, None))
    return combine(spark_action(run, "reduce", rdd.collect), reducer, has, acc)


def combine(partials: Any, reducer: Callable[[Any, Any], Any], has: bool,
            acc: Any) -> tuple[bool, Any]:
    """The ``(has, acc)`` partial folds of the partitions (in partition order) folded on
    the driver into ``(has, acc)``."""
    for h, a in partials:
        if not h:
            continue
        if has:
            acc = reducer(acc, a)
            if acc is None:
                raise TypeError("reduce: the reducer returned None (None is never an item)")
        else:
            has, acc = True, a
    return has, acc


def reduce(spark_source: Origin, reducer: Callable[[Any, Any], Any], seed: Any,
           associative: bool) -> Single[Any] | Maybe[Any]:
    fold = _fold_associative if associative else _fold_in_order

    if seed is ABSENT:
        def compute_maybe(source: Origin, compiled: Compiled, run: Run) -> Any:
            has, acc = fold(source, compiled, run, reducer, False, None)
            return acc if has else EMPTY

        return SparkAggregateMaybe(spark_source, "reduce", compute_maybe)

    def compute(source: Origin, compiled: Compiled, run: Run) -> Any:
        return fold(source, compiled, run, reducer, True, seed)[1]

    return SparkAggregateSingle(spark_source, "reduce", compute)


def too_many(max_items: int) -> ValueError:
    """The error of a ``to_list`` that found more than ``max_items`` items."""
    return ValueError(f"to_list: more than max_items={max_items} items; raise max_items "
                      "(None: no limit) or consume the items as a stream")


def to_list(spark_source: Origin, max_items: int | None) -> Single[list[Any]]:
    def compute(source: Origin, compiled: Compiled, run: Run) -> list[Any]:
        rdd = items_rdd(source)
        if max_items is None:
            return spark_action(run, "to_list", rdd.collect)
        # each partition sends at most max_items + 1 items; the driver stops reading once
        # it has more than max_items
        capped = rdd.mapPartitions(executor_code.capped(max_items))
        return _read_capped(compiled, run, capped, max_items)

    return SparkAggregateSingle(spark_source, "to_list", compute)


def _read_capped(compiled: Compiled, run: Run, rdd: Any, max_items: int) -> list[Any]:
    sock_info = spark_action(run, "to_list", lambda: collect_and_serve(compiled.sc, rdd))
    sockfile, sock = spark_action(run, "to_list", lambda: connect(sock_info))
    try:
        out: list[Any] = []
        items = java_rdd(rdd)[1].load_stream(sockfile)
        while True:
            try:
                x = next(items)
            except StopIteration:
                return out
            except (OSError, EOFError) as e:  # the socket, not the items
                raise SparkJobError.caused_by("reading the result of to_list failed", e,
                                              job_group=run.group) from e
            out.append(x)
            if len(out) > max_items:
                raise too_many(max_items)
    finally:
        try:
            sockfile.close()
        finally:
            sock.close()


def distinct_plan(source: Origin) -> Plan:
    """The plan of a Spark ``distinct`` of ``source``'s items: ``DataFrame.distinct()``
    when no Python stage is fused (rows compared in the JVM), else ``RDD.distinct()`` of
    the items."""
    plan = source.plan
    stage = Stage("spark", "distinct", "unordered")
    if plan.df is not None and not plan.spark_steps:
        return plan.replace(df=plan.df.distinct(), labels=plan.labels + (stage,))
    rdd = items_rdd(source).distinct()
    new = Plan(None, rdd, "row", "rows", plan.fuse)
    return new.replace(labels=plan.labels + (stage,), lineage=plan.lineage)
