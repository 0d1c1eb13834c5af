"""Smoke test of the Spark benchmarks (``benchmarks/spark.py``) without starting Spark.

Argument parsing, the report's tables and target lines from made-up measurements, and
where the section goes in the markdown file. Nothing about speed is asserted, and no
SparkSession is started (the full run takes minutes: ``python -m benchmarks.spark``).
"""

from __future__ import annotations

import argparse
import runpy
import sys
from datetime import UTC
from datetime import datetime
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks import spark as sb  # noqa: E402
from benchmarks import spark_common  # noqa: E402
from benchmarks import spark_pushdown  # noqa: E402


def _report(args: argparse.Namespace, rx_rps: float, heavy_ratio: float,
            rx_peak: float, rx_growth: float = 0.0) -> sb.Report:
    rep = sb.Report(command="python -m benchmarks.spark", started=datetime(2026, 1, 1, tzinfo=UTC),
                    machine={"cpu": "cpu", "cores": "2", "platform": "linux", "load": "0.1"},
                    versions={"python": "3.11", "pyspark": "4", "pyarrow": "26", "java": "17"},
                    args=args, heavy_iterations=100, heavy_us=20.0, seconds=1.0)
    rows = args.rows
    speeds = {"to_local_iterator": 200_000.0, "rx_subscribe": rx_rps, "rx_iterate": rx_rps,
              "rx_arrow": 2_000_000.0}
    for key in args.methods:
        rps = speeds.get(key, 100_000.0)
        rep.rows.append(spark_common.Timed(sb.METHODS[key], rows, sb.expected_checksum(rows),
                                           [rows / rps] * args.runs))
    rep.heavy = [spark_common.Timed(sb.HEAVY_METHODS["heavy_fused"], 1000, (1000, 1),
                                    [1.0 / heavy_ratio]),
                 spark_common.Timed(sb.HEAVY_METHODS["heavy_driver"], 1000, (1000, 1), [1.0])]
    for key in args.methods:
        peak = rx_peak if key.startswith("rx_") else 120.0
        rep.memory.append(sb.MemoryResult(key, rows, peak, 100.0, 700.0, 1.0))
    for key in sb.FLAT_METHODS:
        for n in args.memory_sizes:
            peak = rx_peak if key.startswith("rx_") else 120.0
            if key.startswith("rx_") and n == max(args.memory_sizes):
                peak += rx_growth
            rep.memory.append(sb.MemoryResult(key, n, peak, 100.0, 700.0, 1.0))
    return rep


def _targets(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith("- target ")]


def test_defaults_are_the_issue_s_setting() -> None:
    args = sb.parse_args([])
    assert (args.rows, args.partitions, args.master) == (2_000_000, 8, "local[2]")
    assert args.parts == list(sb.PARTS) and args.methods == list(sb.METHODS)
    assert not sb.is_partial(args)
    assert sb.is_partial(sb.parse_args(["--rows", "1000"]))
    assert sb.is_partial(sb.parse_args(["--only", "rows,heavy"]))
    assert sb.parse_args(["--only", "memory", "--methods", "collect"]).methods == ["collect"]


@pytest.mark.parametrize("argv", [["--only", "nope"], ["--methods", "nope"], ["--runs", "0"],
                                  ["--rows", "0"], ["--heavy-us", "0"]])
def test_bad_arguments_are_refused(argv: list[str]) -> None:
    with pytest.raises(SystemExit):
        sb.parse_args(argv)


def test_targets_met_and_missed() -> None:
    # the parts this synthetic report has figures for (the others print "not measured")
    args = sb.parse_args(["--only", "rows,heavy,memory"])
    met = sb.render(_report(args, rx_rps=200_000.0, heavy_ratio=2.0, rx_peak=120.5))
    lines = _targets(met)
    assert lines and all(line.endswith("— met") for line in lines), lines
    assert "| `df.toLocalIterator()` | 10.00 | 200,000 | 0% | 1.00× | 100.0 | 120.0 | 700.0 |" in met
    missed = sb.render(_report(args, rx_rps=100_000.0, heavy_ratio=1.5, rx_peak=160.0,
                               rx_growth=30.0))
    by_state = [line.rsplit("— ", 1)[1] for line in _targets(missed)]
    assert by_state.count("met") == 2  # the Arrow target (10× here), toLocalIterator flat
    assert "measured 0.50× — missed" in missed and "measured 1.50× — missed" in missed
    assert "measured 40.00 MiB — missed" in missed  # peak above toLocalIterator's
    assert "measured 30.00 MiB — missed" in missed  # not flat


def test_unmeasured_targets_say_so() -> None:
    args = sb.parse_args(["--only", "rows"])
    rep = _report(args, 200_000.0, 2.0, 120.0)
    rep.memory, rep.heavy = [], []
    text = sb.render(rep)
    assert any(line.endswith("— n/a") for line in _targets(text))
    assert "### A heavy map" not in text and "### Driver memory" not in text


def test_section_goes_between_its_own_markers(tmp_path: Path) -> None:
    doc = tmp_path / "performance.md"
    doc.write_text("# Performance\n\n<!-- bench:begin -->\nops\n<!-- bench:end -->\n\nnotes\n")
    sb.write_section(doc, "## Spark\nfirst\n")
    sb.write_section(doc, "## Spark\nsecond\n")
    text = doc.read_text()
    assert text == ("# Performance\n\n<!-- bench:begin -->\nops\n<!-- bench:end -->\n\nnotes\n\n"
                    f"{sb.BEGIN}\n## Spark\nsecond\n{sb.END}\n")


def test_heavy_map_is_deterministic() -> None:
    f = sb.make_heavy(50)
    assert f((7,)) == f((7,)) != f((8,))
    assert all(f((i,)) > 0 for i in range(100))


def test_python_m_benchmarks_spark_dispatches(monkeypatch: pytest.MonkeyPatch,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(sys, "argv", ["benchmarks", "--spark", "--help"])
    with pytest.raises(SystemExit) as exc:
        runpy.run_module("benchmarks", run_name="__main__")
    assert exc.value.code == 0
    assert "python -m benchmarks --spark" in capsys.readouterr().out


def test_count_rows_compare_each_chain_with_its_own_streamed_run() -> None:
    args = sb.parse_args(["--only", "count"])
    rep = _report(args, 200_000.0, 2.0, 120.0)
    rows = args.rows
    seconds = {"count_spark": 4.0, "count_streamed": 4.0, "count_driver": 6.0,
               "count_spark_column": 0.2, "count_streamed_column": 2.0}
    rep.count = [spark_common.Timed(spark_pushdown.COUNT_METHODS[k], rows,
                                    spark_pushdown.count_expected(rows), [s])
                 for k, s in seconds.items()]
    text = sb.render(rep)
    assert "(no Python stage: `DataFrame.count()`) | 0.20 |" in text
    assert "| 0.20 | 10,000,000 | 0% | 10.00× |" in text  # against the Column chain streamed
    assert "| 6.00 | 333,333 | 0% | 0.67× |" in text  # the driver's count, against map/filter's
    lines = _targets(text)
    assert any("faster than counting the rows on the driver" in line
               and line.endswith("measured 1.00× — missed") for line in lines), lines
    assert any("with no Python stage" in line and line.endswith("measured 10.00× — met")
               for line in lines), lines
