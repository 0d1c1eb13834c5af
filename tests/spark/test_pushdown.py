"""take/limit pushed into Spark, and terminal aggregations (count, reduce, to_list, an
unordered distinct) computed by Spark: the same results as the driver operators, the jobs
counted with Spark's status tracker. All on the one session-scoped ``local[2]`` session."""

from __future__ import annotations

import functools
import random
import sys
import time
from typing import Any

import pytest
from pyspark import cloudpickle
from spark_support import wait_no_spark_threads

from rxpy2 import Flowable
from rxpy2.spark import SparkFlowable
from rxpy2.spark import SparkJobError
from rxpy2.spark import explain
from rxpy2.spark import from_dataframe
from rxpy2.spark import from_rdd

# The executors' Python workers cannot import this test module: its functions travel by value.
cloudpickle.register_pickle_by_value(sys.modules[__name__])

WAIT = 60.0  # generous: jobs are slow on a loaded 2-core machine (never a timing assertion)


def job_ids(sc: Any, source: SparkFlowable[Any], subscription: int = 1) -> list[int]:
    return list(sc.statusTracker().getJobIdsForGroup(source.job_group(subscription)))


def settled_jobs(sc: Any, source: SparkFlowable[Any], subscription: int = 1) -> list[Any]:
    """Poll until no job of the subscription runs; returns their infos."""
    tracker = sc.statusTracker()
    deadline = time.monotonic() + WAIT
    while True:
        # the tracker learns of a job from the listener bus, asynchronously: without this a
        # job that already ran may not be listed yet (an empty list "settles" at once)
        sc._jsc.sc().listenerBus().waitUntilEmpty(int(WAIT * 1000))
        infos = [tracker.getJobInfo(j) for j in job_ids(sc, source, subscription)]
        if all(i is not None and i.status != "RUNNING" for i in infos):
            return infos
        if time.monotonic() > deadline:
            raise AssertionError(f"jobs still running: {infos}")
        time.sleep(0.05)


@pytest.fixture(autouse=True)
def _no_thread_left():
    yield
    assert wait_no_spark_threads() == [], "a Spark thread outlived its subscription"


def numbers(spark: Any, n: int, partitions: int) -> Any:
    return spark.range(0, n, numPartitions=partitions).selectExpr("id", "id % 7 AS bucket")


def uneven(sc: Any, seed: int, partitions: int = 4) -> tuple[Any, list[int]]:
    """An RDD of random-ish ints in partitions of random-ish sizes (some empty)."""
    rnd = random.Random(seed)
    parts = [[rnd.randrange(-50, 50) for _ in range(rnd.choice([0, 1, 3, 6]))]
             for _ in range(partitions)]
    items = [x for p in parts for x in p]
    rdd = sc.parallelize(parts, partitions).flatMap(lambda p: p)
    return rdd, items


# ---- take / limit --------------------------------------------------------------------------------


def test_take_five_of_two_million_rows_is_one_job_reading_only_the_first_rows(spark, sc):
    acc = sc.accumulator(0)

    def counting(row: Any, acc: Any = acc) -> Any:
        acc.add(1)
        return row

    src = from_dataframe(numbers(spark, 2_000_000, 8), row_format="tuple").map(counting)
    taken = src.take(5)
    assert isinstance(taken, SparkFlowable)
    assert list(taken.blocking_iterable()) == [(i, i % 7) for i in range(5)]
    assert len(settled_jobs(sc, taken)) == 1
    assert 5 <= acc.value <= 10, acc.value  # not the partition's 250,000 rows


def test_take_on_a_dataframe_without_python_stages_is_one_job(spark, sc):
    taken = from_dataframe(numbers(spark, 2_000_000, 8), row_format="tuple").take(5)
    assert list(taken.blocking_iterable()) == [(i, i % 7) for i in range(5)]
    assert len(settled_jobs(sc, taken)) == 1
    assert explain(taken).splitlines()[1] == "spark   stage     limit(5)  [executors]"


def _sources(spark: Any, sc: Any) -> dict[str, tuple[SparkFlowable[Any], list[Any]]]:
    rdd, items = uneven(sc, 7, 5)
    df = spark.createDataFrame([(x,) for x in items], "x int")
    return {
        "rdd": (from_rdd(rdd), items),
        "rdd+map": (from_rdd(rdd).map(lambda x: x * 3), [x * 3 for x in items]),
        "df": (from_dataframe(df, row_format="tuple").map(lambda r: r[0])
               .filter(lambda x: x % 2 == 0), [x for x in items if x % 2 == 0]),
        "df-jvm": (from_dataframe(numbers(spark, 40, 4), row_format="tuple"),
                   [(i, i % 7) for i in range(40)]),
    }


def test_take_gives_take_s_items_under_unbounded_and_bounded_demand(spark, sc):
    for name, (src, items) in _sources(spark, sc).items():
        for n, method in ((1, "take"), (4, "limit"), (len(items) - 1, "take"),
                          (len(items) + 3, "limit")):
            limited = getattr(src, method)(n)
            assert isinstance(limited, SparkFlowable), name
            expected = items[:n]
            ts = limited.test()
            ts.await_done(WAIT).assert_no_errors().assert_complete()
            assert ts.values() == expected, (name, n)
            ts = limited.test(0)
            for k in range(len(expected)):
                ts.request(1)
                ts.await_count(k + 1, WAIT)
            # the n-th item completes at once (take), the end of a shorter source too
            ts.await_done(WAIT).assert_no_errors().assert_complete()
            assert ts.values() == expected, (name, n)


def test_take_with_request_two_at_a_time(spark, sc):
    rdd, items = uneven(sc, 3, 6)
    limited = from_rdd(rdd).take(7)
    expected = items[:7]
    ts = limited.test(0)
    for k in range(2, len(expected) + 2, 2):
        ts.request(2)
        ts.await_count(min(k, len(expected)), WAIT)
    ts.await_done(WAIT).assert_no_errors().assert_complete()
    assert ts.values() == items[:7]


@pytest.mark.parametrize("prefetch", [0, 1])
def test_short_partitions_launch_the_next_ones(spark, sc, prefetch):
    src = from_rdd(sc.parallelize(range(20), 5), prefetch_partitions=prefetch)
    limited = src.take(9)  # partitions of 4: needs partitions 0, 1 and 2
    assert list(limited.blocking_iterable()) == list(range(9))
    jobs = settled_jobs(sc, limited)
    # one partition at a time until one came short, then the ordinary prefetch
    assert 3 <= len(jobs) <= 3 + prefetch, jobs


def test_take_zero_completes_with_no_job(spark, sc):
    src = from_dataframe(numbers(spark, 100, 4))
    ts = src.take(0).test()
    ts.await_done(WAIT).assert_complete().assert_no_values()
    assert job_ids(sc, src) == []


def test_take_after_a_driver_operator_or_with_fusion_off_is_the_ordinary_take(spark, sc):
    df = numbers(spark, 50, 5)
    rows = [(i, i % 7) for i in range(50)]
    buffered = from_dataframe(df, row_format="tuple").buffer(3).take(4)
    assert not isinstance(buffered, SparkFlowable)
    assert list(buffered.blocking_iterable()) == [rows[i:i + 3] for i in range(0, 12, 3)]
    for chain in (from_dataframe(df, row_format="tuple", fuse=False).take(4),
                  from_dataframe(df, row_format="tuple").on_driver().take(4),
                  from_dataframe(df, row_format="tuple", emit="partitions").take(4)):
        assert not isinstance(chain, SparkFlowable)
        assert "limit" not in explain(chain)
    assert list(from_dataframe(df, row_format="tuple", fuse=False).take(4)
                .blocking_iterable()) == rows[:4]


def test_stages_after_a_take_run_on_the_driver_and_takes_combine(spark, sc):
    src = from_rdd(sc.parallelize(range(30), 3))
    chain = src.take(10).map(lambda x: -x).filter(lambda x: x % 2 == 0)
    assert list(chain.blocking_iterable()) == [0, -2, -4, -6, -8]
    assert "driver  operator  map" in explain(chain)
    assert list(src.take(10).take(3).blocking_iterable()) == [0, 1, 2]
    assert list(src.take(3).limit(10).blocking_iterable()) == [0, 1, 2]
    with pytest.raises(ValueError, match="take/limit"):
        src.take(3).map_partitions(lambda it: it)


def test_a_failing_stage_before_a_take_is_an_error(spark, sc):
    def bad(x: int) -> int:
        if x == 2:
            raise ValueError("bad item 2")
        return x

    ts = from_rdd(sc.parallelize(range(10), 2)).map(bad).take(5).test()
    ts.await_done(WAIT).assert_error(SparkJobError)
    assert ts.values() == []
    assert "bad item 2" in str(ts._errors[0])


def test_the_last_item_cancels_the_jobs_still_running(spark, sc):
    def slow(x: int) -> int:
        if x >= 10:
            time.sleep(1.0)  # partition 2: 5 s, unless cancelled
        return x

    # prefetch 1: partition 0 (5 items) comes short, then partitions 1 and 2 are launched
    # (1 + prefetch held) and run at once on local[2]'s two cores; the take ends inside
    # partition 1 and cancels partition 2. (With a third job launched with them, Spark may
    # start it and partition 2 first, whichever thread submits first: partition 1 then
    # waits for a core until both slow jobs have succeeded, and nothing is left to cancel.)
    limited = from_rdd(sc.parallelize(range(40), 8), prefetch_partitions=1).map(slow).take(7)
    assert list(limited.blocking_iterable()) == list(range(7))
    statuses = [i.status for i in settled_jobs(sc, limited)]
    # partitions 0 and 1 succeeded; partition 2, if its thread submitted it before the
    # cancel, was cancelled (its five slow rows would take 5 s)
    assert statuses.count("SUCCEEDED") == 2 and len(statuses) <= 3, statuses
    assert all(s in ("SUCCEEDED", "FAILED") for s in statuses), statuses


# ---- count ------------------------------------------------------------------------------------------


def test_count_equals_the_driver_count(spark, sc):
    for seed in range(2):
        rdd, items = uneven(sc, seed)
        src = from_rdd(rdd)
        assert src.count().blocking_get(WAIT) == len(items)
        evens = src.filter(lambda x: x % 2 == 0)
        assert evens.count().blocking_get(WAIT) == sum(1 for x in items if x % 2 == 0)
        assert evens.on_driver().count().blocking_get(WAIT) == sum(1 for x in items if x % 2 == 0)
    df = numbers(spark, 1000, 4)
    src = from_dataframe(df)
    assert src.count().blocking_get(WAIT) == 1000
    assert settled_jobs(sc, src)  # in the subscription's job group (rows counted in the JVM)
    assert from_dataframe(df.filter("bucket = 3")).count().blocking_get(WAIT) == 143
    assert from_dataframe(df.limit(0)).count().blocking_get(WAIT) == 0
    assert from_dataframe(df, emit="arrow").count().blocking_get(WAIT) == 4  # tables


def test_count_of_a_none_element_is_an_error_as_on_the_driver(spark, sc):
    ts = from_rdd(sc.parallelize([1, None, 2], 2)).count().test()
    ts.await_done(WAIT).assert_error(SparkJobError)
    assert "None" in str(ts._errors[0])


# ---- reduce ------------------------------------------------------------------------------------------


def _digits(a: int, x: int) -> int:  # not associative: the order of the fold shows
    return a * 10 + x


def test_reduce_is_the_left_fold_in_order_for_any_function(spark, sc):
    for seed in range(2):
        rdd, items = uneven(sc, seed + 10, 4)
        src = from_rdd(rdd).map(abs)
        values = [abs(x) for x in items]
        m = src.reduce(_digits)
        got = m.test().await_done(WAIT).assert_no_errors().values()
        assert got == ([functools.reduce(_digits, values)] if values else [])
        assert src.reduce(_digits, 7).blocking_get(WAIT) == functools.reduce(_digits, values, 7)
        assert src.reduce(_digits, 7).blocking_get(WAIT) == \
            Flowable.from_iterable(values).reduce(_digits, 7).blocking_get()
    src = from_rdd(sc.parallelize(range(1, 10), 3))
    m = src.reduce(_digits)
    assert m.blocking_get(WAIT) == 123456789
    assert len(settled_jobs(sc, src)) == 3  # one job per partition, the accumulator carried


def test_reduce_associative_is_one_job(spark, sc):
    src = from_rdd(sc.parallelize(range(1, 101), 4))
    assert src.reduce(lambda a, x: a + x, associative=True).blocking_get(WAIT) == 5050
    assert len(settled_jobs(sc, src)) == 1
    assert src.reduce(lambda a, x: a + x, 1000, associative=True).blocking_get(WAIT) == 6050
    # RxJava's order, reduce(seed, reducer), as Flowable.reduce takes it
    assert src.reduce(1000, lambda a, x: a + x, associative=True).blocking_get(WAIT) == 6050
    empty = from_rdd(sc.parallelize([], 3))
    empty.reduce(lambda a, x: a + x, associative=True).test().await_done(WAIT) \
        .assert_no_values().assert_complete()
    assert empty.reduce(lambda a, x: a + x, 5, associative=True).blocking_get(WAIT) == 5


def test_reduce_of_an_empty_source(spark, sc):
    src = from_dataframe(numbers(spark, 10, 2).limit(0), row_format="tuple")
    src.reduce(lambda a, x: a).test().await_done(WAIT).assert_no_values().assert_complete()
    assert src.reduce(lambda a, x: a + 1, 0).blocking_get(WAIT) == 0


def test_reduce_failure_is_a_spark_job_error(spark, sc):
    def boom(a: int, x: int) -> int:
        if x == 5:
            raise ValueError("no fives")
        return a + x

    for associative in (False, True):
        ts = from_rdd(sc.parallelize(range(10), 3)).reduce(boom, associative=associative).test()
        ts.await_done(WAIT).assert_error(SparkJobError)
        err = ts._errors[0]
        assert "no fives" in str(err) and err.__cause__ is not None


def test_reduce_dispose_cancels_the_job(spark, sc):
    def slow(x: int) -> int:
        time.sleep(0.05)
        return x

    src = from_rdd(sc.parallelize(range(400), 2)).map(slow)
    to = src.reduce(lambda a, x: a + x, associative=True).test()
    deadline = time.monotonic() + WAIT
    while not job_ids(sc, src) and time.monotonic() < deadline:
        time.sleep(0.02)
    assert job_ids(sc, src)
    to.dispose()
    infos = settled_jobs(sc, src)
    assert [i.status for i in infos] == ["FAILED"]  # cancelled, not run to the end
    assert to.values() == [] and to._errors == []


# ---- to_list -------------------------------------------------------------------------------------------


def test_to_list_equals_the_driver_list_and_guards_its_size(spark, sc):
    rdd, items = uneven(sc, 4, 5)
    src = from_rdd(rdd)
    assert src.to_list().blocking_get(WAIT) == items
    assert src.to_list(max_items=len(items)).blocking_get(WAIT) == items
    ts = src.to_list(max_items=len(items) - 1).test()
    ts.await_done(WAIT).assert_error(ValueError)
    assert f"more than max_items={len(items) - 1}" in str(ts._errors[0])
    df = numbers(spark, 30, 3)
    rows = from_dataframe(df, row_format="dict").to_list(max_items=None).blocking_get(WAIT)
    assert rows == [{"id": i, "bucket": i % 7} for i in range(30)]
    # not fully fused: the ordinary to_list, with the same guard
    driver = from_dataframe(df, row_format="tuple").on_driver().map_partitions(lambda it: it)
    assert driver.to_list().blocking_get(WAIT) == [(i, i % 7) for i in range(30)]
    driver.to_list(max_items=29).test().await_done(WAIT).assert_error(ValueError)


# ---- distinct ------------------------------------------------------------------------------------------


def test_distinct_unordered_is_a_spark_distinct(spark, sc):
    rdd, items = uneven(sc, 5, 4)
    src = from_rdd(rdd).map(lambda x: x % 5)
    unordered = src.distinct(keep_order=False)
    assert isinstance(unordered, SparkFlowable)
    assert "distinct(unordered)" in explain(unordered)
    assert sorted(unordered.to_list().blocking_get(WAIT)) == sorted({x % 5 for x in items})
    ordered = src.distinct()  # the default: the ordered driver operator
    assert not isinstance(ordered, SparkFlowable)
    assert ordered.to_list().blocking_get(WAIT) == list(dict.fromkeys(x % 5 for x in items))
    df = spark.createDataFrame([(1, "a"), (2, "b"), (1, "a"), (3, "c")], "n int, s string")
    rows = from_dataframe(df, row_format="tuple").distinct(keep_order=False)
    assert sorted(rows.blocking_iterable()) == [(1, "a"), (2, "b"), (3, "c")]
    assert rows.count().blocking_get(WAIT) == 3
