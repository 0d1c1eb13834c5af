"""tools/demo.py run as a data engineer runs it, on tiny inputs (each run is a subprocess
with its own local[2] Spark: the suite's session is not touched)."""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

DEMO = Path(__file__).resolve().parent.parent.parent / "tools" / "demo.py"

pytestmark = [pytest.mark.timeout(600),
              pytest.mark.skipif(shutil.which("java") is None, reason="no java on PATH")]


def run_demo(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    pytest.importorskip("tqdm", reason="the demo extra (tqdm) is not installed")
    env = {**os.environ, "PYSPARK_PYTHON": sys.executable}
    return subprocess.run([sys.executable, str(DEMO), "--output", str(tmp_path / "out.parquet"),
                           "--latency", "0", *args], capture_output=True, text=True,
                          env=env, cwd=tmp_path, timeout=500, stdin=subprocess.DEVNULL)


def test_an_input_without_a_valid_row_says_why_and_exits_1(tmp_path: Path) -> None:
    src = tmp_path / "orders.csv"
    src.write_text("order_id,day,customer,product,qty,unit_price\n"
                   "1;2026-01-03;C00001;mouse;2;19.00\n"
                   "2,2026-01-03,C00002,mouse,two,19.00\n"
                   "3,2026-01-03,C00003,mouse,0,19.00\n")
    proc = run_demo(tmp_path, "--input", str(src))
    assert proc.returncode == 1, (proc.stdout, proc.stderr)
    err = proc.stderr
    assert "no valid order in --input" in err, err
    assert "4 lines read, 3 rejected, 1 header line skipped" in err, err
    assert re.search(r"1  not 6 comma-separated fields", err), err
    assert re.search(r"1  order_id or qty not an integer", err), err
    assert re.search(r"1  qty or unit_price not positive", err), err
    assert "order_id,day,customer,product,qty,unit_price" in err.split("expected", 1)[1]
    assert "Traceback" not in err and "py4j" not in err.lower(), err
    assert not (tmp_path / "out.parquet").exists()


@pytest.mark.usefixtures("shutdown_schedulers")
def test_a_csv_with_a_header_runs_and_counts_the_header_apart(
        spark, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # in this process, on the suite's session (the demo's pipeline without its own Spark
    # start and stop): a second JVM start would double this module's time
    pytest.importorskip("tqdm", reason="the demo extra (tqdm) is not installed")
    import rxpy2.spark as rs

    spec = importlib.util.spec_from_file_location("rxpy2_tools_demo", DEMO)
    assert spec is not None and spec.loader is not None
    demo = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = demo  # the pipeline ships it by value: it must be importable
    try:
        spec.loader.exec_module(demo)
        src = tmp_path / "orders.csv"
        rows = [f"{i},2026-01-0{1 + i % 9},C{i:05d},dock,{1 + i % 3},19.50"
                for i in range(1, 41)]
        src.write_text("order_id,day,customer,product,qty,unit_price\n" + "\n".join(rows)
                       + "\n41,2026-01-01,C00041,dock,,19.50\n")
        args = demo.parse_args(["--input", str(src), "--output", str(tmp_path / "out.parquet"),
                                "--latency", "0", "--batch", "20", "--write-batch", "2"])
        status = demo.pipeline(args, spark, spark.sparkContext, rs, time.perf_counter())
    finally:
        del sys.modules[spec.name]
    out, err = capsys.readouterr()
    assert status == 0, (out, err)
    assert re.search(r"rows read \(raw lines\) +42 ", out), out
    assert re.search(r"rejected \(malformed\) +1 ", out), out
    assert re.search(r"header lines skipped +1\n", out), out
    assert re.search(r"rows written +40 ", out), out
    assert "checks passed" in out
    # no rate of zero ("0 rows/s", "0.00 rows/s"); "35.0 rows/s" is a rate
    assert not re.search(r"(?<![\d.])0(\.0+)? rows/s", out + err)
    assert "42/" not in err  # no total for an input of unknown size: the bar cannot jump
