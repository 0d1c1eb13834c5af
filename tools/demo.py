"""An orders pipeline with backpressure you can watch.

A lazy source synthesizes order records one at a time (``Flowable.generate``);
they are parsed and validated (``map``/``filter``) and batched (``buffer``);
each batch is priced by a simulated slow remote service, called on the io
scheduler with at most ``--concurrency`` calls at once (``flat_map`` with
``max_concurrency``); the priced batches are written to a JSON-lines file by a
deliberately slow sink that asks for two batches at a time. The progress line
shows that the source never runs ahead of the service and the sink: rows
generated but not yet written stay below ``concurrency + 1`` batches, however
many rows flow through.
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import sys
import threading
import time
from pathlib import Path

from rxpy2 import Flowable, FlowableSubscriber, Subscription
from rxpy2.schedulers import Schedulers

PRODUCTS = ["keyboard", "mouse", "monitor", "laptop", "dock", "cable", "headset"]


def make_order(i: int, rng: random.Random) -> str:
    """One raw CSV line; about 3% are malformed, as real inputs are."""
    qty = rng.randint(1, 5)
    price = rng.choice([9.5, 19.0, 49.9, 199.0, 1299.0])
    if rng.random() < 0.03:
        return f"{i},{rng.choice(PRODUCTS)},,{price}"  # missing quantity
    return f"{i},{rng.choice(PRODUCTS)},{qty},{price}"


def parse(line: str) -> dict:
    order_id, product, qty, price = line.split(",")
    return {"id": int(order_id), "product": product,
            "qty": int(qty) if qty else None, "price": float(price)}


def is_valid(order: dict) -> bool:
    return order["qty"] is not None


def enrich(order: dict) -> dict:
    order["total"] = round(order["qty"] * order["price"], 2)
    return order


class PricingService:
    """A remote call that takes ``latency`` seconds per batch; counts concurrent calls."""

    def __init__(self, latency: float, st: dict) -> None:
        self.latency = latency
        self.st = st
        self.active = 0
        self.lock = threading.Lock()

    def price(self, batch: list) -> list:
        with self.lock:
            self.active += 1
            self.st["calls"] += 1
            self.st["max_concurrent_calls"] = max(self.st["max_concurrent_calls"], self.active)
        try:
            time.sleep(self.latency)  # the network round trip
            return [enrich(order) for order in batch]
        finally:
            with self.lock:
                self.active -= 1

    def call(self, batch: list) -> Flowable[list]:
        """The call as a Flowable that runs on an io thread when subscribed."""
        return Flowable.from_callable(lambda: self.price(batch)).subscribe_on(Schedulers.io())


class SlowJsonLinesSink(FlowableSubscriber, Subscription):
    """Writes batches to a file, requesting ``window`` batches at a time."""

    def __init__(self, path: Path, window: int, delay: float, stats: dict) -> None:
        self.path = path
        self.window = window
        self.delay = delay
        self.stats = stats
        self.outstanding = 0
        self.done = threading.Event()
        self.error: BaseException | None = None

    def on_subscribe(self, s: Subscription) -> None:
        self.upstream = s
        self.file = self.path.open("w")
        self.outstanding = self.window
        s.request(self.window)

    def on_next(self, batch: list) -> None:
        for order in batch:
            self.file.write(json.dumps(order) + "\n")
        time.sleep(self.delay)  # a slow disk, a remote API: the reason backpressure exists
        st = self.stats
        st["written"] += len(batch)
        st["batches"] += 1
        self.outstanding -= 1
        if self.outstanding == 0:  # ask for the next window only when this one is written
            self.outstanding = self.window
            st["requests"] += 1
            self.upstream.request(self.window)
        if st["batches"] % st["report_every"] == 0:
            progress(st)

    def on_error(self, error: BaseException) -> None:
        self.error = error
        self.file.close()
        self.done.set()

    def on_complete(self) -> None:
        self.file.close()
        self.done.set()

    def request(self, n: int) -> None:
        self.upstream.request(n)

    def cancel(self) -> None:
        self.upstream.cancel()


def progress(st: dict, final: bool = False) -> None:
    elapsed = time.perf_counter() - st["start"]
    rate = st["written"] / elapsed if elapsed else 0.0
    width = 30
    frac = st["written"] / max(1, st["rows"])
    bar = "#" * int(frac * width) + "-" * (width - int(frac * width))
    line = (f"[{bar}] generated {st['generated']:>9,} | written {st['written']:>9,} | "
            f"max in flight {st['max_in_flight']:>5,} | calls {st['calls']:>6,} | "
            f"{rate:>9,.0f} rows/s")
    if sys.stdout.isatty():
        sys.stdout.write("\r" + line + ("\n" if final else ""))
    else:
        sys.stdout.write(line + "\n")
    sys.stdout.flush()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=200_000, help="orders to generate")
    ap.add_argument("--batch", type=int, default=500, help="rows per written batch")
    ap.add_argument("--window", type=int, default=2, help="batches requested at a time")
    ap.add_argument("--delay", type=float, default=0.002, help="seconds the sink takes per batch")
    ap.add_argument("--latency", type=float, default=0.01,
                    help="seconds the pricing service takes per batch")
    ap.add_argument("--concurrency", type=int, default=4,
                    help="pricing calls at most in flight at once")
    ap.add_argument("--output", type=Path, default=Path("out/orders.jsonl"))
    ap.add_argument("--seed", type=int, default=7)
    args = ap.parse_args(argv)
    if min(args.rows, args.batch, args.window, args.concurrency) <= 0:
        ap.error("--rows, --batch, --window and --concurrency must be positive")

    args.output.parent.mkdir(parents=True, exist_ok=True)
    rng = random.Random(args.seed)
    st = {"rows": args.rows, "generated": 0, "invalid": 0, "written": 0, "batches": 0,
          "requests": 1, "max_in_flight": 0,
          "calls": 0, "max_concurrent_calls": 0, "start": time.perf_counter(),
          "report_every": max(1, args.rows // args.batch // (50 if sys.stdout.isatty() else 10))}

    def next_order(i: int, emitter) -> int:
        if i == args.rows:
            emitter.on_complete()
        else:
            st["generated"] += 1
            # rows made but not yet written: bounded by the demand of the service and the sink
            in_flight = st["generated"] - st["written"] - st["invalid"]
            if in_flight > st["max_in_flight"]:
                st["max_in_flight"] = in_flight
            emitter.on_next(make_order(i, rng))
        return i + 1

    def count_invalid(order: dict) -> bool:
        ok = is_valid(order)
        if not ok:
            st["invalid"] += 1
        return ok

    print(f"rxpy2 demo: {args.rows:,} orders -> parse -> validate -> batches of {args.batch} "
          f"-> pricing service ({args.concurrency} calls at once) -> {args.output} "
          f"(sink asks for {args.window} batches at a time)")
    service = PricingService(args.latency, st)
    sink = SlowJsonLinesSink(args.output, args.window, args.delay, st)
    Flowable.generate(lambda: 0, next_order) \
        .map(parse) \
        .filter(count_invalid) \
        .buffer(args.batch) \
        .flat_map(service.call, max_concurrency=args.concurrency) \
        .subscribe(sink)
    sink.done.wait()
    Schedulers.shutdown()
    progress(st, final=True)
    if sink.error is not None:
        print(f"pipeline failed: {sink.error!r}", file=sys.stderr)
        return 1

    elapsed = time.perf_counter() - st["start"]
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    lines = sum(1 for _ in args.output.open())
    # rows generated but not yet written: the batch being filled plus one batch per call
    bound = args.batch * (args.concurrency + 1)
    print("summary")
    print(f"  orders generated      {st['generated']:>12,}")
    print(f"  rejected (invalid)    {st['invalid']:>12,}")
    print(f"  rows written          {st['written']:>12,}  ({lines:,} lines in the file)")
    print(f"  batches written       {st['batches']:>12,}  in {st['requests']:,} requests of "
          f"{args.window}")
    print(f"  pricing calls         {st['calls']:>12,}  (at most {st['max_concurrent_calls']} "
          f"at once, limit {args.concurrency})")
    print(f"  max rows in flight    {st['max_in_flight']:>12,}  (bound: {bound:,} = "
          f"({args.concurrency} calls + 1) x {args.batch})")
    print(f"  elapsed               {elapsed:>12.2f} s  ({st['written'] / elapsed:,.0f} rows/s)")
    print(f"  peak memory (RSS)     {peak_mb:>12.1f} MiB")
    print(f"  output                {args.output.resolve()}")
    if st["max_in_flight"] > bound or lines != st["written"] or \
            st["max_concurrent_calls"] > args.concurrency or \
            st["written"] + st["invalid"] != st["generated"]:
        print("backpressure check FAILED", file=sys.stderr)
        return 1
    print("backpressure held: the source never ran ahead of the service and the sink")
    return 0


if __name__ == "__main__":
    sys.exit(main())
