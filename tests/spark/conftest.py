"""One embedded ``local[2]`` SparkSession for the whole test run.

The session is created on first use and stopped at the end of the run; every Spark test
takes the ``spark`` fixture. Without pyspark (the ``spark`` extra) or Java the Spark tests
are skipped with the reason; ``tools/test`` installs both, so CI runs them.
"""

from __future__ import annotations

import shutil

import pytest

pyspark = pytest.importorskip("pyspark", reason="the spark extra (pyspark) is not installed")


@pytest.fixture(scope="session")
def spark(tmp_path_factory):
    if shutil.which("java") is None:
        pytest.skip("no java on PATH (tools/test installs it)")
    from pyspark.sql import SparkSession

    session = (SparkSession.builder.master("local[2]").appName("rxpy2-tests")
               .config("spark.ui.enabled", "false")
               .config("spark.ui.showConsoleProgress", "false")
               .config("spark.sql.shuffle.partitions", "4")
               .config("spark.driver.memory", "1g")
               .config("spark.sql.warehouse.dir", str(tmp_path_factory.mktemp("warehouse")))
               .getOrCreate())
    session.sparkContext.setLogLevel("OFF")
    yield session
    session.stop()


@pytest.fixture
def sc(spark):
    return spark.sparkContext

