"""rxpy2's Spark source, fusion, cancel and sink, and the demo, on a standalone cluster.

A master and two one-core workers are started on 127.0.0.1 from the pyspark installation
(:mod:`cluster_support`); the drivers run in subprocesses (the suite's own ``local[2]``
session lives in this process). The executors' Python has no site-packages, so rxpy2 is not
importable there: the fused stages reach them pickled by value. What the fused function sees
of its own process shows that it ran in an executor JVM started by one of the workers, never
in the driver's process, and on both executors.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("pyspark", reason="the spark extra (pyspark) is not installed")

from cluster_support import StandaloneCluster  # noqa: E402

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent

pytestmark = [pytest.mark.timeout(900),
              pytest.mark.skipif(shutil.which("java") is None,
                                 reason="no java on PATH (tools/test installs it)"),
              pytest.mark.skipif(not Path("/proc/self/stat").exists(),
                                 reason="reads process lineage from /proc (Linux)")]


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[StandaloneCluster]:
    c = StandaloneCluster(tmp_path_factory.mktemp("cluster"), workers=2)
    try:
        c.start()
        yield c
    finally:
        seen = c.processes()
        left = c.stop()
    assert seen, "the cluster's processes were not found before stop"
    assert not left, f"processes of the cluster still alive after stop: {left}"
    assert not c.processes()


def driver_env(cluster: StandaloneCluster) -> dict[str, str]:
    return {**os.environ, "PYSPARK_PYTHON": str(cluster.executor_python),
            "SPARK_LOCAL_IP": "127.0.0.1"}


def run(cmd: list[str], env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(cmd, env=env, cwd=cwd, capture_output=True, text=True, timeout=800,
                          stdin=subprocess.DEVNULL)


def test_source_fusion_cancel_and_sink_on_a_standalone_cluster(
        cluster: StandaloneCluster, tmp_path: Path) -> None:
    out = tmp_path / "shared" / "rows.parquet"
    proc = run([sys.executable, str(HERE / "cluster_driver.py"), cluster.master_url, str(out)],
               driver_env(cluster), tmp_path)
    lines = [x for x in proc.stdout.splitlines() if x.startswith("RESULT ")]
    assert proc.returncode == 0 and lines, (proc.returncode, proc.stdout[-3000:],
                                            proc.stderr[-5000:])
    r: dict[str, Any] = json.loads(lines[-1].removeprefix("RESULT "))

    assert r["master"] == cluster.master_url
    assert r["executors"] == 2

    # fusion: the map and the filter ran in the partition jobs, on the executors
    assert r["fused_type"] == "SparkFlowable", r["explain"]
    stages = [x for x in r["explain"].splitlines() if "map(probe" in x or "filter(<lambda>" in x]
    assert len(stages) == 2 and all("executors" in x for x in stages), r["explain"]
    assert r["ids"] == [i for i in range(4000) if i % 3 != 0]
    assert r["fused_jobs"] == r["partitions"] == 8
    seen = [json.loads(x) for x in r["lineages"]]
    assert all(not s["rxpy2_importable"] for s in seen), seen
    assert all(s["jvm_is_executor"] for s in seen), seen
    executor_jvms = {s["jvm"] for s in seen}
    assert len(executor_jvms) == 2, seen  # both executors ran partitions
    assert r["driver_jvm"] not in executor_jvms
    assert r["driver_python"] not in {s["python"] for s in seen}
    assert r["driver_python"] not in {s["daemon"] for s in seen}
    # each executor JVM is a child of a different worker this test started
    assert {s["jvm_parent"] for s in seen} == cluster.worker_pids, (seen, cluster.worker_pids)

    # take(5): five rows, at most the first partition and the prefetched one started, no job
    # left running (a later partition's job would run for hours)
    assert r["take"] == [0, 1, 2, 3, 4]
    assert 1 <= len(r["take_jobs"]) <= 2, r["take_jobs"]
    assert list(r["take_jobs"].values()).count("SUCCEEDED") <= 1, r["take_jobs"]

    # cancel while the prefetched job runs on an executor: that job is cancelled there
    assert len(r["before_cancel"]) == 2 and "RUNNING" in r["before_cancel"].values(), r
    assert "RUNNING" not in r["after_cancel"].values(), r["after_cancel"]
    assert "FAILED" in r["after_cancel"].values(), r["after_cancel"]  # cancelled
    assert r["cancel_got"] == [0, 1, 2, 3, 4]
    assert r["cancel_errors"] == [] and r["cancel_completions"] == 0
    assert r["after_cancel_count"] == 1000

    # the sink: every row written once into the shared directory, read back there
    assert r["sink_rows"] == 3000 and r["sink_batches"] == 3
    assert r["read_back"] == [3000, 2 * sum(range(3000))]
    pq = pytest.importorskip("pyarrow.parquet")
    table = pq.read_table(out)
    assert sorted(table.column("id").to_pylist()) == list(range(3000))


def test_the_demo_runs_on_a_standalone_cluster(cluster: StandaloneCluster,
                                               tmp_path: Path) -> None:
    # the demo extra (.ci/run installs it; tools/demo does for itself)
    pytest.importorskip("tqdm", reason="the demo extra (tqdm) is not installed")
    out = tmp_path / "orders.parquet"
    proc = run([sys.executable, str(ROOT / "tools" / "demo.py"), "--master", cluster.master_url,
                "--rows", "20000", "--partitions", "4", "--batch", "1000", "--latency", "0.001",
                "--write-batch", "4", "--output", str(out)], driver_env(cluster), tmp_path)
    assert proc.returncode == 0, (proc.stdout[-3000:], proc.stderr[-3000:])
    assert f"starting Spark ({cluster.master_url}" in proc.stdout
    assert "checks passed" in proc.stdout, proc.stdout
    assert re.search(r"partitions pulled +4 +of 4 ", proc.stdout), proc.stdout
