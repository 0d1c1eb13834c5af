"""The driver the cluster test runs in a subprocess: ``python cluster_driver.py MASTER OUT_DIR``.

It runs rxpy2's Spark source, fusion, cancel and sink against ``MASTER`` (a standalone
cluster whose executors do not have rxpy2) and prints one line ``RESULT <json>`` with what
it saw; the test asserts on it. The executors' Python is ``PYSPARK_PYTHON`` (set by the test).
A check that cannot even be measured raises: the exit status is then not 0.
"""

from __future__ import annotations

import json
import os
import sys
import time
from typing import Any

# rows of partition 0 of the slow source (its 8 partitions of 25 000 rows each)
SLOW_ROWS, SLOW_PARTS = 200_000, 8
SLOW_FIRST = SLOW_ROWS // SLOW_PARTS


def lineage() -> dict[str, Any]:
    """Where this code runs: the Python worker's pid, the PySpark daemon that forked it, the
    executor JVM that started the daemon and that JVM's parent (the worker), and whether
    rxpy2 can be imported here."""
    import importlib.util

    def ppid(pid: int) -> int:
        with open(f"/proc/{pid}/stat") as f:
            stat = f.read()
        return int(stat[stat.rindex(")") + 2:].split()[1])

    daemon = os.getppid()
    jvm = ppid(daemon)
    with open(f"/proc/{jvm}/cmdline", "rb") as f:
        jvm_cmd = f.read().replace(b"\0", b" ").decode(errors="replace")
    return {"python": os.getpid(), "daemon": daemon, "jvm": jvm, "jvm_parent": ppid(jvm),
            "jvm_is_executor": "CoarseGrainedExecutorBackend" in jvm_cmd,
            "rxpy2_importable": importlib.util.find_spec("rxpy2") is not None,
            "executable": sys.executable}


def probe(row: tuple) -> tuple:
    """A fused map: the row's id with the lineage of the process that mapped it."""
    return (row[0], json.dumps(lineage(), sort_keys=True))


def slow_after_first(row: tuple) -> tuple:
    """Fast over partition 0, then 50 ms a row: a job of a later partition runs for hours
    unless it is cancelled."""
    if row[0] >= SLOW_FIRST:
        time.sleep(0.05)
    return row


def wait_for(cond: Any, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not cond():
        if time.monotonic() > deadline:
            raise TimeoutError(f"timed out after {timeout} s waiting for {what}")
        time.sleep(0.1)


def group_jobs(sc: Any, group: str) -> dict[int, str]:
    """Job id -> status (RUNNING, SUCCEEDED, FAILED, UNKNOWN) of a job group."""
    tracker = sc.statusTracker()
    out = {}
    for job in tracker.getJobIdsForGroup(group):
        info = tracker.getJobInfo(job)
        out[job] = info.status if info is not None else "UNKNOWN"
    return out


def next_job_id(sc: Any) -> int:
    """The id the next Spark job will get (job ids are consecutive from 0)."""
    tracker, n = sc.statusTracker(), 0
    while tracker.getJobInfo(n) is not None:
        n += 1
    return n


def jobs_since(sc: Any, first: int) -> dict[int, str]:
    """Job id -> status of every job from id ``first`` on."""
    tracker, out, n = sc.statusTracker(), {}, first
    while (info := tracker.getJobInfo(n)) is not None:
        out[n] = info.status
        n += 1
    return out


def main(master: str, out_dir: str) -> dict[str, Any]:
    from pyspark.sql import SparkSession

    import rxpy2.spark as rs
    from rxpy2.schedulers import Schedulers
    from rxpy2.testing import TestSubscriber

    result: dict[str, Any] = {"driver_python": os.getpid()}
    spark = (SparkSession.builder.master(master).appName("rxpy2-cluster-test")
             .config("spark.ui.enabled", "false")
             .config("spark.ui.showConsoleProgress", "false")
             .config("spark.driver.host", "127.0.0.1")
             .config("spark.executor.memory", "512m")
             .config("spark.executor.cores", "1")
             .config("spark.cores.max", "2")
             .config("spark.sql.shuffle.partitions", "2")
             .getOrCreate())
    sc = spark.sparkContext
    sc.setLogLevel("ERROR")
    try:
        result["driver_jvm"] = sc._gateway.proc.pid
        result["master"] = sc.master
        status = sc._jsc.sc().getExecutorMemoryStatus  # the driver's block manager included
        wait_for(lambda: status().size() >= 3, 180, "two executors to register")
        result["executors"] = status().size() - 1

        # -- the source and fusion: a fused map/filter runs in the executors' processes
        src = rs.from_dataframe(spark.range(0, 4000, 1, 8), row_format="tuple")
        fused = src.map(probe).filter(lambda t: t[0] % 3 != 0)
        result["fused_type"] = type(fused).__name__
        result["explain"] = rs.explain(fused)
        # pulled partition by partition through a subscriber (not a terminal aggregation,
        # which may run as one Spark job)
        ts: TestSubscriber[Any] = TestSubscriber()
        fused.subscribe(ts)
        ts.await_done(300)
        if ts.errors() or ts.completions() != 1:
            raise RuntimeError(f"the fused source did not complete: {ts.errors()!r}")
        items = ts.values()
        result["ids"] = [t[0] for t in items]
        result["lineages"] = sorted({t[1] for t in items})
        result["fused_jobs"] = len(group_jobs(sc, fused.job_group(1)))
        result["partitions"] = fused.num_partitions

        # -- cancel (1): take(5) on a large source; no job may be left running
        slow = rs.from_dataframe(spark.range(0, SLOW_ROWS, 1, SLOW_PARTS), row_format="tuple",
                                 prefetch_partitions=1).map(slow_after_first)
        first_job = next_job_id(sc)
        result["take"] = [t[0] for t in slow.take(5).to_list().blocking_get()]
        wait_for(lambda: "RUNNING" not in jobs_since(sc, first_job).values(), 120,
                 "the take's jobs to end")
        result["take_jobs"] = jobs_since(sc, first_job)

        # -- cancel (2): five rows requested, the job of partition 1 seen running, then
        # cancel: the job on the remote executor must end (it would run for hours)
        slow2 = rs.from_dataframe(spark.range(0, SLOW_ROWS, 1, SLOW_PARTS),
                                  row_format="tuple", prefetch_partitions=1
                                  ).map(slow_after_first)
        sub: TestSubscriber[Any] = TestSubscriber(initial_request=5)
        slow2.subscribe(sub)
        group2 = slow2.job_group(1)
        sub.await_count(5, timeout=300)
        wait_for(lambda: len(group_jobs(sc, group2)) >= 2
                 and "RUNNING" in group_jobs(sc, group2).values(), 120,
                 "the prefetched job of partition 1 to run")
        result["before_cancel"] = group_jobs(sc, group2)
        t0 = time.monotonic()
        sub.cancel()
        wait_for(lambda: "RUNNING" not in group_jobs(sc, group2).values(), 120,
                 "the cancelled jobs to end")
        result["cancel_seconds"] = round(time.monotonic() - t0, 1)
        result["after_cancel"] = group_jobs(sc, group2)
        result["cancel_got"] = [t[0] for t in sub.values()]
        result["cancel_errors"] = [repr(e) for e in sub.errors()]
        result["cancel_completions"] = sub.completions()
        # the executors are free again: a job over both of them finishes
        result["after_cancel_count"] = spark.range(0, 1000, 1, 2).count()

        # -- the sink: the executors write parquet into a directory the driver then reads
        rows = rs.from_dataframe(spark.range(0, 3000, 1, 4), row_format="tuple"
                                 ).map(lambda r: (r[0], r[0] * 2))
        summary = rows.to(rs.to_parquet(out_dir, spark, batch_size=1000,
                                         schema="id long, twice long",
                                         mode="overwrite")).blocking_get()
        result["sink_rows"], result["sink_batches"] = summary.rows, summary.batches
        back = spark.read.parquet(out_dir).selectExpr("count(*) AS n", "sum(twice) AS s").first()
        result["read_back"] = [back["n"], back["s"]]
    finally:
        Schedulers.shutdown()
        spark.stop()
    return result


if __name__ == "__main__":
    print("RESULT " + json.dumps(main(sys.argv[1], sys.argv[2])), flush=True)
