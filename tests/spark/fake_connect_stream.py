"""A stand-in for a Spark Connect streaming DataFrame, for testing ``from_stream``'s rounds
(``ConnectStreamSubscription``) without a Connect server.

It keeps the contract the rounds rely on: ``writeStream.foreachBatch(fn)...start()`` with
``trigger(availableNow=True)`` runs, on a thread of its own, the batches available (``rows``
values in batches of ``batch_size``; ``endless`` makes ``available`` more each round) from
the checkpoint's next batch on, calling ``fn(batch_df, batch_id)`` whose
``batch_df.write.mode("overwrite").parquet(path)`` stores the rows at ``path``; a batch is
committed to the checkpoint when ``fn`` returns, and the query then reports it in
``lastProgress``; ``stop()`` waits for the thread. A read of a stored path gives its rows; of
a path never written, a ``PATH_NOT_FOUND`` error. ``block_reads`` makes reads wait until
``interruptTag`` is called with a tag the reading thread added (tags are per thread, as on
the Connect client).
"""

from __future__ import annotations

import threading
import uuid
from typing import Any


class FakeSchema:
    def fieldNames(self) -> list[str]:  # noqa: N802 - PySpark's name
        return ["value"]


class FakeRead:
    def __init__(self, session: FakeConnectSession, path: str) -> None:
        self.session = session
        self.path = path

    def _rows(self) -> list[int]:
        s = self.session
        s.reads.append(self.path)
        if s.block_reads:
            tags = set(s.tags())
            with s.cond:
                while not (tags & s.interrupted):
                    s.cond.wait()
            raise RuntimeError("OPERATION_CANCELED: the operation was interrupted by its tag")
        rows = s.store.get(self.path)
        if rows is None:
            raise RuntimeError(f"[PATH_NOT_FOUND] Path does not exist: file:{self.path}.")
        return rows

    def collect(self) -> list[tuple[int]]:
        return [(r,) for r in self._rows()]

    def toArrow(self) -> Any:  # noqa: N802 - PySpark's name
        import pyarrow as pa

        return pa.table({"value": self._rows()})


class FakeReader:
    def __init__(self, session: FakeConnectSession) -> None:
        self.session = session

    def schema(self, schema: Any) -> FakeReader:
        return self

    def parquet(self, path: str) -> FakeRead:
        return FakeRead(self.session, path)


class FakeConnectSession:
    def __init__(self) -> None:
        self.store: dict[str, list[int]] = {}
        self.checkpoints: dict[str, int] = {}  # checkpoint -> next batch id
        self.local = threading.local()
        self.cond = threading.Condition()
        self.interrupted: set[str] = set()
        self.block_reads = False
        self.reads: list[str] = []
        self.read = FakeReader(self)

    def tags(self) -> list[str]:
        return list(getattr(self.local, "tags", []))

    def addTag(self, tag: str) -> None:  # noqa: N802 - PySpark's name
        self.local.tags = [*self.tags(), tag]

    def removeTag(self, tag: str) -> None:  # noqa: N802 - PySpark's name
        self.local.tags = [t for t in self.tags() if t != tag]

    def interruptTag(self, tag: str) -> list[str]:  # noqa: N802 - PySpark's name
        with self.cond:
            self.interrupted.add(tag)
            self.cond.notify_all()
        return []


FakeConnectSession.__module__ = "pyspark.sql.connect.session"  # is_connect() reads it


class FakeBatchWrite:
    def __init__(self, session: FakeConnectSession, rows: list[int]) -> None:
        self.session = session
        self.rows = rows

    def mode(self, mode: str) -> FakeBatchWrite:
        assert mode == "overwrite"
        return self

    def parquet(self, path: str) -> None:
        self.session.store[path] = list(self.rows)


class FakeBatchDF:
    def __init__(self, session: FakeConnectSession, rows: list[int]) -> None:
        self.write = FakeBatchWrite(session, rows)


class FakeConnectQuery:
    def __init__(self, stream: FakeConnectStream, fn: Any, checkpoint: str) -> None:
        self.stream = stream
        self.fn = fn
        self.checkpoint = checkpoint
        self.runId = str(uuid.uuid4())  # noqa: N815 - PySpark's name
        self.lastProgress: dict[str, Any] | None = None  # noqa: N815 - PySpark's name
        self.stopping = False
        self.stopped = threading.Event()
        self.failure: BaseException | None = None
        self.done = threading.Event()
        self.thread = threading.Thread(target=self._run, name="fake-connect-stream",
                                       daemon=True)

    def _run(self) -> None:
        s = self.stream
        session = s.sparkSession
        try:
            first = session.checkpoints.get(self.checkpoint, 0)
            available = s.available_batches()
            for batch_id in range(first, available):
                if self.stopping:
                    return
                if batch_id in s.fail_at:
                    raise ValueError(f"batch {batch_id} is bad")
                start = batch_id * s.batch_size
                rows = list(range(start, min(start + s.batch_size, s.total)))
                if batch_id in s.hold_at and len(s.queries) == 1:
                    # the first round hangs in this batch, half written, until stopped
                    self.fn(FakeBatchDF(session, rows[:1]), batch_id)
                    self.stopped.wait()
                    return
                self.fn(FakeBatchDF(session, rows), batch_id)
                session.checkpoints[self.checkpoint] = batch_id + 1  # committed
                self.lastProgress = {"runId": self.runId, "batchId": batch_id,
                                     "numInputRows": len(rows)}
        except Exception as e:
            self.failure = e
        finally:
            self.done.set()

    @property
    def isActive(self) -> bool:  # noqa: N802 - PySpark's name
        return not self.done.is_set()

    def awaitTermination(self, timeout: float | None = None) -> bool | None:  # noqa: N802
        ended = self.done.wait(timeout)
        if ended and self.failure is not None:
            raise RuntimeError(f"[STREAM_FAILED] query failed: {self.failure}") from self.failure
        return ended if timeout is not None else None

    def stop(self) -> None:
        self.stopping = True
        self.stopped.set()
        self.thread.join()


class FakeConnectWriter:
    def __init__(self, stream: FakeConnectStream) -> None:
        self.stream = stream
        self.fn: Any = None
        self.checkpoint = ""

    def foreachBatch(self, fn: Any) -> FakeConnectWriter:  # noqa: N802 - PySpark's name
        self.fn = fn
        return self

    def option(self, key: str, value: Any) -> FakeConnectWriter:
        if key == "checkpointLocation":
            self.checkpoint = value
        return self

    def options(self, **kw: Any) -> FakeConnectWriter:
        return self

    def queryName(self, name: str) -> FakeConnectWriter:  # noqa: N802 - PySpark's name
        return self

    def trigger(self, **kw: Any) -> FakeConnectWriter:
        assert kw in ({"availableNow": True}, {"once": True}), kw
        return self

    def outputMode(self, mode: str) -> FakeConnectWriter:  # noqa: N802 - PySpark's name
        return self

    def start(self) -> FakeConnectQuery:
        if self.stream.fail_start:
            raise RuntimeError("cannot start: the plan is not streamable")
        q = FakeConnectQuery(self.stream, self.fn, self.checkpoint)
        self.stream.queries.append(q)
        q.thread.start()
        return q


class FakeConnectStream:
    """``batches`` batches of ``batch_size`` values 0.. (``rows``: that many values, the last
    batch holding what is left; ``endless``: ``batches`` more each round); ``fail_at``: batch
    ids whose run fails; ``fail_start``: no query can start; ``bad_plan``: the DataFrame's
    analysis fails (its ``schema``, asked for at subscription); ``hold_at``: batch ids in
    which the first round hangs after writing half of the batch, until it is stopped (the
    batch is not committed: the next round runs it again)."""

    isStreaming = True  # noqa: N815 - PySpark's name
    dtypes = [("value", "bigint")]

    def __init__(self, batches: int = 3, batch_size: int = 2, *, rows: int | None = None,
                 endless: bool = False, fail_at: tuple[int, ...] = (),
                 fail_start: bool = False, bad_plan: bool = False,
                 hold_at: tuple[int, ...] = ()) -> None:
        if rows is not None:
            batches = -(-rows // batch_size)
        self.batches = batches
        self.batch_size = batch_size
        self.total = rows if rows is not None else (1 << 62)
        self.fail_start = fail_start
        self.bad_plan = bad_plan
        self.hold_at = hold_at
        self.endless = endless
        self.fail_at = fail_at
        self.sparkSession = FakeConnectSession()  # noqa: N815 - PySpark's name
        self.queries: list[FakeConnectQuery] = []

    @property
    def schema(self) -> FakeSchema:
        if self.bad_plan:
            raise RuntimeError("[UNRESOLVED_COLUMN] a column of the plan cannot be resolved")
        return FakeSchema()

    def available_batches(self) -> int:
        if self.endless:
            return self.batches * len(self.queries)
        return self.batches

    @property
    def writeStream(self) -> FakeConnectWriter:  # noqa: N802 - PySpark's name
        return FakeConnectWriter(self)


FakeConnectStream.__module__ = "pyspark.sql.connect.dataframe"  # is_connect() reads it
