"""The ``stream`` part of ``python -m benchmarks --spark``: ``from_stream`` under a slow consumer.

Runs in a fresh process (``python -m benchmarks.spark_stream``, started by
:mod:`benchmarks.spark`), so that the driver's memory over time is this part's alone: the
same session settings as the other parts, then ``from_stream(rate_df, prefetch_batches=k)``
over a ``rate-micro-batch`` source of ``--stream-rate`` rows per micro-batch, one
micro-batch a second (or a ``rate`` source of ``--stream-rate`` rows per second), consumed by a subscriber
that requests one row at a time and is paced at a tenth of that rate (a fixed schedule:
``rate / 10`` rows per second, whatever the sleeps' jitter). For ``--stream-seconds`` a
sampler thread reads, every ``SAMPLE_S`` seconds, the subscription's batches in flight
(``StreamSubscription.batches_held``) and the driver's ``VmRSS`` (``/proc/self/status``);
then ``cancel()``, timed until ``spark.streams.active`` is empty. Prints one JSON line.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import threading
import time
from typing import Any

from benchmarks.spark_common import FLAT_MIB
from benchmarks.spark_common import start_session
from rxpy2.reactivestreams import Subscriber
from rxpy2.reactivestreams import Subscription

SAMPLE_S = 0.25
#: The consumer takes one row per this many the source makes.
SLOWDOWN = 10.0
SOURCES = ("rate", "rate-micro-batch")
#: Targets of the second Spark version.
TARGET_STOP_S = 5.0  # cancel() to the query stopped
STOP_LIMIT_S = 120.0  # after this long the query counts as never stopped


def vm_rss_mib() -> float | None:
    try:
        with open("/proc/self/status") as fh:
            for line in fh:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return None


class PacedSubscriber(Subscriber[Any]):
    """Requests one row at a time and takes ``rate`` rows per second (a schedule, so a late
    wake-up is made up for, never exceeded); counts the rows and sums their ``value``."""

    def __init__(self, rate: float) -> None:
        self.period = 1.0 / rate
        self.subscription: Subscription | None = None
        self.count = 0
        self.total = 0
        self.next_at = 0.0
        self.error: BaseException | None = None
        self.completed = False
        self.first_row = threading.Event()

    def on_subscribe(self, subscription: Subscription) -> None:
        self.subscription = subscription
        subscription.request(1)

    def on_next(self, row: Any) -> None:
        now = time.monotonic()
        if not self.count:
            self.next_at = now
            self.first_row.set()
        self.next_at += self.period
        if self.next_at > now:
            time.sleep(self.next_at - now)
        self.count += 1
        self.total += int(row["value"])
        assert self.subscription is not None
        self.subscription.request(1)

    def on_error(self, error: BaseException) -> None:
        self.error = error

    def on_complete(self) -> None:
        self.completed = True


def measure(seconds: float, rate: int, prefetch: int, source: str, master: str,
            driver_memory: str) -> dict[str, Any]:
    import pyarrow  # noqa: F401  (imported alike in every child of the Spark benchmarks)

    from rxpy2.spark import StreamFlowable
    from rxpy2.spark import from_stream

    spark = start_session(master, driver_memory)
    try:
        reader = spark.readStream.format(source).option("numPartitions", 2)
        if source == "rate":
            sdf = reader.option("rowsPerSecond", rate).load()
            trigger = None
        else:
            sdf = reader.option("rowsPerBatch", rate).option("advanceMillisPerBatch", 1000).load()
            trigger = "1 second"
        flowable = from_stream(sdf, prefetch, trigger=trigger)
        if not isinstance(flowable, StreamFlowable):
            raise AssertionError("from_stream did not give a StreamFlowable")
        consumer = PacedSubscriber(rate / SLOWDOWN)
        samples: list[tuple[float, int, float | None]] = []  # (t, batches held, VmRSS MiB)
        stop_sampling = threading.Event()
        flowable.subscribe(consumer)
        sub = flowable.last_subscription
        if sub is None:
            raise AssertionError("from_stream made no subscription")
        if not consumer.first_row.wait(300.0):
            raise TimeoutError(f"no row from the stream after 300 s (error: {consumer.error})")
        t0 = time.monotonic()

        def sample() -> None:
            while not stop_sampling.is_set():
                samples.append((time.monotonic() - t0, sub.batches_held, vm_rss_mib()))
                stop_sampling.wait(SAMPLE_S)

        sampler = threading.Thread(target=sample, name="bench-stream-sampler", daemon=True)
        sampler.start()
        time.sleep(seconds)
        if consumer.error is not None:
            raise RuntimeError(f"the stream failed: {consumer.error!r}")
        query = sub.query
        progress = list(query.recentProgress) if query is not None else []
        t_cancel = time.monotonic()
        assert consumer.subscription is not None
        consumer.subscription.cancel()
        stopped_after: float | None = None
        while time.monotonic() - t_cancel < STOP_LIMIT_S:
            if not spark.streams.active:
                stopped_after = time.monotonic() - t_cancel
                break
            time.sleep(0.01)
        stop_sampling.set()
        sampler.join()
        sub.await_termination(STOP_LIMIT_S)
        elapsed = t_cancel - t0
        rows_in = [int(p["numInputRows"]) for p in progress if p.get("numInputRows")]
        quarter = max(1, len(samples) // 4)
        rss = [r for _, _, r in samples if r is not None]
        first = [r for _, _, r in samples[:quarter] if r is not None]
        last = [r for _, _, r in samples[-quarter:] if r is not None]
        return {
            "seconds": elapsed, "rate": rate, "source": source, "prefetch_batches": prefetch,
            "consumer_rate": rate / SLOWDOWN, "rows": consumer.count,
            "rows_per_s": consumer.count / elapsed if elapsed else 0.0,
            "samples": len(samples),
            "max_held_sampled": max((h for _, h, _ in samples), default=0),
            "max_held": sub.max_batches_held, "batches": sub.batches_received,
            "batch_rows_max": max(rows_in, default=0),
            "batch_rows_median": statistics.median(rows_in) if rows_in else 0,
            "rss_first_mib": statistics.median(first) if first else None,
            "rss_last_mib": statistics.median(last) if last else None,
            "rss_max_mib": max(rss, default=None),
            "stop_seconds": stopped_after,
            "error": repr(consumer.error) if consumer.error else None,
        }
    finally:
        spark.stop()


def render(rep: Any) -> list[str]:
    """The stream part's table (``rep.stream``: what :func:`measure` returned)."""
    r = rep.stream
    if r is None:
        return []
    per = ("rows per second (made by the clock: a micro-batch after a wait holds every row "
           "made meanwhile)" if r["source"] == "rate"
           else "rows per micro-batch, a micro-batch every second")
    rss = [r["rss_first_mib"], r["rss_last_mib"], r["rss_max_mib"]]
    lines = [f"### Structured Streaming under a slow consumer ({r['seconds']:.0f} s)", "",
             f"`from_stream(df, prefetch_batches={r['prefetch_batches']})` over a "
             f"`{r['source']}` source of {r['rate']:,} {per}, in a fresh process with the same "
             f"session settings; the subscriber requests one row at a time and takes "
             f"{r['consumer_rate']:g} rows/s (10× slower than the source). Every {SAMPLE_S:g} s "
             f"a sampler read the batches in flight (`batches_held` of the subscription) and "
             f"the driver's `VmRSS`; first / last quarter: the medians of the first and the "
             f"last quarter of the samples, from the first row on. Then `cancel()`, timed "
             f"until `spark.streams.active` was empty.", "",
             "| rows consumed | rows/s | micro-batches | rows per micro-batch (median / max) "
             "| batches in flight (max sampled / max seen) | VmRSS first quarter (MiB) "
             "| VmRSS last quarter (MiB) | VmRSS max (MiB) | cancel() to stopped (s) |",
             "|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
             f"| {r['rows']:,} | {r['rows_per_s']:,.1f} | {r['batches']} | "
             f"{r['batch_rows_median']:,.0f} / {r['batch_rows_max']:,} | "
             f"{r['max_held_sampled']} / {r['max_held']} | "
             + " | ".join("" if x is None else f"{x:,.1f}" for x in rss)
             + f" | {'never' if r['stop_seconds'] is None else format(r['stop_seconds'], '.2f')} |",
             ""]
    return lines


def targets(rep: Any) -> list[str]:
    """One line per target of the stream part."""
    k = rep.args.stream_prefetch
    labels = [f"from_stream's batches in flight ≤ prefetch_batches ({k}) under a consumer 10× "
              f"slower than the source",
              f"driver VmRSS flat over the stream run (last quarter − first quarter ≤ "
              f"{FLAT_MIB:g} MiB)",
              f"cancel() to the streaming query stopped < {TARGET_STOP_S:g} s"]
    reason = rep.unavailable.get("stream")
    if reason is not None:
        return [f"- target {x}: not available in this version ({reason}) — n/a" for x in labels]
    r = rep.stream
    if r is None:
        return [f"- target {x}: not measured in this run — n/a" for x in labels]
    held = max(r["max_held"], r["max_held_sampled"])
    lines = [f"- target {labels[0]}: measured {held} — {'met' if held <= k else 'missed'}"]
    first, last = r["rss_first_mib"], r["rss_last_mib"]
    if first is None or last is None:
        lines.append(f"- target {labels[1]}: not measured in this run — n/a")
    else:
        g = last - first
        lines.append(f"- target {labels[1]}: measured {g:+.2f} MiB — "
                     f"{'met' if g <= FLAT_MIB else 'missed'}")
    stop = r["stop_seconds"]
    lines.append(f"- target {labels[2]}: measured "
                 + (f"never (not within {STOP_LIMIT_S:g} s) — missed" if stop is None
                    else f"{stop:.2f} s — {'met' if stop < TARGET_STOP_S else 'missed'}"))
    return lines


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.spark_stream",
                                 description="from_stream under a consumer 10× slower than "
                                             "its rate source (one JSON line)")
    ap.add_argument("--seconds", type=float, default=120.0)
    ap.add_argument("--rate", type=int, default=1000)
    ap.add_argument("--prefetch", type=int, default=2)
    ap.add_argument("--source", choices=SOURCES, default="rate-micro-batch")
    ap.add_argument("--master", default="local[2]")
    ap.add_argument("--driver-memory", default="2g")
    a = ap.parse_args(argv)
    out = measure(a.seconds, a.rate, a.prefetch, a.source, a.master, a.driver_memory)
    print(json.dumps(out), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
