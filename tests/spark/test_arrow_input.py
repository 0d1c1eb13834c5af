"""Fused stages read Arrow batches (``DataFrame.mapInArrow``): a differential test against the
pickled-row path (forced with ``RXPY2_SPARK_ARROW=0``), per type, per row format and per
session time zone; the aggregations and plan shapes on both paths; the types and set-ups
that keep the pickled path, with ``explain()``'s reason.

Two items are the same when their canonical forms are (:func:`canonical`): the value's type
at every level (``bytes`` is not ``bytearray``, a ``Row`` is not a tuple, its field names
count) and its ``repr`` (so a NaN equals itself); a dict's entries are compared as a set,
since the pickled path's dicts come from the JVM's ``HashMap``, in its hash order.
"""

from __future__ import annotations

import datetime
import decimal
import sys
from collections.abc import Callable
from collections.abc import Iterator
from typing import Any

import pytest
from pyspark import cloudpickle
from pyspark.sql import Row

from rxpy2.spark import SparkFlowable
from rxpy2.spark import from_dataframe
from rxpy2.spark.plan import ARROW_SWITCH

# The executors' Python workers cannot import this test module: its functions travel by value.
cloudpickle.register_pickle_by_value(sys.modules[__name__])

WAIT = 60.0  # generous: jobs are slow on a loaded 2-core machine (never a timing assertion)
ARROW = "fused stages read Arrow batches (mapInArrow)"
ZONES = ("UTC", "America/Los_Angeles")

D = decimal.Decimal
DT = datetime.datetime

#: name -> (the value column's DDL type, its values; None is a null)
TYPES: dict[str, tuple[str, list[Any]]] = {
    "null": ("string", [None, None, None]),
    "void": ("void", [None, None, None]),
    "boolean": ("boolean", [True, False, None]),
    "byte": ("tinyint", [-128, 127, None]),
    "short": ("smallint", [-32768, 32767, None]),
    "int": ("int", [-2**31, 2**31 - 1, None]),
    "long": ("bigint", [-2**63, 2**63 - 1, None]),
    "float": ("float", [0.1, float("nan"), None]),
    "double": ("double", [0.1, float("-inf"), None]),
    "string": ("string", ["", "grüße 🙂", None]),
    "binary": ("binary", [bytearray(b"\x00ab"), bytearray(), None]),
    "decimal": ("decimal(12,3)", [D("1.500"), D("-0.001"), None]),
    "decimal38": ("decimal(38,18)", [D("12345678901234567890.123456789012345678"), D("0E-18"),
                                     None]),
    "date": ("date", [datetime.date(2024, 2, 29), datetime.date(1, 1, 1), None]),
    # a spring-forward gap and a fall-back fold in Los Angeles, the epoch's edge, the far future
    "timestamp": ("timestamp", [DT(2021, 3, 14, 2, 30), DT(2021, 11, 7, 1, 30, 0, 1),
                                DT(1969, 12, 31, 23, 59, 59, 999999), DT(9999, 12, 31, 23, 59),
                                None]),
    "timestamp_ntz": ("timestamp_ntz", [DT(2021, 3, 14, 2, 30), DT(1, 1, 1),
                                        DT(9999, 12, 31, 23, 59, 59, 999999), None]),
    "array": ("array<bigint>", [[1, None, 3], [], None]),
    "map": ("map<string,double>", [{"a": 1.0, "b": None, "c": -2.5}, {}, None]),
    "struct": ("struct<a:int,b:string,c:binary>", [(1, "x", bytearray(b"c")), (None, None, None),
                                                    None]),
    "nested": ("array<struct<k:string,m:map<int,array<timestamp>>,d:array<date>>>",
               [[("k", {1: [DT(2020, 1, 1, 12), None], 2: []}, [datetime.date(2020, 1, 1)]),
                 None, (None, None, None)],
                [], None]),
    "map_of_structs": ("map<string,struct<x:decimal(5,2),y:array<binary>>>",
                       [{"p": (D("1.25"), [bytearray(b"y"), None]), "q": None}, None]),
}


def canonical(v: Any) -> Any:
    """``v`` with its type at every level, comparable by ``==`` (see the module docstring)."""
    if isinstance(v, Row):
        fields = getattr(v, "__fields__", None)
        return ("Row", tuple(fields) if fields is not None else None,
                tuple(canonical(x) for x in v))
    if isinstance(v, dict):
        return ("dict", frozenset((repr(canonical(k)), repr(canonical(x))) for k, x in v.items()))
    if isinstance(v, (list, tuple)):
        return (type(v).__name__, tuple(canonical(x) for x in v))
    return (type(v).__name__, repr(v))


@pytest.fixture(params=ZONES)
def zone(request: pytest.FixtureRequest, spark: Any) -> Iterator[str]:
    """The session time zone for the test (the Arrow batches' timestamps are labelled with
    it); the one before is restored after."""
    before = spark.conf.get("spark.sql.session.timeZone")
    spark.conf.set("spark.sql.session.timeZone", request.param)
    try:
        yield str(request.param)
    finally:
        spark.conf.set("spark.sql.session.timeZone", before)


def typed_frame(spark: Any, names: list[str]) -> Any:
    """``n int`` (the row's number) and a column per type of ``names`` (named after it),
    12 rows cycling through each type's values, in 3 partitions."""
    rows = [(i, *(TYPES[t][1][i % len(TYPES[t][1])] for t in names)) for i in range(12)]
    ddl = ", ".join(f"{t} {TYPES[t][0]}" for t in names)
    return spark.createDataFrame(rows, f"n int, {ddl}").coalesce(3)


def both_paths(monkeypatch: pytest.MonkeyPatch,
               make: Callable[[], Any]) -> tuple[Any, Any]:
    """``make()`` on the Arrow path, then on the pickled path: each result of ``make`` (a
    chain) run to a list of its items. The Arrow run's chain must say it read Arrow."""
    monkeypatch.delenv(ARROW_SWITCH, raising=False)
    arrow_chain = make()
    arrow = list(arrow_chain.blocking_iterable())
    assert ARROW in arrow_chain.explain().splitlines()[0]
    monkeypatch.setenv(ARROW_SWITCH, "0")
    pickled_chain = make()
    pickled = list(pickled_chain.blocking_iterable())
    assert f"fused stages read pickled rows: {ARROW_SWITCH}=0" in pickled_chain.explain()
    return arrow, pickled


def identity(x: Any) -> Any:
    return x


def keep_all(x: Any) -> bool:
    return x is not None


@pytest.mark.parametrize("row_format", ["row", "dict", "tuple"])
def test_every_type_reads_as_the_pickled_rows_do(spark: Any, monkeypatch: pytest.MonkeyPatch,
                                                  zone: str, row_format: str) -> None:
    names = sorted(TYPES)
    df = typed_frame(spark, names)

    def make() -> Any:
        chain = from_dataframe(df, row_format=row_format).map(identity).filter(keep_all)
        assert isinstance(chain, SparkFlowable)
        return chain

    arrow, pickled = both_paths(monkeypatch, make)
    assert len(arrow) == len(pickled) == 12
    for i, name in enumerate(names, start=1):  # per type: which one differs, if any
        def column(items: list[Any], i: int = i, name: str = name) -> list[Any]:
            return [canonical(x[name] if row_format == "dict" else x[i]) for x in items]

        assert column(arrow) == column(pickled), f"{name} ({TYPES[name][0]}) in {zone}"
        values = [x[name] if row_format == "dict" else x[i] for x in arrow]
        assert name in ("null", "void") or any(v is not None for v in values), name
    assert [canonical(x) for x in arrow] == [canonical(x) for x in pickled]


def test_timestamps_are_the_local_datetimes_of_the_pickled_rows(spark: Any, zone: str,
                                                               monkeypatch: pytest.MonkeyPatch
                                                               ) -> None:
    """What the session time zone changes: the instant a timestamp literal means; both paths
    then give that instant as the executors' local naive datetime, as PySpark's rows do."""
    df = spark.sql("SELECT TIMESTAMP'2021-03-14 12:00:00' AS t, "
                   "TIMESTAMP_NTZ'2021-03-14 12:00:00' AS ntz")
    arrow, pickled = both_paths(monkeypatch, lambda: from_dataframe(df).map(identity))
    assert arrow == pickled
    assert arrow[0].ntz == DT(2021, 3, 14, 12)
    assert arrow[0].t == df.collect()[0].t


def test_many_rows_over_many_batches_and_payloads(spark: Any, monkeypatch: pytest.MonkeyPatch
                                                  ) -> None:
    spark.conf.set("spark.sql.execution.arrow.maxRecordsPerBatch", "1000")
    try:
        df = spark.range(0, 25_000, 1, 3).selectExpr(
            "id", "CAST(id AS STRING) AS s", "IF(id % 7 = 0, NULL, array(id, id + 1)) AS a")
        arrow, pickled = both_paths(
            monkeypatch, lambda: from_dataframe(df, row_format="tuple")
            .flat_map_iterable(lambda t: [t, t] if t[0] % 2 else [t]).map(identity))
    finally:
        spark.conf.unset("spark.sql.execution.arrow.maxRecordsPerBatch")
    assert len(arrow) == 37_500
    assert arrow == pickled


def test_plan_shapes_on_both_paths(spark: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    from pyspark.sql import functions as F

    from rxpy2.spark import plan

    df = spark.range(0, 50, 1, 4).selectExpr("id", "id * 3 AS x")
    monkeypatch.setattr(plan, "ARROW_MIN_LIMIT", 5)  # the take(7) below on Arrow batches
    shapes: dict[str, Callable[[], Any]] = {
        # a one-Column map, then a fused stage: the Column's values
        "unwrap": lambda: from_dataframe(df).map(F.col("x") + 1).map(lambda v: v * 2),
        # a driver stage after the fused ones: it gets the items in the source's format
        "driver after": lambda: from_dataframe(df, row_format="dict").map(identity)
        .on_driver().map(lambda d: d["x"]),
        # a take pushed into the last executor stage
        "take": lambda: from_dataframe(df).map(lambda r: r.id).take(7),
        # whole partitions, map_partitions fused
        "partitions": lambda: from_dataframe(df, emit="partitions")
        .map_partitions(lambda rows: (r.x for r in rows)),
    }
    for what, make in shapes.items():
        monkeypatch.delenv(ARROW_SWITCH, raising=False)
        chain = make()
        arrow = list(chain.blocking_iterable())
        monkeypatch.setenv(ARROW_SWITCH, "0")
        pickled = list(make().blocking_iterable())
        assert arrow == pickled, what
        assert arrow, what


def test_a_small_take_reads_pickled_rows_a_large_one_arrow(spark: Any,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    from rxpy2.spark.plan import ARROW_MIN_LIMIT

    monkeypatch.delenv(ARROW_SWITCH, raising=False)
    df = spark.range(0, 20_000, 1, 2)
    small = from_dataframe(df).map(lambda r: r.id * 2).take(5)
    assert (f"fused stages read pickled rows: a take/limit of 5 (< {ARROW_MIN_LIMIT:,} items"
            in small.explain().splitlines()[0])
    assert list(small.blocking_iterable()) == [0, 2, 4, 6, 8]
    large = from_dataframe(df).map(lambda r: r.id * 2).take(ARROW_MIN_LIMIT)
    assert ARROW in large.explain().splitlines()[0]
    assert list(large.blocking_iterable()) == [2 * i for i in range(ARROW_MIN_LIMIT)]


def test_aggregations_on_both_paths(spark: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    df = typed_frame(spark, ["struct"]).union(typed_frame(spark, ["struct"]))

    def results() -> dict[str, Any]:
        chain = from_dataframe(df).map(lambda r: (r.n % 5, r.struct)).filter(lambda t: t[0] != 3)
        assert isinstance(chain, SparkFlowable)
        return {
            "count": chain.count().blocking_get(WAIT),
            "to_list": chain.to_list().blocking_get(WAIT),
            "to_list unlimited": chain.to_list(max_items=None).blocking_get(WAIT),
            "reduce": chain.reduce(lambda acc, t: acc + [t], []).blocking_get(WAIT),
            "reduce associative": chain.map(lambda t: t[0])
            .reduce(lambda a, b: a + b, associative=True).blocking_get(WAIT),
            # repr: a struct's binary field is a bytearray on Spark 3.5, which does not hash
            "distinct": sorted(chain.map(lambda t: (t[0], repr(t[1])))
                               .distinct(keep_order=False).blocking_iterable()),
            "explain": chain.explain().splitlines()[0],
        }

    monkeypatch.delenv(ARROW_SWITCH, raising=False)
    arrow = results()
    monkeypatch.setenv(ARROW_SWITCH, "0")
    pickled = results()
    assert ARROW in arrow.pop("explain")
    assert "pickled rows" in pickled.pop("explain")
    assert arrow == pickled
    assert arrow["count"] == 20 and len(arrow["to_list"]) == 20
    too_small = from_dataframe(df).map(identity).to_list(max_items=3).test()
    too_small.await_done(WAIT).assert_error(ValueError)


def test_a_stage_error_reaches_the_subscriber_on_the_arrow_path(spark: Any) -> None:
    df = spark.range(0, 10, 1, 2)
    ts = from_dataframe(df).map(lambda r: None if r.id == 7 else r.id).test()
    ts.await_done(WAIT)
    assert ts.errors() and "mapper returned None" in str(ts.errors()[0])
    assert ARROW in from_dataframe(df).map(identity).explain()


@pytest.mark.parametrize(("select", "problem"), [
    ("INTERVAL '1 02:03:04' DAY TO SECOND AS d",
     "column 'd' has type interval day to second, which has no Arrow conversion here"),
    ("array(named_struct('i', INTERVAL '3' DAY)) AS y",
     "column 'y' has type array<struct<i:interval day>>, whose interval day has no Arrow "
     "conversion here"),
])
def test_types_without_an_arrow_conversion_keep_the_pickled_path(spark: Any, select: str,
                                                                 problem: str) -> None:
    df = spark.sql(f"SELECT id, {select} FROM range(4)")
    chain = from_dataframe(df).map(identity)
    head = chain.explain().splitlines()[0]
    assert f"fused stages read pickled rows: {problem})" in head
    assert list(chain.blocking_iterable()) == df.collect()


def test_explain_says_nothing_of_the_input_without_a_fused_stage(spark: Any) -> None:
    df = spark.range(3)
    assert "fused stages" not in from_dataframe(df).explain()
    assert "fused stages" not in from_dataframe(df).on_driver().map(identity).explain()


def test_the_driver_emits_one_payload_of_items_at_a_time(spark: Any,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """The reader's batches are the executors' payloads (``PAYLOAD_ITEMS`` items each), not
    the JVM's batch of several payloads unpickled into one list: a slow consumer holds one
    payload per partition read."""
    from rxpy2.spark.executor_code import PAYLOAD_ITEMS
    from rxpy2.spark.plan import compile_plan

    monkeypatch.delenv(ARROW_SWITCH, raising=False)
    df = spark.range(0, 5 * PAYLOAD_ITEMS + 7, 1, 1)
    source = from_dataframe(df).map(lambda r: r.id)
    assert isinstance(source, SparkFlowable)
    compiled = compile_plan(source.plan)
    assert compiled.arrow_input
    reader = compiled.run_job(0)
    items: list[Any] = []
    sizes: list[int] = []
    try:
        while (batch := reader.next_batch()) is not None:
            sizes.append(len(batch))
            items.extend(batch)
    finally:
        reader.close()
    assert sizes == [PAYLOAD_ITEMS] * 5 + [7]
    assert items == list(range(5 * PAYLOAD_ITEMS + 7))


def test_a_module_mapinarrow_needs_on_the_driver_missing_keeps_the_pickled_path(
        spark: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """PySpark's ``mapInArrow`` needs pandas on the driver: where a module it needs is
    missing, fused stages read pickled rows and ``explain()`` says which module."""
    import rxpy2.spark.plan as plan_module

    monkeypatch.delenv(ARROW_SWITCH, raising=False)
    monkeypatch.setattr(plan_module, "map_in_arrow_driver_modules",
                        lambda: ("pyarrow", "rxpy2_test_no_such_module"))
    df = spark.range(0, 30, 1, 3)
    chain = from_dataframe(df).map(lambda r: r.id * 2)
    assert ("fused stages read pickled rows: rxpy2_test_no_such_module is not installed "
            "(PySpark's mapInArrow needs it on the driver)") in chain.explain().splitlines()[0]
    assert list(chain.blocking_iterable()) == [i * 2 for i in range(30)]
    from rxpy2.spark.plan import compile_plan

    assert isinstance(chain, SparkFlowable) and not compile_plan(chain.plan).arrow_input
