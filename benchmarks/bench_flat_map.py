"""Time ``flat_map`` against ``map``: nanoseconds per item that reaches the consumer.

Run it with ``python benchmarks/bench_flat_map.py`` (``--help`` for the knobs).

Each row builds a pipeline over ``range(0, N)`` and consumes it with a plain
``subscribe(on_next)`` (unbounded demand); it reports the median of several runs
of the wall time divided by the items the consumer received:

* ``map``: ``range(0, N).map(f)``, the baseline of a 1:1 stage;
* ``flat_map just``: ``range(0, N).flat_map(lambda x: Flowable.just(x))``: every
  inner is a scalar, emitted without any subscription (building the ``just`` is
  part of the cost);
* ``flat_map one prebuilt just``: every item maps to the same ``Flowable.just(1)``:
  the operator's own cost of a scalar inner, without building one per item;
* ``flat_map range(x, 3)``: every inner is ``Flowable.range(x, 3)``, subscribed
  and polled in SYNC-fused mode; per inner item (3 N items);
* the same two with ``max_concurrency`` bounded (``--bounded``, default 16),
  where each finished inner asks the upstream for one more item.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run from a checkout

from rxpy2 import Flowable  # noqa: E402
from rxpy2.reactivestreams import LONG_MAX  # noqa: E402


def inc(x: int) -> int:
    return x + 1


def pipelines(n: int, bounded: int) -> list[tuple[str, Callable[[], Flowable[int]], int]]:
    """(name, a fresh pipeline, items it emits)."""
    just = Flowable.just
    rng = Flowable.range
    one = Flowable.just(1)
    return [
        ("map", lambda: Flowable.range(0, n).map(inc), n),
        ("flat_map just", lambda: Flowable.range(0, n).flat_map(lambda x: just(x)), n),
        ("flat_map one prebuilt just", lambda: Flowable.range(0, n).flat_map(lambda x: one), n),
        ("flat_map range(x, 3)", lambda: Flowable.range(0, n).flat_map(lambda x: rng(x, 3)),
         3 * n),
        (f"flat_map just, max_concurrency={bounded}",
         lambda: Flowable.range(0, n).flat_map(lambda x: just(x), bounded), n),
        (f"flat_map range(x, 3), max_concurrency={bounded}",
         lambda: Flowable.range(0, n).flat_map(lambda x: rng(x, 3), bounded), 3 * n),
    ]


def run_once(make: Callable[[], Flowable[int]], expected: int) -> float:
    """ns per item of one run."""
    count = [0]

    def on_next(_x: int) -> None:
        count[0] += 1

    f = make()
    t0 = time.perf_counter_ns()
    f.subscribe(on_next)
    dt = time.perf_counter_ns() - t0
    if count[0] != expected:
        raise AssertionError(f"expected {expected} items, got {count[0]}")
    return dt / expected


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, default=200_000, help="upstream items (default 200000)")
    parser.add_argument("--runs", type=int, default=5, help="runs per row (default 5)")
    parser.add_argument("--bounded", type=int, default=16,
                        help="max_concurrency of the bounded rows (default 16)")
    args = parser.parse_args(argv)
    if args.bounded >= LONG_MAX or args.bounded < 1:
        parser.error("--bounded must be a positive int")

    rows: list[tuple[str, int, float]] = []
    for name, make, expected in pipelines(args.n, args.bounded):
        run_once(make, expected)  # warm up (imports, caches)
        samples = [run_once(make, expected) for _ in range(args.runs)]
        rows.append((name, expected, statistics.median(samples)))

    base = rows[0][2]
    print(f"rxpy2 flat_map: ns per item received, median of {args.runs} runs, "
          f"N = {args.n} upstream items, subscribe(on_next) with unbounded demand")
    print(f"Python {sys.version.split()[0]} on {sys.platform}")
    width = max(len(r[0]) for r in rows)
    print(f"| {'pipeline':<{width}} | {'items':>9} | {'ns/item':>9} | {'vs map':>7} |")
    print(f"|{'-' * (width + 2)}|{'-' * 11}|{'-' * 11}|{'-' * 9}|")
    for name, items, ns in rows:
        print(f"| {name:<{width}} | {items:>9} | {ns:>9.1f} | {ns / base:>6.2f}x |")


if __name__ == "__main__":
    main()
