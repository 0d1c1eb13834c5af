"""Spark benchmarks of the chain pushed into Spark: ``take``, Column filters, ``count()``.

Parts of ``python -m benchmarks --spark`` (see :mod:`benchmarks.spark`, which runs them in
its session, interleaves the runs the same way and renders their tables and targets):

* ``take``: ``from_dataframe(df).take(5)`` (and after a fused map) over the ``--rows`` data,
  not cached, so a job that reads a whole partition instead of its first rows shows in the
  time. Per run: the wall time (the session warm: one untimed run of each method first), and
  the Spark jobs and tasks of the run (``sc.statusTracker()`` of its job group, read after
  the run, once the listener bus has caught up). Next to ``df.take(5)`` and
  ``df.limit(5).toLocalIterator()``, whose jobs are counted under a job group set for them.
* ``column``: the ``--rows`` data written once to parquet in a temporary directory; a filter
  keeping 10% of it as a ``pyspark.sql.Column`` against the same filter as a Python lambda
  fused into Spark, both consumed fully through ``from_dataframe`` (count and sum of ``id``
  checked). Two predicates: ``amount > x`` (``amount`` grows with ``id``, so parquet's
  min/max statistics let the scan skip whole files) and ``price > x`` (10% of every file:
  nothing to skip, the gain is only that 90% of the rows never reach Python).
* ``count``: ``from_dataframe(df).map(f).filter(g).count()`` with the whole chain fused, the
  count run in Spark, against the same fused chain streamed to the driver and counted there,
  and against the rxpy2 count on the driver (``on_driver()``); the same rows kept by a Column
  filter (no Python stage: ``DataFrame.count()``), counted and streamed; the driver's peak RSS of the
  Spark count in fresh processes at the two ``--memory-sizes`` (flat as rows grow), and of
  the streamed count at the larger, for comparison.
"""

from __future__ import annotations

import contextlib
import gc
import os
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from collections.abc import Iterator
from dataclasses import dataclass
from dataclasses import field
from typing import Any

from benchmarks.common import Checksum
from benchmarks.spark_common import FLAT_MIB
from benchmarks.spark_common import RUN_TIMEOUT
from benchmarks.spark_common import Context
from benchmarks.spark_common import Method
from benchmarks.spark_common import Timed
from benchmarks.spark_common import build_dataframe
from benchmarks.spark_common import make_row_sink
from benchmarks.spark_common import run_interleaved
from benchmarks.spark_common import settle
from benchmarks.spark_common import subscribe_rows

#: Rows taken by the take part.
TAKE_N = 5
#: Targets of the second Spark version.
TARGET_TAKE_JOBS = 1  # take(5) launches exactly one Spark job
TARGET_TAKE_SECONDS = 1.0  # and returns within this, the session warm
TARGET_COLUMN = 5.0  # a Column filter ≥ 5× the same filter as a fused Python lambda
TARGET_COUNT = 3.0  # count() in Spark ≥ 3× counting the rows streamed to the driver
#: Targets of issue 33 (Arrow input of fused stages), against the same on pickled rows
TARGET_ARROW_STREAMED = 2.0  # a fused map+filter streamed: ≥ 2× the rows/s
TARGET_ARROW_COUNT = 3.0  # a fused count(): ≥ 3× the rows/s


def _spark_flowable() -> type[Any]:
    from rxpy2.spark import SparkFlowable

    return SparkFlowable


def _overrides(name: str) -> bool:
    """Whether ``SparkFlowable`` defines ``name`` itself (pushed into Spark) rather than
    inheriting ``Flowable``'s (run on the driver)."""
    return name in vars(_spark_flowable())


def take_unavailable() -> str | None:
    """Why the take part cannot run here, or ``None``."""
    if not _overrides("take"):
        return ("`SparkFlowable.take(n)` is not pushed into Spark in this version "
                "(it is Flowable.take on the driver)")
    return None


def count_unavailable() -> str | None:
    """Why the count part cannot run here, or ``None``."""
    if not _overrides("count"):
        return ("`SparkFlowable.count()` does not run in Spark in this version "
                "(it is Flowable.count on the driver)")
    return None


def column_unavailable(df: Any) -> str | None:
    """Why the column part cannot run here (``filter`` refuses a Column), or ``None``."""
    from pyspark.sql import functions as F

    from rxpy2.spark import from_dataframe

    try:
        got = from_dataframe(df).filter(F.col("id") > 0)
    except (TypeError, ValueError, NotImplementedError) as e:
        return f"`SparkFlowable.filter(Column)` is refused in this version ({e})"
    if not isinstance(got, _spark_flowable()):
        return "`SparkFlowable.filter(Column)` does not stay a Spark source in this version"
    return None


# ---------------------------------------------------------------------------- jobs of a run


def _listener_caught_up(sc: Any) -> None:
    """Wait until Spark's listener bus has delivered every event so far: the status tracker
    learns of a job from it, asynchronously."""
    try:
        sc._jsc.sc().listenerBus().waitUntilEmpty(60_000)
    except Exception:  # not reachable through Py4J here: give the bus a moment instead
        time.sleep(0.5)


def jobs_and_tasks(sc: Any, group: str) -> tuple[int, int]:
    """The Spark jobs of job group ``group`` and the tasks of their stages."""
    _listener_caught_up(sc)
    tracker = sc.statusTracker()
    jobs = list(tracker.getJobIdsForGroup(group))
    tasks = 0
    for j in jobs:
        info = tracker.getJobInfo(j)
        for s in (info.stageIds if info is not None else []):
            stage = tracker.getStageInfo(s)
            if stage is not None:
                tasks += stage.numTasks
    return len(jobs), tasks


# ---------------------------------------------------------------------------- take


def make_take_map() -> Callable[[Any], tuple[int, str]]:
    """The fused map before ``take``: a closure (shipped by value to the executors)."""

    def shout(row: Any) -> tuple[int, str]:
        return row[0], row[3].upper()

    return shout


@dataclass
class TakeMethod:
    key: str
    label: str
    kind: str  # "pyspark" or "rxpy2"
    #: (spark, df, job group for a PySpark method) -> (checksum, job group of its jobs)
    run: Callable[[Any, Any, str], tuple[Checksum, str]]


def _rx_take(flowable: Any, what: str) -> tuple[Checksum, str]:
    if not isinstance(flowable, _spark_flowable()):  # taken on the driver: the figure would lie
        raise AssertionError(f"{what} is not a Spark source: the take was not pushed into Spark")
    consume, checksum = make_row_sink()
    subscribe_rows(flowable, consume, what)
    return checksum(), str(flowable.job_group(1))


def t_rx_take(spark: Any, df: Any, group: str) -> tuple[Checksum, str]:
    from rxpy2.spark import from_dataframe

    return _rx_take(from_dataframe(df).take(TAKE_N), "from_dataframe(df).take(5)")


def t_rx_map_take(spark: Any, df: Any, group: str) -> tuple[Checksum, str]:
    from rxpy2.spark import from_dataframe

    mapped = from_dataframe(df).map(make_take_map())
    if not isinstance(mapped, _spark_flowable()):
        raise AssertionError("from_dataframe(df).map(f) did not fuse into Spark")
    return _rx_take(mapped.take(TAKE_N), "from_dataframe(df).map(f).take(5)")


def _in_group(spark: Any, group: str, action: Callable[[], Checksum]) -> tuple[Checksum, str]:
    sc = spark.sparkContext
    sc.setJobGroup(group, "rxpy2 benchmark: reference", False)
    try:
        return action(), group
    finally:
        sc.setLocalProperty("spark.jobGroup.id", None)
        sc.setLocalProperty("spark.job.description", None)


def t_df_take(spark: Any, df: Any, group: str) -> tuple[Checksum, str]:
    def action() -> Checksum:
        consume, checksum = make_row_sink()
        for r in df.take(TAKE_N):
            consume(r)
        return checksum()

    return _in_group(spark, group, action)


def t_df_limit_iterator(spark: Any, df: Any, group: str) -> tuple[Checksum, str]:
    def action() -> Checksum:
        consume, checksum = make_row_sink()
        for r in df.limit(TAKE_N).toLocalIterator():
            consume(r)
        return checksum()

    return _in_group(spark, group, action)


TAKE_METHODS: dict[str, TakeMethod] = {m.key: m for m in [
    TakeMethod("rx_take", "`from_dataframe(df).take(5)`", "rxpy2", t_rx_take),
    TakeMethod("rx_map_take", "`from_dataframe(df).map(f).take(5)` (`f` fused)", "rxpy2",
               t_rx_map_take),
    TakeMethod("df_take", "`df.take(5)`", "pyspark", t_df_take),
    TakeMethod("df_limit_iterator", "`df.limit(5).toLocalIterator()`", "pyspark",
               t_df_limit_iterator),
]}


@dataclass
class TakeTimed:
    method: TakeMethod
    samples: list[float] = field(default_factory=list)
    jobs: list[int] = field(default_factory=list)
    tasks: list[int] = field(default_factory=list)

    @property
    def median(self) -> float:
        return statistics.median(self.samples)


def run_take(spark: Any, rows: int, partitions: int, runs: int,
             progress: bool = True) -> list[TakeTimed]:
    """Each method once untimed (the session warm), then ``runs`` round-robin rounds."""
    df = build_dataframe(spark, rows, partitions, cache=False)
    expected = (TAKE_N, TAKE_N * (TAKE_N - 1) // 2)  # ids 0..4: the first rows of partition 0
    sc = spark.sparkContext
    timed = [TakeTimed(m) for m in TAKE_METHODS.values()]
    serial = 0

    def once(t: TakeTimed) -> tuple[float, int, int]:
        nonlocal serial
        serial += 1
        gc.collect()
        t0 = time.perf_counter()
        got, group = t.method.run(spark, df, f"rxpy2-bench-take-{os.getpid()}-{serial}")
        dt = time.perf_counter() - t0
        settle(t.method.key)
        if got != expected:
            raise AssertionError(f"{t.method.key}: consumed (count, sum) = {got}, "
                                 f"expected {expected}")
        jobs, tasks = jobs_and_tasks(sc, group)
        return dt, jobs, tasks

    for t in timed:
        dt, jobs, tasks = once(t)
        if progress:
            print(f"[spark-bench] take warm-up: {t.method.key}: {dt:.2f} s, {jobs} job(s), "
                  f"{tasks} task(s)", file=sys.stderr, flush=True)
    k = len(timed)
    for r in range(runs):
        for j in range(k):
            t = timed[(r + j) % k]
            dt, jobs, tasks = once(t)
            t.samples.append(dt)
            t.jobs.append(jobs)
            t.tasks.append(tasks)
            if progress:
                print(f"[spark-bench] take run {r + 1}/{runs} {t.method.key}: {dt:.3f} s, "
                      f"{jobs} job(s), {tasks} task(s)", file=sys.stderr, flush=True)
    return timed


# ---------------------------------------------------------------------------- column


#: (key, column, the values kept: (count, sum of id) over ``rows`` rows, description)
def column_predicates(rows: int) -> list[tuple[str, str, float, Checksum]]:
    """The two predicates of the column part, each keeping about 10% of the rows:
    ``(key, column name, bound, expected (count, sum of id))``. The data's ``amount`` is
    ``3 * id + 1`` and ``price`` is ``(id % 997) / 8``."""
    k = rows - rows // 10  # amount > 3k  ⇔  id ≥ k
    amount = (rows - k, sum(range(k, rows)))
    bound = 111.5  # price > 111.5  ⇔  id % 997 ≥ 893: 104 of every 997 ids
    kept = [i for i in range(rows) if i % 997 >= 893]
    price = (len(kept), sum(kept))
    return [("amount", "amount", 3.0 * k, amount), ("price", "price", bound, price)]


def make_lambda_filter(index: int, bound: float) -> Callable[[Any], bool]:
    """``row[index] > bound`` as Python: a closure (shipped by value to the executors)."""

    def keep(row: Any) -> bool:
        return bool(row[index] > bound)

    return keep


COLUMN_INDEX = {"amount": 1, "price": 2}


def _column_method(key: str, name: str, bound: float) -> Method:
    def run(ctx: Context) -> Checksum:
        from pyspark.sql import functions as F

        from rxpy2.spark import from_dataframe

        flowable = from_dataframe(ctx.df).filter(F.col(name) > bound)
        if not isinstance(flowable, _spark_flowable()):
            raise AssertionError(f"filter(F.col({name!r}) > x) did not stay in Spark")
        consume, checksum = make_row_sink()
        subscribe_rows(flowable, consume, f"filter(F.col({name!r}) > x)")
        return checksum()

    return Method(f"column_{key}", f"`from_dataframe(df).filter(F.col(\"{name}\") > x)`",
                  "rxpy2", run)


def _lambda_method(key: str, name: str, bound: float) -> Method:
    def run(ctx: Context) -> Checksum:
        from rxpy2.spark import from_dataframe

        flowable = from_dataframe(ctx.df).filter(make_lambda_filter(COLUMN_INDEX[name], bound))
        if not isinstance(flowable, _spark_flowable()):
            raise AssertionError("the lambda filter did not fuse into Spark")
        consume, checksum = make_row_sink()
        subscribe_rows(flowable, consume, f"filter(lambda r: r.{name} > x)")
        return checksum()

    return Method(f"lambda_{key}", f"`from_dataframe(df).filter(lambda r: r.{name} > x)` "
                  "(fused)", "rxpy2", run)


def _reference_method(key: str, name: str, bound: float) -> Method:
    def run(ctx: Context) -> Checksum:
        from pyspark.sql import functions as F

        consume, checksum = make_row_sink()
        for r in ctx.df.filter(F.col(name) > bound).toLocalIterator():
            consume(r)
        return checksum()

    return Method(f"reference_{key}", f"`df.filter(F.col(\"{name}\") > x).toLocalIterator()`",
                  "pyspark", run)


@dataclass
class ColumnResult:
    timed: list[Timed]
    kept: dict[str, Checksum]
    bounds: dict[str, float]
    files: int
    mib: float


def run_column(spark: Any, rows: int, partitions: int, runs: int,
               progress: bool = True) -> ColumnResult:
    """Write the data to parquet once, then each method once untimed and ``runs``
    round-robin rounds over it (the parquet directory is removed at the end)."""
    tmp = tempfile.mkdtemp(prefix="rxpy2-bench-parquet-")
    try:
        path = os.path.join(tmp, "data.parquet")
        build_dataframe(spark, rows, partitions, cache=False).write.parquet(path)
        files = [f for f in os.listdir(path) if f.endswith(".parquet")]
        mib = sum(os.path.getsize(os.path.join(path, f)) for f in files) / 2**20
        pdf = spark.read.parquet(path)
        methods: list[Method] = []
        expected: dict[str, Checksum] = {}
        bounds: dict[str, float] = {}
        for key, name, bound, kept in column_predicates(rows):
            bounds[key] = bound
            for m in (_column_method(key, name, bound), _lambda_method(key, name, bound),
                      _reference_method(key, name, bound)):
                methods.append(m)
                expected[m.key] = kept
        if progress:
            print(f"[spark-bench] column: {len(methods)} methods × {runs} runs over "
                  f"{rows:,} rows of parquet ({len(files)} files, {mib:.1f} MiB)",
                  file=sys.stderr, flush=True)
        ctx = Context(spark, pdf, rows, partitions)
        timed = run_interleaved(methods, ctx, runs, ctx, None, None, progress,
                                expected_by_key=expected)
        return ColumnResult(timed, {k: c for k, _, _, c in column_predicates(rows)}, bounds,
                            len(files), mib)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


# ---------------------------------------------------------------------------- count


def make_count_functions() -> tuple[Callable[[Any], int], Callable[[int], bool]]:
    """``f`` (a row's ``amount``, ``3 * id + 1``) and ``g`` (keeps it when even: the rows
    of odd ``id``, half of them): closures, shipped by value to the executors."""

    def amount(row: Any) -> int:
        return int(row[1])

    def even(x: int) -> bool:
        return x % 2 == 0

    return amount, even


def count_expected(rows: int) -> Checksum:
    return rows // 2, 0


def _fused_chain(df: Any) -> Any:
    from rxpy2.spark import from_dataframe

    f, g = make_count_functions()
    chain = from_dataframe(df).map(f).filter(g)
    if not isinstance(chain, _spark_flowable()):
        raise AssertionError("from_dataframe(df).map(f).filter(g) did not fuse into Spark")
    return chain


def _counted_by_spark(chain: Any) -> Checksum:
    reason = count_unavailable()
    if reason is not None:
        raise RuntimeError(reason)
    return int(chain.count().blocking_get(RUN_TIMEOUT)), 0


def _counted_on_the_driver(chain: Any, what: str) -> Checksum:
    count = 0

    def consume(_: Any) -> None:
        nonlocal count
        count += 1

    subscribe_rows(chain, consume, what)
    return count, 0


def c_spark(ctx: Context) -> Checksum:
    return _counted_by_spark(_fused_chain(ctx.df))


def c_streamed(ctx: Context) -> Checksum:
    return _counted_on_the_driver(_fused_chain(ctx.df), "fused chain streamed to the driver")


def _column_chain(df: Any) -> Any:
    """The same rows as ``map(f).filter(g)`` keeps (odd ``id``), as a Column filter: no
    Python stage, so the count is ``DataFrame.count()`` in the JVM."""
    from pyspark.sql import functions as F

    from rxpy2.spark import from_dataframe

    chain = from_dataframe(df).filter(F.col("id") % 2 == 1)
    if not isinstance(chain, _spark_flowable()):
        raise AssertionError("from_dataframe(df).filter(Column) is not a Spark source")
    return chain


@contextlib.contextmanager
def _pickled_rows() -> Iterator[None]:
    """Fused stages read pickled rows, as before Arrow input (``RXPY2_SPARK_ARROW=0``, read
    when a source is compiled: inside the method's run)."""
    from rxpy2.spark.plan import ARROW_SWITCH

    before = os.environ.get(ARROW_SWITCH)
    os.environ[ARROW_SWITCH] = "0"
    try:
        yield
    finally:
        if before is None:
            del os.environ[ARROW_SWITCH]
        else:
            os.environ[ARROW_SWITCH] = before


def c_spark_pickled(ctx: Context) -> Checksum:
    with _pickled_rows():
        return c_spark(ctx)


def c_streamed_pickled(ctx: Context) -> Checksum:
    with _pickled_rows():
        return c_streamed(ctx)


def c_spark_column(ctx: Context) -> Checksum:
    return _counted_by_spark(_column_chain(ctx.df))


def c_streamed_column(ctx: Context) -> Checksum:
    return _counted_on_the_driver(_column_chain(ctx.df), "Column chain streamed to the driver")


def c_driver(ctx: Context) -> Checksum:
    from rxpy2.spark import from_dataframe

    f, g = make_count_functions()
    chain = from_dataframe(ctx.df).on_driver().map(f).filter(g)
    if isinstance(chain, _spark_flowable()):
        raise AssertionError("on_driver().map(f).filter(g) fused into Spark")
    return int(chain.count().blocking_get(RUN_TIMEOUT)), 0


COUNT_METHODS: dict[str, Method] = {m.key: m for m in [
    Method("count_spark", "`from_dataframe(df).map(f).filter(g).count()` (fused: counted "
           "in Spark)", "rxpy2", c_spark),
    Method("count_streamed", "the same fused chain streamed to the driver, counted by the "
           "consumer", "rxpy2", c_streamed),
    Method("count_spark_pickled", "the fused count() with `RXPY2_SPARK_ARROW=0` (the stages "
           "read pickled rows)", "rxpy2", c_spark_pickled),
    Method("count_streamed_pickled", "the fused chain streamed with `RXPY2_SPARK_ARROW=0`",
           "rxpy2", c_streamed_pickled),
    Method("count_driver", "`from_dataframe(df).on_driver().map(f).filter(g).count()` "
           "(on the driver)", "rxpy2", c_driver),
    Method("count_spark_column", "`from_dataframe(df).filter(F.col(\"id\") % 2 == 1).count()` "
           "(no Python stage: `DataFrame.count()`)", "rxpy2", c_spark_column),
    Method("count_streamed_column", "the same Column chain streamed to the driver, counted "
           "by the consumer", "rxpy2", c_streamed_column),
]}

#: The streamed run each count method is compared with (the same chain, every row sent to
#: the driver and counted there).
COUNT_VERSUS = {"count_spark": "count_streamed", "count_streamed": "count_streamed",
                "count_spark_pickled": "count_streamed",
                "count_streamed_pickled": "count_streamed",
                "count_driver": "count_streamed",
                "count_spark_column": "count_streamed_column",
                "count_streamed_column": "count_streamed_column"}

#: Memory children of the count part: (method, which of the two memory sizes).
COUNT_MEMORY = (("count_spark", 0), ("count_spark", 1), ("count_streamed", 0),
                ("count_streamed", 1))


def run_count(spark: Any, rows: int, partitions: int, runs: int, warmup_rows: int,
              cache: bool, progress: bool = True) -> list[Timed]:
    methods = list(COUNT_METHODS.values())
    if progress:
        print(f"[spark-bench] count: {len(methods)} methods × {runs} runs, {rows:,} rows",
              file=sys.stderr, flush=True)
    warm = None
    if warmup_rows:
        warm = Context(spark, build_dataframe(spark, warmup_rows, partitions, cache),
                       warmup_rows, partitions)
    df = build_dataframe(spark, rows, partitions, cache)
    try:
        return run_interleaved(methods, Context(spark, df, rows, partitions), runs, warm,
                               count_expected(rows), count_expected(warmup_rows), progress)
    finally:
        if cache:
            df.unpersist(blocking=True)
            if warm is not None:
                warm.df.unpersist(blocking=True)


# ---------------------------------------------------------------------------- the report


def _fmt_line(label: str, value: str | None, met: bool) -> str:
    if value is None:
        return f"- target {label}: not measured in this run — n/a"
    return f"- target {label}: measured {value} — {'met' if met else 'missed'}"


def _unavailable_line(rep: Any, part: str, label: str) -> str | None:
    reason = rep.unavailable.get(part)
    if reason is None:
        return None
    return f"- target {label}: not available in this version ({reason}) — n/a"


def render_take(rep: Any) -> list[str]:
    a = rep.args
    if not rep.take:
        return []
    lines = [f"### take(5): the first rows of {a.rows:,}, pushed into Spark", "",
             f"The data of the rows table, not cached (a job that computed a whole "
             f"partition, {a.rows // a.partitions:,} rows, would show in the time); the "
             f"session warm (one untimed run of each method first), then {a.runs} runs each, "
             f"interleaved. Jobs and tasks: `sc.statusTracker()` of the run's job group "
             f"(`job_group(1)` of the Flowable subscribed; a group set around the call for "
             f"PySpark's own), per run; `f` is a Python function fused into Spark.", "",
             "| method | s/run (median) | slowest run (s) | Spark jobs per run | "
             "tasks per run |", "|---|---:|---:|---:|---:|"]
    for t in rep.take:
        jobs = "–".join(str(x) for x in sorted({min(t.jobs), max(t.jobs)}))
        tasks = "–".join(str(x) for x in sorted({min(t.tasks), max(t.tasks)}))
        lines.append(f"| {t.method.label} | {t.median:.3f} | {max(t.samples):.3f} | {jobs} | "
                     f"{tasks} |")
    return [*lines, ""]


def render_column(rep: Any) -> list[str]:
    a = rep.args
    res = rep.column
    if res is None:
        return []
    lam = {t.method.key: t for t in res.timed}
    lines = [f"### A filter as a Column, next to the same filter as a Python lambda "
             f"({a.rows:,} rows of parquet)", "",
             f"The rows table's data written once to parquet ({res.files} files, "
             f"{res.mib:.1f} MiB, in a temporary directory) and read back with "
             f"`spark.read.parquet`; each filter keeps about 10% of the rows, every kept row "
             f"consumed with `subscribe(on_next)` (count and sum of `id` checked). "
             f"`amount > {res.bounds['amount']:,.0f}` keeps the last tenth of the ids "
             f"({res.kept['amount'][0]:,} rows): parquet's min/max statistics let the scan "
             f"skip whole files. `price > {res.bounds['price']:g}` keeps "
             f"{res.kept['price'][0]:,} rows spread over every file: nothing to skip. "
             f"Medians of {a.runs} interleaved runs after one untimed run of each.", "",
             "| filter | method | s/run | input rows/s | spread | × the lambda |",
             "|---|---|---:|---:|---:|---:|"]
    for t in res.timed:
        key = t.method.key.split("_", 1)[1]
        base = lam.get(f"lambda_{key}")
        ratio = "" if base is None else f"{base.median / t.median:.2f}×"
        lines.append(f"| `{key}` | {t.method.label} | {t.median:.2f} | "
                     f"{t.rows_per_s:,.0f} | {t.spread * 100:.0f}% | {ratio} |")
    return [*lines, ""]


def render_count(rep: Any) -> list[str]:
    a = rep.args
    if not rep.count:
        return []
    lines = [f"### count() in Spark, next to counting on the driver ({a.rows:,} rows, "
             f"{a.partitions} partitions)", "",
             f"`f` takes a row's `amount`, `g` keeps the even ones (half the rows, those of "
             f"odd `id`); functions fused into Spark unless the row says otherwise. The "
             f"Column rows keep the same rows with no Python stage. × streamed: against the "
             f"same chain streamed to the driver and counted there. The data as in the "
             f"rows table; medians of {a.runs} interleaved runs after one untimed run of each "
             f"over {a.warmup_rows:,} rows. Driver peak RSS: each method once more in a fresh "
             f"process, as in the memory table.", "",
             "| method | s/run | input rows/s | spread | × streamed (rows/s) | "
             + " | ".join(f"driver peak RSS at {n:,} (MiB)" for n in a.memory_sizes) + " |",
             "|---|---:|---:|---:|---:|" + "---:|" * len(a.memory_sizes)]
    for t in rep.count:
        streamed = rep.timed(COUNT_VERSUS.get(t.method.key, "count_streamed"))
        ratio = "" if streamed is None else f"{t.rows_per_s / streamed.rows_per_s:.2f}×"
        cells = [f"{m.peak_rss_mib:,.1f}" if (m := rep.mem(t.method.key, n)) else ""
                 for n in a.memory_sizes]
        lines.append(f"| {t.method.label} | {t.median:.2f} | {t.rows_per_s:,.0f} | "
                     f"{t.spread * 100:.0f}% | {ratio} | " + " | ".join(cells) + " |")
    return [*lines, ""]


def targets(rep: Any) -> list[str]:
    """One line per target of the take, column and count parts."""
    lines: list[str] = []
    parts = rep.args.parts
    takes = {t.method.key: t for t in rep.take}
    for key, what in (("rx_take", "from_dataframe(df).take(5)"),
                      ("rx_map_take", "from_dataframe(df).map(f).take(5)")):
        if "take" not in parts:
            break
        label = f"{what} launches {TARGET_TAKE_JOBS} Spark job (every run)"
        na = _unavailable_line(rep, "take", label)
        if na is not None:
            lines.append(na)
            continue
        t = takes.get(key)
        jobs = None
        if t is not None:
            jobs = f"{min(t.jobs)}–{max(t.jobs)}" if min(t.jobs) != max(t.jobs) else str(t.jobs[0])
        lines.append(_fmt_line(label, None if jobs is None else f"{jobs} job(s) per run",
                               t is not None and set(t.jobs) == {TARGET_TAKE_JOBS}))
        label = f"{what} takes < {TARGET_TAKE_SECONDS:g} s, the session warm (median)"
        lines.append(_fmt_line(label, None if t is None else f"{t.median:.3f} s",
                               t is not None and t.median < TARGET_TAKE_SECONDS))
    for key, what in (("amount", "`amount > x`, files skipped by the scan"),
                      ("price", "`price > x`, 10% of every file")):
        if "column" not in parts:
            break
        label = (f"a Column filter keeping 10% of the parquet data ≥ {TARGET_COLUMN:g}× "
                 f"faster than the same filter as a fused Python lambda ({what})")
        na = _unavailable_line(rep, "column", label)
        if na is not None:
            lines.append(na)
            continue
        col, lam = rep.timed(f"column_{key}"), rep.timed(f"lambda_{key}")
        ratio = None if col is None or lam is None else lam.median / col.median
        lines.append(_fmt_line(label, None if ratio is None else f"{ratio:.2f}×",
                               ratio is not None and ratio >= TARGET_COLUMN))
    label = (f"a fused count() run in Spark ≥ {TARGET_COUNT:g}× faster than counting the "
             f"rows on the driver (the faster of the fused chain streamed and on_driver())")
    na = _unavailable_line(rep, "count", label)
    if "count" not in parts:
        pass
    elif na is not None:
        lines.append(na)
    else:
        spark = rep.timed("count_spark")
        refs = [t for t in (rep.timed("count_streamed"), rep.timed("count_driver"))
                if t is not None]
        ratio = (None if spark is None or not refs
                 else spark.rows_per_s / max(t.rows_per_s for t in refs))
        lines.append(_fmt_line(label, None if ratio is None else f"{ratio:.2f}×",
                               ratio is not None and ratio >= TARGET_COUNT))
        col, col_streamed = rep.timed("count_spark_column"), rep.timed("count_streamed_column")
        label = (f"the same, with no Python stage (a Column filter): count() ≥ "
                 f"{TARGET_COUNT:g}× faster than the same chain streamed to the driver")
        ratio = (None if col is None or col_streamed is None
                 else col.rows_per_s / col_streamed.rows_per_s)
        lines.append(_fmt_line(label, None if ratio is None else f"{ratio:.2f}×",
                               ratio is not None and ratio >= TARGET_COUNT))
        for key, pickled, target, what in (
                ("count_streamed", "count_streamed_pickled", TARGET_ARROW_STREAMED,
                 "the fused map+filter streamed to the driver"),
                ("count_spark", "count_spark_pickled", TARGET_ARROW_COUNT,
                 "the fused count()")):
            label = (f"{what} with the stages on Arrow batches ≥ {target:g}× the rows/s of "
                     f"the same on pickled rows (`RXPY2_SPARK_ARROW=0`)")
            arrow, old = rep.timed(key), rep.timed(pickled)
            ratio = None if arrow is None or old is None else arrow.rows_per_s / old.rows_per_s
            lines.append(_fmt_line(label, None if ratio is None else f"{ratio:.2f}×",
                                   ratio is not None and ratio >= target))
        small, large = rep.args.memory_sizes
        for key, what in (("count_spark", "the count() in Spark"),
                          ("count_streamed", "the fused chain streamed")):
            a, b = rep.mem(key, small), rep.mem(key, large)
            label = (f"driver peak RSS of {what} flat from {small:,} to {large:,} rows "
                     f"(growth ≤ {FLAT_MIB:g} MiB)")
            growth = None if a is None or b is None else b.peak_rss_mib - a.peak_rss_mib
            lines.append(_fmt_line(label, None if growth is None else f"{growth:+.2f} MiB",
                                   growth is not None and growth <= FLAT_MIB))
    return lines

