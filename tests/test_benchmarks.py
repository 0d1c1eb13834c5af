"""Smoke test of the benchmark suite (``benchmarks/``): every implementation does the same work.

The runner's workloads run in-process over a few items, one run each, without
writing anything; each workload's implementations must hand their consumer
the same items (the same count and sum, also checked against a value computed
here). Nothing about speed is asserted.
"""

from __future__ import annotations

import sys
from itertools import accumulate
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks import runner, workloads  # noqa: E402
from benchmarks.common import RXPY, RXPY2, add, f, p  # noqa: E402

N = 200


@pytest.fixture(autouse=True)
def _no_full_collections(monkeypatch: pytest.MonkeyPatch) -> None:
    """The runner collects garbage before each timed run; in the test process, which holds
    the whole suite's objects, a full collection takes most of a second, and timing does
    not matter here."""
    monkeypatch.setattr(runner.gc, "collect", lambda generation=2: 0)


def _expected(key: str, n: int) -> tuple[int, int]:
    if key in ("chain", "chain_batched"):
        ys = [f(x) for x in range(n) if p(f(x))]
    elif key in ("flat_map_just", "observe_on"):
        ys = list(range(n))
    elif key in ("flat_map_range", "concat_map"):
        ys = [y for x in range(n) for y in (x, x + 1, x + 2)]
    elif key == "scan":
        ys = list(accumulate(range(n), add))
    elif key == "zip":
        ys = [n] * n  # each pair (a, n + a) adds (n + a) - a
    else:
        raise KeyError(key)
    return len(ys), sum(ys)


def _run(*argv: str) -> runner.Report:
    args = runner.parse_args(list(argv))
    return runner.run(args, list(argv), progress=False)


def _assert_same_work(rep: runner.Report) -> None:
    assert [r.workload.key for r in rep.results] == list(workloads.BUILDERS)
    for res in rep.results:
        checksums = {row.impl.name: row.checksum for row in res.rows}
        assert len(set(checksums.values())) == 1, (res.workload.key, checksums)
        assert next(iter(checksums.values())) == _expected(res.workload.key, N), res.workload.key
        assert all(row.n == N and len(row.samples) == 1 for row in res.rows)


def test_every_implementation_does_the_same_work() -> None:
    rep = _run("--items", str(N), "--runs", "1", "--no-write", "--no-rxpy",
               "--only", ",".join(workloads.BUILDERS))
    _assert_same_work(rep)
    for res in rep.results:
        kinds = {row.impl.kind for row in res.rows}
        assert RXPY2 in kinds and len(kinds) >= 2 and RXPY not in kinds
    assert rep.memory == []


def test_rxpy_rows_do_the_same_work() -> None:
    pytest.importorskip("reactivex")
    rep = _run("--items", str(N), "--runs", "1", "--no-write",
               "--only", ",".join(workloads.BUILDERS))
    _assert_same_work(rep)
    without_rxpy = {"chain_batched"}  # RxPY has no backpressure
    for res in rep.results:
        has = any(row.impl.kind == RXPY for row in res.rows)
        assert has == (res.workload.key not in without_rxpy), res.workload.key


def test_memory_children_consume_every_item() -> None:
    rep = _run("--only", "memory", "--memory-sizes", "300", "600", "--no-write")
    assert rep.results == []
    by = {(m.stream, m.n): m for m in rep.memory}
    assert by[("baseline", 0)].count == 0
    for stream in ("observe_on_fused", "observe_on_hop", "flat_map_just", "flat_map_range"):
        for n in (300, 600):
            assert by[(stream, n)].count == n  # (n // 3) * 3 == n for flat_map_range
            assert by[(stream, n)].peak_rss_mib > 0


def test_section_goes_between_the_markers(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    doc = tmp_path / "performance.md"
    doc.write_text("# Performance\n\nkept above\n\n<!-- bench:begin -->\nold figures\n"
                   "<!-- bench:end -->\n\n## Kept below\n")
    assert runner.main(["--only", "scan", "--items", "50", "--runs", "1", "--no-rxpy",
                        "--output", str(doc)]) == 0
    text = doc.read_text()
    assert "old figures" not in text
    assert text.startswith("# Performance\n\nkept above\n\n<!-- bench:begin -->\n## ")
    assert text.endswith("<!-- bench:end -->\n\n## Kept below\n")
    body = text[text.index("<!-- bench:begin -->"):text.index("<!-- bench:end -->")]
    assert "--only scan --items 50" in body and "Machine:" in body
    assert "| rxpy2 range.scan |" in body
    # every target has its line; the ones this run did not measure say so
    targets = [line for line in body.splitlines() if line.startswith("- target ")]
    assert len(targets) == 12
    assert all(line.endswith("— n/a") for line in targets)
    assert "| rxpy2 range.scan |" in capsys.readouterr().out


def test_partial_run_leaves_the_docs_alone(tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    doc = tmp_path / "performance.md"
    doc.write_text("<!-- bench:begin -->\nold\n<!-- bench:end -->\n")
    monkeypatch.setattr(runner, "DEFAULT_OUTPUT", doc)
    assert runner.main(["--only", "zip", "--items", "20", "--runs", "1", "--no-rxpy"]) == 0
    assert doc.read_text() == "<!-- bench:begin -->\nold\n<!-- bench:end -->\n"
