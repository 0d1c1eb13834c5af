"""tools/demo.py without Spark: its help, how it classifies input lines, its progress bar
and its rates. (Runs of the demo itself on Spark: tests/spark/test_demo_spark.py.)"""

from __future__ import annotations

import importlib.util
import io
import re
import subprocess
import sys
import time
from pathlib import Path
from types import ModuleType

import pytest

DEMO = Path(__file__).resolve().parent.parent / "tools" / "demo.py"


@pytest.fixture(scope="module")
def demo() -> ModuleType:
    pytest.importorskip("tqdm", reason="the demo extra (tqdm) is not installed")
    spec = importlib.util.spec_from_file_location("rxpy2_tools_demo", DEMO)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class Count:
    """Stands in for a Spark accumulator."""

    def __init__(self) -> None:
        self.value = 0

    def add(self, n: int) -> None:
        self.value += n


def test_help_shows_usage_defaults_and_the_line_format() -> None:
    proc = subprocess.run([sys.executable, str(DEMO), "--help"], capture_output=True,
                          text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert out.startswith("usage: tools/demo ")
    # every option's help says its default
    options = re.split(r"\n  (?=-)", out.split("options:", 1)[1].split("\n\n", 1)[0])
    options = [o for o in options if o.strip() and not o.lstrip().startswith("-h,")]
    assert len(options) >= 12
    for opt in options:
        assert "default" in " ".join(opt.split()), opt
    assert "order_id,day,customer,product,qty,unit_price" in out
    assert "1042,2026-02-17,C00042,keyboard,2,49.90" in out
    assert "header" in out and "spark://" in out


def test_bad_option_values_are_refused_with_the_tools_demo_usage() -> None:
    proc = subprocess.run([sys.executable, str(DEMO), "--rows", "0"], capture_output=True,
                          text=True, timeout=60)
    assert proc.returncode == 2
    assert proc.stderr.startswith("usage: tools/demo ")
    assert "must be positive" in proc.stderr


def test_a_missing_input_is_refused_before_spark_starts(tmp_path: Path) -> None:
    missing = tmp_path / "no-such-orders.csv"
    t0 = time.monotonic()
    proc = subprocess.run([sys.executable, str(DEMO), "--input", str(missing)],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2, (proc.stdout, proc.stderr)
    assert proc.stderr.startswith("usage: tools/demo ")
    assert f"--input {missing}: no such file or directory" in proc.stderr
    assert "starting Spark" not in proc.stdout  # refused before Spark's start
    assert time.monotonic() - t0 < 30


def test_which_inputs_are_checked_before_spark(demo: ModuleType, tmp_path: Path) -> None:
    present = tmp_path / "orders.csv"
    present.write_text("1,2026-02-17,C1,keyboard,2,49.90\n")
    problem = demo.input_problem
    assert problem(str(present)) is None
    assert problem(str(tmp_path)) is None  # a directory of files
    assert problem(f"file://{present}") is None
    assert problem(str(tmp_path / "*.csv")) is None
    assert problem(str(tmp_path / "gone")) == f"--input {tmp_path / 'gone'}: no such file or directory"
    assert problem(f"file://{tmp_path}/gone") == f"--input file://{tmp_path}/gone: no such file or directory"
    assert problem(str(tmp_path / "*.parquet")) == f"--input {tmp_path / '*.parquet'}: no file matches it"
    # other filesystems and Hadoop's {a,b} patterns are Spark's to read
    assert problem("hdfs://namenode:8020/orders/") is None
    assert problem("s3a://bucket/orders/*.csv") is None
    assert problem(str(tmp_path / "{a,b}.csv")) is None


def test_lines_are_classified_by_reason_and_a_header_is_skipped(demo: ModuleType) -> None:
    demo.REJECTED = {reason: Count() for reason in demo.REASONS}
    demo.HEADERS = Count()
    lines = {
        "order_id,day,customer,product,qty,unit_price": None,  # the header
        '"Order ID","Day","Customer","Product","Qty","Unit Price"': None,  # quoted header
        "7,2026-01-02,C00007,dock,3,199.00": True,
        "7,2026-01-02,C00007,dock,3": "fields",
        "7,2026-01-02,C00007,dock,,199.00": "number",
        "7,2026-01-02,C00007,dock,3,n/a": "number",
        "7,2026-01-02,C00007,dock,0,199.00": "range",
        "7,2026-01-02,C00007,dock,2,-1": "range",
    }
    kept = [line for line in lines if demo.is_valid(demo.parse((line,)))]
    assert kept == ["7,2026-01-02,C00007,dock,3,199.00"]
    assert demo.HEADERS.value == 2
    expected = {reason: sum(1 for v in lines.values() if v == reason)
                for reason in demo.REASONS}
    assert {k: c.value for k, c in demo.REJECTED.items()} == expected
    assert demo.parse(("7,2026-01-02,C00007,dock,3,199.00",)) == (
        7, "2026-01-02", "C00007", "dock", 3, 199.0)


@pytest.mark.parametrize(("rows", "seconds", "text"), [
    (0, 2.0, "no rows in 2.00 s"),
    (12, 0.35, "12 rows in 350 ms"),
    (3, 40.0, "0.075 rows/s"),
    (150, 1.5, "100 rows/s"),
    (45, 2.0, "22.5 rows/s"),
    (2_000_000, 4.0, "500,000 rows/s"),
])
def test_rates_read_well_for_small_and_large_inputs(demo: ModuleType, rows: int,
                                                    seconds: float, text: str) -> None:
    assert demo.rate_text(rows, seconds) == text


def test_the_progress_total_does_not_change_and_is_reached(
        demo: ModuleType, monkeypatch: pytest.MonkeyPatch) -> None:
    err = io.StringIO()
    monkeypatch.setattr(sys, "stderr", err)
    st = demo.Stats()
    progress = demo.Progress(st, 1000, 4)
    rejected = Count()
    progress.not_valid = lambda: rejected.value
    totals = []
    for valid, bad in ((0, 0), (400, 10), (960, 40)):
        st.read_rows, rejected.value = valid, bad
        progress._update()
        totals.append(progress.read.total)
    progress.close(960)
    # every raw line counted, valid or not: the bar ends at the total it started with
    assert totals == [1000, 1000, 1000] and progress.read.total == 1000
    assert progress.read.n == 1000
    out = err.getvalue()
    assert "1,000/1,000 rows" in out and "100%" in out
    assert not re.search(r"\b0 rows/s", out) and "s/ rows" not in out and ".00 rows" not in out

