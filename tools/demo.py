"""The orders ETL job: Spark does the distributed work, rxpy2 carries the data to the slow parts.

    Spark (executors)                       | driver (rxpy2, under backpressure)
    raw lines -> parse -> validate          | -> batches -> pricing service (at most
    (one job per partition, under demand)   |    --concurrency calls at once, io threads)
                                            | -> Arrow record batches -> parquet sink
                                            |    (next write only after the last finished)

An orders dataset of ``--rows`` raw CSV lines in ``--partitions`` partitions is generated in
Spark (about 3% malformed), or read from ``--input``. ``from_dataframe`` pulls one partition
per Spark job, only when downstream demand reaches it; ``map(parse)`` and
``filter(is_valid)`` fuse into that job and run on the executors. On the driver the valid
orders are cut into batches, priced by a simulated remote service (``flat_map`` with
``max_concurrency``, each call on the io scheduler), turned into Arrow record batches and
written by ``rxpy2.spark.to_parquet``, which asks for the next batches only when the
previous write finished: the driver holds a bounded number of rows however large the
input. The job checks its own invariants and exits 1 when one does not hold.
"""

from __future__ import annotations

import argparse
import math
import os
import re
import resource
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
PRODUCTS = ("keyboard", "mouse", "monitor", "laptop", "dock", "cable", "headset")
PRICES = ("9.50", "19.00", "49.90", "199.00", "1299.00")
TIERS = ("standard", "silver", "gold")
DISCOUNTS = (0.0, 0.05, 0.12)  # per tier
OUT_COLUMNS = (("order_id", "int64"), ("day", "string"), ("customer", "string"),
               ("product", "string"), ("qty", "int32"), ("unit_price", "float64"),
               ("tier", "string"), ("total", "float64"))

# Set on the driver before the chain is assembled; the fused functions below are pickled
# by value (this file runs as __main__) and carry the accumulator to the executors.
REJECTED: Any = None


# ---------------------------------------------------------------------------- in Spark

def parse(row: tuple) -> tuple:
    """One raw line -> (order_id, day, customer, product, qty, unit_price), or
    ("malformed", line) when a field is missing or not a number."""
    line = row[0]
    f = line.split(",")
    if len(f) != 6:
        return ("malformed", line)
    try:
        return (int(f[0]), f[1], f[2], f[3], int(f[4]), float(f[5]))
    except ValueError:
        return ("malformed", line)


def is_valid(order: tuple) -> bool:
    ok = len(order) == 6 and order[4] > 0 and order[5] > 0
    if not ok:
        REJECTED.add(1)  # an accumulator: executors count, the driver reads the sum
    return ok


def raw_orders_sql(seed: int) -> list[list[str]]:
    """Spark SQL select lists that turn ``id`` into a raw order line ``line``
    (deterministic in ``seed``; applied one after the other with ``selectExpr``)."""
    products = ", ".join(f"'{p}'" for p in PRODUCTS)
    prices = ", ".join(f"'{p}'" for p in PRICES)

    def pick(shift: int, n: int) -> str:  # a number in [0, n) from some bits of the hash
        return f"CAST(pmod(shiftright(h, {shift}), {n}) AS INT)"

    fields = [
        f"CAST(date_add(DATE'2026-01-01', {pick(40, 90)}) AS STRING) AS day",
        f"concat('C', lpad(CAST({pick(24, 20000)} AS STRING), 5, '0')) AS customer",
        f"element_at(array({products}), {pick(0, len(PRODUCTS))} + 1) AS product",
        f"CAST({pick(8, 5)} + 1 AS STRING) AS qty",
        f"element_at(array({prices}), {pick(16, len(PRICES))} + 1) AS price",
    ]
    head = "CAST(id AS STRING), day, customer, product"
    line = f"""CASE WHEN {pick(48, 100)} >= 3 THEN concat_ws(',', {head}, qty, price)
                    WHEN {pick(56, 3)} = 0 THEN concat_ws(',', {head}, '', price)
                    WHEN {pick(56, 3)} = 1 THEN concat_ws(',', {head}, qty, 'n/a')
                    ELSE concat_ws(',', {head})
               END AS line"""
    # about 3% malformed: a missing quantity, a price that is not a number, a cut line
    return [["id", f"xxhash64(id, {seed}) AS h"], ["id", "h", *fields], [line]]


# ---------------------------------------------------------------------------- on the driver

class Stats:
    """Counters: each is written by one serialized stage (§1.3), read by the progress thread."""

    def __init__(self) -> None:
        self.read_rows = 0  # valid orders that arrived from Spark, counted per batch
        self.read_batches = 0
        self.priced_batches = 0
        self.max_in_service = 0  # batches read but not yet priced (bound: --concurrency)
        self.max_held = 0  # batches read but not yet written (bound: see ``held`` below)
        self.revenue = 0.0
        self.sink_tables = 0  # record batches handed to the sink
        self.sink_rows: list[int] = [0]  # cumulative rows per record batch handed over
        self.sink_requested = 0  # record batches the sink asked for
        self.calls = 0
        self.max_concurrent_calls = 0


class PricingService:
    """A remote pricing call: ``latency`` seconds per batch; counts calls in flight."""

    def __init__(self, latency: float, st: Stats) -> None:
        self.latency = latency
        self.st = st
        self.active = 0
        self.lock = threading.Lock()

    def price(self, batch: list[tuple]) -> list[tuple]:
        st = self.st
        with self.lock:
            self.active += 1
            st.calls += 1
            st.max_concurrent_calls = max(st.max_concurrent_calls, self.active)
        try:
            time.sleep(self.latency)  # the network round trip
            out = []
            for order_id, day, customer, product, qty, unit_price in batch:
                tier = int(customer[1:]) % 3
                total = round(qty * unit_price * (1.0 - DISCOUNTS[tier]), 2)
                out.append((order_id, day, customer, product, qty, unit_price, TIERS[tier],
                            total))
            return out
        finally:
            with self.lock:
                self.active -= 1

    def call(self, batch: list[tuple]) -> Any:
        """The call as a Flowable that runs on an io thread when subscribed."""
        from rxpy2 import Flowable
        from rxpy2.schedulers import Schedulers

        return Flowable.from_callable(lambda: self.price(batch)).subscribe_on(Schedulers.io())


def arrow_schema() -> Any:
    import pyarrow as pa

    return pa.schema([(name, getattr(pa, kind)()) for name, kind in OUT_COLUMNS])


def to_record_batch(rows: list[tuple], schema: Any) -> Any:
    """Rows -> one Arrow record batch (columnar: the sink hands it to Spark as it is)."""
    import pyarrow as pa

    columns = list(zip(*rows, strict=True))
    return pa.RecordBatch.from_arrays(
        [pa.array(col, type=field.type) for col, field in zip(columns, schema, strict=True)],
        schema=schema)


# ---------------------------------------------------------------------------- Spark

def spark_log_path() -> Path:
    """Where the JVM's own output goes: out/ of the repository, else the temp directory."""
    for folder in (ROOT / "out", Path(tempfile.gettempdir())):
        try:
            folder.mkdir(parents=True, exist_ok=True)
            path = folder / "demo-spark.log"
            path.touch()
            return path
        except OSError:
            continue
    return Path(os.devnull)


def start_spark(master: str, log_path: Path, partitions: int) -> Any:
    """An embedded SparkSession; the JVM's own output goes to ``log_path``."""
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    if master.startswith("local"):
        os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
    from pyspark.sql import SparkSession

    log4j = Path(tempfile.gettempdir()) / "rxpy2-demo-log4j2.properties"
    log4j.write_text("rootLogger.level = error\n"
                     "rootLogger.appenderRef.stderr.ref = console\n"
                     "appender.console.type = Console\n"
                     "appender.console.name = console\n"
                     "appender.console.target = SYSTEM_ERR\n"
                     "appender.console.layout.type = PatternLayout\n"
                     "appender.console.layout.pattern = %d{HH:mm:ss} %p %c{1}: %m%n%ex\n")
    builder = (SparkSession.builder.master(master).appName("rxpy2-demo")
               .config("spark.ui.enabled", "false")
               .config("spark.ui.showConsoleProgress", "false")
               .config("spark.log.level", "ERROR")
               .config("spark.driver.extraJavaOptions",
                       f"-Dlog4j2.configurationFile=file:{log4j}")
               .config("spark.sql.shuffle.partitions", str(partitions))
               .config("spark.ui.retainedJobs", "100000"))
    # the JVM inherits this process's stderr when it starts: point it at the log file
    sys.stderr.flush()
    saved = os.dup(2)
    fd = os.open(log_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    try:
        os.dup2(fd, 2)
        spark = builder.getOrCreate()
    finally:
        os.dup2(saved, 2)
        os.close(saved)
        os.close(fd)
    spark.sparkContext.setLogLevel("ERROR")
    return spark


class JobCounter:
    """Spark jobs started so far, from the status tracker (job ids are consecutive)."""

    def __init__(self, sc: Any) -> None:
        self.tracker = sc.statusTracker()
        self.next_id = 0
        self.count()

    def count(self) -> int:
        while self.tracker.getJobInfo(self.next_id) is not None:
            self.next_id += 1
        return self.next_id


def telling_lines(cause: BaseException | None, keep: int = 3) -> list[str]:
    """The exception lines of a (Java or Python) traceback in ``cause``, without frames."""
    if cause is None:
        return []
    found: list[str] = []
    for raw in str(cause).splitlines():
        line = raw.strip().removeprefix("Caused by: ").removeprefix(": ")
        m = re.search(r"[\w.$]*(Exception|Error)(: .*)?$", line)
        if m and not line.startswith("at ") and m.group(0) not in found:
            found.append(m.group(0)[:300])
    return found[-keep:] or [f"{type(cause).__name__}: {str(cause)[:300]}"]


def jvm_peak_rss_mib(sc: Any) -> float | None:
    """Peak RSS of the driver's JVM (a child of this process in local and client mode)."""
    try:
        pid = sc._gateway.proc.pid
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except Exception:
        return None
    return None


# ---------------------------------------------------------------------------- progress

class Progress:
    """tqdm bars fed from the counters by a timer thread (never per row): rows read from
    Spark and rows written on a terminal; one bar with the rest as a postfix otherwise."""

    def __init__(self, st: Stats, total: int | None, sink_batch: int) -> None:
        from tqdm import tqdm

        self.st = st
        self.sink_batch = sink_batch
        self.tty = sys.stderr.isatty()
        self.interval = 0.25 if self.tty else 5.0
        kw = {"total": total, "unit": " rows", "unit_scale": True, "dynamic_ncols": True,
              "mininterval": 0, "smoothing": 0}
        self.read = tqdm(desc="read from Spark", position=0, **kw)
        self.written = tqdm(desc="written        ", position=1, **kw) if self.tty else None
        self.partitions: Any = lambda: 0
        self.stop_event = threading.Event()
        self.thread = threading.Thread(target=self._run, name="demo-progress", daemon=True)

    def written_rows(self) -> int:
        """Rows of the record batches whose write finished: the sink asks for the next
        ``sink_batch`` only when a write is done, so its requests beyond the first tell."""
        st = self.st
        done = max(0, min(st.sink_requested - self.sink_batch, len(st.sink_rows) - 1))
        return st.sink_rows[done]

    def start(self) -> None:
        self.thread.start()

    def _update(self, written: int | None = None) -> None:
        st = self.st
        if written is None:
            written = self.written_rows()
        post = f"partitions {self.partitions()}, pricing calls {st.calls}"
        if self.written is None:
            post = f"written {written:,}, " + post
        self.read.set_postfix_str(post, refresh=False)
        self.read.update(st.read_rows - self.read.n)
        if self.written is not None:
            self.written.update(written - self.written.n)

    def _run(self) -> None:
        while not self.stop_event.wait(self.interval):
            self._update()

    def close(self, written: int | None) -> None:
        self.stop_event.set()
        if self.thread.is_alive():
            self.thread.join()
        self._update(written)
        for bar in (self.read, self.written):
            if bar is not None:
                if written is not None:
                    bar.total = bar.n  # the end: the totals are known now
                bar.refresh()
                bar.close()


# ---------------------------------------------------------------------------- the job

def build_input(spark: Any, args: argparse.Namespace) -> Any:
    """The raw lines: a DataFrame with one string column ``line``."""
    if args.input is None:
        df = spark.range(0, args.rows, 1, args.partitions)
        for select in raw_orders_sql(args.seed):
            df = df.selectExpr(*select)
        return df
    path = args.input
    local = Path(path)
    if local.suffix == ".parquet" or (local.is_dir() and any(local.glob("*.parquet"))):
        df = spark.read.parquet(path)
        first = next((f.name for f in df.schema.fields
                      if f.dataType.simpleString() == "string"), df.columns[0])
        df = df.selectExpr(f"CAST(`{first}` AS STRING) AS line")
    else:  # CSV or text (a file or a directory of them): one raw line per row
        df = spark.read.text(path).withColumnRenamed("value", "line")
    if args.partitions_given:
        df = df.repartition(args.partitions)
    return df


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--master", default="local[2]", help="Spark master (default local[2])")
    ap.add_argument("--rows", type=int, default=2_000_000, help="orders to generate")
    ap.add_argument("--partitions", type=int, default=None,
                    help="partitions of the generated data (default 16); with --input: "
                         "repartition to this many")
    ap.add_argument("--output", default=str(ROOT / "out" / "orders.parquet"),
                    help="parquet directory or URI, overwritten (default out/orders.parquet)")
    ap.add_argument("--input", default=None,
                    help="read raw order lines from this CSV/text file (or directory, or "
                         "URI) or parquet instead of generating them")
    ap.add_argument("--batch", type=int, default=5_000, help="orders per pricing call")
    ap.add_argument("--concurrency", type=int, default=4,
                    help="pricing calls at most in flight at once")
    ap.add_argument("--latency", type=float, default=0.05,
                    help="seconds the pricing service takes per call")
    ap.add_argument("--write-batch", type=int, default=40,
                    help="record batches (of --batch orders) per parquet write")
    ap.add_argument("--write-ahead", type=int, default=None,
                    help="record batches prepared ahead while the sink writes (default: "
                         "--write-batch; 0: none)")
    ap.add_argument("--prefetch", type=int, default=1,
                    help="partitions computed ahead of demand")
    ap.add_argument("--on-driver", action="store_true",
                    help="parse and validate on the driver instead (fusion off)")
    ap.add_argument("--seed", type=int, default=7)
    args = ap.parse_args(argv)
    args.partitions_given = args.partitions is not None
    if args.partitions is None:
        args.partitions = 16
    if min(args.rows, args.partitions, args.batch, args.concurrency, args.write_batch) <= 0:
        ap.error("--rows, --partitions, --batch, --concurrency and --write-batch "
                 "must be positive")
    if args.write_ahead is None:
        args.write_ahead = args.write_batch
    if min(args.prefetch, args.write_ahead) < 0 or args.latency < 0:
        ap.error("--prefetch, --write-ahead and --latency must not be negative")
    return run(args)


def run(args: argparse.Namespace) -> int:
    t0 = time.perf_counter()
    import rxpy2.spark as rs
    from rxpy2.schedulers import Schedulers

    log_path = spark_log_path()
    print(f"rxpy2 demo: starting Spark ({args.master}; Spark's log: {log_path})", flush=True)
    try:
        spark = start_spark(args.master, log_path, args.partitions)
    except Exception as e:
        print(f"could not start Spark: {e}\n(see {log_path}; Spark needs java on PATH "
              "or JAVA_HOME)", file=sys.stderr)
        return 1
    sc = spark.sparkContext
    try:
        return pipeline(args, spark, sc, rs, t0)
    finally:
        Schedulers.shutdown()
        spark.stop()


def pipeline(args: argparse.Namespace, spark: Any, sc: Any, rs: Any, t0: float) -> int:
    global REJECTED
    from rxpy2.schedulers import Schedulers

    startup = time.perf_counter() - t0
    jobs = JobCounter(sc)
    REJECTED = sc.accumulator(0)
    if __name__ != "__main__":  # imported: ship parse/is_valid by value all the same
        from pyspark import cloudpickle

        cloudpickle.register_pickle_by_value(sys.modules[__name__])
    raw = build_input(spark, args)
    st = Stats()
    service = PricingService(args.latency, st)
    schema = arrow_schema()

    def on_batch_read(batch: list) -> None:
        st.read_rows += len(batch)
        st.read_batches += 1
        in_service = st.read_batches - st.priced_batches
        if in_service > st.max_in_service:
            st.max_in_service = in_service
        # the sink asks for the next write_batch only after a write: what it asked for
        # beyond the first write_batch was written
        held = st.read_batches - max(0, st.sink_requested - args.write_batch)
        if held > st.max_held:
            st.max_held = held

    def on_batch_priced(batch: list) -> None:
        st.priced_batches += 1
        st.revenue += math.fsum(row[7] for row in batch)

    def on_sink_item(rb: Any) -> None:
        st.sink_tables += 1
        st.sink_rows.append(st.sink_rows[-1] + rb.num_rows)

    def on_sink_request(n: int) -> None:
        st.sink_requested += n

    source = rs.from_dataframe(raw, prefetch_partitions=args.prefetch, row_format="tuple",
                               fuse=not args.on_driver)
    orders = source.map(parse).filter(is_valid)  # fused: one mapPartitions on the executors
    spark_part = orders if isinstance(orders, rs.SparkFlowable) else source
    chain = (orders
             .buffer(args.batch)
             .do_on_next(on_batch_read)
             .flat_map(service.call, max_concurrency=args.concurrency)
             .do_on_next(on_batch_priced)
             .map(lambda rows: to_record_batch(rows, schema)))
    if args.write_ahead:  # keep the upstream busy while the sink writes: a bounded queue
        chain = chain.observe_on(Schedulers.computation(), buffer_size=args.write_ahead)
    chain = chain.do_on_next(on_sink_item).do_on_request(on_sink_request)

    where = "on the driver (fusion off)" if args.on_driver else "in Spark, fused into the partition jobs"
    what = (f"{args.rows:,} orders generated in Spark, {args.partitions} partitions"
            if args.input is None else f"orders read from {args.input}")
    ahead = f", {args.write_ahead} prepared ahead" if args.write_ahead else ""
    print(f"{what}\n"
          f"  -> parse + validate {where} (prefetch {args.prefetch} partition)\n"
          f"  -> batches of {args.batch:,} -> pricing service: at most {args.concurrency} calls "
          f"at once, {args.latency * 1000:.0f} ms each, on the io scheduler\n"
          f"  -> Arrow record batches -> parquet, {args.write_batch} batches per write{ahead}"
          f" -> {args.output}")
    print("plan:")
    print("  " + rs.explain(chain).replace("\n", "\n  "), flush=True)

    progress = Progress(st, args.rows if args.input is None else None, args.write_batch)
    progress.partitions = lambda: len(sc.statusTracker().getJobIdsForGroup(
        spark_part.job_group(1)))
    jobs_before = jobs.count()
    t1 = time.perf_counter()
    progress.start()
    error: BaseException | None = None
    summary = None
    try:
        summary = chain.to(rs.to_parquet(args.output, spark, batch_size=args.write_batch,
                                         mode="overwrite")).blocking_get()
    except KeyboardInterrupt:
        progress.close(None)
        print("\ninterrupted: the pipeline was cancelled (and its Spark jobs with it)",
              file=sys.stderr)
        return 130
    except Exception as e:  # reported below
        error = e
    elapsed = time.perf_counter() - t1
    progress.close(summary.rows if summary is not None else None)
    if error is not None:
        print(f"pipeline failed: {type(error).__name__}: {error}", file=sys.stderr)
        for line in telling_lines(error.__cause__):
            print(f"  caused by: {line}", file=sys.stderr)
        return 1

    pipeline_jobs = jobs.count() - jobs_before
    partition_jobs = len(sc.statusTracker().getJobIdsForGroup(spark_part.job_group(1)))
    rejected = REJECTED.value
    # read the output back: what Spark finds on disk is what went through the driver
    check = spark.read.parquet(args.output).selectExpr(
        "count(*) AS n", "sum(total) AS revenue").first()
    total_elapsed = time.perf_counter() - t0
    peak_mib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    jvm_mib = jvm_peak_rss_mib(sc)
    received = st.read_rows
    rows_in = received + rejected
    bound = args.concurrency
    # full batches: in the service (or priced, waiting for demand) + prepared ahead + in
    # the sink (besides them, one batch is being filled)
    held = bound + args.write_ahead + args.write_batch
    print("summary")
    print(f"  rows read (raw lines)   {rows_in:>12,}  parsed and validated "
          f"{'in Spark' if not args.on_driver else 'on the driver'}")
    print(f"  rejected (malformed)    {rejected:>12,}  ({rejected / max(1, rows_in):.1%}, "
          "counted by an accumulator)")
    print(f"  valid rows to driver    {received:>12,}")
    print(f"  rows written            {summary.rows:>12,}  in {summary.batches} parquet writes "
          f"({check['n']:,} rows read back)")
    print(f"  partitions pulled       {partition_jobs:>12,}  of {spark_part.num_partitions} "
          f"(one Spark job each, prefetch {args.prefetch})")
    print(f"  Spark jobs run          {pipeline_jobs:>12,}  ({partition_jobs} reading partitions,"
          f" {pipeline_jobs - partition_jobs} writing parquet)")
    print(f"  pricing calls           {st.calls:>12,}  (at most {st.max_concurrent_calls} at "
          f"once, limit {args.concurrency})")
    print(f"  max batches in service  {st.max_in_service:>12,}  (bound: {bound}, the "
          "pricing calls at once)")
    print(f"  max batches on driver   {st.max_held:>12,}  (bound: {held} = {bound} + "
          f"{args.write_ahead} ahead + {args.write_batch} in the sink, of {args.batch:,} "
          "rows)")
    print(f"  revenue                 {st.revenue:>12,.2f}  (read back: "
          f"{(check['revenue'] or 0.0):,.2f})")
    jvm = f", driver JVM {jvm_mib:,.0f} MiB" if jvm_mib is not None else ""
    print(f"  peak driver memory      {peak_mib:>12,.0f} MiB  (Python driver, RSS{jvm})")
    print(f"  elapsed                 {total_elapsed:>12.1f} s  (Spark start {startup:.1f} s, "
          f"pipeline {elapsed:.1f} s: {received / max(elapsed, 1e-9):,.0f} rows/s)")
    output = args.output if "://" in args.output else str(Path(args.output).resolve())
    print(f"  output                  {output}")

    failures = []
    if summary.rows != received or check["n"] != received:
        failures.append(f"valid rows {received:,}, written {summary.rows:,}, "
                        f"read back {check['n']:,}")
    if args.input is None and rows_in != args.rows:
        failures.append(f"{args.rows:,} rows generated but {rows_in:,} accounted for")
    if not math.isclose(st.revenue, check["revenue"] or 0.0, rel_tol=1e-9, abs_tol=0.01):
        failures.append(f"revenue {st.revenue:,.2f} != read back {check['revenue']:,.2f}")
    if st.max_concurrent_calls > args.concurrency:
        failures.append(f"{st.max_concurrent_calls} pricing calls at once, limit "
                        f"{args.concurrency}")
    if st.max_in_service > bound:
        failures.append(f"{st.max_in_service} batches in the service stage, bound {bound}")
    if st.max_held > held:
        failures.append(f"{st.max_held} batches held on the driver, bound {held}")
    if partition_jobs != spark_part.num_partitions:
        failures.append(f"{partition_jobs} partition jobs for {spark_part.num_partitions} "
                        "partitions")
    if failures:
        for f in failures:
            print(f"check FAILED: {f}", file=sys.stderr)
        return 1
    print("checks passed: every valid row written once, concurrency and buffers bounded")
    return 0


if __name__ == "__main__":
    sys.exit(main())
