"""Time what context propagation adds to scheduling one task.

Run it with ``python -m benchmarks.bench_context`` (``--runs``/``--n`` set the size).

Rows, nanoseconds per task (schedule a no-op task, then run it), the median of
``--runs`` rounds; each round times propagation on, then off, then on again (the
two "on" halves averaged), so drift in the machine's load hits both alike. "off" is
``plugins.set_context_propagation(False)``: the scheduler's path as it was before
propagation existed, but for one flag read and one ``is None`` test.

* ``trampoline``: ``worker.schedule(task)`` on an idle trampoline worker (the task
  runs inside the call);
* ``TestScheduler``: ``--n`` tasks scheduled, then run by ``trigger_actions()``;
* ``single()``: ``--n`` tasks scheduled from this thread and run on the worker's
  thread (the time until the last one ran, over ``--n``);
* ``user worker``: a ``Worker`` subclass that runs the task inside ``schedule_actual``
  and does not keep contexts itself, so ``Worker.schedule`` binds each task with
  ``functools.partial(copy_context().run, task)``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run from a checkout

from rxpy2 import plugins  # noqa: E402
from rxpy2.disposables import Disposable  # noqa: E402
from rxpy2.disposables import Disposables  # noqa: E402
from rxpy2.schedulers import Schedulers  # noqa: E402
from rxpy2.schedulers import TestScheduler  # noqa: E402
from rxpy2.schedulers import Worker  # noqa: E402


def _noop() -> None:
    pass


class _InlineWorker(Worker):
    __slots__ = ()

    def schedule_actual(self, fn: Callable[[], object], delay: float) -> Disposable:
        fn()
        return Disposables.empty()

    def dispose(self) -> None:
        pass

    def is_disposed(self) -> bool:
        return False


def _per_task(run_n: Callable[[int], None], n: int) -> float:
    t0 = time.perf_counter()
    run_n(n)
    return (time.perf_counter() - t0) / n * 1e9


def _scheduled_inline(worker: Worker) -> Callable[[int], None]:
    def run_n(n: int) -> None:
        schedule = worker.schedule
        for _ in range(n):
            schedule(_noop)
    return run_n


def _virtual_time(n: int) -> None:
    s = TestScheduler()
    schedule = s.create_worker().schedule
    for _ in range(n):
        schedule(_noop)
    s.trigger_actions()


def _single(n: int) -> None:
    w = Schedulers.single().create_worker()
    done = threading.Event()
    schedule = w.schedule
    for _ in range(n - 1):
        schedule(_noop)
    schedule(done.set)
    done.wait()
    w.dispose()


def measure(n: int, runs: int) -> list[tuple[str, float, float]]:
    """``(row, ns per task on, ns per task off)`` for each row (see the module)."""
    rows: dict[str, Callable[[int], None]] = {
        "trampoline": _scheduled_inline(Schedulers.trampoline().create_worker()),
        "TestScheduler": _virtual_time,
        "single()": _single,
        "user worker": _scheduled_inline(_InlineWorker()),
    }
    was = plugins.is_context_propagation_enabled()
    out = []
    try:
        for name, run_n in rows.items():
            run_n(min(n, 1000))  # warm up
            on: list[float] = []
            off: list[float] = []
            for _ in range(runs):
                plugins.set_context_propagation(True)
                a = _per_task(run_n, n)
                plugins.set_context_propagation(False)
                off.append(_per_task(run_n, n))
                plugins.set_context_propagation(True)
                on.append((a + _per_task(run_n, n)) / 2)
            out.append((name, statistics.median(on), statistics.median(off)))
    finally:
        plugins.set_context_propagation(was)
        Schedulers.shutdown()
    return out


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=15)
    ap.add_argument("--n", type=int, default=20_000)
    args = ap.parse_args(argv)
    print("| scheduler | on ns/task | off ns/task | on − off |")
    print("|---|---:|---:|---:|")
    for name, on, off in measure(args.n, args.runs):
        print(f"| {name} | {on:.0f} | {off:.0f} | {on - off:+.0f} |")


if __name__ == "__main__":
    main()
