"""The one place rxpy2 reaches into PySpark's private internals.

PySpark has no public way to run a job on one partition and read its result as a
stream, to serve an RDD over a local socket, or to cancel a job group's future jobs, so
rxpy2 uses the Py4J entry points behind its public API (``_jvm``, ``_jsc``, ``_jdf``,
``_jrdd``, ``PythonRDD.runJob``, the local socket helper). Each use below says which PySpark
it was checked on; a PySpark upgrade needs this module checked, and no other.
"""

from __future__ import annotations

import inspect
from typing import Any

__all__ = [
    "analyzed_condition",
    "arrow_batch_jrdd",
    "binary_as_bytes",
    "cancel_job_group",
    "collect_and_serve",
    "connect",
    "add_tag",
    "connect_path_exists",
    "hadoop_path_exists",
    "interrupt_tag",
    "is_connect",
    "is_dataframe",
    "is_rdd",
    "java_rdd",
    "load_batches",
    "local_limit",
    "map_in_arrow_driver_modules",
    "python_rows_jrdd",
    "remove_tag",
    "require_pyspark",
    "row_class",
    "run_partition_job",
    "wrap_rdd",
]


def require_pyspark() -> Any:
    """The ``pyspark`` module, or an ``ImportError`` naming the extra to install."""
    try:
        import pyspark
    except ImportError as e:  # pragma: no cover - depends on the installation
        raise ImportError("rxpy2.spark needs pyspark: pip install 'rxpy2[spark]'") from e
    return pyspark


# ---------------------------------------------------------------------------- what it is

def is_dataframe(df: Any) -> bool:
    """Whether ``df`` is a classic (Py4J) DataFrame, not a Spark Connect one: it has a JVM
    Dataset behind it (``DataFrame._jdf``, checked on PySpark 4.3.0)."""
    return hasattr(df, "_jdf")


def is_connect(obj: Any) -> bool:
    """Whether ``obj`` (a DataFrame or a SparkSession) belongs to a Spark Connect session:
    its class lives in ``pyspark.sql.connect`` (checked on PySpark 4.3.0). Tested by the
    class's module, so a classic session never imports the Connect client (grpcio)."""
    return type(obj).__module__.startswith("pyspark.sql.connect.")


def is_rdd(rdd: Any) -> bool:
    """Whether ``rdd`` is a PySpark RDD (``RDD._jrdd``, checked on PySpark 4.3.0)."""
    return hasattr(rdd, "_jrdd")


# ---------------------------------------------------------------------------- the JVM RDDs

def java_rdd(rdd: Any) -> tuple[Any, Any]:
    """The JVM RDD of a PySpark RDD and the serializer of its elements (``RDD._jrdd``,
    ``RDD._jrdd_deserializer``, checked on PySpark 4.3.0)."""
    return rdd._jrdd, rdd._jrdd_deserializer


def wrap_rdd(jrdd: Any, sc: Any, serializer: Any) -> Any:
    """A PySpark RDD over a JVM RDD whose elements ``serializer`` reads (the ``RDD``
    constructor PySpark itself uses, checked on PySpark 4.3.0)."""
    from pyspark import RDD

    return RDD(jrdd, sc, serializer)


def python_rows_jrdd(df: Any) -> Any:
    """A JVM RDD of ``df``'s rows pickled in batches by the JVM, no Python worker: the path
    ``toLocalIterator`` takes (``DataFrame._jdf.javaToPython()``, checked on PySpark
    4.3.0)."""
    return df._jdf.javaToPython()


def arrow_batch_jrdd(df: Any) -> Any:
    """A JVM RDD of ``df``'s Arrow record batches, one IPC frame each
    (``DataFrame._jdf.toArrowBatchRdd()``, checked on PySpark 4.3.0)."""
    return df._jdf.toArrowBatchRdd().toJavaRDD()


def analyzed_condition(filtered: Any) -> str:
    """The condition of ``filtered`` (a ``df.filter(expr)``) as Spark SQL reads it after
    analysis, ``(amount > CAST(100 AS BIGINT))`` (``DataFrame._jdf.queryExecution()``,
    checked on PySpark 4.3.0); raises for another plan shape."""
    return str(filtered._jdf.queryExecution().analyzed().condition().sql())


def local_limit(df: Any, n: int) -> Any:
    """``df`` under a Catalyst ``LocalLimit(n)``: the same partitions, each cut after its
    first ``n`` rows (``df.limit(n)`` would add a global limit, one partition). ``None``
    when this Spark has no such entry point: the caller cuts the rows in Python.

    ``DataFrame._jdf``, ``SparkContext._jvm`` and ``Dataset.ofRows`` of
    ``org.apache.spark.sql.classic`` (Spark ≥ 4.0), checked on PySpark 4.3.0."""
    try:
        from pyspark.sql import DataFrame

        jdf = df._jdf
        local = jdf.limit(n).logicalPlan().child()  # GlobalLimit(LocalLimit(n, plan))
        if local.getClass().getSimpleName() != "LocalLimit":
            return None
        jvm = df.sparkSession.sparkContext._jvm
        try:
            dataset = jvm.org.apache.spark.sql.classic.Dataset  # Spark ≥ 4.0
            jlimited = dataset.ofRows(jdf.sparkSession(), local)
        except Exception:  # pragma: no cover - Spark 3.x layout
            jlimited = jvm.org.apache.spark.sql.Dataset.ofRows(jdf.sparkSession(), local)
        return DataFrame(jlimited, df.sparkSession)
    except Exception:  # pragma: no cover - an unknown layout: the Python path is correct too
        return None


# ---------------------------------------------------------------------------- jobs and sockets

def run_partition_job(sc: Any, jrdd: Any, index: int) -> Any:
    """Compute partition ``index`` of ``jrdd`` (blocks this thread for the job); the
    address of the local socket the driver's JVM serves the result on
    (``SparkContext._jvm.PythonRDD.runJob``, ``SparkContext._jsc``, checked on PySpark
    4.3.0)."""
    return sc._jvm.PythonRDD.runJob(sc._jsc.sc(), jrdd, [index])


def collect_and_serve(sc: Any, rdd: Any) -> Any:
    """Run one job computing every partition of ``rdd``; the address of the local socket
    the driver's JVM serves the elements on, in partition order
    (``SparkContext._jvm.PythonRDD.collectAndServe``, ``RDD._jrdd``, checked on PySpark
    4.3.0)."""
    return sc._jvm.PythonRDD.collectAndServe(rdd._jrdd.rdd())


def connect(sock_info: Any) -> tuple[Any, Any]:
    """``(file, socket)`` connected to the local socket at ``sock_info``
    (``pyspark.util._create_local_socket``, checked on PySpark 4.3.0). PySpark 3.5 has no
    such function in ``pyspark.util``, and the one in ``pyspark.rdd`` returns the file
    alone: there the same steps are taken with ``pyspark.java_gateway``'s
    ``local_connect_and_auth`` (checked on PySpark 3.5.9)."""
    try:
        from pyspark.util import _create_local_socket
    except ImportError:  # PySpark 3.5
        from pyspark.java_gateway import local_connect_and_auth  # type: ignore[attr-defined]  # PySpark 3.5's location
        sockfile, sock = local_connect_and_auth(sock_info[0], sock_info[1])
        sock.settimeout(None)  # a partition may take any time to compute (SPARK-18281)
        return sockfile, sock
    return _create_local_socket((sock_info[0], sock_info[1]))


def spark_to_arrow_schema(schema: Any, large_types: bool) -> Any:
    """The Arrow schema of Spark ``schema`` as ``DataFrame.toArrow()`` gives it
    (``pyspark.sql.pandas.types.to_arrow_schema`` with UTC timestamps, checked on PySpark
    4.3.0; PySpark 3.5's takes the schema alone, with UTC timestamps and no large types,
    checked on 3.5.9)."""
    from pyspark.sql.pandas.types import to_arrow_schema

    if "prefers_large_types" in inspect.signature(to_arrow_schema).parameters:
        return to_arrow_schema(schema, error_on_duplicated_field_names_in_struct=True,
                               timezone="UTC", prefers_large_types=large_types)
    return to_arrow_schema(schema)  # PySpark 3.5


def dataframe_to_arrow(df: Any) -> Any:
    """``df`` collected as one ``pyarrow.Table``: ``DataFrame.toArrow()`` (public since
    PySpark 4.0, checked on 4.3.0); PySpark 3.5 has it only privately, as the record
    batches of ``DataFrame._collect_as_arrow()`` (checked on 3.5.9)."""
    to_arrow = getattr(df, "toArrow", None)
    if to_arrow is not None:
        return to_arrow()
    import pyarrow as pa

    batches = df._collect_as_arrow()  # PySpark 3.5
    schema = spark_to_arrow_schema(df.schema, False)
    if not batches:
        return pa.Table.from_batches([], schema=schema)
    # its timestamps are labelled with the session's time zone: the same instants, labelled
    # UTC as toArrow() labels them
    return pa.Table.from_batches(batches).cast(schema)


def arrow_to_dataframe(spark: Any, table: Any, schema: Any) -> Any:
    """A DataFrame of the ``pyarrow.Table`` ``table`` (``schema``: a Spark schema or None):
    ``spark.createDataFrame(table)`` since PySpark 4.0 (checked on 4.3.0); PySpark 3.5 takes
    no Arrow table, so its rows go with the schema converted from the table's
    (``pyspark.sql.pandas.types.from_arrow_schema``, checked on 3.5.9)."""
    import pyspark

    if int(pyspark.__version__.split(".", 1)[0]) >= 4:
        return spark.createDataFrame(table) if schema is None else spark.createDataFrame(table, schema)
    from pyspark.sql.pandas.types import from_arrow_schema

    return spark.createDataFrame(table.to_pylist(),
                                 from_arrow_schema(table.schema) if schema is None else schema)


def map_in_arrow_driver_modules() -> tuple[str, ...]:
    """The modules a classic session's ``DataFrame.mapInArrow`` needs on the driver,
    besides PySpark: pyarrow and pandas (``mapInArrow`` is built on ``pandas_udf``, which
    raises ``PySparkImportError: Pandas >= 2.2.0 must be installed`` without it, ``Pandas
    >= 1.0.5`` on 3.5; the executors need pyarrow only: checked on PySpark 4.3.0 and
    3.5.9). rxpy2's ``spark`` extra installs both."""
    return ("pyarrow", "pandas")


def binary_as_bytes(spark: Any) -> bool:
    """Whether the rows Spark pickles for Python hold binary values as ``bytes`` (Spark ≥ 4.1:
    ``spark.sql.execution.pyspark.binaryAsBytes``, default true, checked on PySpark 4.3.0)
    rather than ``bytearray`` (a Spark without that setting, where reading it raises:
    checked on PySpark 3.5.9). Public API (``spark.conf``)."""
    try:
        value = spark.conf.get("spark.sql.execution.pyspark.binaryAsBytes")
    except Exception:  # no such setting: this Spark's pickler sends a bytearray
        return False
    return str(value).strip().lower() == "true"


def row_class() -> Any:
    """``pyspark.sql.Row``, of which the Arrow path's executors make their rows as
    ``StructType.fromInternal`` ends with (``pyspark.sql.types._create_row``): the tuple
    of the values, ``tuple.__new__(Row, values)`` (what ``Row(*values)`` returns), with the
    field names set as its ``__fields__``, in the row's ``__dict__`` as ``Row.__setattr__``
    sets them (checked on PySpark 4.3.0 and 3.5.9;
    ``tests/spark/test_arrow_input.py`` compares the rows with pickled ones). Made so
    directly, a row costs no Python call (``Row.__new__`` and ``Row.__setattr__`` are
    Python code)."""
    from pyspark.sql import Row

    return Row


def load_batches(serializer: Any, stream: Any) -> Any:
    """The batches of a batched serializer's stream, as lists, not item by item
    (``BatchedSerializer._load_stream_without_unbatching``, checked on PySpark 4.3.0)."""
    return serializer._load_stream_without_unbatching(stream)


def cancel_job_group(sc: Any, group: str) -> bool:
    """Cancel the Spark jobs of ``group`` (running, and on Spark ≥ 4.0 also submitted
    later: ``SparkContext._jsc`` and the JVM's ``cancelJobGroupAndFutureJobs``, checked on
    PySpark 4.3.0). Whether jobs of the group submitted later are refused too: ``False``
    on Spark 3.5 (only ``cancelJobGroup``, checked on PySpark 3.5.9), where a job submitted
    just after this call runs."""
    try:
        jsc = sc._jsc.sc()
        try:  # Spark ≥ 4.0: jobs of the group submitted later are refused as well
            jsc.cancelJobGroupAndFutureJobs(group, "rxpy2: the subscription was cancelled")
            return True
        except Exception:
            jsc.cancelJobGroup(group)
            return False
    except Exception as e:  # a stopped SparkContext: nothing runs any more
        from rxpy2 import plugins

        if "stopped" not in str(e).lower():
            plugins.on_error(e)
        return True


def hadoop_path_exists(spark: Any, path: str) -> bool:
    """Whether ``path`` exists on its Hadoop file system, as the session sees it
    (``SparkContext._jsc``, ``SparkContext._jvm``, checked on PySpark 4.3.0)."""
    sc = spark.sparkContext
    p = sc._jvm.org.apache.hadoop.fs.Path(path)
    return bool(p.getFileSystem(sc._jsc.hadoopConfiguration()).exists(p))


# ---------------------------------------------------------------------------- Spark Connect
# Spark Connect has no SparkContext, no job groups and no Py4J: its public API offers
# operation tags instead. A tag is added per thread (the client keeps them in a
# threading.local, checked on PySpark 4.3.0): an ExecutePlan request carries the tags of the
# thread that sends it, so a query must be started on the thread that added its tag;
# interruptTag may be called from any thread.

def add_tag(spark: Any, tag: str) -> None:
    """Tag the queries this thread starts from now on (``SparkSession.addTag``, public
    since PySpark 3.5 on Connect, checked on 4.3.0)."""
    spark.addTag(tag)


def remove_tag(spark: Any, tag: str) -> None:
    """Stop tagging this thread's queries with ``tag`` (``SparkSession.removeTag``, checked
    on PySpark 4.3.0)."""
    spark.removeTag(tag)


def interrupt_tag(spark: Any, tag: str) -> None:
    """Interrupt every running query tagged ``tag``, from any thread
    (``SparkSession.interruptTag``, checked on PySpark 4.3.0); a session already stopped
    has nothing left to interrupt."""
    try:
        spark.interruptTag(tag)
    except Exception as e:
        from rxpy2 import plugins

        text = str(e).lower()
        if not any(w in text for w in ("stopped", "closed", "not found", "unavailable")):
            plugins.on_error(e)


def connect_path_exists(spark: Any, path: str) -> bool:
    """Whether ``path`` exists as the Connect server sees it. The Connect client has no
    file-system call (no Hadoop FileSystem, no ``_jvm``): reading the path's file listing
    answers it, a ``PATH_NOT_FOUND`` analysis error meaning no (the error class of
    ``DataFrameReader.load``, checked on PySpark 4.3.0)."""
    try:
        spark.read.format("binaryFile").load(path).schema  # noqa: B018 - analysis only
    except Exception as e:
        if "PATH_NOT_FOUND" in str(e) or "does not exist" in str(e).lower():
            return False
        raise
    return True
