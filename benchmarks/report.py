"""The runner's report: its records (:class:`Report`, one :class:`WorkloadResult` per
workload, one :class:`Row` per implementation) and the markdown made of them: machine,
tables, and the targets of issues 6 and 18 (the latter also in a column of each table,
next to the figure)."""

from __future__ import annotations

import os
import platform
import statistics
import sys
from collections.abc import Callable
from dataclasses import dataclass
from dataclasses import field
from datetime import datetime
from pathlib import Path

from benchmarks import memory as memory_mod
from benchmarks import workloads
from benchmarks.common import RXPY
from benchmarks.common import RXPY2
from benchmarks.common import Checksum
from benchmarks.common import Impl
from benchmarks.common import Target
from benchmarks.common import Workload

BEGIN = "<!-- bench:begin -->"
END = "<!-- bench:end -->"

#: Peak RSS may grow by at most this much from the small to the large size to count as flat.
FLAT_MIB = 1.0


# ---------------------------------------------------------------------------- the records


@dataclass
class Row:
    """One implementation's runs: ``samples`` in ns per item."""

    impl: Impl
    n: int
    items: int
    checksum: Checksum
    samples: list[float] = field(default_factory=list)

    @property
    def median(self) -> float:
        return statistics.median(self.samples)

    @property
    def spread(self) -> float:
        """(max - min) / median of the samples."""
        return (max(self.samples) - min(self.samples)) / self.median if self.samples else 0.0


@dataclass
class WorkloadResult:
    workload: Workload
    n: int
    rows: list[Row]
    runs: int = 0

    def row(self, name: str) -> Row | None:
        for r in self.rows:
            if r.impl.name == name:
                return r
        return None


@dataclass
class Report:
    command: str
    started: datetime
    runs: int
    machine: dict[str, str]
    rxpy: bool
    results: list[WorkloadResult] = field(default_factory=list)
    memory: list[memory_mod.MemoryResult] = field(default_factory=list)
    memory_sizes: list[int] = field(default_factory=list)
    seconds: float = 0.0

    def result(self, key: str) -> WorkloadResult | None:
        for r in self.results:
            if r.workload.key == key:
                return r
        return None


# ---------------------------------------------------------------------------- the markdown


def machine_info() -> dict[str, str]:
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as fh:
            for line in fh:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    cores = os.cpu_count() or 0
    try:
        usable = len(os.sched_getaffinity(0))
    except AttributeError:
        usable = cores
    try:
        load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        load = "n/a"
    return {
        "cpu": cpu,
        "cores": f"{cores} ({usable} usable)" if usable != cores else str(cores),
        "python": f"{platform.python_implementation()} {sys.version.split()[0]}",
        "platform": platform.platform(),
        "load": load,
    }


def _ratio(x: float) -> str:
    return f"{x:.2f}×"


def _ns(x: float) -> str:
    return f"{x:,.0f}" if x >= 100 else f"{x:.1f}"


def target_value(res: WorkloadResult, row: Row) -> float | None:
    """``row``'s figure for its target: a time ratio (×) or a difference in the workload's
    unit; None when the implementation it is taken against did not run."""
    t = row.impl.target
    if t is None:
        return None
    ref = res.row(t.versus if t.versus is not None else t.minus or "")
    if ref is None:
        return None
    if t.versus is not None:
        return row.median / ref.median
    return (row.median - ref.median) / res.workload.unit_ns


def _target_figure(t: Target, value: float, unit: str) -> str:
    return _ratio(value) if t.versus is not None else f"{value:.1f} {unit}"


def _target_cell(res: WorkloadResult, row: Row) -> str:
    t = row.impl.target
    if t is None:
        return ""
    value = target_value(res, row)
    if value is None:
        return f"{t.describe(res.workload.unit)}: n/a"
    return (f"{t.describe(res.workload.unit)}: **{'met' if t.met(value) else 'missed'}** "
            f"({_target_figure(t, value, res.workload.unit)})")


def workload_table(res: WorkloadResult, runs: int) -> list[str]:
    w = res.workload
    runs = res.runs or runs
    refs = [(name, r) for name in w.compare if (r := res.row(name)) is not None]
    minus = next((r.impl.target.minus for r in res.rows
                  if r.impl.target is not None and r.impl.target.minus is not None), None)
    base = res.row(minus) if minus is not None else None
    has_targets = any(r.impl.target is not None for r in res.rows)
    lines = [f"### {w.title}", "",
             f"`--only {w.key}`: n = {res.n:,}, {w.unit} per {w.per}, median of {runs} runs; "
             f"spread = (max − min) / median; ×: time ratio of the medians (< 1 is faster).", ""]
    head = ["implementation", f"{w.per}es/run" if w.per.endswith("s") else f"{w.per}s/run",
            f"{w.unit}/{w.per}", "spread", *[f"× {name}" for name, _ in refs]]
    if base is not None:
        head.append(f"{w.unit} over {minus}")
    if has_targets:
        issues = sorted({r.impl.target.issue for r in res.rows if r.impl.target is not None})
        head.append(f"target (issue {', '.join(map(str, issues))})")
    lines.append("| " + " | ".join(head) + " |")
    lines.append("|" + "|".join(["---"] + ["---:"] * (len(head) - 1 - has_targets)
                                + ["---"] * has_targets) + "|")
    for row in res.rows:
        name = row.impl.name + (f" ({row.impl.note})" if row.impl.note else "")
        cells = [name, f"{row.items:,}", _ns(row.median / w.unit_ns), f"{row.spread * 100:.0f}%",
                 *[_ratio(row.median / r.median) for _, r in refs]]
        if base is not None:
            cells.append("" if row is base else f"{(row.median - base.median) / w.unit_ns:.1f}")
        if has_targets:
            cells.append(_target_cell(res, row))
        lines.append("| " + " | ".join(cells) + " |")
    for note in w.notes:
        lines += ["", note]
    return lines


def memory_table(rep: Report) -> list[str]:
    small, large = rep.memory_sizes
    lines = ["### Memory: peak RSS at two stream sizes", "",
             "`--only memory`: each stream and size in a fresh process "
             "(`python -m benchmarks.memory --child STREAM N`), "
             "`ru_maxrss` at the end; ns/item from that single run.", "",
             f"| stream | peak RSS at {small:,} (MiB) | peak RSS at {large:,} (MiB) | growth (MiB) "
             f"| ns/item at {large:,} |",
             "|---|---:|---:|---:|---:|"]
    by = {(m.stream, m.n): m for m in rep.memory}
    base = by.get(("baseline", 0))
    if base is not None:
        lines.append(f"| {base.description} | {base.peak_rss_mib:.1f} | | | |")
    for stream in dict.fromkeys(m.stream for m in rep.memory if m.stream != "baseline"):
        a, b = by[(stream, small)], by[(stream, large)]
        lines.append(f"| {a.description} | {a.peak_rss_mib:.1f} | {b.peak_rss_mib:.1f} | "
                     f"{b.peak_rss_mib - a.peak_rss_mib:+.1f} | "
                     f"{b.seconds * 1e9 / max(1, b.count):,.0f} |")
    return lines


def _median(rep: Report, key: str, name: str | Callable[[WorkloadResult], float | None]
            ) -> float | None:
    res = rep.result(key)
    if res is None:
        return None
    if callable(name):
        return name(res)
    row = res.row(name)
    return None if row is None else row.median


def _fastest(kind: str, prefix: str = "") -> Callable[[WorkloadResult], float | None]:
    def pick(res: WorkloadResult) -> float | None:
        xs = [r.median for r in res.rows if r.impl.kind == kind and r.impl.name.startswith(prefix)]
        return min(xs) if xs else None
    return pick


def _line(label: str, value: float | None, bound: float, at_most: bool, unit: str,
          why_missing: str = "") -> str:
    if value is None:
        return f"- target {label}: not measured in this run{why_missing} — n/a"
    met = value <= bound if at_most else value >= bound
    return f"- target {label}: measured {value:.2f}{unit} — {'met' if met else 'missed'}"


def targets(rep: Report) -> list[str]:
    """One line per target of issue 6: ``target X: measured Y — met / missed``."""
    def ratio(a: float | None, b: float | None) -> float | None:
        return None if a is None or b is None else a / b

    plain = _median(rep, "chain", "plain loop")
    rx2 = _median(rep, "chain", "rxpy2 range.map.filter")
    lines = [_line("range→map→filter→consume, unbounded demand, ≤ 1.3× the plain loop's time",
                   ratio(rx2, plain), 1.3, True, "×")]
    lines.append(_line(
        "the same with demand in batches of 128, ≤ 2× the plain loop's time",
        ratio(_median(rep, "chain_batched", "rxpy2 range.map.filter, batches of 128"),
              _median(rep, "chain_batched", "plain loop")), 2.0, True, "×"))
    lines.append(_line(
        "≥ 3× faster than RxPY's fastest form on the same chain (RxPY time / rxpy2 time)",
        ratio(_median(rep, "chain", _fastest(RXPY)), rx2), 3.0, False, "×",
        "" if rep.rxpy else " (reactivex not installed or --no-rxpy)"))
    fm = _median(rep, "flat_map_just", "rxpy2 flat_map(just)")
    lines.append(_line("flat_map to just ≤ 2× a map chain of the same length (vs `range.map`)",
                       ratio(fm, _median(rep, "flat_map_just", "rxpy2 range.map")),
                       2.0, True, "×"))
    lines.append(_line(
        "flat_map to just ≤ 2× a map chain of the same length (vs non-fused `range.hide().map`)",
        ratio(fm, _median(rep, "flat_map_just", "rxpy2 range.hide().map")), 2.0, True, "×"))
    q = _median(rep, "observe_on", "queue.Queue(128) producer + consumer threads")
    dq = _median(rep, "observe_on", "deque + credits in batches of 96/128, two threads")
    hop = _median(rep, "observe_on", "rxpy2 range.hide().observe_on (queue hop)")
    fused = _median(rep, "observe_on", "rxpy2 range.observe_on (fused: worker polls range)")
    two = _median(rep, "observe_on",
                  "rxpy2 range.subscribe_on(t1).observe_on(t2) (two threads throughout)")
    lines.append(_line("observe_on hop ≥ 3× the throughput of the queue.Queue pair "
                       "(queue time / rxpy2 time; producer and consumer on two threads "
                       "throughout)", ratio(q, two), 3.0, False, "×"))
    lines.append(_line("observe_on hop ≥ 3× the throughput of the queue.Queue pair "
                       "(queue time / rxpy2 time; hide(): queue hop)", ratio(q, hop), 3.0,
                       False, "×"))
    lines.append(_line("observe_on ≥ 3× the throughput of the queue.Queue pair "
                       "(fused: worker polls range)", ratio(q, fused), 3.0, False, "×"))
    lines.append(_line("observe_on hop within 1.5× of the batched-credit deque "
                       "(rxpy2 time / deque time; two threads throughout)", ratio(two, dq),
                       1.5, True, "×"))
    lines.append(_line("observe_on hop within 1.5× of the batched-credit deque "
                       "(rxpy2 time / deque time; hide(): queue hop)", ratio(hop, dq), 1.5,
                       True, "×"))
    lines.append(_line("observe_on within 1.5× of the batched-credit deque (fused)",
                       ratio(fused, dq), 1.5, True, "×"))
    if rep.memory:
        small, large = rep.memory_sizes
        by = {(m.stream, m.n): m for m in rep.memory}
        for stream in dict.fromkeys(m.stream for m in rep.memory if m.stream != "baseline"):
            a, b = by[(stream, small)], by[(stream, large)]
            lines.append(_line(
                f"memory flat from {small:,} to {large:,} items (growth ≤ {FLAT_MIB:g} MiB), "
                f"{a.description}", b.peak_rss_mib - a.peak_rss_mib, FLAT_MIB, True, " MiB"))
    else:
        lines.append(_line("memory flat from 10⁵ to 10⁷ items", None, FLAT_MIB, True, ""))
    return lines


#: The issues whose targets implementations carry (``Target.issue``), in report order.
TARGET_ISSUES = (18, 32)


def issue_targets(rep: Report, issue: int) -> list[str]:
    """One line per target of ``issue`` (the ``target`` of an implementation in
    :mod:`benchmarks.workloads`), measured or not: ``target X: measured Y — met / missed``."""
    lines = []
    for w in workloads.build(list(workloads.BUILDERS), rxpy=False):
        for impl in w.impls:
            t = impl.target
            if t is None or t.issue != issue:
                continue
            label = f"{t.text}: `{impl.name}` {t.describe(w.unit)} (`--only {w.key}`)"
            res = rep.result(w.key)
            row = res.row(impl.name) if res is not None else None
            value = target_value(res, row) if res is not None and row is not None else None
            if value is None:
                lines.append(f"- target {label}: not measured in this run — n/a")
            else:
                lines.append(f"- target {label}: measured {_target_figure(t, value, w.unit)} — "
                             f"{'met' if t.met(value) else 'missed'}")
    return lines


def render(rep: Report) -> str:
    m = rep.machine
    kinds = "plain Python, builtins" + (", RxPY (reactivex)" if rep.rxpy else "")
    lines = [
        "## Operator chains: rxpy2 next to plain Python and RxPY",
        "",
        f"Generated by `{rep.command}` (`tools/bench` sets up the `bench` extra first) on "
        f"{rep.started:%Y-%m-%d %H:%M} UTC in {rep.seconds:.0f} s; do not edit between the "
        f"bench markers, rerun instead.",
        "",
        f"Machine: {m['cpu']}, {m['cores']} cores, {m['python']}, {m['platform']}; "
        f"load average at start {m['load']}.",
        "",
        f"Method: every figure is ns per item, the median of {rep.runs} timed runs after one "
        f"untimed warm-up; the implementations of a workload run interleaved (round-robin, "
        f"starting one further each round), so drift in the machine's load hits all alike, and "
        f"the ratios are taken between the medians of that same run. Every implementation feeds "
        f"the same consumer function (it counts and sums the items) and every run's (count, "
        f"sum) must equal the plain implementation's, so all do the same work ({RXPY2} next to "
        f"{kinds}). Pipeline assembly is inside the timed region; the garbage collector is on "
        f"(collected before each run). Implementations marked with a smaller items/run are too "
        f"slow for the workload's size; their figure is still per item.",
        "",
    ]
    for res in rep.results:
        lines += workload_table(res, rep.runs)
        lines.append("")
    if rep.memory:
        lines += memory_table(rep)
        lines.append("")
    lines += ["### Targets (issue 6)", "", *targets(rep)]
    for issue in TARGET_ISSUES:
        lines += ["", f"### Targets (issue {issue})", "", *issue_targets(rep, issue)]
    return "\n".join(lines).rstrip() + "\n"


def write_section(path: Path, section: str, begin: str = BEGIN, end: str = END) -> None:
    """Put ``section`` between the ``begin``/``end`` markers of ``path`` (appended with them
    if absent); the rest of the file is left as it is."""
    block = f"{begin}\n{section.rstrip()}\n{end}"
    text = path.read_text() if path.exists() else ""
    i, j = text.find(begin), text.find(end)
    if i >= 0 and j > i:
        text = text[:i] + block + text[j + len(end):]
    else:
        text = (text.rstrip() + "\n\n" if text.strip() else "") + block + "\n"
    path.write_text(text)
