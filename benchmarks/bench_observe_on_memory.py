"""observe_on keeps memory flat: peak RSS as the stream grows from 10^5 to 10^7 items.

Each size runs in a fresh Python process (so peak RSS belongs to that run only):
``src = Flowable.range(0, n)
if hide:
    src = src.hide()  # no fusion: items cross the thread through observe_on's bounded queue
src.observe_on(Schedulers.computation()).subscribe(...)`` (SYNC-fused: the
worker polls the range) and the same over ``hide()`` (items cross the thread
through observe_on's bounded queue), with a consumer on the computation thread, waited for with a threading.Event. Also
reports ns per item. Run: ``python benchmarks/bench_observe_on_memory.py``
(``--sizes 100000 1000000`` to choose sizes). Not run in CI; nothing is asserted.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys

CHILD = r"""
import json, resource, sys, threading, time
from rxpy2 import Flowable
from rxpy2.schedulers import Schedulers
n = int(sys.argv[1])
hide = sys.argv[2] == "queue"
done = threading.Event()
count = [0]
def on_next(x):
    count[0] += 1
t0 = time.perf_counter()
src = Flowable.range(0, n)
if hide:
    src = src.hide()  # no fusion: items cross the thread through observe_on's bounded queue
src.observe_on(Schedulers.computation()).subscribe(
    on_next, on_error=lambda e: done.set(), on_complete=done.set)
done.wait()
dt = time.perf_counter() - t0
Schedulers.shutdown()
print(json.dumps({"n": n, "count": count[0], "seconds": dt,
                  "peak_rss_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[10**5, 10**6, 10**7])
    args = ap.parse_args()
    print("| path | items | peak RSS (MiB) | ns per item |")
    print("|---|---:|---:|---:|")
    for path in ("fused", "queue"):
        for n in args.sizes:
            out = subprocess.run([sys.executable, "-c", CHILD, str(n), path], check=True,
                                 capture_output=True, text=True).stdout
            r = json.loads(out.strip().splitlines()[-1])
            assert r["count"] == n, r
            print(f"| {path} | {n:,} | {r['peak_rss_mib']:.1f} | "
                  f"{r['seconds'] / n * 1e9:,.0f} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
