"""The backpressured sink: ``write_batches`` (a fake write, no Spark) and, on the session's
``local[2]`` Spark, ``to_parquet``/``to_table``."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest
from probes import ManualSource

from rxpy2 import Flowable
from rxpy2.exceptions import MissingBackpressureException
from rxpy2.spark.errors import SparkJobError
from rxpy2.spark.sink import WriteSummary
from rxpy2.spark.sink import to_parquet
from rxpy2.spark.sink import to_table
from rxpy2.spark.sink import write_batches


def sink_threads() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name.startswith("rxpy2-spark-sink")]


def wait_no_sink_threads(timeout: float = 10.0) -> list[threading.Thread]:
    deadline = time.monotonic() + timeout
    for t in sink_threads():
        t.join(max(0.0, deadline - time.monotonic()))
    return sink_threads()


class Recorder:
    """A write that records its batches (and, per call, the demand still outstanding
    upstream: requested minus emitted); ``hold`` makes the write of that batch index wait
    for ``release``; ``fail_at`` makes that batch's write raise ``error``."""

    def __init__(self, hold: int | None = None, fail_at: int | None = None,
                 error: BaseException | None = None) -> None:
        self.batches: list[list[Any]] = []
        self.indices: list[int] = []
        self.log: list[tuple[str, int]] = []
        self.outstanding: list[int] = []
        self.requested = 0
        self.emitted = 0
        self.hold = hold
        self.fail_at = fail_at
        self.error = error if error is not None else ZeroDivisionError("write failed")
        self.entered = threading.Event()
        self.release = threading.Event()
        self.threads: set[str] = set()

    def on_request(self, n: int) -> None:
        self.requested += n
        self.log.append(("request", n))

    def on_next(self, _item: Any) -> None:
        self.emitted += 1

    def observe(self, f: Flowable[Any]) -> Flowable[Any]:
        return f.do_on_next(self.on_next).do_on_request(self.on_request)

    def __call__(self, batch: list[Any], index: int) -> None:
        self.threads.add(threading.current_thread().name)
        self.outstanding.append(self.requested - self.emitted)
        self.log.append(("write", index))
        self.batches.append(list(batch))
        self.indices.append(index)
        if index == self.hold:
            self.entered.set()
            assert self.release.wait(10)
        if index == self.fail_at:
            raise self.error


# ---------------------------------------------------------------------------- write_batches


def test_writes_every_item_in_batches_of_batch_size():
    rec = Recorder()
    to = rec.observe(Flowable.range(0, 2500)).to(write_batches(rec, 1000, name="fake")).test()
    to.await_done().assert_no_errors()
    summary = to.values()[0]
    assert isinstance(summary, WriteSummary)
    assert (summary.target, summary.rows, summary.batches) == ("fake", 2500, 3)
    assert summary.seconds >= 0
    assert [len(b) for b in rec.batches] == [1000, 1000, 500]
    assert [x for b in rec.batches for x in b] == list(range(2500))
    assert rec.indices == [0, 1, 2]
    # each request only after the previous write, and no demand outstanding during a write
    assert rec.log == [("request", 1000), ("write", 0), ("request", 1000), ("write", 1),
                       ("request", 1000), ("write", 2)]
    assert rec.outstanding == [0, 0, 500]  # the last 1000 were answered by 500 and completion
    assert rec.threads and all(n.startswith("rxpy2-spark-sink-") for n in rec.threads)
    assert wait_no_sink_threads() == []


def test_exact_multiple_needs_no_extra_batch():
    rec = Recorder()
    to = rec.observe(Flowable.range(0, 20)).to(write_batches(rec, 10)).test()
    to.await_done().assert_no_errors()
    assert (to.values()[0].rows, to.values()[0].batches) == (20, 2)
    assert [len(b) for b in rec.batches] == [10, 10]
    assert rec.log == [("request", 10), ("write", 0), ("request", 10), ("write", 1)]


def test_empty_stream_writes_nothing_and_starts_no_thread():
    rec = Recorder()
    to = Flowable.empty().to(write_batches(rec, 5)).test()
    to.assert_no_errors()
    assert to.is_terminated()  # at once, on the subscribing thread
    assert (to.values()[0].rows, to.values()[0].batches) == (0, 0)
    assert rec.batches == []
    assert to.last_thread is threading.current_thread()


def test_no_request_while_a_write_is_held():
    rec = Recorder(hold=0)
    to = rec.observe(Flowable.range(0, 25)).to(write_batches(rec, 10)).test()
    assert rec.entered.wait(10)
    # the write of batch 0 is running: the sink asked for nothing more
    assert rec.log == [("request", 10), ("write", 0)]
    assert rec.emitted == 10
    assert not to.is_terminated()
    rec.release.set()
    to.await_done().assert_no_errors()
    assert rec.log == [("request", 10), ("write", 0), ("request", 10), ("write", 1),
                       ("request", 10), ("write", 2)]
    assert [len(b) for b in rec.batches] == [10, 10, 5]
    assert wait_no_sink_threads() == []


@pytest.mark.usefixtures("shutdown_schedulers")
def test_asynchronous_upstream():
    from rxpy2.schedulers import Schedulers

    rec = Recorder()
    src = Flowable.range(0, 1000).observe_on(Schedulers.computation())
    to = rec.observe(src).to(write_batches(rec, 64)).test()
    to.await_done(10).assert_no_errors()
    assert [x for b in rec.batches for x in b] == list(range(1000))
    assert [len(b) for b in rec.batches] == [64] * 15 + [40]
    assert [e for e in rec.log if e[0] == "request"] == [("request", 64)] * 16
    assert rec.outstanding == [0] * 15 + [24]
    assert wait_no_sink_threads() == []


def test_failing_write_fails_the_single_and_cancels_upstream():
    rec = Recorder(fail_at=1)
    cancels: list[int] = []
    src = rec.observe(Flowable.range(0, 100)).do_on_cancel(lambda: cancels.append(1))
    to = src.to(write_batches(rec, 10)).test()
    to.await_done().assert_error(rec.error)
    assert to.values() == []
    assert cancels == [1]
    assert rec.indices == [0, 1]  # no write after the failing one
    assert [e for e in rec.log if e[0] == "request"] == [("request", 10)] * 2
    assert wait_no_sink_threads() == []


def test_upstream_error_after_items_drops_the_partial_batch():
    rec = Recorder()
    err = ValueError("upstream")
    src = ManualSource()
    to = src.to(write_batches(rec, 10)).test()
    src.emit(*range(5))
    src.error(err)
    to.assert_error(err)  # nothing was being written: at once
    assert rec.batches == []
    assert src.requests == [10]


def test_upstream_error_waits_for_the_write_in_progress():
    rec = Recorder(hold=0)
    err = ValueError("upstream")
    src = ManualSource()
    to = src.to(write_batches(rec, 10)).test()
    src.emit(*range(10))
    assert rec.entered.wait(10)
    src.error(err)
    assert not to.is_terminated()  # documented: the running write finishes first
    rec.release.set()
    to.await_done().assert_error(err)
    assert rec.indices == [0]
    assert src.requests == [10]
    assert wait_no_sink_threads() == []


def test_write_error_after_upstream_error_goes_to_plugins(plugin_errors):
    rec = Recorder(hold=0, fail_at=0)
    err = ValueError("upstream")
    src = ManualSource()
    to = src.to(write_batches(rec, 3)).test()
    src.emit(1, 2, 3)
    assert rec.entered.wait(10)
    src.error(err)
    rec.release.set()
    to.await_done().assert_error(err)
    assert wait_no_sink_threads() == []
    assert plugin_errors.causes() == [rec.error]


def test_more_items_than_requested_is_missing_backpressure():
    rec = Recorder(hold=0)
    src = ManualSource()
    to = src.to(write_batches(rec, 3)).test()
    src.emit(1, 2, 3)
    assert rec.entered.wait(10)
    src.emit(4)  # nobody asked for it
    assert src.cancels == 1
    rec.release.set()
    to.await_done().assert_error(MissingBackpressureException)
    src.emit(5)  # dropped
    src.complete()  # dropped
    assert rec.batches == [[1, 2, 3]]
    assert src.requests == [3]
    assert wait_no_sink_threads() == []


def test_dispose_during_a_write_cancels_upstream_and_signals_nothing():
    rec = Recorder(hold=1)
    cancels: list[int] = []
    src = rec.observe(Flowable.range(0, 100)).do_on_cancel(lambda: cancels.append(1))
    to = src.to(write_batches(rec, 10)).test()
    assert rec.entered.wait(10)
    to.dispose()
    assert cancels == [1]
    rec.release.set()
    assert wait_no_sink_threads() == []
    assert rec.indices == [0, 1]  # no write started after dispose
    assert [e for e in rec.log if e[0] == "request"] == [("request", 10)] * 2
    assert not to.is_terminated()
    assert to.values() == [] and to.errors() == []


def test_dispose_while_waiting_for_items_ends_the_thread():
    rec = Recorder()
    src = ManualSource()
    to = src.to(write_batches(rec, 2)).test()
    src.emit(1, 2)
    deadline = time.monotonic() + 10
    while len(src.requests) < 2 and time.monotonic() < deadline:
        time.sleep(0.005)
    assert src.requests == [2, 2]
    assert len(sink_threads()) == 1  # the worker waits for the next batch
    src.emit(3)
    to.dispose()
    assert src.cancels == 1
    assert wait_no_sink_threads() == []
    src.emit(4)
    src.complete()
    assert rec.batches == [[1, 2]]
    assert not to.is_terminated()


def test_each_subscription_writes_on_its_own():
    rec = Recorder()
    single = Flowable.range(0, 5).to(write_batches(rec, 3))
    for _ in range(2):
        single.test().await_done().assert_no_errors()
    assert rec.indices == [0, 1, 0, 1]
    assert rec.batches == [[0, 1, 2], [3, 4]] * 2


def test_dispose_races_completion(race_runner, race_rounds):
    for _ in range(race_rounds):
        rec = Recorder()
        src = ManualSource()
        to = src.to(write_batches(rec, 2)).test()
        src.emit(1)
        race_runner.race(src.complete, to.dispose)
        assert wait_no_sink_threads() == []
        assert src.cancels == 1
        assert len(to.values()) + len(to.errors()) <= 1
        assert to.errors() == []
        if to.values():
            assert rec.batches == [[1]] and to.values()[0].rows == 1
        else:
            assert rec.batches in ([], [[1]])


def test_dispose_races_the_end_of_a_write(race_runner, race_rounds):
    for _ in range(race_rounds):
        rec = Recorder(hold=0)
        src = ManualSource()
        to = src.to(write_batches(rec, 1)).test()
        src.emit(1)
        assert rec.entered.wait(10)
        race_runner.race(rec.release.set, to.dispose)
        assert wait_no_sink_threads() == []
        assert src.cancels == 1
        assert src.requests in ([1], [1, 1])  # the next request, if the write ended first
        assert rec.batches == [[1]]
        assert not to.is_terminated()


def test_write_batches_arguments():
    def fn(b, i):
        return None

    with pytest.raises(TypeError):
        write_batches(None)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        write_batches(42)  # type: ignore[arg-type]
    for bad in (0, -1):
        with pytest.raises(ValueError):
            write_batches(fn, bad)
    for bad in (1.5, "10", True):
        with pytest.raises(TypeError):
            write_batches(fn, bad)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        Flowable.range(0, 1).to(write_batches(fn, 1, name=None))  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        write_batches(fn)(None)  # type: ignore[arg-type]


def test_spark_sink_arguments():
    spark = object()  # never touched at assembly
    for make in (to_parquet, to_table):
        with pytest.raises(TypeError):
            make(None, spark)
        with pytest.raises(TypeError):
            make("target", None)
        for bad in (0, -5):
            with pytest.raises(ValueError):
                make("target", spark, batch_size=bad)
        with pytest.raises(ValueError):
            make("target", spark, mode="replace")
        for mode in ("error", "errorifexists", "overwrite", "append", "ignore"):
            assert callable(make("target", spark, mode=mode))


# ---------------------------------------------------------------------------- a fake Spark


class FakeSpark:
    """Records what the Spark writer does; ``parquet`` of batch ``hold`` waits for ``release``."""

    def __init__(self, hold: int | None = None) -> None:
        self.calls: list[tuple[Any, ...]] = []
        self.hold = hold
        self.entered = threading.Event()
        self.release = threading.Event()
        self.sparkContext = self
        self.group: str | None = None
        self.writes = 0

    # SparkContext
    def setJobGroup(self, group: str, desc: str, interrupt: bool) -> None:
        self.group = group
        self.calls.append(("group", group, interrupt))

    def setLocalProperty(self, key: str, value: Any) -> None:
        pass

    def cancelJobGroup(self, group: str) -> None:
        self.calls.append(("cancel", group))
        self.release.set()

    # SparkSession / DataFrame / DataFrameWriter
    def createDataFrame(self, data: Any, schema: Any = None) -> Any:
        self.calls.append(("frame", list(data), schema))
        return self

    @property
    def write(self) -> Any:
        return self

    def mode(self, m: str) -> Any:
        self.calls.append(("mode", m))
        return self

    def partitionBy(self, *cols: str) -> Any:
        self.calls.append(("partitionBy", cols))
        return self

    def parquet(self, path: str) -> None:
        index = self.writes
        self.writes += 1
        self.calls.append(("parquet", path, self.group))
        if index == self.hold:
            self.entered.set()
            assert self.release.wait(10)
            raise RuntimeError("Job cancelled")


def test_modes_groups_and_partitioning_reach_spark():
    spark = FakeSpark()
    sink = to_parquet("/out", spark, batch_size=2, schema="a INT", mode="overwrite",
                      partition_by="a")
    to = Flowable.range(0, 5).map(lambda i: (i,)).to(sink).test()
    to.await_done().assert_no_errors()
    assert (to.values()[0].target, to.values()[0].rows, to.values()[0].batches) == ("/out", 5, 3)
    modes = [c[1] for c in spark.calls if c[0] == "mode"]
    assert modes == ["overwrite", "append", "append"]
    frames = [c[1:] for c in spark.calls if c[0] == "frame"]
    assert frames == [([(0,), (1,)], "a INT"), ([(2,), (3,)], "a INT"), ([(4,)], "a INT")]
    assert [c for c in spark.calls if c[0] == "partitionBy"] == [("partitionBy", ("a",))] * 3
    groups = [c[1] for c in spark.calls if c[0] == "group"]
    assert len(set(groups)) == 3 and all(c[2] for c in spark.calls if c[0] == "group")
    # each write ran in its own group
    assert [c[2] for c in spark.calls if c[0] == "parquet"] == groups


def test_dispose_cancels_the_running_writes_job_group():
    spark = FakeSpark(hold=1)
    cancels: list[int] = []
    src = Flowable.range(0, 10).map(lambda i: (i,)).do_on_cancel(lambda: cancels.append(1))
    to = src.to(to_parquet("/out", spark, batch_size=2)).test()
    assert spark.entered.wait(10)
    running = spark.group
    to.dispose()
    assert cancels == [1]
    assert ("cancel", running) in spark.calls
    assert wait_no_sink_threads() == []
    assert spark.writes == 2  # nothing after the cancelled write
    assert not to.is_terminated()  # the cancelled write's error is dropped


# ---------------------------------------------------------------------------- real Spark


@pytest.mark.connect  # runs on a Spark Connect session too (tools/test -m connect)
def test_to_parquet_writes_exactly_the_items(spark, tmp_path):
    from pyspark.sql import Row

    path = str(tmp_path / "out")
    spark.range(3).write.parquet(path)  # replaced: the first batch overwrites, the rest append
    requests: list[int] = []
    items = (Flowable.range(0, 2500).do_on_request(requests.append)
             .map(lambda i: Row(id=i, name=f"n{i}")))
    summary = items.to(to_parquet(path, spark, batch_size=1000, mode="overwrite")).blocking_get(300)
    assert (summary.target, summary.rows, summary.batches) == (path, 2500, 3)
    assert requests == [1000, 1000, 1000]
    back = sorted((r.id, r.name) for r in spark.read.parquet(path).collect())
    assert back == [(i, f"n{i}") for i in range(2500)]
    assert wait_no_sink_threads() == []


@pytest.mark.connect  # runs on a Spark Connect session too (tools/test -m connect)
def test_to_parquet_failing_write_fails_and_cancels_upstream(spark, tmp_path):
    path = str(tmp_path / "exists")
    spark.range(1).write.parquet(path)
    cancels: list[int] = []
    requests: list[int] = []
    items = (Flowable.range(0, 50).do_on_request(requests.append)
             .do_on_cancel(lambda: cancels.append(1)).map(lambda i: (i,)))
    to = items.to(to_parquet(path, spark, batch_size=10)).test()  # mode "error"
    to.await_done(300).assert_error(SparkJobError)
    err = to.errors()[0]
    assert "writing batch 0" in str(err) and path in str(err)
    assert err.__cause__ is not None and not isinstance(err.__cause__, SparkJobError)
    assert cancels == [1]
    assert requests == [10]
    assert spark.read.parquet(path).count() == 1  # untouched
    assert wait_no_sink_threads() == []


@pytest.mark.connect  # runs on a Spark Connect session too (tools/test -m connect)
def test_to_parquet_of_arrow_tables_partitioned(spark, tmp_path):
    pa = pytest.importorskip("pyarrow")
    path = str(tmp_path / "arrow")
    tables = [pa.table({"x": list(range(i * 10, i * 10 + 10)), "part": [i % 2] * 10})
              for i in range(4)]
    tables[3] = tables[3].to_batches()[0]  # a RecordBatch works as well
    summary = (Flowable.from_iterable(tables)
               .to(to_parquet(path, spark, batch_size=3, partition_by=["part"]))
               .blocking_get(300))
    assert (summary.rows, summary.batches) == (40, 2)
    back = sorted((r.x, r.part) for r in spark.read.parquet(path).collect())
    assert back == [(x, (x // 10) % 2) for x in range(40)]


@pytest.mark.connect  # runs on a Spark Connect session too (tools/test -m connect)
def test_to_table(spark, tmp_path):
    db = "rxpy2_sink_test"
    spark.sql(f"CREATE DATABASE IF NOT EXISTS {db} LOCATION '{tmp_path / 'db'}'")
    try:
        items = Flowable.range(0, 5).map(lambda i: {"a": i, "b": str(i)})
        summary = items.to(to_table(f"{db}.t", spark, batch_size=2)).blocking_get(300)
        assert (summary.target, summary.rows, summary.batches) == (f"{db}.t", 5, 3)
        assert sorted(tuple(r) for r in spark.table(f"{db}.t").collect()) == [
            (i, str(i)) for i in range(5)]
        again = items.to(to_table(f"{db}.t", spark, batch_size=2, mode="ignore"))
        assert again.blocking_get(300).rows == 0  # the table exists: nothing written
        assert spark.table(f"{db}.t").count() == 5
    finally:
        spark.sql(f"DROP DATABASE IF EXISTS {db} CASCADE")
