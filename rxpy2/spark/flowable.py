"""The Spark source: ``from_dataframe``/``from_rdd`` and the :class:`SparkFlowable` they give.

A SparkFlowable runs one Spark job per partition, in order, only when downstream demand
reaches that partition (:mod:`rxpy2.spark.subscription`). ``map``, ``filter``,
``flat_map_iterable``/``concat_map_iterable`` and ``map_partitions`` with a picklable
function fuse into its plan and run on the executors; a ``pyspark.sql.Column`` becomes part
of the DataFrame's query; ``take``/``limit`` and the terminal aggregations run in Spark when
the whole chain does. The rules and their reasons: ``docs/spark.md``.
"""

from __future__ import annotations

import threading
import uuid
from collections.abc import Callable
from collections.abc import Iterable
from collections.abc import Iterator
from typing import TYPE_CHECKING
from typing import Any
from typing import ClassVar
from typing import Generic
from typing import Literal
from typing import TypeAlias
from typing import TypeVar
from typing import overload

from rxpy2._internal.arguments import seed_first_form
from rxpy2.flowable import Flowable
from rxpy2.operator_kit import ABSENT
from rxpy2.operator_kit import BUFFER_SIZE
from rxpy2.operator_kit import EmptySubscription
from rxpy2.operator_kit import require_non_negative
from rxpy2.reactivestreams import Subscriber
from rxpy2.single import Single
from rxpy2.spark import aggregate
from rxpy2.spark import connect_aggregate
from rxpy2.spark.connect_reader import compile_connect
from rxpy2.spark.errors import SparkFusionError
from rxpy2.spark.errors import SparkJobError
from rxpy2.spark.plan import Plan
from rxpy2.spark.plan import arrow_input_text
from rxpy2.spark.plan import compile_plan
from rxpy2.spark.plan import filter_text
from rxpy2.spark.plan import function_label
from rxpy2.spark.pyspark_adapter import is_connect
from rxpy2.spark.pyspark_adapter import is_dataframe
from rxpy2.spark.pyspark_adapter import is_rdd
from rxpy2.spark.pyspark_adapter import require_pyspark
from rxpy2.spark.reader import Partitions
from rxpy2.spark.subscription import PartitionSubscription

if TYPE_CHECKING:
    from pyspark.sql import Column
    from pyspark.sql import DataFrame
    from pyspark.sql import Row

    from rxpy2.maybe import Maybe

__all__ = ["SparkFlowable", "from_dataframe", "from_rdd"]

T = TypeVar("T")
R = TypeVar("R")
U = TypeVar("U")

#: the items of ``emit="arrow"``: ``pyarrow.Table``. pyarrow ships no annotations (no
#: ``py.typed``), so mypy sees that name as ``Any`` and pyright as Unknown, which strict
#: pyright reports in every module importing ``from_dataframe``; this alias says ``Any``
#: to both (install pyarrow-stubs and it could name the class again)
_ArrowTable: TypeAlias = Any

ROW_FORMATS = ("row", "dict", "tuple")
EMITS = ("rows", "partitions", "arrow")


def _require_choice(value: Any, name: str, choices: tuple[str, ...]) -> None:
    if value not in choices:
        raise ValueError(f"{name} must be one of {', '.join(map(repr, choices))}, not {value!r}")


# ---------------------------------------------------------------------------- the Flowable

class SparkFlowable(Flowable[T], Generic[T]):
    """A Flowable over the partitions of a DataFrame or RDD (see the module docstring)."""

    __slots__ = ("_plan", "_prefetch", "_compiled", "_lock", "_group_prefix", "_subscriptions")

    #: the explain() of a chain over this source shows this source's own (the Spark side)
    EXPLAINS_ITSELF: ClassVar[bool] = True

    def __init__(self, plan: Plan, prefetch_partitions: int) -> None:
        self._plan = plan
        self._prefetch = prefetch_partitions
        self._compiled: Partitions | None = None
        self._lock = threading.Lock()
        self._group_prefix = f"rxpy2-spark-{uuid.uuid4().hex[:12]}"
        self._subscriptions = 0

    # -- subscribing

    def subscribe_actual(self, subscriber: Subscriber[T]) -> None:
        try:
            compiled = self._compile()
        except Exception as e:
            err = SparkJobError.caused_by("preparing the Spark source failed", e)
            EmptySubscription.error(err, subscriber)
            return
        group = self._new_group()
        parent: PartitionSubscription[T] = PartitionSubscription(
            subscriber, compiled, self._prefetch, group)
        subscriber.on_subscribe(parent)
        parent.drain()  # an RDD of no partitions completes at once

    def _compile(self) -> Partitions:
        compiled = self._compiled
        if compiled is None:
            with self._lock:
                compiled = self._compiled
                if compiled is None:
                    plan = self._plan
                    compiled = self._compiled = (compile_connect(plan) if self.on_connect
                                                 else compile_plan(plan))
        return compiled

    @property
    def on_connect(self) -> bool:
        """Whether the source is a DataFrame of a Spark Connect session (one query per
        partition, fused stages as ``mapInArrow``: ``docs/spark.md``, *Spark Connect*)."""
        return self._plan.df is not None and is_connect(self._plan.df)

    def _new_group(self) -> str:
        """The job group of a new subscription (of this source or of an aggregation of it)."""
        with self._lock:
            self._subscriptions += 1
            return f"{self._group_prefix}-{self._subscriptions}"

    def job_group(self, subscription_number: int) -> str:
        """The Spark job group of this Flowable's ``subscription_number``-th subscription
        (from 1): its jobs are ``sc.statusTracker().getJobIdsForGroup(...)`` of it. On
        Spark Connect it is the tag of the subscription's queries (``addTag``)."""
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

    @property
    def plan(self) -> Plan:
        """What this source computes, stage by stage (read by :func:`rxpy2.spark.explain`)."""
        return self._plan

    def _origin(self) -> aggregate.Origin:
        """What an aggregation of this source needs of it."""
        return aggregate.Origin(self._plan, self._compile, self._new_group)

    # -- fusion

    def _fused(self, kind: str, fn: Callable[..., Any]) -> SparkFlowable[Any] | None:
        """This source with one more Python stage run in Spark, or ``None`` when the stage
        runs on the driver (the first fallback of a lineage is logged; under
        ``fuse="require"`` an unpicklable function raises :class:`SparkFusionError`)."""
        plan = self._plan
        reason = plan.refusal(fn, kind)
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
            return SparkFlowable(plan.with_column("filter", df, filter_text(df, expr),
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

    @overload
    def flat_map_iterable(self, mapper: Callable[[T], Iterable[R]],
                          prefetch: int = BUFFER_SIZE) -> Flowable[R]: ...

    @overload
    def flat_map_iterable(self, mapper: Callable[[T], Iterable[U]],
                          combiner: Callable[[T, U], R],
                          prefetch: int = BUFFER_SIZE) -> Flowable[R]: ...

    def flat_map_iterable(self, mapper: Callable[[T], Iterable[Any]], *args: Any,
                          combiner: Any = None, prefetch: int = BUFFER_SIZE) -> Flowable[Any]:
        """Fused into Spark when ``mapper`` pickles and there is no ``combiner`` (the
        combiner form is a ``flat_map`` of the iterables, run on the driver)."""
        if combiner is not None or len(args) > 1 or (args and callable(args[0])) \
                or not callable(mapper):
            base: Any = super().flat_map_iterable  # (the implementation takes every form)
            result: Flowable[Any] = base(mapper, *args, combiner=combiner, prefetch=prefetch)
            return result
        if args:
            prefetch = args[0]  # flat_map_iterable(mapper, prefetch)
        return self._fused("flat_map_iterable", mapper) or super().flat_map_iterable(
            mapper, prefetch=prefetch)

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
        reason = self._plan.refusal(fn, "map_partitions")
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
        if aggregate.aggregable(self._plan):
            if self.on_connect:
                return connect_aggregate.count(self._origin())
            return aggregate.count(self._origin())
        return super().count()

    @overload
    def reduce(self, reducer: Callable[[T, T], T], *,
               associative: bool = ...) -> Maybe[T]: ...

    @overload
    def reduce(self, reducer: Callable[[R, T], R], seed: R, *,
               associative: bool = ...) -> Single[R]: ...

    @overload
    def reduce(self, seed: R, reducer: Callable[[R, T], R], /, *,
               associative: bool = ...) -> Single[R]: ...

    def reduce(self, reducer: Any, seed: Any = ABSENT, *,
               associative: bool = False) -> Maybe[Any] | Single[Any]:
        """Fold the items with ``reducer(acc, item)``, from left to right, as
        :meth:`Flowable.reduce`. When the whole chain runs in Spark the fold runs there:
        by default one job per partition, in order, carrying the accumulator (right for
        any function); ``associative=True`` (``reducer`` is associative, items and
        accumulator of one type) folds all partitions at once and their results on the
        driver. RxJava's order, ``reduce(seed, reducer)``, as in :meth:`Flowable.reduce`."""
        reducer, seed = seed_first_form(reducer, seed)
        if not callable(reducer) or not aggregate.aggregable(self._plan) or (
                seed is not ABSENT and seed is None):
            if seed is ABSENT:
                return super().reduce(reducer)
            return super().reduce(reducer, seed)
        if self.on_connect:
            return connect_aggregate.reduce(self._origin(), reducer, seed, bool(associative))
        return aggregate.reduce(self._origin(), reducer, seed, bool(associative))

    def to_list(self, *, max_items: int | None = 1_000_000) -> Single[list[T]]:
        """All items in a list. ``max_items`` (default 1,000,000; ``None``: no guard): more
        items is ``on_error(ValueError)``, found without collecting them all (each
        partition sends at most ``max_items + 1``). Collected by one Spark job when the
        whole chain runs in Spark."""
        if max_items is not None:
            require_non_negative(max_items, "max_items")
        if aggregate.aggregable(self._plan):
            if self.on_connect:
                return connect_aggregate.to_list(self._origin(), max_items)
            return aggregate.to_list(self._origin(), max_items)
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
        if (keep_order or key is not None or collection_factory is not None
                or not aggregate.aggregable(self._plan)
                or (self.on_connect and self._plan.spark_steps)):
            # Spark Connect has no RDD.distinct of Python items: the driver's distinct
            return super().distinct(key, collection_factory)
        return SparkFlowable(aggregate.distinct_plan(self._origin()), self._prefetch)

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
        if self.on_connect:
            jobs = ("Spark Connect: one query per partition holding rows, fused stages as "
                    "mapInArrow")
        else:
            jobs = "one job per partition"
        how = ""
        if plan.df is not None and plan.spark_steps and not self.on_connect:
            how = f"; {arrow_input_text(plan)}"
        lines = [f"spark   source    {what} ({shape}; {jobs}, "
                 f"prefetch {self._prefetch} partition(s){how})"]
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

    def explain_chain(self, end: Any) -> str:
        """The ``explain()`` of a chain ``end`` over this source (``Flowable.explain()``
        asks): :func:`rxpy2.spark.explain`, each stage with where it runs and, on the
        driver, why."""
        from rxpy2.spark.explain import explain

        return explain(end)

    def refusal(self, fn: Callable[..., Any], kind: str = "map") -> str | None:
        """Why a Python stage ``kind`` of ``fn`` applied to this source would run on the
        driver (``None``: it would run in Spark). Used by :func:`rxpy2.spark.explain`."""
        return self._plan.refusal(fn, kind)

    def __repr__(self) -> str:
        return f"SparkFlowable({len(self._plan.labels)} stage(s))"


# The item type follows row_format and emit (Literal overloads); a str not known statically
# gives SparkFlowable[Any].
@overload
def from_dataframe(df: DataFrame, prefetch_partitions: int = ..., row_format: Literal["row"] = ..., *,
                   emit: Literal["rows"] = ..., fuse: bool | Literal["require"] = ...) -> SparkFlowable[Row]: ...


@overload
def from_dataframe(df: DataFrame, prefetch_partitions: int = ..., *, row_format: Literal["dict"],
                   emit: Literal["rows"] = ..., fuse: bool | Literal["require"] = ...) -> SparkFlowable[dict[str, Any]]: ...


@overload
def from_dataframe(df: DataFrame, prefetch_partitions: int, row_format: Literal["dict"], *,
                   emit: Literal["rows"] = ..., fuse: bool | Literal["require"] = ...) -> SparkFlowable[dict[str, Any]]: ...


@overload
def from_dataframe(df: DataFrame, prefetch_partitions: int = ..., *, row_format: Literal["tuple"],
                   emit: Literal["rows"] = ..., fuse: bool | Literal["require"] = ...) -> SparkFlowable[tuple[Any, ...]]: ...


@overload
def from_dataframe(df: DataFrame, prefetch_partitions: int, row_format: Literal["tuple"], *,
                   emit: Literal["rows"] = ..., fuse: bool | Literal["require"] = ...) -> SparkFlowable[tuple[Any, ...]]: ...


@overload
def from_dataframe(df: DataFrame, prefetch_partitions: int = ..., row_format: Literal["row"] = ..., *,
                   emit: Literal["partitions"], fuse: bool | Literal["require"] = ...) -> SparkFlowable[list[Row]]: ...


@overload
def from_dataframe(df: DataFrame, prefetch_partitions: int = ..., row_format: str = ..., *,
                   emit: Literal["arrow"], fuse: bool | Literal["require"] = ...
                   ) -> SparkFlowable[_ArrowTable]: ...


@overload
def from_dataframe(df: DataFrame, prefetch_partitions: int = ..., row_format: str = ..., *,
                   emit: str = ..., fuse: bool | Literal["require"] = ...) -> SparkFlowable[Any]: ...


def from_dataframe(df: DataFrame, prefetch_partitions: int = 1, row_format: str = "row", *,
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
    require_pyspark()
    if not is_dataframe(df) and not (is_connect(df) and hasattr(df, "sparkSession")):
        raise TypeError(f"df must be a pyspark DataFrame (classic or Spark Connect), not "
                        f"{type(df).__name__}")
    require_non_negative(prefetch_partitions, "prefetch_partitions")
    _require_choice(row_format, "row_format", ROW_FORMATS)
    _require_choice(emit, "emit", EMITS)
    return SparkFlowable(Plan(df, None, row_format, emit, _fuse_mode(fuse)), prefetch_partitions)


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
    require_pyspark()
    if is_connect(rdd):
        raise TypeError(f"from_rdd cannot take a Spark Connect {type(rdd).__name__}: Spark "
                        "Connect has no RDDs (DataFrame.rdd is not implemented there); use "
                        "from_dataframe, whose fused stages run as mapInArrow")
    if not is_rdd(rdd):
        raise TypeError(f"rdd must be a pyspark RDD, not {type(rdd).__name__}")
    require_non_negative(prefetch_partitions, "prefetch_partitions")
    _require_choice(emit, "emit", EMITS[:2])
    return SparkFlowable(Plan(None, rdd, "row", emit, _fuse_mode(fuse)), prefetch_partitions)
