"""Peak RSS of a stream at two sizes, each run in a fresh Python process.

The parent runs ``python -m benchmarks.memory --child <stream> <n>`` once per
stream and size; the child builds the stream, consumes ``n`` items (counting
and summing them, as the timed workloads do), shuts its scheduler down and
prints one JSON line with ``resource.getrusage(RUSAGE_SELF).ru_maxrss``.
A stream whose memory is flat shows the same peak at 10^5 and 10^7 items.
``--child baseline 0`` is the interpreter with rxpy2 imported and nothing run.
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: name → (description, items consumed for a size n)
STREAMS: dict[str, tuple[str, object]] = {
    "observe_on_fused": ("rxpy2 range.observe_on (fused)", lambda n: n),
    "observe_on_hop": ("rxpy2 range.hide().observe_on (queue hop)", lambda n: n),
    "flat_map_just": ("rxpy2 flat_map(just)", lambda n: n),
    "flat_map_range": ("rxpy2 range(0, n/3).flat_map(range(x, 3))", lambda n: 3 * (n // 3)),
}


def _peak_rss_mib() -> float:
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / (1024 * 1024) if sys.platform == "darwin" else peak / 1024  # bytes vs KiB


def _child(stream: str, n: int) -> dict[str, object]:
    from benchmarks.common import make_sink
    from rxpy2 import Flowable
    from rxpy2.schedulers.new_thread_scheduler import NewThreadScheduler

    consume, checksum = make_sink()
    done = threading.Event()
    errors: list[BaseException] = []

    def on_error(e: BaseException) -> None:
        errors.append(e)
        done.set()

    scheduler = NewThreadScheduler()
    t0 = time.perf_counter()
    try:
        if stream == "baseline":
            done.set()
        elif stream in ("observe_on_fused", "observe_on_hop"):
            src = Flowable.range(0, n)
            if stream == "observe_on_hop":
                src = src.hide()
            src.observe_on(scheduler).subscribe(consume, on_error, done.set)
        elif stream == "flat_map_just":
            just = Flowable.just
            Flowable.range(0, n).flat_map(lambda x: just(x)).subscribe(
                consume, on_error, done.set)
        elif stream == "flat_map_range":
            rng = Flowable.range
            Flowable.range(0, n // 3).flat_map(lambda x: rng(x, 3)).subscribe(
                consume, on_error, done.set)
        else:
            raise ValueError(f"unknown stream {stream!r}")
        if not done.wait(3600):
            raise TimeoutError(stream)
        seconds = time.perf_counter() - t0
    finally:
        scheduler.shutdown()
    if errors:
        raise errors[0]
    count, total = checksum()
    return {"stream": stream, "n": n, "count": count, "total": total, "seconds": seconds,
            "peak_rss_mib": _peak_rss_mib()}


@dataclass
class MemoryResult:
    stream: str
    description: str
    n: int
    count: int
    peak_rss_mib: float
    seconds: float


def measure(stream: str, n: int) -> MemoryResult:
    """Run one stream at one size in a fresh process; checks the items it consumed."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    proc = subprocess.run([sys.executable, "-m", "benchmarks.memory", "--child", stream, str(n)],
                          capture_output=True, text=True, cwd=ROOT, env=env)
    if proc.returncode != 0:
        tail = "\n".join(proc.stderr.strip().splitlines()[-15:])
        raise RuntimeError(f"memory child {stream} {n} exited with {proc.returncode}:\n{tail}")
    r = json.loads(proc.stdout.strip().splitlines()[-1])
    if stream == "baseline":
        description, expected = "interpreter + rxpy2 imported, no stream", 0
    else:
        description, items = STREAMS[stream]
        expected = items(n)  # type: ignore[operator]
        if r["count"] != expected or r["total"] != _expected_total(stream, n):
            raise AssertionError(f"{stream} at {n}: consumed {r['count']} items "
                                 f"(sum {r['total']}), expected {expected}")
    return MemoryResult(stream, description, n, r["count"], r["peak_rss_mib"], r["seconds"])


def _expected_total(stream: str, n: int) -> int:
    if stream == "flat_map_range":
        m = n // 3
        return 3 * (m * (m - 1) // 2) + 3 * m  # sum over x of x + (x+1) + (x+2)
    return n * (n - 1) // 2


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) == 3 and args[0] == "--child":
        print(json.dumps(_child(args[1], int(args[2]))), flush=True)
        return 0
    print("usage: python -m benchmarks.memory --child STREAM N   (the runner's child process;\n"
          "       run `python -m benchmarks --only memory` for the table)", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
