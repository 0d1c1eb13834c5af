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
input. The job checks its own invariants and exits 1 when one does not hold; a bad option,
or a local ``--input`` that names nothing, exits 2 before Spark starts.
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

#: The input line format (``--input``): one order per line.
LINE_FIELDS = ("order_id", "day", "customer", "product", "qty", "unit_price")
LINE_EXAMPLE = "1042,2026-02-17,C00042,keyboard,2,49.90"
#: Why a line is rejected: the key ``parse``/``is_valid`` count it under, and its text.
REASONS = {
    "fields": "not 6 comma-separated fields",
    "number": "order_id or qty not an integer, or unit_price not a number",
    "range": "qty or unit_price not positive",
}

# Set on the driver before the chain is assembled; the fused functions below are pickled
# by value (this file runs as __main__) and carry the accumulators to the executors.
REJECTED: dict[str, Any] = {}  # reason -> accumulator of the lines rejected for it
HEADERS: Any = None  # accumulator: header lines skipped


# ---------------------------------------------------------------------------- in Spark

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_ ]*")


def is_header(fields: list[str]) -> bool:
    """A header line: six column names (letters, digits, ``_``, spaces; optionally quoted)."""
    return all(_NAME.fullmatch(f.strip().strip('"').strip()) for f in fields)


def parse(row: tuple) -> tuple:
    """One raw line -> (order_id, day, customer, product, qty, unit_price); a line that is
    not an order -> ("header",) or ("malformed", reason) with a key of ``REASONS``."""
    line = row[0]
    f = line.split(",")
    if len(f) != 6:
        return ("malformed", "fields")
    try:
        return (int(f[0]), f[1], f[2], f[3], int(f[4]), float(f[5]))
    except ValueError:
        return ("header",) if is_header(f) else ("malformed", "number")


def is_valid(order: tuple) -> bool:
    if len(order) == 6:
        if order[4] > 0 and order[5] > 0:
            return True
        REJECTED["range"].add(1)
    elif order[0] == "header":
        HEADERS.add(1)
    else:
        REJECTED[order[1]].add(1)  # accumulators: executors count, the driver reads the sums
    return False


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
    if master.startswith("local") or re.match(r"spark://(127\.0\.0\.1|localhost):", master):
        # on this machine only: the driver listens on the loopback address, as the cluster
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
    """tqdm bars fed from the counters by a timer thread (never per row): raw lines read in
    Spark and rows written on a terminal; one bar with the rest as a postfix otherwise.

    The read bar counts every raw line: the valid rows that reached the driver plus the
    lines rejected or skipped in Spark (``not_valid``: the accumulators, updated as each
    partition's job ends), so with generated input it ends exactly at its total (``--rows``).
    The written bar has no total: how many rows are valid is known only at the end."""

    def __init__(self, st: Stats, total: int | None, sink_batch: int) -> None:
        from tqdm import tqdm as _tqdm

        class tqdm(_tqdm):
            """No rate before a second has passed: one from a few milliseconds means
            nothing (a handful of rows would show as thousands a second)."""

            @property
            def format_dict(self) -> dict[str, Any]:
                d = dict(super().format_dict)
                if d.get("elapsed", 0) < 1.0:
                    d["rate"] = 0  # shown as "?"
                return d

        self.st = st
        self.sink_batch = sink_batch
        self.tty = sys.stderr.isatty()
        self.interval = 0.25 if self.tty else 5.0
        # counts as integers ("4 rows", not tqdm's "4.00"), rates never inverted ("0.12
        # rows/s", not "8.42s/ rows"); unit_scale keeps large rates short ("1.2M rows/s")
        counted = "{desc}: {n:,}{unit} [{elapsed}, {rate_noinv_fmt}{postfix}]"
        kw: dict[str, Any] = {"unit": " rows", "unit_scale": True, "dynamic_ncols": True,
                              "mininterval": 0, "smoothing": 0, "bar_format": counted}
        read_format = (counted if total is None else
                       "{desc}: {percentage:3.0f}%|{bar}| {n:,}/{total:,}{unit} "
                       "[{elapsed}<{remaining}, {rate_noinv_fmt}{postfix}]")
        self.read = tqdm(desc="lines read in Spark", total=total, position=0,
                         **{**kw, "bar_format": read_format})
        self.written = (tqdm(desc="rows written       ", position=1, **kw)
                        if self.tty else None)
        self.partitions: Any = lambda: 0
        self.not_valid: Any = lambda: 0
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
        lines = st.read_rows + self.not_valid()
        if self.read.total is not None:
            lines = min(lines, self.read.total)
        self.read.update(lines - self.read.n)
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
                bar.refresh()
                bar.close()


def rate_text(rows: int, seconds: float) -> str:
    """``rows`` in ``seconds`` for a person: a rate with sensible digits, or, under a
    second (too short for a rate to mean much), the count and the time."""
    if rows == 0:
        return f"no rows in {seconds:.2f} s"
    if seconds < 1.0:
        return f"{rows:,} rows in {seconds * 1000:,.0f} ms"
    rate = rows / seconds
    if rate >= 100:
        return f"{rate:,.0f} rows/s"
    return f"{rate:.3g} rows/s"


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


INPUT_HELP = f"""\
input lines (--input): one order per line, six comma-separated fields
  {",".join(LINE_FIELDS)}
  e.g. {LINE_EXAMPLE}
order_id and qty integers, unit_price a number, qty and unit_price positive; any other
line is rejected (counted by reason). A header line of column names is skipped. From
parquet, the lines are the first string column.

on a cluster: --master spark://HOST:7077; --output (and --input) must then be paths
every executor can reach (a shared filesystem, HDFS, S3, ...). The executors run
PYSPARK_PYTHON (default: this interpreter's path), which needs PySpark but not rxpy2."""


def no_valid_rows(args: argparse.Namespace, reasons: dict[str, int], headers: int,
                  raw: Any) -> int:
    """The input held no valid order: say what was read and why it was rejected, with a
    few of the lines; nothing was written. Exit status 1."""
    rejected = sum(reasons.values())
    lines = rejected + headers
    source = f"--input {args.input}" if args.input is not None else "the generated input"
    out = [f"no valid order in {source}: {lines:,} line{'s' * (lines != 1)} read, "
           f"{rejected:,} rejected" + (f", {headers:,} header line{'s' * (headers != 1)} "
                                       "skipped" if headers else "")]
    for reason, n in reasons.items():
        if n:
            out.append(f"  {n:>8,}  {REASONS[reason]}")
    try:  # a few of the lines themselves (a small job: the first rows only)
        sample = [r[0] for r in raw.limit(3).collect()]
    except Exception:
        sample = []
    for line in sample:
        kind = parse((line,))
        why = ("header" if kind[0] == "header" else REASONS[kind[1]] if len(kind) == 2
               else REASONS["range"])
        out.append(f"  e.g. {line[:100]!r}: {why}")
    out.append(f"expected one order per line: {','.join(LINE_FIELDS)}\n"
               f"  e.g. {LINE_EXAMPLE}  (tools/demo --help: the format)")
    out.append(f"nothing was written to {args.output}")
    print("\n".join(out), file=sys.stderr)
    return 1


def input_problem(path: str) -> str | None:
    """Why ``--input`` cannot be read, found before Spark starts (which takes half a
    minute): a local path (no URI scheme, or ``file:``) that names nothing, or a glob that
    matches nothing. ``None`` otherwise; a URI of another filesystem (``hdfs://``,
    ``s3a://``, ...) and a ``{a,b}`` pattern are left to Spark."""
    scheme = re.match(r"([A-Za-z][A-Za-z0-9+.-]+):", path)
    local = path
    if scheme is not None:
        if scheme.group(1).lower() != "file":
            return None
        local = re.sub(r"^file:(//)?", "", path, flags=re.IGNORECASE)
    if not local or "{" in local:
        return None
    if any(c in local for c in "*?["):
        import glob

        return None if glob.glob(local) else f"--input {path}: no file matches it"
    if not os.path.exists(local):
        return f"--input {path}: no such file or directory"
    return None


def main(argv: list[str] | None = None) -> int:
    return run(parse_args(argv))


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The command line, checked (argparse exits with status 2 and the usage otherwise)."""
    ap = argparse.ArgumentParser(prog="tools/demo", description=__doc__.splitlines()[0],
                                 epilog=INPUT_HELP,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--master", default="local[2]",
                    help="Spark master: local[N] or spark://HOST:PORT (default: local[2])")
    ap.add_argument("--rows", type=int, default=2_000_000,
                    help="orders to generate, without --input (default: 2000000)")
    ap.add_argument("--partitions", type=int, default=None,
                    help="partitions of the generated data (default: 16); with --input: "
                         "repartition to this many (default: as read)")
    ap.add_argument("--output", default=str(ROOT / "out" / "orders.parquet"),
                    help="parquet directory or URI, overwritten (default: out/orders.parquet)")
    ap.add_argument("--input", default=None,
                    help="read raw order lines from this CSV/text file (or directory, or "
                         "URI) or parquet instead of generating them; the line format is "
                         "below (default: none, generate --rows orders)")
    ap.add_argument("--batch", type=int, default=5_000,
                    help="orders per pricing call (default: 5000)")
    ap.add_argument("--concurrency", type=int, default=4,
                    help="pricing calls at most in flight at once (default: 4)")
    ap.add_argument("--latency", type=float, default=0.05,
                    help="seconds the pricing service takes per call (default: 0.05)")
    ap.add_argument("--write-batch", type=int, default=40,
                    help="record batches (of --batch orders) per parquet write (default: 40)")
    ap.add_argument("--write-ahead", type=int, default=None,
                    help="record batches prepared ahead while the sink writes (default: "
                         "--write-batch; 0: none)")
    ap.add_argument("--prefetch", type=int, default=1,
                    help="partitions computed ahead of demand (default: 1)")
    ap.add_argument("--on-driver", action="store_true",
                    help="parse and validate on the driver instead (default: off, fused "
                         "into Spark)")
    ap.add_argument("--seed", type=int, default=7,
                    help="seed of the generated orders (default: 7)")
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
    problem = None if args.input is None else input_problem(args.input)
    if problem is not None:
        ap.error(problem)
    return args


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
    global REJECTED, HEADERS
    from rxpy2.schedulers import Schedulers

    startup = time.perf_counter() - t0
    jobs = JobCounter(sc)
    REJECTED = {reason: sc.accumulator(0) for reason in REASONS}
    HEADERS = sc.accumulator(0)
    if __name__ != "__main__":  # imported: ship parse/is_valid by value all the same
        from pyspark import cloudpickle

        cloudpickle.register_pickle_by_value(sys.modules[__name__])
    try:
        raw = build_input(spark, args)
    except Exception as e:  # a missing path, a file Spark cannot read: no Py4J traceback
        first = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
        print(f"cannot read --input {args.input}: {first[:500]}", file=sys.stderr)
        return 1
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
    progress.not_valid = lambda: sum(a.value for a in REJECTED.values()) + HEADERS.value
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
    reasons = {reason: acc.value for reason, acc in REJECTED.items()}
    rejected = sum(reasons.values())
    headers = HEADERS.value
    if st.read_rows == 0:
        return no_valid_rows(args, reasons, headers, raw)
    # read the output back: what Spark finds on disk is what went through the driver
    check = spark.read.parquet(args.output).selectExpr(
        "count(*) AS n", "sum(total) AS revenue").first()
    total_elapsed = time.perf_counter() - t0
    peak_mib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    jvm_mib = jvm_peak_rss_mib(sc)
    received = st.read_rows
    rows_in = received + rejected + headers
    bound = args.concurrency
    # full batches: in the service (or priced, waiting for demand) + prepared ahead + in
    # the sink (besides them, one batch is being filled)
    held = bound + args.write_ahead + args.write_batch
    print("summary")
    print(f"  rows read (raw lines)   {rows_in:>12,}  parsed and validated "
          f"{'in Spark' if not args.on_driver else 'on the driver'}")
    print(f"  rejected (malformed)    {rejected:>12,}  ({rejected / max(1, rows_in):.1%}, "
          "counted by accumulators)")
    for reason, n in reasons.items():
        if n:
            print(f"    {REASONS[reason]:<38} {n:>10,}")
    if headers:
        print(f"  header lines skipped    {headers:>12,}")
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
          f"pipeline {elapsed:.1f} s: {rate_text(received, elapsed)})")
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
