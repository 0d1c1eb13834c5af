"""Fusion you can see and control: explain() names every stage, where it runs and why a
driver stage did not fuse; the fallback to the driver is logged once per chain;
fuse="require" makes it an error at assembly; job_group numbers subscriptions from 1."""

from __future__ import annotations

import functools
import logging
import re
import sys
import threading
from pathlib import Path
from typing import Any

import pytest
from pyspark import cloudpickle
from spark_support import wait_no_spark_threads

from rxpy2 import Flowable
from rxpy2.spark import SparkFlowable
from rxpy2.spark import SparkFusionError
from rxpy2.spark import explain
from rxpy2.spark import from_dataframe
from rxpy2.spark import from_rdd

# The executors' Python workers cannot import this test module: its functions travel by value.
cloudpickle.register_pickle_by_value(sys.modules[__name__])

WAIT = 60.0  # generous: jobs are slow on a loaded 2-core machine (never a timing assertion)

_lock = threading.Lock()  # closed over by the functions below: they cannot be pickled


def parse(r: Any) -> Any:
    return r[0]


def is_even(x: int) -> bool:
    return x % 2 == 0


def locked_inc(x: int) -> int:
    with _lock:
        return x + 1


def locked_keep(x: int) -> bool:
    with _lock:
        return True


def locked_partition(it: Any) -> Any:
    with _lock:
        return [x * 10 for x in it]


class Scale:
    def __init__(self, k: int) -> None:
        self.k = k

    def __call__(self, x: int) -> int:
        return x * self.k


def twice(x: int) -> list[int]:
    return [x, x]


def add(a: int, b: int) -> int:
    return a + b


@pytest.fixture(autouse=True)
def _no_thread_left():
    yield
    assert wait_no_spark_threads() == [], "a Spark job thread outlived its subscription"


@pytest.fixture
def df(spark):
    return spark.range(0, 10, numPartitions=2).selectExpr("id", "id * 10 AS amount")


def _stage_lines(text: str) -> list[str]:
    return text.splitlines()[1:]  # without the source line


# ---- explain ------------------------------------------------------------------------------------


@pytest.mark.connect  # runs on a Spark Connect session too (tools/test -m connect)
def test_explain_names_every_stage_where_it_runs_and_why(df):
    line = sys._getframe().f_lineno + 2
    chain = (from_dataframe(df, row_format="tuple").map(parse)
             .filter(lambda x: x >= 0).map(Scale(3)).map(functools.partial(add, 1))
             .map(locked_inc).filter(is_even).buffer(2).map(len))
    lines = explain(chain).splitlines()
    assert lines[0].startswith("spark   source    DataFrame[id: bigint, amount: bigint] "
                               "(rows as tuple;")
    assert lines[1:] == [
        "spark   stage     map(parse)  [executors]",
        f"spark   stage     filter(<lambda> at test_fusion_control.py:{line})  [executors]",
        "spark   stage     map(Scale)  [executors]",
        "spark   stage     map(partial(add))  [executors]",
        "driver  operator  map(locked_inc)  [not picklable: TypeError: cannot pickle "
        "'_thread.lock' object]",
        "driver  operator  filter(is_even)  [after a driver operator (map(locked_inc))]",
        "driver  operator  buffer(2, 2, list)  [not fusable: buffer]",
        "driver  operator  map(len)  [after a driver operator (map(locked_inc))]",
    ]
    # the fallback still computes: (id * 3 + 1) + 1, the even ones, in pairs
    expected = [x for x in ((i * 3 + 1) + 1 for i in range(10)) if x % 2 == 0]
    got = chain.test().await_done(WAIT).assert_complete().values()
    assert got == [len(expected[i:i + 2]) for i in range(0, len(expected), 2)]


def test_explain_reasons_off_on_driver_arrow_and_non_fusable(sc, df):
    rdd = sc.parallelize(range(6), 2)
    assert _stage_lines(explain(from_rdd(rdd, fuse=False).map(parse))) == [
        "driver  operator  map(parse)  [fusion off (fuse=False)]"]
    assert _stage_lines(explain(from_rdd(rdd).map(is_even).on_driver().filter(is_even)
                                .map(parse))) == [
        "spark   stage     map(is_even)  [executors]",
        "driver  operator  filter(is_even)  [after on_driver()]",
        "driver  operator  map(parse)  [after on_driver()]"]
    assert _stage_lines(explain(from_dataframe(df, emit="arrow").map(len))) == [
        'driver  operator  map(len)  [not fusable with emit="arrow" (the items are whole '
        'tables)]']
    chain = from_rdd(rdd).flat_map(lambda x: Flowable.just(x)).map(parse)
    lines = _stage_lines(explain(chain))
    assert lines[0].startswith("driver  operator  flat_map(<lambda> at test_fusion_control.py:")
    assert lines[0].endswith("[not fusable: flat_map]")
    assert lines[1].startswith("driver  operator  map(parse)  [after a driver operator "
                               "(flat_map(<lambda> at ")
    # take/limit go into Spark directly on a source of rows; elsewhere they say why not
    assert _stage_lines(explain(from_rdd(rdd).map(locked_inc).take(2)))[1] == (
        "driver  operator  take(2)  [after a driver operator (map(locked_inc))]")
    assert _stage_lines(explain(from_rdd(rdd, emit="partitions").limit(1))) == [
        'driver  operator  limit(1)  [not fusable with emit="partitions"]']
    assert _stage_lines(explain(from_rdd(rdd).take(3).map(parse)))[-1] == (
        "driver  operator  map(parse)  [after take/limit (3)]")
    # the source alone says what happens to what is applied next
    assert explain(from_rdd(rdd).on_driver()).splitlines()[1] == (
        "driver  (after on_driver(): Python stages applied next run on the driver)")


def test_explain_of_a_driver_map_partitions_and_what_follows(sc):
    chain = from_rdd(sc.parallelize(range(6), 2)).map_partitions(locked_partition).map(
        locked_inc)
    assert isinstance(chain, Flowable) and not isinstance(chain, SparkFlowable)
    lines = _stage_lines(explain(chain))
    assert lines == [
        "driver  stage     map_partitions(locked_partition)  [driver, per partition: not "
        "picklable: TypeError: cannot pickle '_thread.lock' object]",
        "driver  operator  map(locked_inc)  [after a driver operator "
        "(map_partitions(locked_partition))]"]
    chain.test().await_done(WAIT).assert_values(*[x * 10 + 1 for x in range(6)]).assert_complete()


#: every reason a stage runs on the driver (docs/spark.md's table, first column) -> a chain
#: whose last stage runs on the driver for it (on an RDD of 0..5 in 2 partitions, the
#: DataFrame ``df``), and the line explain() gives that stage
REASONS: dict[str, tuple[Any, str]] = {
    "not picklable: <the pickling error>": (
        lambda rdd, df: from_rdd(rdd).map(is_even).map(locked_inc),
        "driver  operator  map(locked_inc)  [not picklable: TypeError: cannot pickle "
        "'_thread.lock' object]"),
    "not fusable: <operator>": (
        lambda rdd, df: from_rdd(rdd).buffer(2),
        "driver  operator  buffer(2, 2, list)  [not fusable: buffer]"),
    "after a driver operator (<the first one>)": (
        lambda rdd, df: from_rdd(rdd).map(locked_inc).filter(is_even),
        "driver  operator  filter(is_even)  [after a driver operator (map(locked_inc))]"),
    "after take/limit (<n>)": (
        lambda rdd, df: from_rdd(rdd).take(3).filter(is_even),
        "driver  operator  filter(is_even)  [after take/limit (3)]"),
    "after on_driver()": (
        lambda rdd, df: from_rdd(rdd).on_driver().flat_map_iterable(twice),
        "driver  operator  flat_map_iterable(twice)  [after on_driver()]"),
    "fusion off (fuse=False)": (
        lambda rdd, df: from_dataframe(df, fuse=False).map(parse),
        "driver  operator  map(parse)  [fusion off (fuse=False)]"),
    'not fusable with emit="arrow" (the items are whole tables)': (
        lambda rdd, df: from_dataframe(df, emit="arrow").filter(bool),
        'driver  operator  filter(bool)  [not fusable with emit="arrow" (the items are whole '
        'tables)]'),
    'not fusable with emit="partitions" (the items are whole partitions)': (
        lambda rdd, df: from_rdd(rdd, emit="partitions").map(len),
        'driver  operator  map(len)  [not fusable with emit="partitions" (the items are whole '
        'partitions)]'),
    'not fusable with emit="partitions"': (
        lambda rdd, df: from_dataframe(df, emit="partitions").limit(1),
        'driver  operator  limit(1)  [not fusable with emit="partitions"]'),
    "take(0): completes at subscription, with no Spark job": (
        lambda rdd, df: from_rdd(rdd).map(is_even).take(0),
        "driver  operator  take(0)  [take(0): completes at subscription, with no Spark job]"),
    "assembled without the Spark source's fusion": (
        lambda rdd, df: Flowable.filter(from_rdd(rdd), is_even),
        "driver  operator  filter(is_even)  [assembled without the Spark source's fusion]"),
}


@pytest.mark.parametrize("reason", sorted(REASONS))
def test_explain_gives_the_reason_of_each_driver_stage(sc, df, reason):
    build, expected = REASONS[reason]
    chain = build(sc.parallelize(range(6), 2), df)
    text = explain(chain)
    assert text.splitlines()[-1] == expected
    # the chain's own explain() is the same, not the generic one (the issue: a driver map
    # shown as "operator  map(f)  [passes SYNC/ASYNC fusion through]")
    assert chain.explain() == text
    for line in text.splitlines():  # every driver stage says why it runs there
        if line.startswith("driver  "):
            assert line.endswith("]") and "[]" not in line, line


def test_every_reason_is_in_the_documentation():
    text = (Path(__file__).resolve().parents[2] / "docs" / "spark.md").read_text()
    table = text.split("Why a stage runs on the driver:", 1)[1].split("\n\n", 2)[1]
    documented = {re.match(r"\| `([^`]*)`", row).group(1)  # type: ignore[union-attr]
                  for row in table.splitlines()[2:]}
    assert documented == set(REASONS)


def test_chain_explain_of_a_spark_chain_is_the_spark_explain(sc, df):
    rdd = sc.parallelize(range(6), 2)
    chains = [from_rdd(rdd).map(locked_inc).filter(is_even).buffer(2),
              from_rdd(rdd).map_partitions(locked_partition).map(parse),
              from_rdd(rdd, fuse=False).map_partitions(locked_partition).take(2),
              from_dataframe(df, row_format="tuple").map(parse).map(locked_inc).count()]
    for chain in chains:
        assert chain.explain() == explain(chain)
    assert chain.explain().splitlines()[-1] == "driver  operator  count()  [not fusable: count]"
    assert explain(chains[2]).splitlines()[1:] == [
        "driver  stage     map_partitions(locked_partition)  [driver, per partition: fusion "
        "off (fuse=False)]",
        "driver  operator  take(2)  [fusion off (fuse=False)]"]
    # a chain without a Spark source keeps the generic explain()
    plain = Flowable.range(1, 3).hide().map(parse)
    assert plain.explain() != explain(plain) and "passes SYNC/ASYNC" in plain.explain()


def test_python_stages_over_partition_lists_run_on_the_driver(sc):
    rdd = sc.parallelize(range(10), 2)
    lens = from_rdd(rdd, emit="partitions").map(len)
    assert not isinstance(lens, SparkFlowable)
    assert lens.to_list().blocking_get(WAIT) == [5, 5]
    firsts = from_rdd(rdd, emit="partitions").filter(lambda p: p[0] > 0) \
        .flat_map_iterable(lambda p: p[:2])
    assert firsts.to_list().blocking_get(WAIT) == [5, 6]
    # map_partitions works on the partition's rows, fused as before
    sums = from_rdd(rdd, emit="partitions").map_partitions(lambda it: [sum(it)])
    assert isinstance(sums, SparkFlowable)
    assert "spark   stage     map_partitions" in sums.explain()
    assert sums.to_list().blocking_get(WAIT) == [[10], [35]]


def test_explain_without_a_spark_source():
    text = explain(Flowable.range(1, 3).hide().map(parse))
    assert text.splitlines() == ["(no Spark source: the whole chain runs on the driver)",
                                 "driver  operator  range(1, 3)", "driver  operator  hide()",
                                 "driver  operator  map(parse)"]


# ---- the warning --------------------------------------------------------------------------------


def _fallback_records(caplog: Any) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.name == "rxpy2.spark" and "runs on the driver" in
            r.getMessage()]


def test_fallback_is_logged_once_per_chain(sc, caplog):
    caplog.set_level(logging.WARNING, logger="rxpy2.spark")
    src = from_rdd(sc.parallelize(range(6), 2)).map(is_even)
    chain = src.map(locked_inc).filter(locked_keep).map(locked_inc)  # three driver stages
    sibling = src.filter(locked_keep)  # another branch of the same source lineage
    records = _fallback_records(caplog)
    assert len(records) == 1
    assert records[0].levelno == logging.WARNING
    msg = records[0].getMessage()
    assert "map(locked_inc)" in msg and "not picklable: TypeError: cannot pickle" in msg
    for _ in range(2):  # subscribed twice: nothing more
        chain.test().await_done(WAIT).assert_complete()
    assert len(_fallback_records(caplog)) == 1 and sibling is not None
    # a chain of its own (a new from_rdd) warns for itself
    from_rdd(sc.parallelize(range(2), 1)).map_partitions(locked_partition)
    assert len(_fallback_records(caplog)) == 2


def test_asked_for_driver_stages_are_not_logged(sc, caplog):
    caplog.set_level(logging.WARNING, logger="rxpy2.spark")
    rdd = sc.parallelize(range(2), 1)
    from_rdd(rdd, fuse=False).map(locked_inc)
    from_rdd(rdd).on_driver().map(locked_inc)
    from_rdd(rdd).buffer(2).map(locked_inc)
    assert _fallback_records(caplog) == []


# ---- fuse="require" -----------------------------------------------------------------------------


def test_fuse_require_raises_for_an_unpicklable_function(sc, df):
    rdd = sc.parallelize(range(6), 2)
    with pytest.raises(SparkFusionError) as info:
        from_rdd(rdd, fuse="require").map(is_even).map(locked_inc)
    err = info.value
    assert isinstance(err, ValueError)
    assert err.stage == "map(locked_inc)"
    assert err.reason.startswith("not picklable: TypeError: cannot pickle '_thread.lock'")
    assert "map(locked_inc)" in str(err) and "not picklable" in str(err)
    with pytest.raises(SparkFusionError, match=r"map_partitions\(locked_partition\)"):
        from_dataframe(df, fuse="require").map_partitions(locked_partition)
    with pytest.raises(SparkFusionError, match=r"filter\(locked_keep\)"):
        from_rdd(rdd, fuse="require").filter(locked_keep)
    with pytest.raises(SparkFusionError, match=r"flat_map_iterable\(locked_inc\)"):
        from_rdd(rdd, fuse="require").concat_map_iterable(locked_inc)


def test_fuse_require_accepts_never_fusable_operators_and_on_driver(sc):
    rdd = sc.parallelize(range(6), 2)
    chain = from_rdd(rdd, fuse="require").map(is_even).buffer(4).map(len)  # no error
    chain.test().await_done(WAIT).assert_values(4, 2).assert_complete()
    from_rdd(rdd, fuse="require").flat_map(lambda x: Flowable.just(x)).map(locked_inc)
    driver = from_rdd(rdd, fuse="require").on_driver().map(locked_inc)  # asked for
    assert "[after on_driver()]" in explain(driver)


def test_fuse_argument_is_checked(sc, df):
    rdd = sc.parallelize(range(2), 1)
    with pytest.raises(ValueError, match="fuse"):
        from_rdd(rdd, fuse="always")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="fuse"):
        from_dataframe(df, fuse=None)  # type: ignore[call-overload]


# ---- job groups and the rows driver stages see -----------------------------------------------


def test_job_group_numbers_subscriptions_from_one(sc):
    src = from_rdd(sc.parallelize(range(2), 1))
    assert src.job_group(1).endswith("-1")
    for bad in (0, -1):
        with pytest.raises(ValueError, match="from 1"):
            src.job_group(bad)
    for wrong in ("1", 1.0, True, None):
        with pytest.raises(TypeError):
            src.job_group(wrong)  # type: ignore[arg-type]


@pytest.mark.connect  # runs on a Spark Connect session too (tools/test -m connect)
@pytest.mark.parametrize("row_format,first", [("tuple", lambda r: r[0]),
                                              ("dict", lambda r: r["id"])])
def test_driver_map_partitions_sees_the_source_row_format(df, row_format, first):
    def firsts(it: Any) -> Any:
        return (first(r) for r in it)

    chain = from_dataframe(df, row_format=row_format).on_driver().map_partitions(firsts)
    assert "driver  stage     map_partitions(firsts)" in chain.explain()
    chain.test().await_done(WAIT).assert_values(*range(10)).assert_complete()
