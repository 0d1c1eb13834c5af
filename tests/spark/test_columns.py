"""Column expressions on a Spark source: filter(Column) and map(Column | [Columns]) are
applied to the DataFrame itself (df.filter / df.select), so Catalyst optimises them and
pushes predicates into the scan. The tests marked ``connect`` run on a Spark Connect session
too (``RXPY2_SPARK_SESSION=connect``)."""

from __future__ import annotations

import sys
from typing import Any

import pytest
from pyspark import cloudpickle
from pyspark.sql import Row
from pyspark.sql import functions as F
from spark_support import wait_no_spark_threads

from rxpy2.spark import SparkFlowable
from rxpy2.spark import SparkJobError
from rxpy2.spark import explain
from rxpy2.spark import from_dataframe
from rxpy2.spark import from_rdd

cloudpickle.register_pickle_by_value(sys.modules[__name__])

WAIT = 60.0  # generous: jobs are slow on a loaded 2-core machine (never a timing assertion)


@pytest.fixture(autouse=True)
def _no_thread_left():
    yield
    assert wait_no_spark_threads() == [], "a Spark job thread outlived its subscription"


@pytest.fixture
def df(spark):
    return spark.range(0, 20, numPartitions=2).selectExpr(
        "id", "id * 10 AS amount", "CASE WHEN id % 3 = 0 THEN NULL ELSE id END AS maybe")


def values(flowable: Any) -> list[Any]:
    return flowable.test().await_done(WAIT).assert_complete().values()


@pytest.mark.connect  # runs on a Spark Connect session too (tools/test -m connect)
def test_filter_column_equals_the_lambda_version(df):
    for fmt in ("row", "tuple", "dict"):
        by_column = from_dataframe(df, row_format=fmt).filter(F.col("amount") > 100)
        assert isinstance(by_column, SparkFlowable)
        amount = {"row": lambda r: r.amount, "tuple": lambda r: r[1],
                  "dict": lambda r: r["amount"]}[fmt]
        by_lambda = from_dataframe(df, row_format=fmt).filter(lambda r, a=amount: a(r) > 100)
        got = values(by_column)
        assert got == values(by_lambda) and len(got) == 9


@pytest.mark.connect  # runs on a Spark Connect session too (tools/test -m connect)
def test_map_one_column_gives_its_values_and_a_struct_gives_rows(df):
    doubled = from_dataframe(df, row_format="tuple").map(F.col("amount") * 2)
    assert values(doubled) == values(from_dataframe(df, row_format="tuple").map(
        lambda r: r[1] * 2)) == [i * 20 for i in range(20)]
    pairs = from_dataframe(df).filter(F.col("id") < 3).map(F.struct("id", "amount"))
    assert values(pairs) == [Row(id=0, amount=0), Row(id=1, amount=10), Row(id=2, amount=20)]
    # a Python stage after it fuses and gets the values
    fused = from_dataframe(df).map(F.col("amount") + 1).map(lambda v: v * 2)
    assert isinstance(fused, SparkFlowable)
    assert values(fused) == [(i * 10 + 1) * 2 for i in range(20)]


@pytest.mark.connect  # runs on a Spark Connect session too (tools/test -m connect)
def test_map_a_list_selects_columns_in_the_row_format(df):
    sel = [F.col("amount"), "id", (F.col("id") + 1).alias("next")]
    assert values(from_dataframe(df, row_format="tuple").map(sel)) == values(
        from_dataframe(df, row_format="tuple").map(lambda r: (r[1], r[0], r[0] + 1)))
    dicts = values(from_dataframe(df, row_format="dict").map(("id", "amount")))
    assert dicts[:2] == [{"id": 0, "amount": 0}, {"id": 1, "amount": 10}]
    rows = values(from_dataframe(df).map(["id"]).filter(F.col("id") > 17))
    assert rows == [Row(id=18), Row(id=19)]


@pytest.mark.connect  # runs on a Spark Connect session too (tools/test -m connect)
def test_column_stages_with_emit_partitions_and_arrow(df):
    parts = values(from_dataframe(df, row_format="tuple", emit="partitions")
                   .filter(F.col("id") % 2 == 0).map(F.col("id")))
    assert parts == [[0, 2, 4, 6, 8], [10, 12, 14, 16, 18]]
    tables = values(from_dataframe(df, emit="arrow").filter(F.col("id") >= 15).map(["id"]))
    assert [t.column_names for t in tables] == [["id"]]
    assert tables[0].column("id").to_pylist() == [15, 16, 17, 18, 19]


def test_filter_is_pushed_into_the_parquet_scan(spark, tmp_path):
    path = str(tmp_path / "orders.parquet")
    spark.range(0, 50, numPartitions=2).selectExpr("id", "id * 10 AS amount").write.parquet(path)
    src = from_dataframe(spark.read.parquet(path), row_format="tuple")
    chain = src.filter(F.col("amount") > 300).map(lambda r: r[0])
    assert isinstance(chain, SparkFlowable)
    plan = chain._plan.df._jdf.queryExecution().executedPlan().toString()
    assert "PushedFilters: [IsNotNull(amount), GreaterThan(amount,300)]" in plan
    assert values(chain) == list(range(31, 50))
    # the Python lambda version cannot be pushed: the scan reads every row
    lam = src.filter(lambda r: r[1] > 300)
    assert "GreaterThan" not in lam._plan.df._jdf.queryExecution().executedPlan().toString()


def test_explain_shows_column_stages_in_spark_sql(df):
    chain = (from_dataframe(df, row_format="tuple").filter(F.col("amount") > 100)
             .map([F.col("id"), (F.col("amount") * 2).alias("twice")]).map(len))
    lines = explain(chain).splitlines()
    assert lines[0].startswith("spark   source    DataFrame[id: bigint, amount: bigint, "
                               "maybe: bigint] (rows as tuple;")
    assert lines[1:] == ["spark   column    filter((amount > CAST(100 AS BIGINT)))  [Spark SQL]",
                         "spark   column    map([id, twice])  [Spark SQL]",
                         "spark   stage     map(len)  [executors]"]
    one = from_dataframe(df).map(F.col("amount") * 2).explain().splitlines()
    assert "(the Column's values;" in one[0]
    assert one[1] == "spark   column    map((amount * 2))  [Spark SQL]"


@pytest.mark.connect  # runs on a Spark Connect session too (tools/test -m connect)
def test_column_stages_apply_with_fusion_off(df):
    chain = from_dataframe(df, row_format="tuple", fuse=False).filter(F.col("id") < 2)
    assert values(chain) == [(0, 0, None), (1, 10, 1)]


def test_a_column_where_it_cannot_apply_is_a_type_error(sc, df):
    with pytest.raises(TypeError, match="needs a DataFrame source"):
        from_rdd(sc.parallelize(range(3), 1)).filter(F.col("x") > 1)
    with pytest.raises(TypeError, match=r"before the Python stages: after map\(<lambda> at "):
        from_dataframe(df).map(lambda r: r.id).filter(F.col("id") > 1)
    with pytest.raises(TypeError, match="before the Python stages"):
        from_dataframe(df).on_driver().map_partitions(lambda it: it).map(F.col("id"))
    with pytest.raises(TypeError, match="take/limit"):
        from_dataframe(df).take(3).filter(F.col("id") > 1)
    with pytest.raises(TypeError, match="Columns and column names, not int"):
        from_dataframe(df).map([F.col("id"), 3])
    with pytest.raises(ValueError, match="selects no column"):
        from_dataframe(df).map([])
    with pytest.raises(TypeError):
        from_dataframe(df).filter([F.col("id") > 1])  # a list only for map


@pytest.mark.connect  # runs on a Spark Connect session too (tools/test -m connect)
def test_a_null_value_of_a_one_column_map_is_a_type_error(df):
    err = from_dataframe(df).map(F.col("maybe")).test().await_done(WAIT).errors()
    assert len(err) == 1 and isinstance(err[0], TypeError) and "null" in str(err[0])
    # with a fused stage after it the executor reports it (None is never an item)
    err = from_dataframe(df).map(F.col("maybe")).map(str).test().await_done(WAIT).errors()
    assert len(err) == 1 and isinstance(err[0], SparkJobError) and "None" in str(err[0])
    kept = from_dataframe(df).filter(F.col("maybe").isNotNull()).map(F.col("maybe"))
    assert values(kept) == [i for i in range(20) if i % 3]
