"""Spark Connect: ``from_dataframe``'s one query per partition against one ``toLocalIterator``
of the whole DataFrame, on a local Connect server: ``python -m benchmarks.spark_connect``.

Each method runs in a fresh process (``--child METHOD``) with its own local Connect server
(``SparkSession.builder.remote("local[2]")``) over the same deterministic DataFrame
(``spark.range`` of ``--rows`` rows in ``--partitions`` partitions plus two computed
columns), so the server's memory is that method's alone:

* ``whole``: ``df.toLocalIterator()``, every row consumed on the driver;
* ``partitions``: ``from_dataframe(df)``, every row consumed on the driver (``prefetch 1``).

A run prints the wall time of the read (the server already started) and the peak RSS
(``VmHWM``) of the driver's Python and of the server's JVM (the driver's child process),
from ``/proc``. ``--slow-us`` makes the consumer sleep that many microseconds per 1024
rows: a reader slower than Spark, where the whole-DataFrame query's results pile up in the
server while the per-partition queries hold about one partition's. Linux only (``/proc``).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any


def _vmhwm_kib(pid: int | str) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    return 0


def _children(pid: int) -> list[int]:
    out: list[int] = []
    try:
        tasks = list(Path(f"/proc/{pid}/task").iterdir())
    except OSError:  # the process ended
        return out
    for task in tasks:
        try:
            text = (task / "children").read_text().split()
        except OSError:  # the thread ended meanwhile
            continue
        out.extend(int(c) for c in text)
    return out


def _descendants(pid: int) -> list[int]:
    found: list[int] = []
    todo = [pid]
    while todo:
        for c in _children(todo.pop()):
            found.append(c)
            todo.append(c)
    return found


def _jvm_peak_kib() -> int:
    peak = 0
    for pid in _descendants(os.getpid()):
        try:
            if "java" in Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")[0].decode():
                peak = max(peak, _vmhwm_kib(pid))
        except OSError:
            continue
    return peak


def child(method: str, rows: int, partitions: int, slow_us: int) -> dict[str, Any]:
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    from pyspark.sql import SparkSession

    from rxpy2.spark import from_dataframe

    spark = SparkSession.builder.remote("local[2]").getOrCreate()
    df = spark.range(0, rows, numPartitions=partitions).selectExpr(
        "id", "id * 2 AS twice", "concat('row-', CAST(id AS STRING)) AS name")
    pause = slow_us / 1e6
    n = total = 0
    start = time.perf_counter()
    if method == "whole":
        for r in df.toLocalIterator():
            n += 1
            total += r[0]
            if pause and n % 1024 == 0:
                time.sleep(pause)
    else:
        for r in from_dataframe(df).blocking_iterable():
            n += 1
            total += r[0]
            if pause and n % 1024 == 0:
                time.sleep(pause)
    seconds = time.perf_counter() - start
    assert (n, total) == (rows, rows * (rows - 1) // 2), (n, total)
    result = {"method": method, "rows": rows, "partitions": partitions, "slow_us": slow_us,
              "seconds": round(seconds, 2), "driver_peak_mib": _vmhwm_kib("self") // 1024,
              "server_peak_mib": _jvm_peak_kib() // 1024}
    spark.stop()
    return result


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=2_000_000)
    parser.add_argument("--partitions", type=int, default=8)
    parser.add_argument("--slow-us", type=int, default=0,
                        help="the consumer sleeps this long per 1024 rows")
    parser.add_argument("--child", choices=("whole", "partitions"))
    args = parser.parse_args(argv)
    if args.child:
        print(json.dumps(child(args.child, args.rows, args.partitions, args.slow_us)))
        return
    for method in ("whole", "partitions"):
        out = subprocess.run(
            [sys.executable, "-m", "benchmarks.spark_connect", "--child", method,
             "--rows", str(args.rows), "--partitions", str(args.partitions),
             "--slow-us", str(args.slow_us)],
            capture_output=True, text=True)
        if out.returncode != 0:
            tail = [ln for ln in out.stderr.splitlines() if not ln.startswith(("\tat ", " "))]
            raise SystemExit(f"{method} failed ({out.returncode}):\n" + "\n".join(tail[-20:]))
        print(out.stdout.strip().splitlines()[-1])


if __name__ == "__main__":
    main()
