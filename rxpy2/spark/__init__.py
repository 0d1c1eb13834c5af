"""Spark sources and sinks for rxpy2 (the ``spark`` extra: ``pip install rxpy2[spark]``).

* :func:`from_dataframe` / :func:`from_rdd`: a Flowable that runs one Spark job per
  partition, only when downstream demand reaches that partition, with at most
  ``prefetch_partitions`` partitions beyond demand; ``cancel()`` cancels the
  subscription's jobs.
* ``map``/``filter``/``flat_map_iterable``/``map_partitions`` applied directly to such a
  source fuse into the Spark plan and run on the executors; :meth:`SparkFlowable.explain`
  (and :func:`explain` for a whole chain) shows what runs where and why;
  ``fuse="require"`` makes a function that cannot be pickled a :class:`SparkFusionError`.
  ``filter``/``map`` given a ``pyspark.sql.Column`` apply it to the DataFrame itself.
* :func:`from_stream`: a Flowable of a streaming query's rows (or one Arrow table per
  micro-batch) that takes the next micro-batch only under demand (on Spark Connect:
  client-run rounds, :class:`ConnectStreamSubscription`).
* :func:`to_parquet` / :func:`to_table`: backpressured sinks that write in batches through
  Spark and ask for the next batch only when the previous write finished.

The master comes from the caller's SparkSession: nothing here assumes local mode.
"""

from __future__ import annotations

from rxpy2.spark.errors import SparkFusionError
from rxpy2.spark.errors import SparkJobError
from rxpy2.spark.explain import explain
from rxpy2.spark.flowable import SparkFlowable
from rxpy2.spark.flowable import from_dataframe
from rxpy2.spark.flowable import from_rdd
from rxpy2.spark.sink import WriteSummary
from rxpy2.spark.sink import to_parquet
from rxpy2.spark.sink import to_table
from rxpy2.spark.sink import write_batches
from rxpy2.spark.stream import ConnectStreamSubscription
from rxpy2.spark.stream import StreamFlowable
from rxpy2.spark.stream import StreamSubscription
from rxpy2.spark.stream import from_stream

__all__ = [
    "ConnectStreamSubscription",
    "SparkFlowable",
    "SparkFusionError",
    "SparkJobError",
    "StreamFlowable",
    "StreamSubscription",
    "WriteSummary",
    "explain",
    "from_dataframe",
    "from_rdd",
    "from_stream",
    "to_parquet",
    "to_table",
    "write_batches",
]
