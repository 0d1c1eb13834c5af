"""from_dataframe / from_rdd: demand-driven partition jobs, order, formats, cancel, errors,
fusion into the Spark plan. All on the one session-scoped ``local[2]`` SparkSession."""

from __future__ import annotations

import sys
import threading
import time
from typing import Any

import pytest
from pyspark import cloudpickle
from spark_support import spark_threads
from spark_support import wait_no_spark_threads

from rxpy2 import Flowable
from rxpy2.spark import SparkFlowable
from rxpy2.spark import SparkJobError
from rxpy2.spark import explain
from rxpy2.spark import from_dataframe
from rxpy2.spark import from_rdd
from rxpy2.spark import pyspark_adapter

# The executors' Python workers cannot import this test module: its functions travel by value.
cloudpickle.register_pickle_by_value(sys.modules[__name__])

WAIT = 60.0  # generous: jobs are slow on a loaded 2-core machine (never a timing assertion)


def jobs_of(sc: Any, source: SparkFlowable[Any], subscription: int = 1) -> list[Any]:
    tracker = sc.statusTracker()
    return [tracker.getJobInfo(j) for j in tracker.getJobIdsForGroup(source.job_group(subscription))]


def wait_jobs_settled(sc: Any, source: SparkFlowable[Any], subscription: int = 1,
                      ts: Any = None) -> list[Any]:
    """Poll until the subscription has no job in flight (``ts``: its TestSubscriber, whose
    upstream counts them) and Spark reports none of its jobs running; returns their infos."""
    deadline = time.monotonic() + WAIT
    upstream = ts._upstream.get() if ts is not None else None
    while True:
        # the status tracker learns of a job from the listener bus, asynchronously: without
        # this a job that already ran may not be listed yet (an empty list "settles" at once)
        sc._jsc.sc().listenerBus().waitUntilEmpty(int(WAIT * 1000))
        idle = upstream is None or getattr(upstream, "active_jobs", None) is None or \
            upstream.active_jobs.get() == 0
        infos = jobs_of(sc, source, subscription)
        if idle and all(i is not None and i.status != "RUNNING" for i in infos):
            return infos
        if time.monotonic() > deadline:
            raise AssertionError(f"jobs still running: {infos}")
        time.sleep(0.05)


def numbers(spark: Any, n: int, partitions: int) -> Any:
    return spark.range(0, n, numPartitions=partitions).selectExpr("id", "id * 2 AS twice")


@pytest.fixture(autouse=True)
def _no_thread_left():
    yield
    assert wait_no_spark_threads() == [], "a Spark job thread outlived its subscription"


# ---- demand ------------------------------------------------------------------------------------


@pytest.mark.parametrize("prefetch", [0, 1, 2])
def test_request_one_runs_one_plus_prefetch_jobs_then_one_job_per_partition(spark, sc, prefetch):
    source = from_dataframe(numbers(spark, 800, 8), prefetch_partitions=prefetch)
    ts = source.test(0)
    assert jobs_of(sc, source) == []  # nothing before demand
    ts.request(1)
    ts.await_count(1, WAIT)
    infos = wait_jobs_settled(sc, source, ts=ts)
    assert len(infos) == 1 + prefetch, infos
    assert [tuple(r) for r in ts.values()] == [(0, 0)]
    ts.request(2**63 - 1)
    ts.await_done(WAIT).assert_complete().assert_no_errors()
    assert [r.id for r in ts.values()] == list(range(800))
    infos = wait_jobs_settled(sc, source, ts=ts)
    assert len(infos) == 8 and all(i.status == "SUCCEEDED" for i in infos)


def test_demand_inside_a_partition_launches_nothing_more(spark, sc):
    source = from_dataframe(numbers(spark, 800, 8), prefetch_partitions=1)
    ts = source.test(0)
    for _ in range(50):  # 50 items, all from partition 0 (100 rows)
        ts.request(1)
    ts.await_count(50, WAIT)
    assert len(wait_jobs_settled(sc, source, ts=ts)) == 2
    ts.request(60)  # reaches into partition 1: partition 2 becomes the prefetched one
    ts.await_count(110, WAIT)
    assert len(wait_jobs_settled(sc, source, ts=ts)) == 3
    ts.cancel()


def test_partition_order_and_empty_partitions_skipped(sc):
    rdd = sc.parallelize([5, 6, 7], 8)  # five of the eight partitions are empty
    ts = from_rdd(rdd).test()
    ts.await_done(WAIT).assert_values(5, 6, 7).assert_complete()
    parts = from_rdd(rdd, emit="partitions").test().await_done(WAIT)
    parts.assert_complete()
    assert parts.values() == [[5], [6], [7]]


@pytest.mark.connect  # runs on a Spark Connect session too (tools/test -m connect)
def test_rows_match_collect_in_order(spark):
    df = spark.range(0, 3000, numPartitions=6).selectExpr("id", "cast(id % 7 AS string) AS s")
    ts = from_dataframe(df).test().await_done(WAIT).assert_complete()
    assert ts.values() == df.collect()


@pytest.mark.connect  # runs on a Spark Connect session too (tools/test -m connect)
def test_row_formats(spark):
    df = numbers(spark, 10, 2)
    rows = from_dataframe(df).test().await_done(WAIT).values()
    dicts = from_dataframe(df, row_format="dict").test().await_done(WAIT).values()
    tuples = from_dataframe(df, row_format="tuple").test().await_done(WAIT).values()
    assert type(rows[0]).__name__ == "Row"
    assert dicts == [r.asDict() for r in rows]
    assert tuples == [tuple(r) for r in rows] and type(tuples[0]) is tuple
    # the same formats when the rows pass a stage fused into Spark
    fused = from_dataframe(df, row_format="dict").map(lambda d: d).test().await_done(WAIT)
    assert fused.values() == dicts


@pytest.mark.connect  # runs on a Spark Connect session too (tools/test -m connect)
def test_emit_partitions_and_arrow(spark):
    df = spark.range(0, 100, numPartitions=4).selectExpr(
        "id", "cast(id AS string) AS s", "timestamp_seconds(id) AS ts")
    parts = from_dataframe(df, emit="partitions").test().await_done(WAIT).assert_complete()
    assert [len(p) for p in parts.values()] == [25, 25, 25, 25]
    assert [r for p in parts.values() for r in p] == df.collect()
    tables = from_dataframe(df, emit="arrow").test().await_done(WAIT).assert_complete()
    assert [t.num_rows for t in tables.values()] == [25, 25, 25, 25]
    import pyarrow as pa

    whole = pa.concat_tables(tables.values())
    assert whole.column("id").to_pylist() == list(range(100))
    assert whole.column("s").to_pylist() == [str(i) for i in range(100)]
    assert whole.equals(pyspark_adapter.dataframe_to_arrow(df))  # df.toArrow() since 4.0


def test_second_subscription_runs_its_own_jobs(spark, sc):
    source = from_dataframe(numbers(spark, 40, 4))
    first = source.test().await_done(WAIT)
    second = source.test().await_done(WAIT)
    assert first.values() == second.values() and len(first.values()) == 40
    assert len(wait_jobs_settled(sc, source, 1)) == 4
    assert len(wait_jobs_settled(sc, source, 2)) == 4


def test_blocking_iteration_and_take(spark, sc):
    source = from_dataframe(numbers(spark, 400, 8), prefetch_partitions=0)
    taken = source.take(3)  # pushed into Spark: a Spark source of its own, with its job groups
    assert isinstance(taken, SparkFlowable)
    assert [r.id for r in taken.blocking_iterable()] == [0, 1, 2]
    assert len(wait_jobs_settled(sc, taken)) == 1  # take(3) never reached partition 1
    assert jobs_of(sc, source) == []  # the source itself was never subscribed


# ---- cancel ------------------------------------------------------------------------------------


def _slow(x: Any) -> Any:
    import time as t

    t.sleep(0.02)
    return x


def test_cancel_mid_stream_cancels_the_running_job_and_starts_no_other(sc):
    source = from_rdd(sc.parallelize(range(4000), 8)).map(_slow)  # ~10 s per partition
    assert isinstance(source, SparkFlowable)
    ts = source.test(0)
    ts.request(1)
    deadline = time.monotonic() + WAIT
    while not any(i.status == "RUNNING" for i in jobs_of(sc, source)):
        assert time.monotonic() < deadline, "no job started"
        time.sleep(0.02)
    ts.cancel()
    infos = wait_jobs_settled(sc, source, ts=ts)
    assert len(infos) <= 2
    assert all(i.status == "FAILED" for i in infos), [i.status for i in infos]  # cancelled
    assert wait_no_spark_threads() == []
    time.sleep(0.2)  # nothing may start later either (no thread is left to start it)
    assert len(jobs_of(sc, source)) == len(infos)
    ts.assert_no_values().assert_not_terminated()


def test_cancel_after_partial_consumption_closes_prefetched_partitions(spark, sc):
    source = from_dataframe(numbers(spark, 4000, 8), prefetch_partitions=2)
    ts = source.test(0)
    ts.request(10)
    ts.await_count(10, WAIT)
    wait_jobs_settled(sc, source, ts=ts)
    ts.cancel()
    assert wait_no_spark_threads() == []
    ts.request(5)  # §3.6: no effect after cancel
    assert len(ts.values()) == 10
    ts.assert_not_terminated()


def test_cancel_races_request(spark, sc, race_runner):
    df = numbers(spark, 40, 4)
    for _ in range(10):
        ts = from_dataframe(df).test(0)
        race_runner.race(lambda ts=ts: ts.request(5), ts.cancel)
        wait_no_spark_threads()
        got = ts.values()
        assert len(got) <= 5 and [r.id for r in got] == list(range(len(got)))
        ts.assert_not_terminated()


# ---- errors ------------------------------------------------------------------------------------


def _boom(x: int) -> int:
    if x == 13:
        raise ValueError("boom on row 13 inside an executor")
    return x


def test_executor_error_reaches_on_error_with_its_message_and_cause(sc):
    ts = from_rdd(sc.parallelize(range(40), 4)).map(_boom).test().await_done(WAIT)
    ts.assert_error(SparkJobError)
    err = ts.errors()[0]
    assert "boom on row 13 inside an executor" in str(err)
    assert err.__cause__ is not None and "boom on row 13" in str(err.__cause__)
    # Row 13 is in partition 1. Errors come in partition order, so partition 0's rows come
    # first -- unless Spark failed partition 0's concurrent job with the same Python error,
    # which PySpark 4.3 does now and then (seen with plain PythonRDD.runJob calls too).
    assert err.partition in (0, 1)
    assert ts.values() == (list(range(10)) if err.partition == 1 else [])


def test_error_in_the_source_rdd_itself(sc):
    rdd = sc.parallelize(range(20), 2).map(_boom)  # a PySpark map, not an rxpy2 stage
    ts = from_rdd(rdd, fuse=False).test().await_done(WAIT)
    ts.assert_error(SparkJobError)
    assert "boom on row 13 inside an executor" in str(ts.errors()[0])
    assert ts.errors()[0].partition in (0, 1)  # 1, or 0 failed along with it (see above)


def test_none_items_are_type_errors(sc):
    ts = from_rdd(sc.parallelize([1, None, 3], 1)).test().await_done(WAIT)
    ts.assert_error(TypeError)
    fused = from_rdd(sc.parallelize([1, 2], 1)).map(lambda x: None).test().await_done(WAIT)
    fused.assert_error(SparkJobError)
    assert "returned None" in str(fused.errors()[0])


def test_bad_arguments(spark, sc):
    df = numbers(spark, 1, 1)
    with pytest.raises(TypeError):
        from_dataframe(None)
    with pytest.raises(TypeError):
        from_dataframe([1, 2])
    with pytest.raises(TypeError):
        from_rdd(None)
    with pytest.raises(ValueError):
        from_dataframe(df, prefetch_partitions=-1)
    with pytest.raises(TypeError):
        from_dataframe(df, prefetch_partitions=1.5)
    with pytest.raises(ValueError):
        from_dataframe(df, row_format="json")
    with pytest.raises(ValueError):
        from_dataframe(df, emit="pandas")
    with pytest.raises(ValueError):
        from_rdd(sc.parallelize([1]), emit="arrow")
    with pytest.raises(TypeError):
        from_dataframe(df).map(None)
    with pytest.raises(TypeError):
        from_dataframe(df).map_partitions(3)


# ---- fusion ------------------------------------------------------------------------------------


def _where(x: Any) -> tuple[Any, bool]:
    from pyspark import TaskContext

    return (x, TaskContext.get() is not None)  # a TaskContext exists only inside a Spark task


def _parse(r: Any) -> tuple[int, int]:
    return (r[0], r[1] + 1)


def _keep(t: tuple[int, int]) -> bool:
    return t[0] % 3 != 0


def _expand(t: tuple[int, int]) -> list[int]:
    return [t[0], -t[0]]


def _sum_partition(it: Any) -> list[int]:
    return [sum(it)]


@pytest.mark.connect  # runs on a Spark Connect session too (tools/test -m connect)
def test_fused_and_driver_give_the_same_rows_and_fused_runs_in_spark(spark):
    df = numbers(spark, 600, 6)

    def chain(src: Flowable[Any]) -> Flowable[Any]:
        return src.map(_parse).filter(_keep).flat_map_iterable(_expand).map(_where)

    fused = chain(from_dataframe(df, row_format="tuple"))
    driver = chain(from_dataframe(df, row_format="tuple").on_driver())
    off = chain(from_dataframe(df, row_format="tuple", fuse=False))
    assert isinstance(fused, SparkFlowable)
    assert not isinstance(driver, SparkFlowable) and not isinstance(off, SparkFlowable)
    a = fused.test().await_done(WAIT).assert_complete().values()
    b = driver.test().await_done(WAIT).assert_complete().values()
    c = off.test().await_done(WAIT).assert_complete().values()
    assert [v for v, _ in a] == [v for v, _ in b] == [v for v, _ in c]
    assert len(a) == 2 * 400
    assert all(in_task for _, in_task in a)  # ran inside Spark tasks
    assert not any(in_task for _, in_task in b)  # ran on the driver
    plan = fused.explain()
    assert plan.count("spark   stage") == 4 and "driver" not in plan
    whole = explain(driver)
    # one line per stage, a collapsed map/filter run included
    assert "spark   source" in whole and whole.count("driver  operator") == 4
    assert "driver  operator  filter(_keep)  [after on_driver()]" in whole
    # Flowable.explain() of the driver chain: the Spark source explains itself in it
    generic = driver.explain()
    assert "spark   source" in generic and "map(_where)" in generic.splitlines()[-1]


def test_map_partitions_fused_and_on_driver(sc):
    rdd = sc.parallelize(range(100), 4)
    fused = from_rdd(rdd).map_partitions(_sum_partition)
    driver = from_rdd(rdd).on_driver().map_partitions(_sum_partition)
    expected = [sum(range(i * 25, (i + 1) * 25)) for i in range(4)]
    assert fused.test().await_done(WAIT).values() == expected
    assert driver.test().await_done(WAIT).values() == expected
    assert "spark   stage     map_partitions" in fused.explain()
    assert "driver  stage     map_partitions" in driver.explain()


def test_unpicklable_function_runs_on_the_driver(sc):
    lock = threading.Lock()

    def locked_inc(x: int) -> int:
        with lock:
            return x + 1

    chain = from_rdd(sc.parallelize(range(10), 2)).map(locked_inc)
    assert not isinstance(chain, SparkFlowable)
    assert "driver  operator  map(locked_inc)  [not picklable: " in explain(chain)
    chain.test().await_done(WAIT).assert_values(*range(1, 11)).assert_complete()


def test_stage_after_a_driver_operator_stays_on_the_driver(sc):
    line = sys._getframe().f_lineno + 1
    chain = from_rdd(sc.parallelize(range(6), 2)).map(_where).skip(2).map(lambda t: t[1])
    assert explain(chain).splitlines()[-2:] == [
        "driver  operator  skip(2)  [not fusable: skip]",
        f"driver  operator  map(<lambda> at test_source.py:{line})  "
        "[after a driver operator (skip(2))]"]
    chain.test().await_done(WAIT).assert_values(True, True, True, True)


def test_spark_threads_helper_sees_running_jobs(sc):
    """The no-thread-left checks above mean something only if spark_threads() does see a
    running subscription's job thread."""
    ts = from_rdd(sc.parallelize(range(400), 2)).map(_slow).test(1)
    deadline = time.monotonic() + WAIT
    while not spark_threads():
        assert time.monotonic() < deadline
        time.sleep(0.01)
    ts.cancel()


def test_describe_picks_the_telling_line():
    from rxpy2.spark.errors import describe

    java = ("An error occurred while calling o76.parquet.\n"
            ": org.apache.spark.SparkException: Job aborted.\n\tat org.x(X.java:1)\n"
            "Caused by: java.io.IOException: Mkdirs failed to create file:/x\n"
            "\tat a.b(C.java:2)\n\t... 5 more")
    assert describe(Exception(java)) == "java.io.IOException: Mkdirs failed to create file:/x"
    python = 'Traceback (most recent call last):\n  File "x", line 1\nValueError: boom'
    assert describe(Exception(python)) == "ValueError: boom"
    assert describe(Exception("plain message")) == "plain message"
    assert describe(Exception("")) == "Exception"
    # a Spark Connect error: the Python exception with its message, not the JVM trace's class
    connect = ("[STREAM_FAILED] Query terminated with exception: Found error inside "
               "foreachBatch Python process: Traceback (most recent call last):\n"
               '  File "w.py", line 72, in process\n'
               "pyspark.errors.exceptions.connect.SparkRuntimeException: [USER_RAISED_EXCEPTION] "
               "'(file < 1)' is not true! SQLSTATE: P0001\n\nJVM stacktrace:\n"
               "org.apache.spark.SparkRuntimeException\n SQLSTATE: 38000 SQLSTATE: XXKST\n"
               "Current State: ACTIVE")
    assert describe(Exception(connect)) == (
        "pyspark.errors.exceptions.connect.SparkRuntimeException: [USER_RAISED_EXCEPTION] "
        "'(file < 1)' is not true! SQLSTATE: P0001")
    assert describe(Exception("x\njava.lang.IllegalStateException")) == (
        "java.lang.IllegalStateException")  # a bare class name when no line has a message
