"""What the Spark benchmarks share: the session, the data, the consumer and the timing loop.

:mod:`benchmarks.spark` (rows, heavy map, memory), :mod:`benchmarks.spark_pushdown` (take,
Column filters, count) and :mod:`benchmarks.spark_stream` all measure with these, so their
figures are taken the same way: the same session settings and data, one consumer that
counts the rows and adds up their ``id``, methods run round-robin and every run checked.
"""

from __future__ import annotations

import gc
import os
import statistics
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from dataclasses import field
from typing import Any

from benchmarks.common import Checksum

#: How long one method's run may take before it counts as hung (seconds).
RUN_TIMEOUT = 1800.0
#: Peak RSS may grow by at most this much from the small to the large size to count as flat.
#: Holding a whole partition (125k rows at 1M, 500k at 4M) would add tens of MiB.
FLAT_MIB = 4.0


# ---------------------------------------------------------------------------- data and session


def start_session(master: str, driver_memory: str) -> Any:
    """The benchmark's SparkSession (one per process): UI and progress bars off, logs quiet,
    the executors on this Python unless ``PYSPARK_PYTHON`` says otherwise."""
    from pyspark.sql import SparkSession

    spark = (SparkSession.builder.master(master).appName("rxpy2-bench-spark")
             .config("spark.ui.enabled", "false")
             .config("spark.ui.showConsoleProgress", "false")
             .config("spark.driver.memory", driver_memory)
             .config("spark.sql.shuffle.partitions", "8")
             .getOrCreate())
    spark.sparkContext.setLogLevel("ERROR")
    if "PYSPARK_PYTHON" not in os.environ:
        # the executors run this Python, as a deployment's run the driver's (PySpark's own
        # default is whatever ``python3`` is on PATH): with its pyarrow, fused stages read
        # Arrow batches
        spark.sparkContext.pythonExec = sys.executable
    return spark


def build_dataframe(spark: Any, rows: int, partitions: int, cache: bool) -> Any:
    """``rows`` rows in ``partitions`` partitions: ``id`` (0..rows-1), two numbers and a string.

    With ``cache`` the DataFrame is cached and counted, so every later job reads the same
    in-memory data; without, each job recomputes it (deterministic)."""
    df = spark.range(0, rows, 1, partitions).selectExpr(
        "id",
        "id * 3 + 1 AS amount",
        "CAST(id % 997 AS DOUBLE) / 8.0 AS price",
        "concat('order-', lpad(CAST(id AS STRING), 10, '0')) AS label")
    if cache:
        df = df.cache()
        if df.count() != rows:
            raise AssertionError("the cached DataFrame does not hold every row")
    return df


def make_row_sink() -> tuple[Callable[[Any], None], Callable[[], Checksum]]:
    """The consumer of every row method: counts the rows and adds up ``row[0]`` (``id``)."""
    count = 0
    total = 0

    def consume(row: Any) -> None:
        nonlocal count, total
        count += 1
        total += row[0]

    return consume, lambda: (count, total)


@dataclass
class Context:
    spark: Any
    df: Any
    rows: int
    partitions: int
    heavy: Callable[[Any], int] | None = None


@dataclass
class Method:
    key: str
    label: str
    kind: str  # "pyspark" or "rxpy2"
    run: Callable[[Context], Checksum]


def _wait(done: threading.Event, errors: list[BaseException], what: str) -> None:
    if not done.wait(RUN_TIMEOUT):
        raise TimeoutError(f"{what}: not finished after {RUN_TIMEOUT:.0f} s")
    if errors:
        raise errors[0]


def subscribe_rows(flowable: Any, consume: Callable[[Any], None], what: str) -> None:
    done = threading.Event()
    errors: list[BaseException] = []

    def on_error(e: BaseException) -> None:
        errors.append(e)
        done.set()

    flowable.subscribe(consume, on_error, done.set)
    _wait(done, errors, what)


@dataclass
class Timed:
    method: Method
    rows: int
    checksum: Checksum
    samples: list[float] = field(default_factory=list)  # seconds per run

    @property
    def median(self) -> float:
        return statistics.median(self.samples)

    @property
    def rows_per_s(self) -> float:
        return self.rows / self.median

    @property
    def spread(self) -> float:
        return (max(self.samples) - min(self.samples)) / self.median


def _spark_threads() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name.startswith("rxpy2-spark")]


def settle(what: str) -> None:
    """Wait until the rxpy2 job threads of the previous run have ended."""
    deadline = time.monotonic() + 30.0
    while _spark_threads() and time.monotonic() < deadline:
        time.sleep(0.01)
    left = _spark_threads()
    if left:
        raise RuntimeError(f"{what}: rxpy2 Spark threads still running: {[t.name for t in left]}")


def _time_one(method: Method, ctx: Context) -> tuple[float, Checksum]:
    gc.collect()
    t0 = time.perf_counter()
    checksum = method.run(ctx)
    dt = time.perf_counter() - t0
    settle(method.key)
    return dt, checksum


def run_interleaved(methods: list[Method], ctx: Context, runs: int, warm: Context | None,
                    expected: Checksum | None, warm_expected: Checksum | None = None,
                    progress: bool = True,
                    expected_by_key: dict[str, Checksum] | None = None) -> list[Timed]:
    """Each method once untimed over the smaller ``warm`` data (JIT and caches warm; checked
    as well), then ``runs`` round-robin rounds over ``ctx``'s data.

    ``expected=None`` (``warm_expected=None``): the first result is the reference every
    other run must equal. ``expected_by_key``: each method's own expected result, over
    ``ctx``'s data and ``warm``'s alike (the warm-up then runs on the same data)."""
    if warm is not None:
        for m in methods:
            if progress:
                print(f"[spark-bench] warm-up: {m.key} over {warm.rows:,} rows",
                      file=sys.stderr, flush=True)
            _, got = _time_one(m, warm)
            if expected_by_key is not None:
                _check(m, got, expected_by_key[m.key])
                continue
            if warm_expected is None:
                warm_expected = got
            _check(m, got, warm_expected)
    timed = [Timed(m, ctx.rows, expected or (0, 0)) for m in methods]
    if expected_by_key is not None:
        for t in timed:
            t.checksum = expected_by_key[t.method.key]
    k = len(timed)
    for r in range(runs):
        for j in range(k):
            t = timed[(r + j) % k]
            dt, got = _time_one(t.method, ctx)
            if expected_by_key is not None:
                _check(t.method, got, expected_by_key[t.method.key])
                t.samples.append(dt)
                if progress:
                    print(f"[spark-bench] run {r + 1}/{runs} {t.method.key}: {dt:.2f} s",
                          file=sys.stderr, flush=True)
                continue
            if expected is None:
                expected = got
                for u in timed:
                    u.checksum = got
            _check(t.method, got, expected)
            t.samples.append(dt)
            if progress:
                print(f"[spark-bench] run {r + 1}/{runs} {t.method.key}: {dt:.2f} s "
                      f"({ctx.rows / dt:,.0f} rows/s)", file=sys.stderr, flush=True)
    return timed


def _check(m: Method, got: Checksum, expected: Checksum) -> None:
    if got != expected:
        raise AssertionError(f"{m.key}: consumed (count, sum) = {got}, expected {expected}")
