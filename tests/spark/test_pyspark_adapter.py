"""The adapter's PySpark 3.5 branches, without a PySpark 3.5: the shapes of the private
entry points it adapts are put in place of PySpark 4's (on PySpark 3.5.9 itself the Spark
suite passes with them but for the Arrow features PySpark 3.5 lacks; see docs/spark.md)."""

from __future__ import annotations

from typing import Any

import pytest

from rxpy2.spark import pyspark_adapter


def test_connect_without_pyspark_util_create_local_socket(monkeypatch: pytest.MonkeyPatch) -> None:
    import pyspark.java_gateway
    import pyspark.util

    calls: list[Any] = []

    class Sock:
        def settimeout(self, t: Any) -> None:
            calls.append(("settimeout", t))

    def local_connect_and_auth(port: Any, secret: Any) -> tuple[str, Sock]:
        calls.append(("connect", port, secret))
        return "file", Sock()

    monkeypatch.delattr(pyspark.util, "_create_local_socket", raising=False)  # as on PySpark 3.5
    monkeypatch.setattr(pyspark.java_gateway, "local_connect_and_auth", local_connect_and_auth,
                        raising=False)
    sockfile, sock = pyspark_adapter.connect((4040, "secret"))
    assert sockfile == "file" and isinstance(sock, Sock)
    # no read timeout: a partition may take any time to compute
    assert calls == [("connect", 4040, "secret"), ("settimeout", None)]


def test_arrow_schema_with_pyspark_35s_one_argument_form(monkeypatch: pytest.MonkeyPatch) -> None:
    import pyspark.sql.pandas.types as types

    seen: list[Any] = []

    def to_arrow_schema(schema: Any) -> str:  # PySpark 3.5's signature
        seen.append(schema)
        return "arrow schema"

    monkeypatch.setattr(types, "to_arrow_schema", to_arrow_schema)
    assert pyspark_adapter.spark_to_arrow_schema("spark schema", True) == "arrow schema"
    assert seen == ["spark schema"]


def test_arrow_schema_on_this_pyspark_keeps_utc_and_large_types() -> None:
    import inspect

    import pyarrow as pa
    from pyspark.sql.pandas.types import to_arrow_schema

    if "prefers_large_types" not in inspect.signature(to_arrow_schema).parameters:
        pytest.skip("PySpark 3.5: no large Arrow types")
    from pyspark.sql.types import StringType
    from pyspark.sql.types import StructField
    from pyspark.sql.types import StructType
    from pyspark.sql.types import TimestampType

    schema = StructType([StructField("s", StringType()), StructField("t", TimestampType())])
    small = pyspark_adapter.spark_to_arrow_schema(schema, False)
    large = pyspark_adapter.spark_to_arrow_schema(schema, True)
    assert small.field("s").type == pa.string() and large.field("s").type == pa.large_string()
    assert small.field("t").type == pa.timestamp("us", tz="UTC")

