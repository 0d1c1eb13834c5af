"""The queries of ``from_stream`` on a Spark Connect session: client-run rounds.

A Connect ``foreachBatch`` function runs in a Python process of the Connect *server*, so it
cannot hand a micro-batch to this process's subscriber, nor wait for its demand. Instead
each subscription runs *rounds* (:class:`rxpy2.spark.stream.ConnectStreamSubscription`):
when downstream has demand and fewer than ``prefetch_batches`` micro-batches are held, the
client starts ``streaming_df.writeStream.foreachBatch(batch_writer(sink))`` with
``trigger(availableNow=True)`` (``once=True`` for the user's ``once``) and reads the
micro-batches it wrote, one at a time, as queries of their own: those the running query
reports finished (:func:`finished_batch`), then the rest once it ended. This module holds
those queries and the paths they use; it runs no thread.

Why a ``foreachBatch`` that writes and not the ``parquet`` file sink: the file sink records
which files each micro-batch wrote in ``<sink>/_spark_metadata/<batchId>``, but Spark's file
listing leaves out every path under ``_spark_metadata`` (reading ``.../_spark_metadata/0``
with ``spark.read.text`` gives no row, checked on PySpark 4.3.0), and the log is compacted
every 10 batches, so the client could not tell the batches apart. ``batch_writer`` writes
micro-batch ``b`` to a directory of its own, ``<sink>/batch-<b>`` (overwritten when Spark
runs the batch again after a failure), which the client reads by its path.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from rxpy2.spark.pyspark_adapter import dataframe_to_arrow

__all__ = ["MARKER", "batch_path", "batch_writer", "finished_batch", "interval_seconds",
           "is_missing_path",
           "last_committed", "read_batch", "read_marker", "write_marker"]

#: the directory (under the sink) where a checkpointed subscription records the first batch
#: it has not delivered yet
MARKER = "rxpy2-next-batch"

_UNITS = {"ms": 0.001, "millisecond": 0.001, "milli": 0.001,
          "s": 1.0, "sec": 1.0, "second": 1.0,
          "m": 60.0, "min": 60.0, "minute": 60.0,
          "h": 3600.0, "hour": 3600.0, "d": 86400.0, "day": 86400.0}
_INTERVAL = re.compile(r"^\s*(?:interval\s+)?(\d+(?:\.\d+)?)\s*([a-z]*)\s*$", re.IGNORECASE)


def interval_seconds(text: str) -> float:
    """The seconds of a ``processingTime`` interval as Spark reads it (``"1 second"``,
    ``"500 milliseconds"``, ``"interval 2 minutes"``, ``"10s"``)."""
    m = _INTERVAL.match(text)
    if m is None:
        raise ValueError(f"processingTime {text!r} is not an interval such as '1 second'")
    unit = m.group(2).lower() or "ms"  # Spark reads a bare number as milliseconds
    if unit not in _UNITS and unit.endswith("s"):
        unit = unit[:-1]  # a plural: "seconds"
    if unit not in _UNITS:
        raise ValueError(f"processingTime {text!r}: unknown unit {m.group(2)!r}")
    return float(m.group(1)) * _UNITS[unit]


def batch_path(sink: str, batch_id: int) -> str:
    """Where :func:`batch_writer` writes micro-batch ``batch_id``."""
    return f"{sink.rstrip('/')}/batch-{batch_id}"


def batch_writer(sink: str) -> Callable[[Any, int], None]:
    """The ``foreachBatch`` function of a round: it writes each micro-batch, empty ones too
    (a directory holding no rows), to :func:`batch_path` as Parquet, overwriting what a
    failed run of the same batch left there.

    It runs on the Connect server, in a Python process that has PySpark but maybe not
    rxpy2: a nested function, it travels by value (cloudpickle) and uses nothing but its
    closure and the DataFrame it is given."""
    root = sink.rstrip("/")

    def write_batch(batch_df: Any, batch_id: int) -> None:
        batch_df.write.mode("overwrite").parquet(f"{root}/batch-{batch_id}")

    return write_batch


def finished_batch(query: Any) -> int | None:
    """The last micro-batch the running ``query`` has finished (its ``foreachBatch`` write
    returned and Spark committed it), from its last progress report
    (``StreamingQuery.lastProgress``, a status request, checked on PySpark 4.3.0), or
    ``None``. Only a report of this run that read input counts: an idle report carries the
    id of the batch to come (reading that batch would find no directory: harmless)."""
    progress = query.lastProgress
    if not progress:
        return None
    try:
        if str(progress["runId"]) != str(query.runId):
            return None
        # PySpark 4's StreamingQueryProgress sums its sources' rows in an attribute (its
        # item is None); PySpark 3.5's report is the JSON's dict
        rows = getattr(progress, "numInputRows", None)
        if rows is None and isinstance(progress, dict):
            rows = progress.get("numInputRows")
        if rows is not None and int(rows) <= 0:
            return None  # idle (or a batch that read nothing): the round's end tells
        return int(progress["batchId"])
    except (KeyError, TypeError, ValueError):  # a report of another shape: wait for the end
        return None


def is_missing_path(error: BaseException) -> bool:
    """Whether ``error`` says that a path read does not exist (``PATH_NOT_FOUND``, the error
    class of ``DataFrameReader.load``, checked on PySpark 4.3.0)."""
    text = str(error)
    return "PATH_NOT_FOUND" in text or "Path does not exist" in text


def read_batch(spark: Any, schema: Any, path: str, emit: str,
               row_format: str) -> list[Any] | None:
    """The items of the micro-batch written at ``path`` (an empty list for an empty batch),
    or ``None`` when no batch was written there. One query: ``toArrow()`` of the batch for
    ``emit="batches"`` (one table, none for an empty batch), else its ``collect()`` in
    ``row_format``, as the classic path converts a micro-batch's rows."""
    df = spark.read.schema(schema).parquet(path)
    try:
        if emit == "batches":
            table = dataframe_to_arrow(df)
            return [table] if table.num_rows else []
        rows: list[Any] = df.collect()
    except Exception as e:
        if is_missing_path(e):
            return None
        raise
    if row_format == "tuple":
        return [tuple(r) for r in rows]
    if row_format == "dict":
        names = list(schema.fieldNames())
        return [dict(zip(names, r, strict=True)) for r in rows]
    return rows


def read_marker(spark: Any, sink: str) -> int | None:
    """The first batch not delivered yet, as a checkpointed subscription recorded it in
    ``sink``; ``None`` when nothing was recorded."""
    try:
        rows = spark.read.schema("next LONG").json(f"{sink.rstrip('/')}/{MARKER}").collect()
    except Exception as e:
        if is_missing_path(e):
            return None
        raise
    values = [int(r[0]) for r in rows if r[0] is not None]
    return max(values) if values else None


def write_marker(spark: Any, sink: str, next_batch: int) -> None:
    """Record in ``sink`` that the batches before ``next_batch`` were delivered (one small
    write query)."""
    (spark.range(1).selectExpr(f"CAST({int(next_batch)} AS BIGINT) AS next")
     .write.mode("overwrite").json(f"{sink.rstrip('/')}/{MARKER}"))


def last_committed(spark: Any, checkpoint: str) -> int | None:
    """The last micro-batch committed in ``checkpoint`` (the file names of its ``commits``
    log, read as a query: the client has no file system), ``None`` for a new checkpoint."""
    from pyspark.sql import functions as F

    try:
        names = (spark.read.text(f"{checkpoint.rstrip('/')}/commits")
                 .select(F.input_file_name().alias("f")).distinct().collect())
    except Exception as e:
        if is_missing_path(e):
            return None
        raise
    ids = [int(m.group(1)) for r in names
           if (m := re.search(r"/(\d+)$", str(r[0]))) is not None]
    return max(ids) if ids else None
