"""A stand-in for a streaming DataFrame, for testing ``from_stream`` without Spark's cost.

It keeps the contract ``from_stream`` relies on: ``writeStream.foreachBatch(fn)...start()``
returns a query whose one stream thread calls ``fn(batch_df, batch_id)`` for each
micro-batch in turn; a batch is *committed* when ``fn`` returns and the query fails when
``fn`` raises; ``stop()`` asks the stream thread to end and waits for it (as Spark's does,
including when ``fn`` is blocked); ``awaitTermination()`` raises the failure. With
``endless=True`` the query keeps planning batches (rows continue) until stopped; else it
ends by itself after the given batches (like ``availableNow``).
"""

from __future__ import annotations

import threading
from typing import Any


class FakeBatch:
    def __init__(self, rows: list[int]) -> None:
        self.rows = rows
        self.columns = ["value"]

    def collect(self) -> list[tuple[int]]:
        return [(r,) for r in self.rows]

    def toArrow(self) -> Any:  # noqa: N802 - PySpark's name
        import pyarrow as pa

        return pa.table({"value": self.rows})


class FakeQuery:
    def __init__(self, stream: FakeStream, fn: Any) -> None:
        self.stream = stream
        self.fn = fn
        self.stopping = False
        self.failure: BaseException | None = None
        self.done = threading.Event()
        self.thread = threading.Thread(target=self._run, name="fake-stream-execution",
                                       daemon=True)
        self.thread.start()

    def _batches(self):
        size, n = self.stream.batch_size, self.stream.rows
        i = 0
        while self.stream.endless or i * size < n:
            start = i * size
            stop = start + size if self.stream.endless else min(start + size, n)
            yield i, list(range(start, stop))
            i += 1

    def _run(self) -> None:
        try:
            for batch_id, rows in self._batches():
                if self.stopping:
                    return
                if batch_id in self.stream.fail_at:
                    raise ValueError(f"batch {batch_id} is bad")
                self.stream.planned.append(batch_id)
                try:
                    self.fn(FakeBatch(rows), batch_id)
                except Exception as e:
                    if not self.stopping:
                        self.failure = e
                    return
                self.stream.committed.append(batch_id)
        except Exception as e:
            self.failure = e
        finally:
            self.done.set()

    def awaitTermination(self) -> None:  # noqa: N802 - PySpark's name
        self.done.wait()
        if self.failure is not None:
            raise RuntimeError(f"query failed: {self.failure}") from self.failure

    def stop(self) -> None:
        self.stopping = True
        self.thread.join()


class _Conf:
    def get(self, key: str, default: Any = None) -> Any:
        return default


class _Session:
    conf = _Conf()


class FakeWriter:
    def __init__(self, stream: FakeStream) -> None:
        self.stream = stream
        self.fn: Any = None

    def foreachBatch(self, fn: Any) -> FakeWriter:  # noqa: N802 - PySpark's name
        self.fn = fn
        return self

    def option(self, key: str, value: Any) -> FakeWriter:
        self.stream.writer_options[key] = value
        return self

    def options(self, **kw: Any) -> FakeWriter:
        self.stream.writer_options.update(kw)
        return self

    def queryName(self, name: str) -> FakeWriter:  # noqa: N802 - PySpark's name
        self.stream.writer_options["queryName"] = name
        return self

    def trigger(self, **kw: Any) -> FakeWriter:
        self.stream.writer_options["trigger"] = kw
        return self

    def outputMode(self, mode: str) -> FakeWriter:  # noqa: N802 - PySpark's name
        self.stream.writer_options["outputMode"] = mode
        return self

    def start(self) -> FakeQuery:
        if self.stream.fail_start:
            raise RuntimeError("cannot start: the plan is not streamable")
        q = FakeQuery(self.stream, self.fn)
        self.stream.queries.append(q)
        return q


class FakeStream:
    """``rows`` values 0.. in batches of ``batch_size``; ``fail_at``: batch ids that fail."""

    isStreaming = True  # noqa: N815 - PySpark's name
    _jdf = object()
    sparkSession = _Session()  # noqa: N815 - PySpark's name

    def __init__(self, rows: int = 0, batch_size: int = 3, *, endless: bool = False,
                 fail_at: tuple[int, ...] = (), fail_start: bool = False) -> None:
        self.rows = rows
        self.batch_size = batch_size
        self.endless = endless
        self.fail_at = fail_at
        self.fail_start = fail_start
        self.planned: list[int] = []
        self.committed: list[int] = []
        self.queries: list[FakeQuery] = []
        self.writer_options: dict[str, Any] = {}

    @property
    def writeStream(self) -> FakeWriter:  # noqa: N802 - PySpark's name
        return FakeWriter(self)
