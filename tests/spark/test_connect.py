"""The Spark source and sink through PySpark's public API, on either kind of session.

Every test here is marked ``connect``: it runs on the classic ``local[2]`` session of the
ordinary Spark run and, under ``RXPY2_SPARK_SESSION=connect`` (``tools/test -m connect
tests/spark``), on a local Spark Connect server, with the same assertions: the results do
not depend on the session kind. What differs (``explain()``'s source line, ``from_rdd``,
``from_stream``) is asserted per kind.
"""

from __future__ import annotations

import sys
import threading
import time
from typing import Any

import pytest
from pyspark import cloudpickle
from pyspark.sql import functions as F
from spark_support import wait_no_spark_threads

from rxpy2.spark import SparkFlowable
from rxpy2.spark import SparkJobError
from rxpy2.spark import explain
from rxpy2.spark import from_dataframe
from rxpy2.spark import from_rdd
from rxpy2.spark import from_stream
from rxpy2.spark import to_parquet
from rxpy2.spark.pyspark_adapter import is_connect

pytestmark = pytest.mark.connect

# The executors' Python workers cannot import this test module: its functions travel by value.
cloudpickle.register_pickle_by_value(sys.modules[__name__])

WAIT = 120.0  # generous: queries are slow on a loaded 2-core machine (never a timing assertion)


@pytest.fixture(autouse=True)
def _no_thread_left():
    yield
    assert wait_no_spark_threads() == [], "a Spark job thread outlived its subscription"


def numbers(spark: Any, n: int, partitions: int) -> Any:
    return spark.range(0, n, numPartitions=partitions).selectExpr("id", "id * 2 AS twice")


def values(flowable: Any) -> list[Any]:
    ts = flowable.test().await_done(WAIT)
    ts.assert_complete().assert_no_errors()
    return list(ts.values())


# ---- reading -----------------------------------------------------------------------------------


def test_rows_in_partition_order_in_each_row_format(spark):
    df = numbers(spark, 100, 4)
    rows = values(from_dataframe(df))
    assert [tuple(r) for r in rows] == [(i, 2 * i) for i in range(100)]
    assert rows[0].id == 0 and rows[0].twice == 0  # pyspark Rows
    assert values(from_dataframe(df, row_format="dict"))[:2] == [{"id": 0, "twice": 0},
                                                                 {"id": 1, "twice": 2}]
    assert values(from_dataframe(df, row_format="tuple")) == [(i, 2 * i) for i in range(100)]


def test_partitions_and_arrow_give_one_item_per_partition_holding_rows(spark):
    # 3 rows over 4 partitions: one partition is empty and gives no item
    df = spark.range(0, 3, numPartitions=4)
    parts = values(from_dataframe(df, emit="partitions"))
    assert [[r.id for r in p] for p in parts] == [[0], [1], [2]]
    tables = values(from_dataframe(numbers(spark, 40, 4), emit="arrow"))
    assert len(tables) == 4
    assert [t.num_rows for t in tables] == [10] * 4
    assert sum((t.column("id").to_pylist() for t in tables), []) == list(range(40))
    assert tables[0].schema.names == ["id", "twice"]


def test_an_empty_dataframe_completes(spark):
    assert values(from_dataframe(spark.range(0, 0, numPartitions=3))) == []


def test_demand_reaches_one_partition_at_a_time(spark):
    source = from_dataframe(numbers(spark, 4000, 8), prefetch_partitions=0)
    ts = source.test(0)
    ts.request(3)
    ts.await_count(3, WAIT)
    upstream = ts._upstream.get()
    assert upstream.launched == 1  # prefetch 0: the second partition waits for demand
    assert [r.id for r in ts.values()] == [0, 1, 2]
    ts.request(2**63 - 1)
    ts.await_done(WAIT).assert_complete()
    assert [r.id for r in ts.values()] == list(range(4000))


# ---- fusion and pushdown -----------------------------------------------------------------------


def _double(r: Any) -> int:
    return r.id * 2


def test_fused_map_filter_and_count_run_in_spark(spark):
    df = numbers(spark, 1000, 4)
    chain = from_dataframe(df).map(_double).filter(lambda x: x % 3 == 0)
    assert isinstance(chain, SparkFlowable)
    assert values(chain) == [2 * i for i in range(1000) if (2 * i) % 3 == 0]
    assert chain.count().blocking_get(WAIT) == len([i for i in range(1000) if (2 * i) % 3 == 0])
    assert from_dataframe(df).count().blocking_get(WAIT) == 1000
    text = chain.explain()
    assert "spark   stage     map(_double)  [executors]" in text
    assert "filter(<lambda> at test_connect.py" in text


def test_fused_stages_see_the_row_format(spark):
    df = numbers(spark, 20, 2)
    got = values(from_dataframe(df, row_format="dict").map(lambda d: d["twice"] - d["id"]))
    assert got == list(range(20))
    got = values(from_dataframe(df, row_format="tuple").flat_map_iterable(lambda t: [t[0]] * 2))
    assert got == [i for i in range(20) for _ in range(2)]


def _partition_sum(rows: Any) -> list[int]:
    return [sum(r.id for r in rows)]


def test_fused_map_partitions_sees_each_partition_holding_rows(spark):
    df = spark.range(0, 40, numPartitions=4)
    source = from_dataframe(df).map_partitions(_partition_sum)
    assert "spark   stage     map_partitions(_partition_sum)  [executors]" in source.explain()
    assert values(source) == [sum(range(i * 10, i * 10 + 10)) for i in range(4)]
    # on the driver (after on_driver()) the same function sees the same partitions
    assert values(from_dataframe(df).on_driver().map_partitions(_partition_sum)) == \
        values(source)


def test_take_is_pushed_into_each_partition_query(spark):
    df = numbers(spark, 4000, 8)
    assert [r.id for r in values(from_dataframe(df).take(5))] == [0, 1, 2, 3, 4]
    assert values(from_dataframe(df).map(_double).take(3)) == [0, 2, 4]
    source = from_dataframe(df).take(5)
    assert "spark   stage     limit(5)" in source.explain()


def test_column_stages_run_in_spark_sql(spark):
    df = numbers(spark, 100, 4)
    source = from_dataframe(df).filter(F.col("id") > 90).map(F.col("twice"))
    assert values(source) == [2 * i for i in range(91, 100)]
    text = source.explain()
    assert "spark   column    filter(" in text and "[Spark SQL]" in text
    rows = values(from_dataframe(df, row_format="tuple").map(["twice", F.col("id") + 1])
                  .take(2))
    assert rows == [(0, 1), (2, 2)]


def test_aggregations_run_in_spark(spark):
    df = numbers(spark, 100, 4)
    ids = from_dataframe(df).map(lambda r: r.id)
    assert ids.reduce(lambda a, b: a + b).blocking_get(WAIT) == sum(range(100))
    # an order-sensitive reducer: the in-order fold carries the accumulator partition by partition
    digits = from_dataframe(spark.range(0, 12, numPartitions=3)).map(lambda r: str(r.id % 10))
    assert digits.reduce(lambda a, b: a + b, "").blocking_get(WAIT) == "012345678901"
    assert ids.reduce(lambda a, b: a + b, associative=True).blocking_get(WAIT) == 4950
    assert ids.to_list().blocking_get(WAIT) == list(range(100))
    assert [r.id for r in from_dataframe(df).to_list().blocking_get(WAIT)] == list(range(100))
    ts = ids.to_list(max_items=10).test().await_done(WAIT)
    ts.assert_error(ValueError)
    ts = from_dataframe(df).to_list(max_items=10).test().await_done(WAIT)
    ts.assert_error(ValueError)
    unique = from_dataframe(spark.createDataFrame([(1,), (2,), (1,), (3,)], "x long"))
    assert sorted(r.x for r in values(unique.distinct(keep_order=False))) == [1, 2, 3]
    empty = from_dataframe(spark.range(0, 0, numPartitions=2)).map(lambda r: r.id)
    assert empty.reduce(lambda a, b: a + b).test().await_done(WAIT).values() == []


def _boom(r: Any) -> int:
    if r.id == 13:
        raise ValueError("boom on row 13 inside an executor")
    return r.id


def test_an_executor_error_reaches_on_error(spark):
    ts = from_dataframe(numbers(spark, 40, 4)).map(_boom).test().await_done(WAIT)
    ts.assert_error(SparkJobError)
    assert "boom on row 13 inside an executor" in str(ts.errors()[0])


# ---- explain and what Connect cannot do --------------------------------------------------------


def test_explain_names_the_path(spark):
    source = from_dataframe(numbers(spark, 10, 2)).map(_double)
    line = source.explain().splitlines()[0]
    if is_connect(spark):
        assert "Spark Connect: one query per partition holding rows" in line
        assert "mapInArrow" in line
    else:
        assert "one job per partition" in line
    lock = threading.Lock()
    chain = source.map(lambda x: (lock, x)[1])
    assert "not picklable" in explain(chain)


def test_what_has_no_connect_form_says_why(spark):
    if not is_connect(spark):
        pytest.skip("a classic session has RDDs")
    df = numbers(spark, 10, 2)
    with pytest.raises(TypeError, match="Spark Connect has no RDDs"):
        from_rdd(df)


def test_explain_of_an_unordered_distinct_after_fused_stages_says_where_it_runs(spark):
    chain = from_dataframe(numbers(spark, 10, 2)).map(_double).distinct(keep_order=False)
    lines = explain(chain).splitlines()
    assert lines[1] == "spark   stage     map(_double)  [executors]"
    if is_connect(spark):  # no RDD.distinct of Python items: the driver's distinct, and why
        assert lines[2].startswith("driver  operator  distinct")
        assert "Spark Connect: a distinct after fused stages runs on the driver" in lines[2]
        assert "no RDD.distinct of Python items" in lines[2]
    else:  # RDD.distinct in Spark
        assert len(lines) == 3 and lines[2].startswith("spark") and "distinct" in lines[2]
    assert sorted(chain.to_list().blocking_get(WAIT)) == sorted({2 * i for i in range(10)})
    # a distinct of rows (no fused stage) is DataFrame.distinct() on both kinds
    rows = from_dataframe(numbers(spark, 10, 2)).distinct(keep_order=False)
    assert all(line.startswith("spark") for line in explain(rows).splitlines())


def test_explain_of_from_stream_says_how_its_micro_batches_come(spark, tmp_path):
    stream = spark.readStream.schema("n INT").json(str(tmp_path))
    chain = from_stream(stream, row_format="tuple").map(_first)
    lines = explain(chain).splitlines()
    assert chain.explain() == explain(chain)
    assert lines[0].startswith("spark   source    streaming DataFrame[n: int] (rows as tuple; ")
    if is_connect(spark):
        assert "Spark Connect: client-run micro-batches, a query per demand round" in lines[0]
        assert "foreachBatch writes each micro-batch to a Parquet directory" in lines[0]
    else:
        assert "foreachBatch on the driver" in lines[0]
    assert lines[1] == ("driver  operator  map(_first)  [after from_stream: no stage is fused "
                        "into a streaming query]")


def _first(r: Any) -> Any:
    return r[0]


# ---- cancel ------------------------------------------------------------------------------------


def _slow(r: Any) -> int:
    time.sleep(0.05)  # 2000 rows a partition: ~100 s, far beyond the cancel
    return r.id


def test_cancel_mid_stream_interrupts_the_running_query(spark):
    source = from_dataframe(spark.range(0, 8000, numPartitions=4)).map(_slow)
    ts = source.test(0)
    ts.request(1)
    deadline = time.monotonic() + WAIT
    upstream = None
    while upstream is None or upstream.active_jobs.get() == 0:
        assert time.monotonic() < deadline, "no query started"
        upstream = ts._upstream.get()
        time.sleep(0.02)
    time.sleep(1.0)  # the query is running on the executors
    ts.cancel()
    # the job thread waits for its query: it ends only when the query was interrupted
    assert wait_no_spark_threads(60.0) == []
    ts.assert_no_values().assert_not_terminated()
    if is_connect(spark):  # nothing tagged with the subscription runs any more
        assert spark.interruptTag(source.job_group(1)) == []


def test_dispose_of_an_aggregation_interrupts_its_query(spark):
    source = from_dataframe(spark.range(0, 8000, numPartitions=4)).map(_slow)
    got: list[Any] = []
    disposable = source.count().subscribe(got.append, got.append)
    time.sleep(2.0)  # the query is running on the executors (~100 s if nothing stops it)
    disposable.dispose()
    # the aggregation's thread waits for its query: it ends only when the query was interrupted
    assert wait_no_spark_threads(60.0) == []
    assert got == []  # nothing is signalled after dispose()
    if is_connect(spark):
        assert spark.interruptTag(source.job_group(1)) == []


def test_cancel_after_partial_consumption(spark):
    source = from_dataframe(numbers(spark, 40_000, 8), prefetch_partitions=2)
    ts = source.test(0)
    ts.request(10)
    ts.await_count(10, WAIT)
    ts.cancel()
    assert wait_no_spark_threads() == []
    ts.request(5)  # §3.6: no effect after cancel
    assert len(ts.values()) == 10
    ts.assert_not_terminated()


# ---- the sink ----------------------------------------------------------------------------------


def test_parquet_sink_writes_every_row(spark, tmp_path):
    path = str(tmp_path / "out.parquet")
    rows = from_dataframe(numbers(spark, 250, 4))
    summary = rows.to(to_parquet(path, spark, batch_size=100)).blocking_get(WAIT)
    assert (summary.rows, summary.batches) == (250, 3)
    back = spark.read.parquet(path)
    assert sorted(r.id for r in back.collect()) == list(range(250))
    again = rows.take(10).to(to_parquet(path, spark, mode="ignore")).blocking_get(WAIT)
    assert again.rows == 0  # the path exists: nothing written
    fresh = str(tmp_path / "fresh.parquet")
    ignored = rows.take(10).to(to_parquet(fresh, spark, mode="ignore")).blocking_get(WAIT)
    assert ignored.rows == 10  # no such path yet: "ignore" writes
    assert spark.read.parquet(fresh).count() == 10
    tables = from_dataframe(numbers(spark, 50, 2), emit="arrow")
    path2 = str(tmp_path / "arrow.parquet")
    assert tables.to(to_parquet(path2, spark)).blocking_get(WAIT).rows == 50
    assert spark.read.parquet(path2).count() == 50
