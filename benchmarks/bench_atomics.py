"""Time the two atomic backends of ``rxpy2._internal.atomic``: ``lock`` and ``hardware``.

Run it with ``python benchmarks/bench_atomics.py`` (``--help`` for the knobs).

For each operation (get, set, compare_and_set, get_and_increment, add_and_get) and
each backend it reports nanoseconds per operation, the median of several runs
measured with ``time.perf_counter_ns``:

* ``1 thread``: one thread calls the operation in a tight loop;
* ``2 threads``: two threads call it on the same cell at the same time; the wall
  time from their common start to the end of both, divided by all the operations
  both made.

The number of operations per run is calibrated per backend and operation (a
hardware operation costs far more through Python than a lock-guarded one), so
each run lasts about ``--ms`` milliseconds on one thread.

The loop itself costs something; the ``(empty loop)`` row measures a loop calling a
no-op bound method so the numbers above it can be read against it.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import threading
import time
from collections.abc import Callable
from itertools import repeat
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run from a checkout

from rxpy2._internal.atomic import HardwareAtomicLong  # noqa: E402
from rxpy2._internal.atomic import LockAtomicLong  # noqa: E402

BACKENDS: list[tuple[str, type]] = [("lock", LockAtomicLong), ("hardware", HardwareAtomicLong)]


class _Noop:
    def get(self) -> int:
        return 0


def _loop_empty(a: object, n: int) -> None:
    f = _Noop().get
    for _ in repeat(None, n):
        f()


def _loop_get(a: Any, n: int) -> None:
    f = a.get
    for _ in repeat(None, n):
        f()


def _loop_set(a: Any, n: int) -> None:
    f = a.set
    for _ in repeat(None, n):
        f(1)


def _loop_cas(a: Any, n: int) -> None:
    f = a.compare_and_set
    for _ in repeat(None, n):
        f(0, 0)  # succeeds every time: the value never changes


def _loop_get_and_increment(a: Any, n: int) -> None:
    f = a.get_and_increment
    for _ in repeat(None, n):
        f()


def _loop_add_and_get(a: Any, n: int) -> None:
    f = a.add_and_get
    for _ in repeat(None, n):
        f(1)


OPS: list[tuple[str, Callable[[object, int], None]]] = [
    ("get", _loop_get),
    ("set", _loop_set),
    ("compare_and_set", _loop_cas),
    ("get_and_increment", _loop_get_and_increment),
    ("add_and_get", _loop_add_and_get),
]


def calibrate(cls: type, loop: Callable[[object, int], None], target_ms: float,
              max_ops: int) -> int:
    """The number of operations that makes one single-thread run last about ``target_ms``."""
    n = 200
    while True:
        a = cls(0)
        t0 = time.perf_counter_ns()
        loop(a, n)
        dt = time.perf_counter_ns() - t0
        if dt >= 5_000_000 or n >= max_ops:
            per_op = dt / n
            return max(200, min(max_ops, int(target_ms * 1e6 / per_op)))
        n *= 4


def time_single(cls: type, loop: Callable[[object, int], None], n: int, runs: int) -> float:
    """Median ns per operation on one thread."""
    samples = []
    for _ in range(runs):
        a = cls(0)
        t0 = time.perf_counter_ns()
        loop(a, n)
        samples.append((time.perf_counter_ns() - t0) / n)
    return statistics.median(samples)


def time_contended(cls: type, loop: Callable[[object, int], None], n: int, runs: int) -> float:
    """Median ns per operation with two threads working on the same cell."""
    samples = []
    for _ in range(runs):
        a = cls(0)
        barrier = threading.Barrier(3)
        threads = [threading.Thread(target=_worker, args=(barrier, loop, a, n)) for _ in range(2)]
        for t in threads:
            t.start()
        barrier.wait()
        t0 = time.perf_counter_ns()
        for t in threads:
            t.join()
        samples.append((time.perf_counter_ns() - t0) / (2 * n))
    return statistics.median(samples)


def _worker(barrier: threading.Barrier, loop: Callable[[object, int], None], a: object,
            n: int) -> None:
    barrier.wait()
    loop(a, n)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ms", type=float, default=40.0,
                        help="target length of one single-thread run in ms (default 40); "
                             "each cell's operation count is calibrated to it")
    parser.add_argument("--max-ops", type=int, default=200_000,
                        help="at most this many operations per thread per run")
    parser.add_argument("--runs", type=int, default=5, help="runs per cell (default 5)")
    args = parser.parse_args(argv)
    runs = args.runs

    columns = [f"{name} {mode}" for mode in ("1 thread", "2 threads") for name, _ in BACKENDS]
    rows: list[tuple[str, list[float]]] = []
    for op_name, loop in [("(empty loop)", _loop_empty), *OPS]:
        cells = []
        counts = {cls: calibrate(cls, loop, args.ms, args.max_ops) for _, cls in BACKENDS}
        for contended in (False, True):
            for _, cls in BACKENDS:
                timer = time_contended if contended else time_single
                cells.append(timer(cls, loop, counts[cls], runs))
        rows.append((op_name, cells))

    print(f"rxpy2 atomics: ns per operation, median of {runs} runs "
          f"(each run about {args.ms:g} ms of operations per thread)")
    print(f"Python {sys.version.split()[0]} on {sys.platform}, switch interval "
          f"{sys.getswitchinterval() * 1e3:g} ms")
    width = max(len(r[0]) for r in rows)
    header = f"| {'operation':<{width}} | " + " | ".join(f"{c:>18}" for c in columns) + " |"
    print(header)
    print("|" + "-" * (width + 2) + "|" + "|".join("-" * 20 for _ in columns) + "|")
    for name, cells in rows:
        print(f"| {name:<{width}} | " + " | ".join(f"{v:>18.1f}" for v in cells) + " |")


if __name__ == "__main__":
    main()
