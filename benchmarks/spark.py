"""Spark benchmarks (issue 7): ``python -m benchmarks.spark`` or ``python -m benchmarks --spark``.

Every way PySpark offers to bring a DataFrame's rows to the driver, next to
``rxpy2.spark.from_dataframe``, on the same data in one run: a DataFrame of
``--rows`` rows in ``--partitions`` partitions (``spark.range`` plus three
computed columns, one a string), cached and counted first, so that every method
reads the same materialized data (``--no-cache``: recomputed deterministically
by each job instead).

* Throughput: one SparkSession in this process; after one untimed warm-up run
  of each method over smaller data of the same shape (``--warmup-rows``), each
  method runs ``--runs`` times, round-robin, starting one further in each
  round, so drift in the machine's load hits all alike. A figure is the median
  of a method's runs; ratios are taken between medians of this run. Every
  method hands each row to the same consumer (it counts the rows and adds up
  their ``id``), except the Arrow ones, which count a table's rows and sum its
  ``id`` column with ``pyarrow.compute``; every run's (count, sum) is checked.
* Heavy map: a deterministic pure-Python busy loop per row, calibrated here to
  ``--heavy-us`` microseconds, applied to a smaller DataFrame (``--heavy-rows``)
  fused into Spark (``from_dataframe(df).map(f)``: runs on the executors) and on
  the driver (``from_dataframe(df).on_driver().map(f)``), interleaved as above.
* Driver memory: each method in a fresh process (``--child METHOD ROWS``) with
  the same session settings and the same (deterministic) data, not cached there:
  the cache lives in the JVM, it would not change the Python driver's figure and
  building it costs each child seconds. The peak RSS (``VmHWM``) of the Python
  driver after the method and before it (session started, rxpy2 and pyarrow
  imported in every child alike), and the ``VmHWM`` of the JVM child process,
  all read from ``/proc``. toLocalIterator and from_dataframe also run at the
  two ``--memory-sizes``, to show whether memory grows with the rows.

The markdown section goes into ``docs/performance.md`` between
``<!-- spark-bench:start -->`` and ``<!-- spark-bench:end -->`` (appended with
the markers when absent); a partial run (``--only``, or sizes other than the
defaults) writes only when ``--output`` is given.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import resource
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from dataclasses import field
from datetime import UTC
from datetime import datetime
from pathlib import Path
from typing import Any

from benchmarks import spark_pushdown
from benchmarks import spark_stream
from benchmarks.common import Checksum
from benchmarks.common import make_sink
from benchmarks.report import machine_info
from benchmarks.report import write_section as _write_marked
from benchmarks.spark_common import FLAT_MIB
from benchmarks.spark_common import RUN_TIMEOUT
from benchmarks.spark_common import Context
from benchmarks.spark_common import Method
from benchmarks.spark_common import Timed
from benchmarks.spark_common import build_dataframe
from benchmarks.spark_common import make_row_sink
from benchmarks.spark_common import run_interleaved
from benchmarks.spark_common import settle
from benchmarks.spark_common import start_session
from benchmarks.spark_common import subscribe_rows

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_OUTPUT = ROOT / "docs" / "performance.md"
BEGIN = "<!-- spark-bench:start -->"
END = "<!-- spark-bench:end -->"

ROWS = 2_000_000
PARTITIONS = 8
MASTER = "local[2]"
DRIVER_MEMORY = "2g"
RUNS = 3
WARMUP_ROWS = 100_000
MEMORY_SIZES = (1_000_000, 4_000_000)
HEAVY_ROWS = 400_000
HEAVY_US = 20.0
PARTS = ("rows", "heavy", "memory", "take", "column", "count", "stream")
#: Parts that run in the benchmark's own session (the others start fresh processes).
SESSION_PARTS = ("rows", "heavy", "take", "column", "count")
STREAM_SECONDS = 120.0
STREAM_RATE = 1000
STREAM_PREFETCH = 2
#: ``rate-micro-batch``: a fixed number of rows per micro-batch, so a micro-batch taken after
#: a wait is no larger than any other; a ``rate`` source makes its rows by the clock, and
#: under a consumer 10× slower each micro-batch holds the rows of the last one's 10× longer
#: wait (1,000, 10,000, 100,000 rows...): the driver's memory then follows the batch size.
STREAM_SOURCE = "rate-micro-batch"
#: Two driver peaks closer than this are equal: the spread of one method's peak RSS over
#: repeated fresh processes here (toLocalIterator at 1M rows: 124.8–125.9 MiB in five runs).
RSS_NOISE_MIB = 1.0

#: Targets of issue 7.
TARGET_ROWS = 0.9  # from_dataframe rows/s ≥ 0.9× toLocalIterator()
TARGET_ARROW = 5.0  # the Arrow batch variant ≥ 5× toLocalIterator()
TARGET_HEAVY = 1.8  # a heavy map fused into Spark ≥ 1.8× the same map on the driver


# ---------------------------------------------------------------------------- data and session


def expected_checksum(rows: int) -> Checksum:
    return rows, rows * (rows - 1) // 2


def make_heavy(iterations: int) -> Callable[[Any], int]:
    """A deterministic pure-Python busy loop over ``row[0]``; a closure, so cloudpickle ships
    it by value (the executors' Python workers need not import ``benchmarks``)."""

    def heavy(row: Any) -> int:
        x = row[0]
        for _ in range(iterations):
            x = (x * 1103515245 + 12345) & 0x7FFFFFFF
        return x + 1  # never None, never 0

    return heavy


def calibrate_heavy(target_us: float, probes: int = 2000) -> tuple[int, float]:
    """Iterations of :func:`make_heavy`'s loop for ``target_us`` µs per call, and the µs per
    call measured with them (best of 5 on this thread)."""
    rows = [(i,) for i in range(probes)]

    def per_call(iterations: int) -> float:
        fn = make_heavy(iterations)
        best = float("inf")
        for _ in range(5):
            t0 = time.perf_counter()
            for r in rows:
                fn(r)
            best = min(best, (time.perf_counter() - t0) / probes)
        return best * 1e6

    base = 200
    iterations = max(1, round(base * target_us / per_call(base)))
    return iterations, per_call(iterations)


# ---------------------------------------------------------------------------- the methods


def _arrow_checksum(table: Any) -> Checksum:
    import pyarrow.compute as pc

    if not table.num_rows:
        return 0, 0
    return table.num_rows, pc.sum(table.column("id")).as_py()


def m_to_local_iterator(ctx: Context) -> Checksum:
    consume, checksum = make_row_sink()
    for r in ctx.df.toLocalIterator():
        consume(r)
    return checksum()


def m_to_local_iterator_prefetch(ctx: Context) -> Checksum:
    consume, checksum = make_row_sink()
    for r in ctx.df.toLocalIterator(prefetchPartitions=True):
        consume(r)
    return checksum()


def m_collect(ctx: Context) -> Checksum:
    consume, checksum = make_row_sink()
    for r in ctx.df.collect():
        consume(r)
    return checksum()


def m_run_job(ctx: Context) -> Checksum:
    consume, checksum = make_row_sink()
    sc = ctx.spark.sparkContext
    rdd = ctx.df.rdd
    for i in range(rdd.getNumPartitions()):
        for r in sc.runJob(rdd, lambda it: list(it), [i]):
            consume(r)
    return checksum()


def m_to_arrow(ctx: Context) -> Checksum:
    return _arrow_checksum(ctx.df.toArrow())


def m_rx_iterate(ctx: Context) -> Checksum:
    from rxpy2.spark import from_dataframe

    consume, checksum = make_row_sink()
    for r in from_dataframe(ctx.df).blocking_iterable():
        consume(r)
    return checksum()


def m_rx_subscribe(ctx: Context) -> Checksum:
    from rxpy2.spark import from_dataframe

    consume, checksum = make_row_sink()
    subscribe_rows(from_dataframe(ctx.df), consume, "from_dataframe")
    return checksum()


def m_rx_partitions(ctx: Context) -> Checksum:
    from rxpy2.spark import from_dataframe

    consume, checksum = make_row_sink()

    def on_partition(rows: list[Any]) -> None:
        for r in rows:
            consume(r)

    subscribe_rows(from_dataframe(ctx.df, emit="partitions"), on_partition,
                    "from_dataframe(emit='partitions')")
    return checksum()


def m_rx_arrow(ctx: Context) -> Checksum:
    from rxpy2.spark import from_dataframe

    count = 0
    total = 0

    def on_table(table: Any) -> None:
        nonlocal count, total
        c, t = _arrow_checksum(table)
        count += c
        total += t

    subscribe_rows(from_dataframe(ctx.df, emit="arrow"), on_table,
                    "from_dataframe(emit='arrow')")
    return count, total


METHODS: dict[str, Method] = {m.key: m for m in [
    Method("to_local_iterator", "`df.toLocalIterator()`", "pyspark", m_to_local_iterator),
    Method("to_local_iterator_prefetch", "`df.toLocalIterator(prefetchPartitions=True)`",
           "pyspark", m_to_local_iterator_prefetch),
    Method("collect", "`df.collect()`", "pyspark", m_collect),
    Method("run_job", "`sc.runJob(df.rdd, lambda it: list(it), [i])` per partition", "pyspark",
           m_run_job),
    Method("to_arrow", "`df.toArrow()` (rows of the table)", "pyspark", m_to_arrow),
    Method("rx_iterate", "`for r in from_dataframe(df).blocking_iterable()`", "rxpy2",
           m_rx_iterate),
    Method("rx_subscribe", "`from_dataframe(df).subscribe(on_next)`", "rxpy2", m_rx_subscribe),
    Method("rx_partitions", "`from_dataframe(df, emit=\"partitions\")` (rows of the lists)",
           "rxpy2", m_rx_partitions),
    Method("rx_arrow", "`from_dataframe(df, emit=\"arrow\")` (rows of the tables)", "rxpy2",
           m_rx_arrow),
]}

#: Methods measured at the two memory sizes as well ("flat as rows grow").
FLAT_METHODS = ("to_local_iterator", "rx_subscribe")


def m_heavy_fused(ctx: Context) -> Checksum:
    from rxpy2.spark import SparkFlowable
    from rxpy2.spark import from_dataframe

    assert ctx.heavy is not None
    consume, checksum = make_sink()
    flowable = from_dataframe(ctx.df).map(ctx.heavy)
    if not isinstance(flowable, SparkFlowable):  # the map did not fuse: the figure would lie
        raise AssertionError("from_dataframe(df).map(heavy) did not fuse into Spark")
    subscribe_rows(flowable, consume, "fused heavy map")
    return checksum()


def m_heavy_driver(ctx: Context) -> Checksum:
    from rxpy2.spark import SparkFlowable
    from rxpy2.spark import from_dataframe

    assert ctx.heavy is not None
    consume, checksum = make_sink()
    flowable = from_dataframe(ctx.df).on_driver().map(ctx.heavy)
    if isinstance(flowable, SparkFlowable):
        raise AssertionError("on_driver().map(heavy) fused into Spark")
    subscribe_rows(flowable, consume, "driver heavy map")
    return checksum()


def m_heavy_spark(ctx: Context) -> Checksum:
    assert ctx.heavy is not None
    heavy = ctx.heavy

    def count_and_sum(values: Any) -> list[Checksum]:
        count = 0
        total = 0
        for x in values:
            count += 1
            total += x
        return [(count, total)]

    parts = ctx.df.rdd.map(heavy).mapPartitions(count_and_sum).collect()
    return sum(c for c, _ in parts), sum(t for _, t in parts)


HEAVY_METHODS: dict[str, Method] = {m.key: m for m in [
    Method("heavy_fused", "`from_dataframe(df).map(f)` (fused: runs on the executors)", "rxpy2",
           m_heavy_fused),
    Method("heavy_driver", "`from_dataframe(df).on_driver().map(f)` (on the driver)", "rxpy2",
           m_heavy_driver),
    Method("heavy_spark", "Spark alone: `df.rdd.map(f)` counted and summed on the executors, "
           "every partition at once, nothing to the driver", "pyspark", m_heavy_spark),
]}


# ---------------------------------------------------------------------------- timing


# ---------------------------------------------------------------------------- memory children


def _peak_rss_mib() -> float:
    """Peak RSS of this process: ``VmHWM`` where /proc has it, else ``ru_maxrss``.

    ``ru_maxrss`` alone is wrong in a child: Linux carries the high-water mark of the
    parent's memory at fork over the exec, so a child of a large parent reports the
    parent's peak (measured: every child of the benchmark showed the parent's 208 MiB)."""
    try:
        with open("/proc/self/status") as fh:
            for line in fh:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / (1024 * 1024) if sys.platform == "darwin" else peak / 1024


def _java_children() -> list[int]:
    """Pids of this process's ``java`` children (the JVM PySpark launched), from /proc."""
    pids: list[int] = []
    try:
        for task in os.listdir("/proc/self/task"):
            with open(f"/proc/self/task/{task}/children") as fh:
                pids += [int(p) for p in fh.read().split()]
    except OSError:
        return []
    out = []
    for pid in pids:
        try:
            with open(f"/proc/{pid}/comm") as fh:
                if fh.read().strip() == "java":
                    out.append(pid)
        except OSError:
            pass
    return out


def _jvm_hwm_mib() -> float | None:
    """``VmHWM`` (peak RSS) of the JVM child, or ``None`` where /proc cannot tell."""
    for pid in _java_children():
        try:
            with open(f"/proc/{pid}/status") as fh:
                for line in fh:
                    if line.startswith("VmHWM:"):
                        return int(line.split()[1]) / 1024
        except OSError:
            pass
    return None


def child_method(key: str) -> tuple[Method, Callable[[int], Checksum]]:
    """A method a memory child can run, and its expected checksum over ``rows`` rows."""
    if key in METHODS:
        return METHODS[key], expected_checksum
    return spark_pushdown.COUNT_METHODS[key], spark_pushdown.count_expected


def child_keys() -> list[str]:
    return [*METHODS, *spark_pushdown.COUNT_METHODS]


def child(method: str, rows: int, partitions: int, master: str, driver_memory: str,
          cache: bool) -> dict[str, Any]:
    """One method over ``rows`` rows in this (fresh) process; what ``--child`` prints."""
    import pyarrow  # noqa: F401  (imported in every child alike)
    import pyarrow.compute  # noqa: F401

    import rxpy2.spark  # noqa: F401

    m, _ = child_method(method)
    t_start = time.perf_counter()
    spark = start_session(master, driver_memory)
    try:
        t_session = time.perf_counter()
        df = build_dataframe(spark, rows, partitions, cache)
        t_data = time.perf_counter()
        gc.collect()
        before = _peak_rss_mib()
        jvm_before = _jvm_hwm_mib()
        t0 = time.perf_counter()
        count, total = m.run(Context(spark, df, rows, partitions))
        seconds = time.perf_counter() - t0
        settle(method)
        peak = _peak_rss_mib()
        jvm = _jvm_hwm_mib()
    finally:
        spark.stop()
    return {"method": method, "rows": rows, "count": count, "total": total,
            "seconds": seconds, "session_seconds": t_session - t_start,
            "data_seconds": t_data - t_session, "total_seconds": time.perf_counter() - t_start,
            "rss_before_mib": before, "peak_rss_mib": peak,
            "jvm_before_mib": jvm_before, "jvm_hwm_mib": jvm}


@dataclass
class MemoryResult:
    method: str
    rows: int
    peak_rss_mib: float
    rss_before_mib: float
    jvm_hwm_mib: float | None
    seconds: float


def measure_memory(method: str, rows: int, args: argparse.Namespace) -> MemoryResult:
    """Run ``method`` over ``rows`` rows in a fresh process; checks what it consumed."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    cmd = [sys.executable, "-m", "benchmarks.spark", "--child", method, str(rows),
           "--partitions", str(args.partitions), "--master", args.master,
           "--driver-memory", args.driver_memory, "--no-cache"]  # see the module docstring
    proc = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT, env=env)
    if proc.returncode != 0:
        tail = "\n".join(proc.stderr.strip().splitlines()[-15:])
        raise RuntimeError(f"memory child {method} {rows} exited with {proc.returncode}:\n{tail}")
    r = json.loads(proc.stdout.strip().splitlines()[-1])
    expected = child_method(method)[1](rows)
    if (r["count"], r["total"]) != expected:
        raise AssertionError(f"{method} at {rows}: consumed (count, sum) = "
                             f"({r['count']}, {r['total']}), expected {expected}")
    return MemoryResult(method, rows, r["peak_rss_mib"], r["rss_before_mib"], r["jvm_hwm_mib"],
                        r["seconds"])


# ---------------------------------------------------------------------------- the run


@dataclass
class Report:
    command: str
    started: datetime
    machine: dict[str, str]
    versions: dict[str, str]
    args: argparse.Namespace
    rows: list[Timed] = field(default_factory=list)
    heavy: list[Timed] = field(default_factory=list)
    heavy_iterations: int = 0
    heavy_us: float = 0.0
    memory: list[MemoryResult] = field(default_factory=list)
    take: list[Any] = field(default_factory=list)  # spark_pushdown.TakeTimed
    column: Any = None  # spark_pushdown.ColumnResult
    count: list[Timed] = field(default_factory=list)
    count_memory: list[MemoryResult] = field(default_factory=list)
    stream: dict[str, Any] | None = None
    #: part -> why it did not run (an API this version lacks)
    unavailable: dict[str, str] = field(default_factory=dict)
    seconds: float = 0.0

    def timed(self, key: str) -> Timed | None:
        for t in self.rows + self.heavy + self.count + (
                self.column.timed if self.column is not None else []):
            if t.method.key == key:
                return t
        return None

    def mem(self, key: str, rows: int) -> MemoryResult | None:
        for m in self.memory + self.count_memory:
            if m.method == key and m.rows == rows:
                return m
        return None


def versions() -> dict[str, str]:
    out = {"python": sys.version.split()[0]}
    for name in ("pyspark", "pyarrow"):
        try:
            out[name] = __import__(name).__version__
        except ImportError:
            out[name] = "not installed"
    java = shutil.which("java")
    if java:
        try:
            proc = subprocess.run([java, "-version"], capture_output=True, text=True, timeout=30)
            lines = (proc.stderr or proc.stdout).strip().splitlines()
            out["java"] = lines[0] if lines else "?"
        except (OSError, subprocess.TimeoutExpired):
            out["java"] = "?"
    else:
        out["java"] = "not found"
    return out


def wait_for_idle(limit: float, max_wait: float, progress: bool = True) -> None:
    """Poll the 1-minute load average every 60 s until it is below ``limit`` (at most
    ``max_wait`` s)."""
    deadline = time.monotonic() + max_wait
    while True:
        load = os.getloadavg()[0]
        if load < limit or time.monotonic() >= deadline:
            if progress:
                print(f"[spark-bench] load average {load:.2f} (limit {limit:g}): starting",
                      file=sys.stderr, flush=True)
            return
        if progress:
            print(f"[spark-bench] load average {load:.2f} ≥ {limit:g}: waiting",
                  file=sys.stderr, flush=True)
        time.sleep(min(60.0, max(1.0, deadline - time.monotonic())))


def run_pushdown_parts(rep: Report, spark: Any, progress: bool) -> None:
    """The take, column and count parts, in the benchmark's session; a part whose API this
    version lacks is recorded in ``rep.unavailable`` instead."""
    args = rep.args
    if "take" in args.parts:
        reason = spark_pushdown.take_unavailable()
        if reason is None:
            rep.take = spark_pushdown.run_take(spark, args.rows, args.partitions, args.runs, progress)
        else:
            rep.unavailable["take"] = reason
    if "column" in args.parts:
        reason = spark_pushdown.column_unavailable(spark.range(1))
        if reason is None:
            rep.column = spark_pushdown.run_column(spark, args.rows, args.partitions, args.runs,
                                             progress)
        else:
            rep.unavailable["column"] = reason
    if "count" in args.parts:
        reason = spark_pushdown.count_unavailable()
        if reason is None:
            rep.count = spark_pushdown.run_count(spark, args.rows, args.partitions, args.runs,
                                           args.warmup_rows, not args.no_cache, progress)
        else:
            rep.unavailable["count"] = reason
    for part, reason in rep.unavailable.items():
        if progress:
            print(f"[spark-bench] {part}: not available: {reason}", file=sys.stderr, flush=True)


def run_stream_part(rep: Report, progress: bool) -> None:
    """The stream part in a fresh process (:mod:`benchmarks.spark_stream`)."""
    import rxpy2.spark

    args = rep.args
    if not hasattr(rxpy2.spark, "from_stream"):
        rep.unavailable["stream"] = "`rxpy2.spark.from_stream` does not exist in this version"
        return
    if progress:
        print(f"[spark-bench] stream: from_stream over a {args.stream_source} source of "
              f"{args.stream_rate:,} rows/s, consumer 10× slower, {args.stream_seconds:g} s "
              f"(fresh process)", file=sys.stderr, flush=True)
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    cmd = [sys.executable, "-m", "benchmarks.spark_stream", "--seconds",
           str(args.stream_seconds), "--rate", str(args.stream_rate), "--prefetch",
           str(args.stream_prefetch), "--source", args.stream_source, "--master", args.master,
           "--driver-memory", args.driver_memory]
    proc = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT, env=env,
                          timeout=args.stream_seconds + RUN_TIMEOUT)
    if proc.returncode != 0:
        tail = "\n".join(proc.stderr.strip().splitlines()[-15:])
        raise RuntimeError(f"the stream child exited with {proc.returncode}:\n{tail}")
    rep.stream = json.loads(proc.stdout.strip().splitlines()[-1])


def run(args: argparse.Namespace, command: str, progress: bool = True) -> Report:
    rep = Report(command=command, started=datetime.now(UTC), machine=machine_info(),
                 versions=versions(), args=args)
    t0 = time.perf_counter()
    cache = not args.no_cache
    if any(p in args.parts for p in SESSION_PARTS):
        spark = start_session(args.master, args.driver_memory)
        try:
            if "rows" in args.parts:
                if progress:
                    print(f"[spark-bench] rows: {len(args.methods)} methods × {args.runs} runs, "
                          f"{args.rows:,} rows in {args.partitions} partitions",
                          file=sys.stderr, flush=True)
                warm = None
                if args.warmup_rows:
                    wdf = build_dataframe(spark, args.warmup_rows, args.partitions, cache)
                    warm = Context(spark, wdf, args.warmup_rows, args.partitions)
                df = build_dataframe(spark, args.rows, args.partitions, cache)
                ctx = Context(spark, df, args.rows, args.partitions)
                rep.rows = run_interleaved([METHODS[k] for k in args.methods], ctx, args.runs,
                                           warm, expected_checksum(args.rows),
                                           expected_checksum(args.warmup_rows), progress)
                if cache:
                    df.unpersist(blocking=True)
                    if warm is not None:
                        warm.df.unpersist(blocking=True)
            if "heavy" in args.parts:
                rep.heavy_iterations, rep.heavy_us = calibrate_heavy(args.heavy_us)
                if progress:
                    print(f"[spark-bench] heavy: {rep.heavy_iterations} iterations = "
                          f"{rep.heavy_us:.1f} µs per call on the driver; {args.heavy_rows:,} "
                          f"rows", file=sys.stderr, flush=True)
                heavy = make_heavy(rep.heavy_iterations)
                warm = None
                if args.warmup_rows:
                    n = max(1, args.heavy_rows // 10)
                    wdf = build_dataframe(spark, n, args.partitions, cache)
                    warm = Context(spark, wdf, n, args.partitions, heavy)
                hdf = build_dataframe(spark, args.heavy_rows, args.partitions, cache)
                ctx = Context(spark, hdf, args.heavy_rows, args.partitions, heavy)
                rep.heavy = run_interleaved(list(HEAVY_METHODS.values()), ctx, args.runs,
                                            warm, None, None, progress)
                if cache:
                    hdf.unpersist(blocking=True)
                    if warm is not None:
                        warm.df.unpersist(blocking=True)
            run_pushdown_parts(rep, spark, progress)
        finally:
            spark.stop()
    if "memory" in args.parts:
        jobs = [(k, args.rows) for k in args.methods]
        jobs += [(k, n) for k in FLAT_METHODS if k in args.methods for n in args.memory_sizes]
        for k, n in jobs:
            if progress:
                print(f"[spark-bench] memory: {k} at {n:,} rows (fresh process)",
                      file=sys.stderr, flush=True)
            rep.memory.append(measure_memory(k, n, args))
    if "count" in args.parts and "count" not in rep.unavailable:
        for k, size in spark_pushdown.COUNT_MEMORY:
            n = args.memory_sizes[size]
            if progress:
                print(f"[spark-bench] count memory: {k} at {n:,} rows (fresh process)",
                      file=sys.stderr, flush=True)
            rep.count_memory.append(measure_memory(k, n, args))
    if "stream" in args.parts:
        run_stream_part(rep, progress)
    rep.seconds = time.perf_counter() - t0
    return rep


# ---------------------------------------------------------------------------- the report


def _mib(x: float | None) -> str:
    return "" if x is None else f"{x:,.1f}"


def _ratio(a: float | None, b: float | None) -> float | None:
    return None if a is None or b is None else a / b


def _line(label: str, value: float | None, bound: float, at_most: bool, unit: str) -> str:
    if value is None:
        return f"- target {label}: not measured in this run — n/a"
    met = value <= bound if at_most else value >= bound
    return f"- target {label}: measured {value:.2f}{unit} — {'met' if met else 'missed'}"


def targets(rep: Report) -> list[str]:
    """One line per target of issue 7: ``target X: measured Y — met / missed``."""
    def rps(key: str) -> float | None:
        t = rep.timed(key)
        return None if t is None else t.rows_per_s

    tli = rps("to_local_iterator")
    lines = []
    for key, what in (("rx_subscribe", "subscribe(on_next)"),
                      ("rx_iterate", "blocking_iterable()")):
        lines.append(_line(f"rows/s of from_dataframe ({what}) ≥ {TARGET_ROWS:g}× "
                           f"toLocalIterator()'s", _ratio(rps(key), tli), TARGET_ROWS, False,
                           "×"))
    lines.append(_line(f"rows/s of from_dataframe(emit=\"arrow\") ≥ {TARGET_ARROW:g}× "
                       f"toLocalIterator()'s", _ratio(rps("rx_arrow"), tli), TARGET_ARROW,
                       False, "×"))
    sizes = sorted({m.rows for m in rep.memory})
    for key in ("rx_subscribe", "rx_iterate"):
        for n in sizes:
            a, b = rep.mem(key, n), rep.mem("to_local_iterator", n)
            if a is None or b is None:
                continue
            lines.append(_line(f"driver peak RSS of {METHODS[key].label} ≤ "
                               f"toLocalIterator()'s at {n:,} rows (difference; ≤ "
                               f"{RSS_NOISE_MIB:g} MiB counts as equal)",
                               a.peak_rss_mib - b.peak_rss_mib, RSS_NOISE_MIB, True, " MiB"))
    small, large = rep.args.memory_sizes
    for key in FLAT_METHODS:
        a, b = rep.mem(key, small), rep.mem(key, large)
        if a is None or b is None:
            continue
        lines.append(_line(f"driver peak RSS flat from {small:,} to {large:,} rows (growth ≤ "
                           f"{FLAT_MIB:g} MiB), {METHODS[key].label}",
                           b.peak_rss_mib - a.peak_rss_mib, FLAT_MIB, True, " MiB"))
    if not rep.memory:
        lines.append(_line("driver peak RSS ≤ toLocalIterator()'s and flat", None, 0, True, ""))
    fused, driver = rep.timed("heavy_fused"), rep.timed("heavy_driver")
    lines.append(_line(f"a {rep.args.heavy_us:g} µs map fused into Spark ≥ {TARGET_HEAVY:g}× "
                       f"the same map on the driver (rows/s ratio)",
                       None if fused is None or driver is None
                       else fused.rows_per_s / driver.rows_per_s, TARGET_HEAVY, False, "×"))
    return lines


def render(rep: Report) -> str:
    a = rep.args
    m, v = rep.machine, rep.versions
    cache = ("cached and counted first, so every method reads the same in-memory data"
             if not a.no_cache else "not cached: each job recomputes it (deterministic)")
    lines = [
        "## Spark: rxpy2.spark next to PySpark's own ways to the driver",
        "",
        f"Generated by `{rep.command}` on {rep.started:%Y-%m-%d %H:%M} UTC in "
        f"{rep.seconds:.0f} s; do not edit between the spark-bench markers, rerun instead.",
        "",
        f"Machine: {m['cpu']}, {m['cores']} cores, {m['platform']}; Python {v['python']}, "
        f"PySpark {v['pyspark']}, pyarrow {v['pyarrow']}, {v.get('java', '?')}; "
        f"load average at start {m['load']}.",
        "",
        f"Data: `spark.range(0, {a.rows:,}, 1, {a.partitions})` with `id`, `amount` (bigint), "
        f"`price` (double) and `label` (a 16-character string), {cache}; master "
        f"`{a.master}`, driver memory {a.driver_memory}, one SparkSession per process.",
        "",
        f"Method: rows/s = rows / the median of {a.runs} timed runs"
        + (f" after one untimed warm-up run of each method over {a.warmup_rows:,} rows of "
           f"the same shape" if a.warmup_rows else "")
        + "; the methods run interleaved (round-robin, starting one further each round) so "
          "drift in the load hits all alike, and ratios are taken between medians of this "
          "run. Each row method hands every row to the same Python consumer (count the rows, "
          "add up `row[0]`); the Arrow methods count a table's rows and sum its `id` column "
          "with `pyarrow.compute`; every run's (count, sum) is checked. Timed from the call "
          "to the last row consumed (the Spark jobs included). Driver peak RSS: each method "
          "once more in a fresh process (`python -m benchmarks.spark --child METHOD ROWS`) "
          "with the same session settings and the same data, not cached there (the cache "
          "lives in the JVM): `VmHWM` (peak RSS, from /proc) of the Python driver after the "
          "method; \"before\" is the same after starting Spark, rxpy2 and pyarrow imported "
          "in every child alike; JVM: `VmHWM` of the driver's `java` child process (it runs "
          "the local executors; their Python workers are not counted). `ru_maxrss` is not "
          "used: Linux carries a parent's high-water mark over fork and exec into the child.",
        "",
    ]
    if rep.rows:
        tli = rep.timed("to_local_iterator")
        lines += [f"### Rows to the driver ({a.rows:,} rows, {a.partitions} partitions)", "",
                  "| method | s/run | rows/s | spread | × toLocalIterator (rows/s) "
                  "| driver RSS before (MiB) | driver peak RSS (MiB) | JVM peak RSS (MiB) |",
                  "|---|---:|---:|---:|---:|---:|---:|---:|"]
        for t in rep.rows:
            mm = rep.mem(t.method.key, a.rows)
            ratio = "" if tli is None else f"{t.rows_per_s / tli.rows_per_s:.2f}×"
            lines.append(f"| {t.method.label} | {t.median:.2f} | {t.rows_per_s:,.0f} | "
                         f"{t.spread * 100:.0f}% | {ratio} | "
                         f"{_mib(mm.rss_before_mib) if mm else ''} | "
                         f"{_mib(mm.peak_rss_mib) if mm else ''} | "
                         f"{_mib(mm.jvm_hwm_mib) if mm else ''} |")
        lines.append("")
    flat = [k for k in FLAT_METHODS if any(x.method == k for x in rep.memory)]
    if flat:
        sizes = sorted({x.rows for x in rep.memory if x.method in flat})
        small, large = a.memory_sizes
        lines += ["### Driver memory as the rows grow", "",
                  f"Same {a.partitions} partitions, each size in a fresh process; growth is "
                  f"from {small:,} to {large:,} rows.", "",
                  "| method | " + " | ".join(f"peak RSS at {n:,} (MiB)" for n in sizes)
                  + " | growth (MiB) | " + " | ".join(f"JVM at {n:,}" for n in sizes) + " |",
                  "|---|" + "---:|" * (2 * len(sizes) + 1)]
        for k in flat:
            cells = [_mib(x.peak_rss_mib) if (x := rep.mem(k, n)) else "" for n in sizes]
            jvm = [_mib(x.jvm_hwm_mib) if (x := rep.mem(k, n)) else "" for n in sizes]
            s, b = rep.mem(k, small), rep.mem(k, large)
            growth = f"{b.peak_rss_mib - s.peak_rss_mib:+.1f}" if s and b else ""
            lines.append(f"| {METHODS[k].label} | " + " | ".join(cells) + f" | {growth} | "
                         + " | ".join(jvm) + " |")
        lines.append("")
    if rep.heavy:
        drv = rep.timed("heavy_driver")
        lines += [f"### A heavy map: {rep.heavy_us:.1f} µs of Python per row "
                  f"({a.heavy_rows:,} rows, {a.partitions} partitions)", "",
                  f"`f` is a deterministic busy loop ({rep.heavy_iterations} iterations, "
                  f"calibrated on the driver to {a.heavy_us:g} µs per call; measured "
                  f"{rep.heavy_us:.1f} µs). {a.heavy_rows:,} rows rather than {a.rows:,} so that "
                  f"a driver run takes about {a.heavy_rows * rep.heavy_us / 1e6:.0f} s of "
                  f"pure Python. Consumed with `subscribe(on_next)`; prefetch_partitions=1. "
                  f"The last row is the most Spark itself gets out of the cores with the "
                  f"same function: no driver consumer, no partition order.", "",
                  "| method | s/run | rows/s | spread | × driver (rows/s) |",
                  "|---|---:|---:|---:|---:|"]
        for t in rep.heavy:
            ratio = "" if drv is None else f"{t.rows_per_s / drv.rows_per_s:.2f}×"
            lines.append(f"| {t.method.label} | {t.median:.2f} | {t.rows_per_s:,.0f} | "
                         f"{t.spread * 100:.0f}% | {ratio} |")
        lines.append("")
    lines += [*spark_pushdown.render_take(rep), *spark_pushdown.render_column(rep),
              *spark_pushdown.render_count(rep), *spark_stream.render(rep)]
    not_run = [f"- {part}: not available in this version: {why}"
               for part, why in rep.unavailable.items()]
    if not_run:
        lines += ["### Parts not run", "", *not_run, ""]
    lines += ["### Targets", ""]
    if any(p in a.parts for p in ("rows", "heavy", "memory")):
        lines += targets(rep)
    if any(p in a.parts for p in ("take", "column", "count")):
        lines += spark_pushdown.targets(rep)
    if "stream" in a.parts:
        lines += spark_stream.targets(rep)
    return "\n".join(lines).rstrip() + "\n"


def write_section(path: Path, section: str) -> None:
    """Put ``section`` between the spark-bench markers of ``path`` (appended when absent)."""
    _write_marked(path, section, BEGIN, END)


def dump_json(rep: Report, path: Path) -> None:
    data = {
        "command": rep.command, "started": rep.started.isoformat(), "machine": rep.machine,
        "versions": rep.versions, "heavy_iterations": rep.heavy_iterations,
        "heavy_us": rep.heavy_us,
        "timed": [{"key": t.method.key, "rows": t.rows, "checksum": list(t.checksum),
                   "seconds": t.samples} for t in rep.rows + rep.heavy],
        "memory": [vars(x) for x in rep.memory + rep.count_memory],
        "take": [{"key": t.method.key, "seconds": t.samples, "jobs": t.jobs, "tasks": t.tasks}
                 for t in rep.take],
        "column": [{"key": t.method.key, "rows": t.rows, "checksum": list(t.checksum),
                    "seconds": t.samples} for t in (rep.column.timed if rep.column else [])],
        "count": [{"key": t.method.key, "rows": t.rows, "checksum": list(t.checksum),
                   "seconds": t.samples} for t in rep.count],
        "stream": rep.stream,
        "unavailable": rep.unavailable,
    }
    path.write_text(json.dumps(data, indent=1) + "\n")


# ---------------------------------------------------------------------------- command line


def parse_args(argv: list[str] | None, prog: str = "python -m benchmarks.spark"
               ) -> argparse.Namespace:
    ap = argparse.ArgumentParser(
        prog=prog,
        description="rxpy2.spark.from_dataframe next to toLocalIterator, collect, runJob and "
                    "toArrow on the same data: rows/s (medians of interleaved runs), driver "
                    "peak RSS (fresh processes), and a heavy map fused into Spark vs on the "
                    "driver; writes the Spark section of docs/performance.md.",
        epilog="Methods: " + ", ".join(METHODS) + ".")
    ap.add_argument("--rows", type=int, default=ROWS, help=f"rows of the data (default {ROWS:,})")
    ap.add_argument("--partitions", type=int, default=PARTITIONS,
                    help=f"partitions of the data (default {PARTITIONS})")
    ap.add_argument("--runs", type=int, default=RUNS,
                    help=f"timed runs per method (default {RUNS})")
    ap.add_argument("--warmup-rows", type=int, default=WARMUP_ROWS, metavar="N",
                    help=f"rows of the untimed warm-up run of each method, on its own data "
                         f"(default {WARMUP_ROWS:,}; the heavy map warms up over a tenth of "
                         f"--heavy-rows; 0: no warm-up)")
    ap.add_argument("--only", action="append", default=[], metavar="PART",
                    help="run only this part (repeat, or comma-separate): " + ", ".join(PARTS))
    ap.add_argument("--methods", default=None, metavar="M1,M2",
                    help="only these row methods (default: all)")
    ap.add_argument("--memory-sizes", type=int, nargs=2, default=list(MEMORY_SIZES),
                    metavar=("SMALL", "LARGE"),
                    help=f"rows of the \"flat as rows grow\" runs (default {MEMORY_SIZES[0]} "
                         f"{MEMORY_SIZES[1]})")
    ap.add_argument("--heavy-rows", type=int, default=HEAVY_ROWS,
                    help=f"rows of the heavy-map data (default {HEAVY_ROWS:,})")
    ap.add_argument("--heavy-us", type=float, default=HEAVY_US,
                    help=f"µs per call of the heavy map (default {HEAVY_US:g})")
    ap.add_argument("--stream-seconds", type=float, default=STREAM_SECONDS, metavar="S",
                    help=f"how long the stream part consumes (default {STREAM_SECONDS:g})")
    ap.add_argument("--stream-rate", type=int, default=STREAM_RATE, metavar="ROWS",
                    help=f"rows per second of the stream part's source; the consumer takes "
                         f"a tenth (default {STREAM_RATE:,})")
    ap.add_argument("--stream-prefetch", type=int, default=STREAM_PREFETCH, metavar="K",
                    help=f"prefetch_batches of the stream part (default {STREAM_PREFETCH})")
    ap.add_argument("--stream-source", choices=("rate", "rate-micro-batch"),
                    default=STREAM_SOURCE,
                    help=f"the stream part's source (default {STREAM_SOURCE}): `rate` makes "
                         f"its rows by the clock, so a micro-batch after a wait holds every "
                         f"row made meanwhile; `rate-micro-batch` makes --stream-rate rows "
                         f"per micro-batch, triggered every second")
    ap.add_argument("--master", default=MASTER, help=f"Spark master (default {MASTER})")
    ap.add_argument("--driver-memory", default=DRIVER_MEMORY,
                    help=f"spark.driver.memory (default {DRIVER_MEMORY})")
    ap.add_argument("--no-cache", action="store_true",
                    help="do not cache the data: every job recomputes it")
    ap.add_argument("--wait-load", type=float, default=None, metavar="LOAD",
                    help="first wait (polling every 60 s, at most --wait-max s) until the "
                         "1-minute load average is below LOAD")
    ap.add_argument("--wait-max", type=float, default=1800.0, metavar="S",
                    help="longest wait for --wait-load (default 1800)")
    ap.add_argument("--no-write", action="store_true", help="print only; leave the docs alone")
    ap.add_argument("--output", type=Path, default=None,
                    help="markdown file to write the section into (default docs/performance.md)")
    ap.add_argument("--json", type=Path, default=None, help="also dump every sample as JSON here")
    ap.add_argument("--child", nargs=2, default=None, metavar=("METHOD", "ROWS"),
                    help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    parts: list[str] = []
    for item in args.only:
        parts += [p.strip() for p in item.split(",") if p.strip()]
    unknown = [p for p in parts if p not in PARTS]
    if unknown:
        ap.error(f"unknown part(s) {unknown}; choose from {list(PARTS)}")
    args.parts = parts or list(PARTS)
    methods = list(METHODS) if args.methods is None else [
        k.strip() for k in args.methods.split(",") if k.strip()]
    unknown = [k for k in methods if k not in METHODS]
    if unknown or not methods:
        ap.error(f"unknown method(s) {unknown}; choose from {list(METHODS)}")
    args.methods = methods
    if args.runs < 1:
        ap.error("--runs must be at least 1")
    if args.warmup_rows < 0:
        ap.error("--warmup-rows must not be negative")
    for name in ("rows", "partitions", "heavy_rows"):
        if getattr(args, name) < 1:
            ap.error(f"--{name.replace('_', '-')} must be positive")
    if min(args.memory_sizes) < 1:
        ap.error("--memory-sizes must be positive")
    if args.heavy_us <= 0:
        ap.error("--heavy-us must be positive")
    if args.stream_seconds <= 0 or args.stream_rate < 10 or args.stream_prefetch < 1:
        ap.error("--stream-seconds must be positive, --stream-rate at least 10 (the consumer "
                 "takes a tenth) and --stream-prefetch at least 1")
    if args.child is not None and args.child[0] not in child_keys():
        ap.error(f"unknown method {args.child[0]!r}")
    return args


def is_partial(args: argparse.Namespace) -> bool:
    """Anything but the default parts, methods and sizes: the docs are left alone."""
    return (set(args.parts) != set(PARTS) or args.methods != list(METHODS)
            or args.rows != ROWS or args.partitions != PARTITIONS
            or list(args.memory_sizes) != list(MEMORY_SIZES) or args.heavy_rows != HEAVY_ROWS
            or args.heavy_us != HEAVY_US or args.master != MASTER
            or args.stream_seconds != STREAM_SECONDS or args.stream_rate != STREAM_RATE
            or args.stream_prefetch != STREAM_PREFETCH or args.stream_source != STREAM_SOURCE)


def main(argv: list[str] | None = None, prog: str = "python -m benchmarks.spark") -> int:
    shown = sys.argv[1:] if argv is None else argv
    args = parse_args(shown, prog)
    if args.child is not None:
        result = child(args.child[0], int(args.child[1]), args.partitions, args.master,
                       args.driver_memory, not args.no_cache)
        print(json.dumps(result), flush=True)
        return 0
    if args.wait_load is not None:
        wait_for_idle(args.wait_load, args.wait_max)
    rep = run(args, " ".join([prog, *shown]))
    section = render(rep)
    print(section)
    if args.json is not None:
        dump_json(rep, args.json)
    if args.no_write:
        return 0
    if is_partial(args) and args.output is None:
        print("[spark-bench] partial run: docs/performance.md left alone (give --output to "
              "write)", file=sys.stderr)
        return 0
    out = args.output or DEFAULT_OUTPUT
    write_section(out, section)
    print(f"[spark-bench] wrote the Spark section into {out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
