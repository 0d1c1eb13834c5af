"""Time the two backends of the drain primitive ``rxpy2.operator_kit.Drain``.

Run it with ``python -m benchmarks.bench_drain`` (``--runs``/``--n`` set the size).

Rows, nanoseconds per operation (median of ``--runs``, one thread):

* ``enter+leave``: an uncontended pass (the fast path of every emission that finds
  nobody draining);
* ``failed enter``: a signal while another caller owns the drain (a producer while
  the consumer drains: the common case of a busy ``observe_on``);
* the same for the ``wip`` counter the operators used before the primitive
  (``AtomicInteger.get_and_increment`` / ``add_and_get(-missed)``, lock backend), for
  reference.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import timeit
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run from a checkout

from rxpy2._internal.atomic import LockAtomicLong  # noqa: E402
from rxpy2._internal.drain import GilDrain
from rxpy2._internal.drain import LockDrain


class _WipCounter:
    """The pre-primitive idiom, for comparison."""

    def __init__(self) -> None:
        self.wip = LockAtomicLong()
        self.missed = 1

    def enter(self) -> bool:
        return self.wip.get_and_increment() == 0

    def leave(self) -> bool:
        m = self.wip.add_and_get(-self.missed)
        self.missed = m
        return m != 0


def _time(fn: object, n: int, runs: int) -> float:
    samples = timeit.repeat(fn, number=n, repeat=runs)  # type: ignore[arg-type]
    return statistics.median(samples) / n * 1e9


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--n", type=int, default=200_000)
    args = ap.parse_args(argv)
    print("| implementation | enter+leave ns | failed enter ns |")
    print("|---|---:|---:|")
    for name, cls in (("Drain gil", GilDrain), ("Drain lock", LockDrain),
                      ("wip AtomicInteger (lock)", _WipCounter)):
        d = cls()
        enter, leave = d.enter, d.leave

        def one_pass(enter=enter, leave=leave) -> None:  # type: ignore[no-untyped-def]
            if enter():
                leave()

        busy = cls()
        busy.enter()
        print(f"| {name} | {_time(one_pass, args.n, args.runs):.0f} | "
              f"{_time(busy.enter, args.n, args.runs):.0f} |")


if __name__ == "__main__":
    main()
