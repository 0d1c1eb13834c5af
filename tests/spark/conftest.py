"""The Spark tests' fixtures. Every Spark test takes the ``spark`` fixture: one embedded
``local[2]`` SparkSession per test process, defined in ``tests/conftest.py`` so that the
``docs/spark.md`` examples run on it too. Without pyspark (the ``spark`` extra) or Java the
Spark tests are skipped with the reason; ``tools/test`` installs both, so CI runs them.
"""

from __future__ import annotations

import pytest

pyspark = pytest.importorskip("pyspark", reason="the spark extra (pyspark) is not installed")


@pytest.fixture
def sc(spark):
    return spark.sparkContext

