"""``rxpy2.spark.from_stream``: micro-batches under demand, cancel, failures, restarts.

Every test waits on conditions (generous timeouts: the machine may be loaded); the
"nothing more happens" checks watch the query for a short window while its callback is
provably blocked, which holds on a slow machine as on a fast one.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import threading
import time

import pytest
from fake_connect_stream import FakeConnectStream
from fake_stream import FakeBatch
from fake_stream import FakeStream

from rxpy2.spark import ConnectStreamSubscription
from rxpy2.spark import SparkJobError
from rxpy2.spark import StreamSubscription
from rxpy2.spark import from_stream
from rxpy2.spark.pyspark_adapter import is_connect
from rxpy2.testing import TestSubscriber

pytestmark = pytest.mark.timeout(180)

WAIT = 90.0  # seconds: a condition that must come, however loaded the machine


def wait_until(condition, timeout: float = WAIT, what: str = "condition") -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.02)


def stream_threads() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name.startswith("rxpy2-spark-stream")]


def assert_all_ended(spark, sub: StreamSubscription) -> None:
    """The query stopped and every thread of the subscription ended."""
    assert sub.await_termination(WAIT), "the query thread did not end"
    wait_until(lambda: not spark.streams.active, what="no active streaming query")
    wait_until(lambda: not stream_threads(), what="the subscription's threads to end")


def rate_batches(spark, rows_per_batch: int = 4):
    """A streaming DataFrame of exactly ``rows_per_batch`` rows per micro-batch (batch b
    holds the values b*rows_per_batch, ...), in one partition."""
    return (spark.readStream.format("rate-micro-batch")
            .option("rowsPerBatch", rows_per_batch).option("numPartitions", 1)
            .option("startTimestamp", 0).load().select("value"))


def subscription(ts: TestSubscriber) -> StreamSubscription:
    wait_until(lambda: ts._upstream.get() is not None, what="on_subscribe")
    sub = ts._upstream.get()
    assert isinstance(sub, StreamSubscription)
    return sub


def test_bad_arguments(spark):
    df = rate_batches(spark)
    with pytest.raises(TypeError):
        from_stream(None)
    with pytest.raises(TypeError, match="not a streaming DataFrame"):
        from_stream(spark.range(3))
    with pytest.raises(TypeError):
        from_stream([1, 2])
    with pytest.raises(ValueError):
        from_stream(df, 0)
    with pytest.raises(TypeError):
        from_stream(df, "1")
    with pytest.raises(ValueError):
        from_stream(df, emit="partitions")
    with pytest.raises(ValueError):
        from_stream(df, row_format="json")
    with pytest.raises(ValueError):
        from_stream(df, trigger={"continuous": "1 second"})
    with pytest.raises(ValueError):
        from_stream(df, trigger={"once": False})
    with pytest.raises(TypeError):
        from_stream(df, trigger=5)
    with pytest.raises(TypeError):
        from_stream(df, checkpoint_location=3)
    with pytest.raises(ValueError):
        from_stream(df, output_mode="overwrite")
    # assembly starts nothing: the query starts at subscription
    from_stream(df, trigger="1 second", query_name="never-started")
    assert not spark.streams.active


@pytest.mark.parametrize("prefetch", [1, 2])
def test_no_demand_holds_the_query_at_prefetch_batches(spark, prefetch):
    ts: TestSubscriber = TestSubscriber(0)
    from_stream(rate_batches(spark), prefetch, row_format="tuple").subscribe(ts)
    sub = subscription(ts)
    ts.request(1)
    ts.await_count(1, WAIT)
    # `prefetch` batches are taken, and the last callback waits: Spark runs no other batch
    wait_until(lambda: sub.batches_received == prefetch, what=f"{prefetch} batches")
    assert sub.query is not None
    deadline = time.monotonic() + 0.5
    while time.monotonic() < deadline:  # a window in which the blocked query must not move
        assert sub.batches_received == prefetch
        assert sub.batches_held == prefetch
        time.sleep(0.05)
    ts.assert_values((0,))
    # more demand: the batches come, in order within and across batches
    ts.request(10)
    ts.await_count(11, WAIT)
    ts.assert_value_sequence([(v,) for v in range(11)])
    assert sub.max_batches_held <= prefetch
    ts.cancel()
    assert_all_ended(spark, sub)
    ts.assert_not_terminated()


def test_rate_source_rows_in_order_and_take_stops_the_query(spark):
    df = (spark.readStream.format("rate").option("rowsPerSecond", 50)
          .option("numPartitions", 1).load())
    flow = from_stream(df, trigger="100 milliseconds")
    ts: TestSubscriber = TestSubscriber()
    flow.map(lambda row: row.value).take(30).subscribe(ts)
    ts.await_done(WAIT).assert_complete().assert_no_errors()
    ts.assert_value_sequence(list(range(30)))
    sub = flow.last_subscription
    assert sub is not None and sub.batches_received >= 1
    assert_all_ended(spark, sub)  # take's cancel stopped the query


def write_json_files(directory, files: int, rows: int) -> None:
    directory.mkdir()
    for f in range(files):
        path = directory / f"part-{f}.json"
        path.write_text("".join(json.dumps({"file": f, "n": n}) + "\n" for n in range(rows)))
        os.utime(path, (1_700_000_000 + f, 1_700_000_000 + f))  # the order Spark reads them


def json_stream(spark, directory):
    return (spark.readStream.schema("file INT, n INT").option("maxFilesPerTrigger", 1)
            .json(str(directory)))


def test_file_source_available_now_completes_after_the_last_row(spark, tmp_path):
    write_json_files(tmp_path / "in", files=3, rows=4)
    flow = from_stream(json_stream(spark, tmp_path / "in"), row_format="dict",
                       trigger={"availableNow": True})
    ts: TestSubscriber = TestSubscriber()
    flow.subscribe(ts)
    ts.await_done(WAIT).assert_complete().assert_no_errors()
    ts.assert_value_sequence([{"file": f, "n": n} for f in range(3) for n in range(4)])
    sub = flow.last_subscription
    assert sub is not None
    assert sub.batches_received == 3 and sub.max_batches_held == 1  # one file per batch
    assert_all_ended(spark, sub)


def test_emit_batches_gives_one_arrow_table_per_micro_batch(spark, tmp_path):
    write_json_files(tmp_path / "in", files=3, rows=2)
    flow = from_stream(json_stream(spark, tmp_path / "in"), emit="batches",
                       trigger={"availableNow": True})
    ts: TestSubscriber = TestSubscriber(1)
    flow.subscribe(ts)
    ts.await_count(1, WAIT)
    sub = subscription(ts)
    # the first table was emitted whole: its batch was committed, the next one is held
    wait_until(lambda: sub.batches_received == 2 and sub.batches_held == 1, what="batch 2")
    ts.assert_value_count(1)
    ts.request(5)
    ts.await_done(WAIT).assert_complete()
    assert [t.to_pylist() for t in ts.values()] == [
        [{"file": f, "n": 0}, {"file": f, "n": 1}] for f in range(3)]
    assert_all_ended(spark, sub)


def test_cancel_releases_the_waiting_batch_and_a_restart_delivers_it_again(spark, tmp_path):
    checkpoint = str(tmp_path / "checkpoint")
    flow = from_stream(rate_batches(spark), row_format="tuple", checkpoint_location=checkpoint)

    def run(n: int) -> list:
        ts: TestSubscriber = TestSubscriber(n)
        flow.subscribe(ts)
        ts.await_count(n, WAIT)
        sub = subscription(ts)
        wait_until(lambda: sub.batches_held == 1, what="a held batch")
        ts.cancel()
        assert_all_ended(spark, sub)
        ts.assert_no_errors().assert_not_terminated()
        return [v for (v,) in ts.values()]

    assert run(2) == [0, 1]  # batch 0 (values 0..3) held, half emitted, cancelled
    # batch 0 was not committed: delivered again, in full; batch 1 held when cancelled
    assert run(5) == [0, 1, 2, 3, 4]
    assert run(1) == [4]  # batch 0 was committed once emitted; batch 1 comes again


def test_cancel_before_the_first_batch_stops_the_query(spark):
    ts: TestSubscriber = TestSubscriber(0)
    flow = from_stream(rate_batches(spark))
    flow.subscribe(ts)
    ts.cancel()
    sub = flow.last_subscription
    assert sub is not None
    assert_all_ended(spark, sub)
    ts.assert_no_values().assert_not_terminated()


def test_a_failing_batch_is_a_spark_job_error_with_its_cause(spark):
    df = rate_batches(spark, 5).selectExpr("value", "assert_true(value < 3) AS ok")
    flow = from_stream(df)
    ts: TestSubscriber = TestSubscriber()
    flow.subscribe(ts)
    ts.await_done(WAIT).assert_error(SparkJobError)
    err = ts.errors()[0]
    # the failed assertion's text: "value < 3" (PySpark 4), "(value#N < cast(3 as bigint))" (3.5)
    assert re.search(r"value(#\d+L?)? < (cast\()?3", str(err)) and err.__cause__ is not None
    ts.assert_no_values()
    sub = flow.last_subscription
    assert sub is not None
    assert_all_ended(spark, sub)


def test_a_query_that_cannot_start_is_a_spark_job_error(spark):
    flow = from_stream(rate_batches(spark), query_name="rxpy2_stream_twice")
    first: TestSubscriber = TestSubscriber(0)
    flow.subscribe(first)
    sub = subscription(first)
    wait_until(lambda: sub.query is not None, what="the first query")
    second: TestSubscriber = TestSubscriber()
    flow.subscribe(second)  # the same query name is active: Spark refuses to start it
    second.await_done(WAIT).assert_error(SparkJobError)
    assert second.errors()[0].__cause__ is not None
    first.cancel()
    assert_all_ended(spark, sub)


# ---- either kind of session (marked connect: they run on a Spark Connect server too) --------
# On Connect, from_stream runs client-run rounds (ConnectStreamSubscription): a query per
# demand round writes each micro-batch to a directory of the sink, then a query per batch
# reads it. The assertions are the same on both kinds where the behaviour is; what only a
# Connect subscription has (rounds, its sink) is asserted there.


def on_connect(spark) -> bool:
    return is_connect(spark)


def sleepy_json_stream(spark, directory, millis: int | str):
    """``json_stream`` whose every row makes its task sleep ``millis`` (an expression of the
    row's columns, in the JVM, no Python worker): a round of it runs long enough to be
    cancelled."""
    return json_stream(spark, directory).selectExpr(
        "file", "n", f"reflect('java.lang.Thread', 'sleep', CAST({millis} AS BIGINT)) AS slept")


@pytest.mark.connect
def test_either_available_now_completes_with_exactly_the_rows(spark, tmp_path):
    write_json_files(tmp_path / "in", files=3, rows=4)
    expected = [(f, n) for f in range(3) for n in range(4)]
    flow = from_stream(json_stream(spark, tmp_path / "in"), row_format="tuple",
                       trigger={"availableNow": True})
    ts: TestSubscriber = TestSubscriber()
    flow.subscribe(ts)
    ts.await_done(WAIT).assert_complete().assert_no_errors()
    ts.assert_value_sequence(expected)
    sub = flow.last_subscription
    assert sub is not None
    assert sub.batches_received == 3 and sub.max_batches_held == 1  # one file per batch
    assert_all_ended(spark, sub)
    if on_connect(spark):
        assert isinstance(sub, ConnectStreamSubscription)
        assert sub.rounds == 1  # availableNow: one round brought every batch
        assert sub.sink is not None and not os.path.exists(sub.sink)  # rxpy2's temp dir: gone
    # dict and Row: the same rows, converted as the classic path converts them
    rows = from_stream(json_stream(spark, tmp_path / "in"), row_format="dict",
                       trigger={"once": True}).to_list().blocking_get(WAIT)
    assert sorted((r["file"], r["n"]) for r in rows) == expected  # once: one batch of all
    row = from_stream(json_stream(spark, tmp_path / "in"),
                      trigger={"availableNow": True}).first_or_error().blocking_get(WAIT)
    assert (row.file, row.n) == (0, 0) and row.asDict() == {"file": 0, "n": 0}


@pytest.mark.connect
def test_either_emit_batches_gives_an_arrow_table_per_micro_batch(spark, tmp_path):
    import pyarrow as pa

    write_json_files(tmp_path / "in", files=3, rows=2)
    ts = from_stream(json_stream(spark, tmp_path / "in"), emit="batches",
                     trigger={"availableNow": True}).test().await_done(WAIT)
    ts.assert_complete().assert_no_errors()
    assert all(isinstance(t, pa.Table) for t in ts.values())
    assert [t.to_pylist() for t in ts.values()] == [
        [{"file": f, "n": 0}, {"file": f, "n": 1}] for f in range(3)]


@pytest.mark.connect
def test_either_a_failing_micro_batch_is_a_spark_job_error(spark, tmp_path):
    write_json_files(tmp_path / "in", files=3, rows=2)
    df = json_stream(spark, tmp_path / "in").selectExpr("file", "assert_true(file < 1) AS ok")
    flow = from_stream(df, row_format="tuple", trigger={"availableNow": True})
    ts: TestSubscriber = TestSubscriber()
    flow.subscribe(ts)
    ts.await_done(WAIT).assert_error(SparkJobError)
    err = ts.errors()[0]
    # Spark 4 names the column `file`, Spark 3.5 with its expression id (`file#249`)
    assert re.search(r"file(#\d+)? < 1", str(err)) and err.__cause__ is not None
    # the first batch (file 0) passed: its rows come before the error (on Connect, the
    # batches the failed round wrote are read before the error is signalled)
    ts.assert_value_sequence([(0, None), (0, None)])
    sub = flow.last_subscription
    assert sub is not None
    assert_all_ended(spark, sub)


@pytest.mark.connect
def test_either_processing_time_picks_up_files_added_later(spark, tmp_path):
    write_json_files(tmp_path / "in", files=1, rows=3)
    flow = from_stream(json_stream(spark, tmp_path / "in"), row_format="tuple",
                       trigger="200 milliseconds")
    ts: TestSubscriber = TestSubscriber()
    flow.subscribe(ts)
    ts.await_count(3, WAIT)
    ts.assert_value_sequence([(0, n) for n in range(3)])
    later = tmp_path / "in" / "part-9.json"
    later.write_text("".join(json.dumps({"file": 9, "n": n}) + "\n" for n in range(2)))
    os.utime(later, (1_700_000_100, 1_700_000_100))
    ts.await_count(5, WAIT)
    ts.assert_value_sequence([(0, 0), (0, 1), (0, 2), (9, 0), (9, 1)])
    sub = flow.last_subscription
    assert sub is not None
    if on_connect(spark):
        assert isinstance(sub, ConnectStreamSubscription) and sub.rounds >= 2
    ts.cancel()
    assert_all_ended(spark, sub)
    ts.assert_not_terminated()


@pytest.mark.connect
def test_either_cancel_while_the_query_runs_stops_it_and_signals_nothing(spark, tmp_path):
    write_json_files(tmp_path / "in", files=3, rows=4)
    flow = from_stream(sleepy_json_stream(spark, tmp_path / "in", 3000),
                       trigger={"availableNow": True})  # 12 s a batch if nothing stops it
    ts: TestSubscriber = TestSubscriber()
    flow.subscribe(ts)
    sub = subscription(ts)
    wait_until(lambda: sub.query is not None and spark.streams.active, what="a running query")
    ts.cancel()
    assert_all_ended(spark, sub)
    ts.request(5)  # §3.6: no effect after cancel
    ts.assert_no_values().assert_not_terminated()
    if on_connect(spark):
        assert sub.sink is not None and not os.path.exists(sub.sink)


@pytest.mark.connect
def test_connect_rounds_run_under_demand_and_hold_at_most_prefetch_batches(spark, tmp_path):
    if not on_connect(spark):
        pytest.skip("a classic session's query runs from subscription (test_no_demand_...)")
    write_json_files(tmp_path / "in", files=3, rows=4)
    flow = from_stream(json_stream(spark, tmp_path / "in"), row_format="tuple",
                       trigger={"availableNow": True})
    ts: TestSubscriber = TestSubscriber(0)
    flow.subscribe(ts)
    sub = subscription(ts)
    assert isinstance(sub, ConnectStreamSubscription)
    time.sleep(1.0)  # a window in which no demand must start nothing
    assert sub.rounds == 0 and sub.batches_received == 0 and not spark.streams.active
    ts.request(1)
    ts.await_count(1, WAIT)
    # the round wrote every batch available; one was read, and no further one while it is held
    assert sub.batches_received == 1 and sub.batches_held == 1
    deadline = time.monotonic() + 1.0
    while time.monotonic() < deadline:
        assert sub.batches_received == 1 and sub.batches_held == 1
        time.sleep(0.05)
    ts.assert_values((0, 0))
    ts.request(4)  # batch 0 emitted whole: batch 1 is read, and then held
    ts.await_count(5, WAIT)
    wait_until(lambda: sub.batches_received == 2, what="batch 1")
    assert sub.max_batches_held == 1
    ts.request(100)
    ts.await_done(WAIT).assert_complete()
    ts.assert_value_sequence([(f, n) for f in range(3) for n in range(4)])
    # one round, or two when the first was stopped for want of demand before its end
    assert sub.rounds in (1, 2) and sub.batches_received == 3
    assert_all_ended(spark, sub)


@pytest.mark.connect
def test_connect_a_round_without_demand_stops_instead_of_filling_the_sink(spark, tmp_path):
    if not on_connect(spark):
        pytest.skip("a classic session's query waits inside its callback")
    write_json_files(tmp_path / "in", files=3, rows=2)
    # batch 2 sleeps 60 s a row: it is still running when batch 0 is held and batch 1 waits
    flow = from_stream(sleepy_json_stream(spark, tmp_path / "in", "IF(file = 2, 60000, 0)"),
                       row_format="tuple", trigger={"availableNow": True})
    ts: TestSubscriber = TestSubscriber(1)
    flow.subscribe(ts)
    ts.await_count(1, WAIT)
    sub = subscription(ts)
    assert isinstance(sub, ConnectStreamSubscription)
    # no demand beyond the held batch and one finished batch unread: the round is stopped
    wait_until(lambda: not spark.streams.active, what="the round to be stopped")
    assert sub.rounds == 1 and sub.batches_received == 1
    ts.request(3)  # the rest of batch 0 and batch 1, from the sink: no round needed
    ts.await_count(4, WAIT)
    ts.assert_value_sequence([(0, 0, "null"), (0, 1, "null"), (1, 0, "null"), (1, 1, "null")])
    assert sub.rounds == 1 and not spark.streams.active
    ts.cancel()
    assert_all_ended(spark, sub)
    ts.assert_not_terminated()


@pytest.mark.connect
def test_connect_a_checkpointed_subscription_resumes_where_the_last_one_stopped(spark, tmp_path):
    if not on_connect(spark):
        pytest.skip("the classic restart: test_cancel_releases_the_waiting_batch_...")
    write_json_files(tmp_path / "in", files=3, rows=2)
    checkpoint = str(tmp_path / "checkpoint")
    flow = from_stream(json_stream(spark, tmp_path / "in"), row_format="tuple",
                       checkpoint_location=checkpoint, trigger="200 milliseconds")
    ts: TestSubscriber = TestSubscriber(3)
    flow.subscribe(ts)
    ts.await_count(3, WAIT)  # batch 0 delivered, batch 1 half emitted
    sub = subscription(ts)
    ts.cancel()
    assert_all_ended(spark, sub)
    assert isinstance(sub, ConnectStreamSubscription)
    assert sub.sink == f"{checkpoint}/rxpy2-batches" and os.path.isdir(sub.sink)  # the user's
    # at-least-once: the next subscription starts at the first batch the first one had not
    # delivered when its round started (the marker): batch 0 again at worst
    again = from_stream(json_stream(spark, tmp_path / "in"), row_format="tuple",
                        checkpoint_location=checkpoint, trigger={"availableNow": True})
    got = again.to_list().blocking_get(WAIT)
    # the checkpoint kept the query's progress: batches 0-2 come from the sink, none twice
    assert got == [(f, n) for f in range(3) for n in range(2)]
    # nothing recorded (the marker removed): the next subscription starts after the
    # checkpoint's last committed batch, so nothing old comes again; a new file does
    shutil.rmtree(os.path.join(sub.sink, "rxpy2-next-batch"))
    later = tmp_path / "in" / "part-7.json"
    later.write_text(json.dumps({"file": 7, "n": 0}) + "\n")
    os.utime(later, (1_700_000_100, 1_700_000_100))
    assert again.to_list().blocking_get(WAIT) == [(7, 0)]


@pytest.mark.connect
def test_either_complete_output_mode_gives_the_whole_result_each_batch(spark, tmp_path):
    write_json_files(tmp_path / "in", files=3, rows=4)
    counts = json_stream(spark, tmp_path / "in").groupBy("file").count()
    ts = from_stream(counts, emit="batches", output_mode="complete",
                     trigger={"availableNow": True}).test().await_done(WAIT)
    ts.assert_complete().assert_no_errors()
    # one table per micro-batch, each the whole result so far (its rows in any order: the
    # aggregation's partitions)
    assert [sorted((r["file"], r["count"]) for r in t.to_pylist()) for t in ts.values()] == [
        [(f, 4) for f in range(b + 1)] for b in range(3)]


@pytest.mark.connect
def test_connect_arguments_checked_at_assembly(spark, tmp_path):
    if not on_connect(spark):
        pytest.skip("what only a Connect subscription needs")
    stream = json_stream(spark, tmp_path)
    with pytest.raises(ValueError, match="needs a checkpoint_location"):
        from_stream(stream, options={"path": str(tmp_path / "sink")})
    with pytest.raises(ValueError, match="not an interval"):
        from_stream(stream, trigger="soon")
    with pytest.raises(ValueError, match="unknown unit"):
        from_stream(stream, trigger="3 fortnights")
    from_stream(stream, options={"path": str(tmp_path / "sink")},
                checkpoint_location=str(tmp_path / "cp"), trigger="interval 2 seconds")
    assert not spark.streams.active  # assembly starts nothing


@pytest.mark.connect
def test_connect_a_round_s_finished_batches_come_while_it_still_runs(spark, tmp_path):
    if not on_connect(spark):
        pytest.skip("a classic session hands each batch over from inside the query")
    write_json_files(tmp_path / "in", files=3, rows=2)
    # batches 0 and 1 are quick, batch 2 sleeps 60 s a row: the round is still running
    # when the first two batches have been emitted
    flow = from_stream(sleepy_json_stream(spark, tmp_path / "in", "IF(file = 2, 60000, 0)"),
                       row_format="tuple", trigger={"availableNow": True})
    ts: TestSubscriber = TestSubscriber()
    flow.subscribe(ts)
    ts.await_count(4, WAIT)
    # (reflect gives the string of what Thread.sleep returns: 'null')
    ts.assert_value_sequence([(0, 0, "null"), (0, 1, "null"), (1, 0, "null"), (1, 1, "null")])
    sub = subscription(ts)
    assert isinstance(sub, ConnectStreamSubscription)
    assert sub.rounds == 1 and sub.query is not None and sub.query.isActive
    ts.assert_not_terminated()
    ts.cancel()
    assert_all_ended(spark, sub)
    ts.assert_value_count(4).assert_not_terminated()


# ---- the subscription's logic, on a stand-in query (tests/spark/fake_stream.py) ------------
# The stand-in keeps Spark's foreachBatch contract (one stream thread, commit on return,
# failure on raise, stop() waits for the callback) and costs no Spark job.


def fake_values(ts: TestSubscriber) -> list[int]:
    return [v for (v,) in ts.values()]


@pytest.mark.parametrize("prefetch, checkpoint", [(1, "cp"), (3, "cp"), (1, None)])
def test_fake_commits_a_batch_only_when_fewer_than_prefetch_are_held(prefetch, checkpoint):
    stream = FakeStream(endless=True, batch_size=4)
    flow = from_stream(stream, prefetch, row_format="tuple", checkpoint_location=checkpoint)
    ts: TestSubscriber = TestSubscriber(0)
    flow.subscribe(ts)
    sub = subscription(ts)
    wait_until(lambda: sub.batches_received == prefetch, what="prefetched batches")
    assert stream.committed == list(range(prefetch - 1))  # the last one waits
    total = 0
    for n in (1, 2, 5, 4, 9):
        ts.request(n)
        total += n
        ts.await_count(total, WAIT)
        # the query takes batches until prefetch are held again, and no further: the batches
        # before the waiting one are committed, i.e. every fully emitted one and prefetch-1
        expected = total // 4 + prefetch
        wait_until(lambda expected=expected: sub.batches_received == expected, what="batches")
        assert len(stream.committed) == expected - 1
        assert sub.max_batches_held <= prefetch
    assert fake_values(ts) == list(range(21))
    ts.cancel()
    assert sub.await_termination(WAIT)
    if checkpoint is not None:  # the released batch raised: not committed
        assert len(stream.committed) == len(stream.planned) - 1
    else:  # no checkpoint to restart from: it returned, so that the query stops cleanly
        assert stream.committed == stream.planned
    assert not stream_threads()


def test_fake_completion_error_and_start_failure():
    ts = from_stream(FakeStream(10, 4), row_format="dict").test().await_done(WAIT)
    ts.assert_complete().assert_value_sequence([{"value": v} for v in range(10)])

    ts = from_stream(FakeStream(20, 4, fail_at=(2,))).test().await_done(WAIT)
    assert [r[0] for r in ts.values()] == list(range(8))  # the batches before the failure
    ts.assert_error(SparkJobError)
    assert "batch 2 is bad" in str(ts.errors()[0]) and ts.errors()[0].__cause__ is not None

    ts = from_stream(FakeStream(5, fail_start=True)).test().await_done(WAIT)
    ts.assert_error(SparkJobError).assert_no_values()
    wait_until(lambda: not stream_threads(), what="the subscriptions' threads to end")


def test_fake_materialization_error_is_the_cause():
    stream = FakeStream(6, 3)
    flow = from_stream(stream, emit="batches")
    original = FakeBatch.toArrow

    def broken(self):
        raise OSError("cannot read the batch")

    FakeBatch.toArrow = broken
    try:
        ts = flow.test().await_done(WAIT)
    finally:
        FakeBatch.toArrow = original
    ts.assert_error(SparkJobError).assert_no_values()
    assert isinstance(ts.errors()[0].__cause__, OSError)
    assert stream.committed == []
    wait_until(lambda: not stream_threads(), what="the subscription's threads to end")


def test_fake_options_reach_the_writer():
    stream = FakeStream(3)
    from_stream(stream, checkpoint_location="/tmp/cp", trigger={"availableNow": True},
                query_name="q", options={"a": 1}, output_mode="update",
                ).test().await_done(WAIT).assert_complete()
    assert stream.writer_options == {"a": "1", "checkpointLocation": "/tmp/cp",
                                     "queryName": "q", "trigger": {"availableNow": True},
                                     "outputMode": "update"}


def test_fake_cancel_races_request(race_runner):
    for _ in range(30):
        stream = FakeStream(endless=True, batch_size=3)
        flow = from_stream(stream, 2, row_format="tuple")
        ts: TestSubscriber = TestSubscriber(0)
        flow.subscribe(ts)
        race_runner.race(lambda ts=ts: ts.request(5), ts.cancel)
        sub = flow.last_subscription
        assert sub is not None and sub.await_termination(WAIT)
        got = fake_values(ts)
        assert got == list(range(len(got))) and len(got) <= 5
        ts.assert_not_terminated()
    wait_until(lambda: not stream_threads(), what="the subscriptions' threads to end")


def test_fake_await_termination_inside_a_signal_does_not_block():
    flow = from_stream(FakeStream(5, 2))
    answers: list[bool] = []
    done = threading.Event()

    def on_complete() -> None:
        sub = flow.last_subscription
        assert sub is not None
        answers.append(sub.await_termination())  # a subscription thread: answers at once
        done.set()

    flow.subscribe(on_complete=on_complete)
    assert done.wait(WAIT)
    assert answers in ([False], [True])
    sub = flow.last_subscription
    assert sub is not None and sub.await_termination(WAIT)
    wait_until(lambda: not stream_threads(), what="the subscription's threads to end")


def test_fake_the_end_a_cancel_caused_is_not_signalled():
    # the cancel lands between a batch's last on_next and the drain's look at the next
    # batch, and the query it stopped has ended by then: the drain must see the cancel,
    # not the end (the race test above met this once in hundreds of runs). One batch held
    # at most: the next batch cannot be queued before the drain has left the first one
    flow = from_stream(FakeStream(endless=True, batch_size=3), 1, row_format="tuple")
    cancelled_at: list[int] = []

    class CancelAtThird(TestSubscriber):
        def on_next(self, item):
            super().on_next(item)
            if item == (2,):  # the first batch's last item
                self.cancel()
                sub = flow.last_subscription
                assert sub is not None
                # on the emitter thread: wait on the query's end itself (await_termination
                # would answer at once here)
                cancelled_at.append(sub.terminated.wait(WAIT))

    ts = CancelAtThird(5)
    flow.subscribe(ts)
    sub = flow.last_subscription
    assert sub is not None and sub.await_termination(WAIT)
    assert cancelled_at == [True]
    ts.assert_values((0,), (1,), (2,)).assert_not_terminated()
    wait_until(lambda: not stream_threads(), what="the subscription's threads to end")


def test_connect_poll_interval_reads_processing_time_as_spark_does():
    from rxpy2.spark.connect_stream import interval_seconds

    assert [interval_seconds(t) for t in (
        "1 second", "10s", "3 secs", "250 milliseconds", "5 ms", "100", "interval 2 minutes",
        "1 min", "2 hours", "0 seconds")] == [1, 10, 3, 0.25, 0.005, 0.1, 120, 60, 7200, 0]
    for bad in ("soon", "3 fortnights", "", "1.5.2 seconds"):
        with pytest.raises(ValueError):
            interval_seconds(bad)


# ---- the Connect rounds' logic, on a stand-in (tests/spark/fake_connect_stream.py) ----------
# The stand-in keeps what the rounds rely on: a round's query runs the batches available from
# its checkpoint on, each written to its path before it is committed and reported in
# lastProgress; a path never written reads as PATH_NOT_FOUND; interruptTag ends a read of
# the thread that added the tag.


def test_fake_connect_rounds_start_under_demand_and_hold_prefetch_batches():
    stream = FakeConnectStream(batches=2, batch_size=2, endless=True)
    flow = from_stream(stream, row_format="tuple", trigger="10 milliseconds")
    ts: TestSubscriber = TestSubscriber(0)
    flow.subscribe(ts)
    sub = subscription(ts)
    assert isinstance(sub, ConnectStreamSubscription)
    time.sleep(0.2)  # no demand: no round
    assert stream.queries == [] and sub.rounds == 0
    ts.request(1)
    ts.await_count(1, WAIT)
    wait_until(lambda: not stream.queries[0].isActive, what="the first round's end")
    assert sub.batches_received == 1 and sub.batches_held == 1  # batch 1 waits in the sink
    ts.request(3)  # batches 0 and 1 emitted whole: the demand is met, no round starts
    ts.await_count(4, WAIT)
    time.sleep(0.2)
    assert len(stream.queries) == 1 and sub.batches_received == 2
    ts.request(4)  # a second round: batches 2 and 3
    ts.await_count(8, WAIT)
    assert fake_values(ts) == list(range(8)) and sub.max_batches_held == 1
    assert len(stream.queries) >= 2
    ts.cancel()
    assert sub.await_termination(WAIT)
    ts.assert_not_terminated()
    assert not stream_threads()


def test_fake_connect_available_now_completes_and_a_failure_comes_after_its_batches():
    ts = from_stream(FakeConnectStream(batches=3), row_format="dict",
                     trigger={"availableNow": True}).test().await_done(WAIT)
    ts.assert_complete().assert_value_sequence([{"value": v} for v in range(6)])
    tables = from_stream(FakeConnectStream(batches=2), emit="batches",
                         trigger={"once": True}).test().await_done(WAIT)
    assert [t.to_pylist() for t in tables.values()] == [
        [{"value": 0}, {"value": 1}], [{"value": 2}, {"value": 3}]]
    ts = from_stream(FakeConnectStream(batches=4, fail_at=(2,)), row_format="tuple",
                     trigger={"availableNow": True}).test().await_done(WAIT)
    assert fake_values(ts) == [0, 1, 2, 3]  # the batches written before the failure
    ts.assert_error(SparkJobError)
    assert "batch 2 is bad" in str(ts.errors()[0]) and ts.errors()[0].__cause__ is not None
    # a query that cannot start fails at the first round (under demand); a plan that cannot
    # be analysed at subscription
    failing = from_stream(FakeConnectStream(3, fail_start=True))
    ts = failing.test(0)
    time.sleep(0.2)
    ts.assert_not_terminated()  # no demand: no round, nothing tried yet
    ts.request(1)
    ts.await_done(WAIT).assert_error(SparkJobError).assert_no_values()
    assert "starting the streaming query failed" in str(ts.errors()[0])
    ts = from_stream(FakeConnectStream(3, bad_plan=True)).test(0).await_done(WAIT)
    ts.assert_error(SparkJobError)
    assert "preparing the streaming query failed" in str(ts.errors()[0])
    wait_until(lambda: not stream_threads(), what="the subscriptions' threads to end")


def test_fake_connect_a_round_without_demand_stops_and_the_next_one_runs_its_batch_again():
    # batch 2 hangs half written in the first round: with one batch held and one finished
    # unread, and no demand, the round is stopped; batch 2's half is never read
    stream = FakeConnectStream(batches=4, batch_size=2, hold_at=(2,))
    flow = from_stream(stream, row_format="tuple", trigger={"availableNow": True})
    ts: TestSubscriber = TestSubscriber(1)
    flow.subscribe(ts)
    sub = subscription(ts)
    assert isinstance(sub, ConnectStreamSubscription)
    ts.await_count(1, WAIT)
    wait_until(lambda: stream.queries and not stream.queries[0].isActive, what="the stop")
    assert sub.rounds == 1 and sub.batches_received == 1
    ts.assert_not_terminated()
    ts.request(10)  # batch 1 from the sink, then a second round runs batches 2 and 3
    ts.await_done(WAIT).assert_complete()
    assert fake_values(ts) == list(range(8)) and sub.rounds == 2
    assert sub.await_termination(WAIT)
    wait_until(lambda: not stream_threads(), what="the subscription's threads to end")


def test_fake_connect_cancel_interrupts_a_read_in_flight():
    stream = FakeConnectStream(batches=2)
    stream.sparkSession.block_reads = True
    flow = from_stream(stream, trigger={"availableNow": True})
    ts: TestSubscriber = TestSubscriber(1)
    flow.subscribe(ts)
    sub = subscription(ts)
    wait_until(lambda: stream.sparkSession.reads, what="a batch read in flight")
    ts.cancel()
    assert sub.await_termination(WAIT)  # the read was interrupted by the subscription's tag
    assert sub.tag in stream.sparkSession.interrupted
    ts.assert_no_values().assert_not_terminated()
    assert not stream_threads()


def test_fake_connect_cancel_races_request(race_runner):
    for _ in range(50):  # a few in a hundred start a second round before the cancel lands
        stream = FakeConnectStream(batches=2, batch_size=3, endless=True)
        flow = from_stream(stream, 2, row_format="tuple", trigger="10 milliseconds")
        ts: TestSubscriber = TestSubscriber(6)
        flow.subscribe(ts)
        ts.await_count(6, WAIT)  # the first round's two batches, delivered: no demand left
        race_runner.race(lambda ts=ts: ts.request(5), ts.cancel)
        sub = flow.last_subscription
        assert sub is not None and sub.await_termination(WAIT)
        got = fake_values(ts)
        assert got == list(range(len(got))) and 6 <= len(got) <= 11
        ts.assert_not_terminated()
        assert all(not q.isActive for q in stream.queries)  # no round outlives the cancel
    wait_until(lambda: not stream_threads(), what="the subscriptions' threads to end")
