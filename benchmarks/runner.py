"""The benchmark runner: ``python -m benchmarks [options]``.

For each workload it runs every implementation once untimed (warm-up, and the
checksum check), then ``--runs`` rounds in which each implementation runs once,
round-robin, starting one further in each round: load on the machine drifts
over all of them alike. A figure is the median of an implementation's runs, in
nanoseconds per item; ratios are taken between medians of the same workload,
measured side by side. Every run's checksum (count and sum of what the consumer
got) must equal the plain implementation's at the same size, or the run fails.

The ``import`` workload (:mod:`benchmarks.import_cost`) times fresh processes
instead: one per run, ``--import-runs`` runs (20) whatever ``--runs`` says.

It prints the tables and the targets of issues 6 and 18, and writes them into
``docs/performance.md`` between ``<!-- bench:begin -->`` and
``<!-- bench:end -->``. A partial run (``--quick``, ``--only``, ``--items``)
writes only when ``--output`` is given.
"""

from __future__ import annotations

import argparse
import gc
import json
import sys
import threading
import time
from datetime import UTC
from datetime import datetime
from pathlib import Path

from benchmarks import import_cost
from benchmarks import memory as memory_mod
from benchmarks import report
from benchmarks import workloads
from benchmarks.common import Checksum
from benchmarks.common import Impl
from benchmarks.common import Workload
from benchmarks.report import Report
from benchmarks.report import Row
from benchmarks.report import WorkloadResult

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_OUTPUT = ROOT / "docs" / "performance.md"
MEMORY_KEY = "memory"
ALL_KEYS = [*workloads.BUILDERS, MEMORY_KEY]
MEMORY_SIZES = [10**5, 10**7]
QUICK_MEMORY_SIZES = [10**4, 10**5]
QUICK_SCALE = 0.05


def _time_one(impl: Impl, n: int) -> tuple[int, Checksum]:
    gc.collect()
    t0 = time.perf_counter_ns()
    checksum = impl.run(n)
    return time.perf_counter_ns() - t0, checksum


def _check(w: Workload, impl: Impl, n: int, got: Checksum, expected: Checksum) -> None:
    if got != expected:
        raise AssertionError(f"{w.key}: {impl.name!r} at n={n} consumed (count, sum) = {got}, "
                             f"the reference {expected}")


def _join_new_threads(before: set[threading.Thread], key: str) -> None:
    deadline = time.monotonic() + 10.0
    for t in set(threading.enumerate()) - before:
        t.join(max(0.0, deadline - time.monotonic()))
    left = [t.name for t in set(threading.enumerate()) - before if t.is_alive()]
    if left:
        raise RuntimeError(f"{key}: threads still running after the workload: {left}")


def run_workload(w: Workload, runs: int, scale: float = 1.0, items: int | None = None,
                 progress: bool = True) -> WorkloadResult:
    """Run ``w``'s implementations interleaved; ``items`` gives every one that same size.

    ``w.runs`` (when set) replaces ``runs``; a ``w.fixed_n`` workload keeps its ``n``."""
    if w.runs is not None:
        runs = w.runs
    if w.fixed_n:
        scale, items = 1.0, None
    n = items if items is not None else max(1, int(w.n * scale))
    sizes = {i.name: n if items is not None else max(1, n // i.n_div) for i in w.impls}
    if progress:
        print(f"[bench] {w.key}: {len(w.impls)} implementations × {runs} runs, n = {n:,}",
              file=sys.stderr, flush=True)
    before = set(threading.enumerate())
    if w.setup is not None:
        w.setup()
    try:
        reference = w.impls[0]
        expected = {m: reference.run(m) for m in set(sizes.values())}
        rows = []
        for impl in w.impls:  # warm-up and check
            m = sizes[impl.name]
            _, checksum = _time_one(impl, m)
            _check(w, impl, m, checksum, expected[m])
            rows.append(Row(impl, m, w.items(m), checksum))
        k = len(rows)
        for r in range(runs):
            for j in range(k):
                row = rows[(r + j) % k]
                dt, checksum = _time_one(row.impl, row.n)
                _check(w, row.impl, row.n, checksum, expected[row.n])
                row.samples.append(dt / row.items)
    finally:
        if w.teardown is not None:
            w.teardown()
    _join_new_threads(before, w.key)
    return WorkloadResult(w, n, rows, runs)


def run_memory(sizes: list[int], progress: bool = True) -> list[memory_mod.MemoryResult]:
    out = [memory_mod.measure("baseline", 0)]
    for stream in memory_mod.STREAMS:
        for n in sizes:
            if progress:
                print(f"[bench] memory: {stream} at {n:,} items", file=sys.stderr, flush=True)
            out.append(memory_mod.measure(stream, n))
    return out


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(
        prog="python -m benchmarks",
        description="rxpy2 next to plain Python loops, builtins chains and RxPY: ns per item, "
                    "medians of interleaved runs; writes docs/performance.md.",
        epilog="Workloads: " + ", ".join(ALL_KEYS) + ". Older single-topic scripts: "
               "python -m benchmarks.bench_atomics | bench_flat_map | bench_observe_on_memory | "
               "bench_context.")
    ap.add_argument("--runs", type=int, default=5, help="timed runs per implementation (default 5)")
    ap.add_argument("--import-runs", type=int, default=import_cost.DEFAULT_RUNS, metavar="N",
                    help="fresh processes per implementation of the import workload "
                         f"(default {import_cost.DEFAULT_RUNS}; --runs does not apply to it)")
    ap.add_argument("--quick", action="store_true",
                    help=f"smoke test: sizes × {QUICK_SCALE:g}, memory at "
                         f"{QUICK_MEMORY_SIZES[0]:,}/{QUICK_MEMORY_SIZES[1]:,} items")
    ap.add_argument("--only", action="append", default=[], metavar="WORKLOAD",
                    help="run only this workload (repeat, or comma-separate); one of: "
                         + ", ".join(ALL_KEYS))
    ap.add_argument("--items", type=int, default=None, metavar="N",
                    help="run every implementation of every workload over N source items "
                         "(no reduced sizes for slow ones; for tests)")
    ap.add_argument("--memory-sizes", type=int, nargs=2, default=None, metavar=("SMALL", "LARGE"),
                    help="stream sizes of the memory column (default 100000 10000000)")
    ap.add_argument("--no-rxpy", action="store_true", help="leave the RxPY rows out")
    ap.add_argument("--no-write", action="store_true", help="print only; leave the docs alone")
    ap.add_argument("--output", type=Path, default=None,
                    help="markdown file to write the section into (default "
                         "docs/performance.md)")
    ap.add_argument("--json", type=Path, default=None, help="also dump every sample as JSON here")
    args = ap.parse_args(argv)
    keys: list[str] = []
    for item in args.only:
        keys += [k.strip() for k in item.split(",") if k.strip()]
    unknown = [k for k in keys if k not in ALL_KEYS]
    if unknown:
        ap.error(f"unknown workload(s) {unknown}; choose from {ALL_KEYS}")
    args.keys = keys or list(ALL_KEYS)
    if args.runs < 1 or args.import_runs < 1:
        ap.error("--runs and --import-runs must be at least 1")
    if args.items is not None and args.items < 1:
        ap.error("--items must be positive")
    return args


def run(args: argparse.Namespace, argv: list[str] | None = None,
        progress: bool = True) -> Report:
    """Run what ``args`` asks for and return the report (nothing printed but progress)."""
    rxpy = not args.no_rxpy and workloads.rxpy_available()
    shown = sys.argv[1:] if argv is None else argv
    rep = Report(command=" ".join(["python -m benchmarks", *shown]),
                 started=datetime.now(UTC), runs=args.runs,
                 machine=report.machine_info(), rxpy=rxpy)
    t0 = time.perf_counter()
    scale = QUICK_SCALE if args.quick else 1.0
    for w in workloads.build(args.keys, rxpy):
        if w.key == import_cost.KEY:
            w.runs = args.import_runs
        rep.results.append(run_workload(w, args.runs, scale, args.items, progress))
    if MEMORY_KEY in args.keys:
        sizes = args.memory_sizes or (QUICK_MEMORY_SIZES if args.quick else MEMORY_SIZES)
        rep.memory_sizes = list(sizes)
        rep.memory = run_memory(rep.memory_sizes, progress)
    rep.seconds = time.perf_counter() - t0
    return rep


def dump_json(rep: Report, path: Path) -> None:
    data = {
        "command": rep.command, "started": rep.started.isoformat(), "machine": rep.machine,
        "workloads": [
            {"key": r.workload.key, "n": r.n,
             "rows": [{"name": row.impl.name, "kind": row.impl.kind, "n": row.n,
                       "items": row.items, "checksum": list(row.checksum),
                       "ns_per_item": row.samples} for row in r.rows]}
            for r in rep.results],
        "memory": [vars(m) for m in rep.memory],
    }
    path.write_text(json.dumps(data, indent=1) + "\n")


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    rep = run(args, argv)
    section = report.render(rep)
    print(section)
    if args.json is not None:
        dump_json(rep, args.json)
    partial = args.quick or args.items is not None or set(args.keys) != set(ALL_KEYS)
    if args.no_write:
        return 0
    if partial and args.output is None:
        print("[bench] partial run: docs/performance.md left alone (give --output to write)",
              file=sys.stderr)
        return 0
    out = args.output or DEFAULT_OUTPUT
    report.write_section(out, section)
    print(f"[bench] wrote the section into {out}", file=sys.stderr)
    return 0
