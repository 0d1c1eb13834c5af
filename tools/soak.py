"""A soak run: random asynchronous chains, consumed from several threads for minutes.

Each chain comes from one seed and is built by the fidelity generator
(``tests/fidelity/_fuzz_chains.py``: its sources, operators, demand models and Taps), with
what a soak adds: a scheduler hop (``observe_on``/``subscribe_on`` on ``computation()``,
``io()``, ``single()``, ``trampoline()``, rarely ``new_thread()``), a ``map`` that raises,
and a demand script with pauses between its ``request(n)``/``cancel()`` steps, ended by a
``request(LONG_MAX)`` or a ``cancel()``. Every chain runs twice, behind Taps (every signal
on every link checked: §1.1 demand, §1.7 nothing after a terminal, §3.9 positive requests,
nothing after ``cancel()``, each operator's RxJava 2.2.21 demand model) and without them
(fusion allowed; the TestSubscriber's own rule checks). A chain that neither terminates nor
was cancelled 10 s after its script ended is a hang.

After ``cancel()``: a chain without a scheduler hop must stop at once (as in the fidelity
test). In a chain with one, a signal already in flight may still arrive on any of its links
(§2.8/§3.6: the cancel and the signal race on two threads); it is counted ("late") and
still checked for §1.1 and §1.7, never a violation by itself.

    tools/soak                         # 30 minutes, 4 threads
    tools/soak --minutes 3 --threads 2 --seed 7
    tools/soak --seconds 5             # a short run (tests/test_soak.py)
    tools/soak --replay 123456         # one chain again (100 times: races are timing-bound)

One line a minute (RSS; the interpreter's live memory blocks after a collection, as RSS
keeps the high-water mark of the allocator's arenas; the factories the sync-chain compiler's
bounded caches hold, which fill over the first minutes);
a summary at the end. Exit code 1 on any violation, hang, RSS growth over
5 MiB after the warm-up, or threads left alive once the schedulers are shut down. The
warm-up: in a run of 3 minutes or more, until the first minute in which the compile caches
took at most 2 more factories (they are bounded and fill as new chain shapes come), and at
most a third of the run; in a shorter run, its first third.
"""

from __future__ import annotations

import argparse
import gc
import random
import re
import resource
import sys
import threading
import time
import traceback
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "fidelity"))
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT))

import _fuzz_chains as fz  # noqa: E402

from rxpy2 import Flowable  # noqa: E402
from rxpy2 import plugins  # noqa: E402
from rxpy2.reactivestreams import LONG_MAX  # noqa: E402
from rxpy2.schedulers import Schedulers  # noqa: E402
from rxpy2.testing import TestSubscriber  # noqa: E402

HANG_SECONDS = 10.0
RSS_LIMIT = 5 * 1024 * 1024
#: the warm-up of a long run ends in the first minute the compile caches grew by at most this
WARM_CACHE_GROWTH = 2
REPLAY_ROUNDS = 100
#: (name, weight) of the scheduler a hop goes to
SCHEDULERS = (("computation", 30), ("io", 25), ("single", 20), ("trampoline", 22),
              ("new_thread", 3))


# ---------------------------------------------------------------------------- the chains


class SoakRun(fz.Run):
    """A Run that lets signals in flight pass after ``cancel()`` when the chain hops."""

    def __init__(self, tapped: bool) -> None:
        super().__init__(tapped)
        self.hops = False   # set once a scheduler hop is in the chain
        self.late = 0
        self.main: list[Any] = []  # the Taps of the main line: the source's, each stage's output
        self.unmodelled = 0

    def violate(self, culprit: str, kind: str, text: str) -> None:
        # The demand models read the latest subscription of a link (Tap.current). Once
        # repeat/retry resubscribed an asynchronous chain, a request of the previous
        # subscription still on its way (on a worker) is compared with the new one's
        # counters: not a verdict on the operator, so not a violation (counted).
        if kind == "demand" and self.hops and any(len(t.hops) > 1 for t in self.main):
            self.unmodelled += 1
            return
        super().violate(culprit, kind, text)

    def in_flight_after_cancel(self, hop: fz.Hop, what: str) -> bool:
        if self.hops:
            self.late += 1
            return True
        return False


def _scheduler(name: str) -> Any:
    return getattr(Schedulers, name)()


def _hop(st: fz.Stage, rng: random.Random, up: Flowable[Any]) -> Flowable[Any]:
    names = [n for n, _ in SCHEDULERS]
    name = rng.choices(names, [w for _, w in SCHEDULERS])[0]
    assert isinstance(st.run, SoakRun)
    st.run.hops = True
    if rng.random() < 0.6:
        n = rng.choice((1, 2, 16, fz.BUFFER_SIZE))
        st.desc = f"observe_on({name}(), buffer_size={n})"
        st.govern(up, st.prefetch_emitted(n))  # FlowableObserveOn: prefetch, replenished
        return up.observe_on(_scheduler(name), buffer_size=n)
    st.desc = f"subscribe_on({name}())"
    st.govern(up, st.pass_through)  # FlowableSubscribeOn: requests go through (on the worker)
    return up.subscribe_on(_scheduler(name))


def _map_raise(st: fz.Stage, rng: random.Random, up: Flowable[Any]) -> Flowable[Any]:
    k = rng.choice((2, 3, 7))
    st.desc = f"map(raise FuzzError when crc32 % {k} == 0)"
    st.govern(up, st.pass_through)

    def mapper(x: Any) -> Any:
        if fz.stable(x) % k == 0:
            raise fz.FuzzError(f"map {x!r}")
        return x
    return up.map(mapper)


def _window(st: fz.Stage, rng: random.Random, up: Flowable[Any]) -> Flowable[Any]:
    """The generator's window, exact or skipping only: after a cancel, an overlapping window
    (``skip < size``) that was created but never consumed to its end keeps the upstream
    subscribed, waiting for demand for good (RxJava 2.2.21's FlowableWindow the same; RxJava 3
    changed it together with window abandonment), and so does the worker of a hop upstream."""
    size = rng.choice((1, 2, 3))
    return fz.window_stage(st, up, size, rng.choice((size, size, size + 1, 4)))


SOAK_OPS: dict[str, fz.Op] = {"hop": _hop, "map_raise": _map_raise, "window": _window}
#: The generator's operators but replay().auto_connect(): auto_connect never disconnects
#: (RxJava 2 the same), so a consumer that cancels leaves the connection, and the scheduler
#: worker of a hop upstream, waiting for demand for good: a leak by design, not a finding.
OPERATORS = sorted(set(fz.OPS) - {"replay"})


def draw_script(rng: random.Random) -> list[tuple[str, float]]:
    """The generator's script with pauses between the steps, and a last step."""
    steps: list[tuple[str, float]] = []
    for step, n in fz.draw_script(rng):
        if rng.random() < 0.3:
            steps.append(("pause", rng.choice((0.0, 0.0001, 0.001, 0.003))))
        steps.append((step, n))
    steps.append(("cancel", 0) if rng.random() < 0.15 else ("request", LONG_MAX))
    return steps


def script_text(script: list[tuple[str, float]]) -> str:
    return ", ".join("cancel()" if s == "cancel" else f"pause({n * 1000:g} ms)" if s == "pause"
                     else f"request({fz._amount(int(n))})" for s, n in script)


class Outcome:
    """One run of a chain: what went wrong, and what it amounted to."""

    def __init__(self, desc: str, violations: list[fz.Violation], signals: int, late: int,
                 hung: bool, unmodelled: int) -> None:
        self.desc = desc
        self.unmodelled = unmodelled
        self.violations = violations
        self.signals = signals
        self.late = late
        self.hung = hung


def run_chain(seed: int, tapped: bool) -> Outcome:
    """Build the chain of ``seed`` (as the generator's run_chain, with the soak's stages),
    run its script and wait for its end."""
    rng = random.Random(seed)
    run = SoakRun(tapped)
    size = rng.choice((0, 1, 2, 3, 5, 10, 300))
    source, source_desc = fz.make_source(rng, size)
    f = run.tap(source, f"source {source_desc}", source_desc)
    run.main.append(f)
    parts = [source_desc]
    stages: list[fz.Stage] = []
    names = OPERATORS
    for i in range(rng.randint(1, 4)):
        k = rng.random()
        name = "hop" if k < 0.4 else "map_raise" if k < 0.45 else rng.choice(names)
        st = fz.Stage(run, i + 1, f, rng.randrange(1 << 30))
        st.name = name
        out = (SOAK_OPS.get(name) or fz.OPS[name])(st, rng, f)
        st.down = f = run.tap(out, f"#{i + 1} {st.desc} -> downstream", st.desc)
        run.main.append(f)
        stages.append(st)
        parts.append(st.desc)
    script = draw_script(rng)
    ts: TestSubscriber[Any] = TestSubscriber(0)
    desc = f"seed={seed}: {'.'.join(parts)} under [{script_text(script)}]"
    culprit = f"chain[{','.join(st.name for st in stages)}]"
    hung = False
    try:
        f.subscribe(ts)
        for step, n in script:
            if step == "cancel":
                ts.cancel()
            elif step == "pause":
                time.sleep(n)
            else:
                ts.request(int(n))
        if not ts.is_cancelled() and not ts.await_terminal_event(HANG_SECONDS):
            hung = True
            run.violate(culprit, "hang", f"neither terminated nor cancelled {HANG_SECONDS:g} s "
                        f"after its script ended ({ts.value_count()} item(s) so far)")
            ts.cancel()
    except Exception as e:  # an operator's bug, thrown at the caller of request/subscribe
        run.violate(culprit, "raised", f"{type(e).__name__}: {e} escaped to the caller")
    how = "tapped" if tapped else "untapped"
    for text in ts.protocol_violations():
        run.violate("chain", "signal", f"TestSubscriber ({how}): {text}")
    if ts.values_after_cancel() and not run.hops:
        run.violate("chain", "signal", f"TestSubscriber ({how}): "
                    f"{ts.values_after_cancel()} item(s) after cancel()")
    if ts.completions() + len(ts.errors()) > 1:
        run.violate("chain", "signal", f"TestSubscriber ({how}): more than one terminal event")
    signals = ts.value_count() + len(ts.errors()) + ts.completions()
    for t in run.taps:
        for hop in t.hops:
            signals += hop.items + len(hop.requests) + (hop.terminal is not None)
    return Outcome(f"{desc} -> {fz._short(fz.outcome(ts))}", run.violations, signals,
                   run.late, hung, run.unmodelled)


# ---------------------------------------------------------------------------- the soak


def rss_bytes() -> int:
    """The resident set size now (VmRSS), or the peak (ru_maxrss) without /proc."""
    try:
        with open("/proc/self/status") as fh:
            for line in fh:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def thread_census() -> str:
    """The live threads by name, numbers left out: ``{rxpy2-io: 3, soak: 4, ...}``."""
    names = Counter(re.sub(r"(-\d+)+$|-\d+ ", " ", t.name).strip() for t in threading.enumerate())
    return "{" + ", ".join(f"{k}: {v}" for k, v in sorted(names.items())) + "}"


def compiled_count() -> int:
    """The factories the sync-chain compiler's caches hold (bounded: CACHE_SIZE each)."""
    from rxpy2._internal.helpers import stage_compiler
    from rxpy2._internal.operators.flowable import flowable_sync_chain

    caches = (stage_compiler._chain_factory, stage_compiler._fold_factory,
              stage_compiler._step_factory, flowable_sync_chain._flatten_factory)
    return sum(c.cache_info().currsize for c in caches)


def mib(n: float) -> str:
    return f"{n / (1024 * 1024):.1f} MiB"


class Soak:
    def __init__(self, seed: int, threads: int, out: Callable[[str], None]) -> None:
        self.seed = seed
        self.threads = threads
        self.out = out
        self.lock = threading.Lock()
        self.next_index = 0
        self.chains = 0
        self.signals = 0
        self.late = 0
        self.unmodelled = 0
        self.violations = 0
        self.hangs = 0
        self.printed = 0
        self.running: dict[int, int] = {}  # thread id -> the seed it runs
        self.warm_minutes = 0.0  # how long the warm-up took
        self.stop = threading.Event()

    def report(self, seed: int, desc: str, violations: list[fz.Violation]) -> None:
        with self.lock:
            self.violations += len(violations)
            show = self.printed < 20
            self.printed += 1
        if show:
            lines = [f"VIOLATION {desc}", f"  replay: tools/soak --replay {seed}"]
            lines += [f"  {v.culprit} [{v.kind}]: {v.text}" for v in violations[:5]]
            self.out("\n".join(lines))

    def plugin_error(self, e: BaseException) -> None:
        if fz.chain_error(e):  # a FuzzError (& co) racing a cancel: RxJava's way too
            return
        cause: Any = e.__cause__ if e.__cause__ is not None else e
        with self.lock:
            running = sorted(self.running.values())
        trace = "".join(traceback.format_exception(cause)).rstrip().replace("\n", "\n    ")
        self.report(running[0] if running else -1,
                    f"rxpy2.plugins.on_error got {e!r} while seeds {running} ran",
                    [fz.Violation("plugins", "plugin", f"{e!r}\n    {trace}")])

    def worker(self) -> None:
        me = threading.get_ident()
        while not self.stop.is_set():
            with self.lock:
                seed = self.seed + self.next_index
                self.next_index += 1
                self.running[me] = seed
            found: list[fz.Violation] = []
            signals = late = unmodelled = 0
            desc = ""
            hung = False
            for tapped in (True, False):
                o = run_chain(seed, tapped)
                found += o.violations
                signals += o.signals
                late += o.late
                unmodelled += o.unmodelled
                hung = hung or o.hung
                desc = desc or o.desc
            with self.lock:
                self.chains += 1
                self.signals += signals
                self.late += late
                self.unmodelled += unmodelled
                self.hangs += hung
                del self.running[me]
            if found:
                self.report(seed, desc, found)

    def line(self, label: str, start: float, last: tuple[float, int]) -> tuple[float, int]:
        now = time.monotonic()
        with self.lock:
            chains, signals, violations = self.chains, self.signals, self.violations
            late, hangs, unmodelled = self.late, self.hangs, self.unmodelled
        rate = (chains - last[1]) / max(now - last[0], 1e-9)
        gc.collect()  # the live blocks, not the garbage: a leak shows as a trend in them
        self.out(f"[soak] {label} chains={chains} signals={signals} violations={violations} "
                 f"hangs={hangs} late_after_cancel={late} demand_unmodelled={unmodelled} throughput={rate:.1f} chains/s "
                 f"rss={mib(rss_bytes())} blocks={sys.getallocatedblocks()} "
                 f"compiled={compiled_count()} "
                 f"threads={threading.active_count()} "
                 f"{thread_census()}")
        return now, chains

    def warm_up_ends(self, start: float) -> int:
        """The RSS the growth is measured from (after a collection)."""
        gc.collect()
        self.warm_minutes = (time.monotonic() - start) / 60
        self.out(f"[soak] warm-up ends after {self.warm_minutes:.1f} min: "
                 f"rss={mib(rss_bytes())} compiled={compiled_count()}")
        return rss_bytes()

    def run(self, seconds: float) -> int:
        gc.collect()
        baseline_threads = threading.active_count()
        rss_start = rss_bytes()
        self.out(f"[soak] seed={self.seed} threads={self.threads} duration={seconds:g} s "
                 f"baseline: rss={mib(rss_start)} threads={baseline_threads}")
        plugins.set_error_handler(self.plugin_error)
        workers = [threading.Thread(target=self.worker, name=f"soak-{i}", daemon=True)
                   for i in range(self.threads)]
        start = time.monotonic()
        # the warm-up: a third of a short run; in a run of 3 minutes or more, until the
        # compile caches (bounded, filled as new chain shapes come) stopped filling, a
        # minute in which they took at most WARM_CACHE_GROWTH more factories, and at most
        # a third of the run
        warmup = min(60.0, seconds / 3)
        steady_caches = seconds >= 180
        for w in workers:
            w.start()
        last = (start, 0)
        rss_warm: int | None = None
        self.warm_minutes = 0.0
        compiled_before = compiled_count()
        minute = 1
        end = start + seconds
        while True:
            now = time.monotonic()
            if rss_warm is None and now - start >= (seconds / 3 if steady_caches else warmup):
                rss_warm = self.warm_up_ends(start)
            if now >= end:
                break
            next_line = start + 60 * minute
            if now >= next_line:
                last = self.line(f"minute {minute}:", start, last)
                compiled_now = compiled_count()
                if (rss_warm is None and steady_caches
                        and compiled_now - compiled_before <= WARM_CACHE_GROWTH):
                    rss_warm = self.warm_up_ends(start)
                compiled_before = compiled_now
                minute += 1
                continue
            time.sleep(min(0.2, next_line - now, end - now))
        self.stop.set()
        for w in workers:
            w.join(HANG_SECONDS * 3)
        elapsed = time.monotonic() - start
        # the last minute's line (or, for a run of part of a minute, the end's)
        self.line(f"minute {minute}:" if seconds % 60 == 0 else f"end ({elapsed:.0f} s):",
                  start, last)
        gc.collect()
        rss_end = rss_bytes()
        growth = rss_end - (rss_warm if rss_warm is not None else rss_start)
        Schedulers.shutdown()
        deadline = time.monotonic() + 10
        while threading.active_count() > baseline_threads and time.monotonic() < deadline:
            time.sleep(0.05)
        left = [t.name for t in threading.enumerate()
                if t is not threading.main_thread()][: max(0, threading.active_count()
                                                           - baseline_threads) + 5]
        leaked = threading.active_count() - baseline_threads
        plugins.set_error_handler(None)
        failed = bool(self.violations or self.hangs or growth > RSS_LIMIT or leaked > 0)
        self.out(f"[soak] summary: seed={self.seed} chains={self.chains} "
                 f"signals={self.signals} violations={self.violations} hangs={self.hangs} "
                 f"late_after_cancel={self.late} demand_unmodelled={self.unmodelled} "
                 f"throughput={self.chains / max(elapsed, 1e-9):.1f} chains/s "
                 f"rss_start={mib(rss_start)} warmup={self.warm_minutes:.1f} min "
                 f"rss_after_warmup={mib(rss_warm or rss_start)} "
                 f"rss_end={mib(rss_end)} rss_growth={mib(growth)} (limit {mib(RSS_LIMIT)}) "
                 f"threads_baseline={baseline_threads} "
                 f"threads_after_shutdown={threading.active_count()} leaked_threads={leaked}"
                 + (f" {left}" if leaked > 0 else "")
                 + f" result={'FAIL' if failed else 'OK'}")
        return 1 if failed else 0


def replay(seed: int, rounds: int, out: Callable[[str], None]) -> int:
    """The chain of ``seed``, ``rounds`` times tapped and untapped: the rounds that broke."""
    errors: list[BaseException] = []
    plugins.set_error_handler(errors.append)
    broken = 0
    desc = ""
    for _ in range(rounds):
        found: list[fz.Violation] = []
        for tapped in (True, False):
            o = run_chain(seed, tapped)
            desc = desc or o.desc
            found += o.violations
        found += [fz.Violation("plugins", "plugin", f"{e!r}\n    " + "".join(
                      traceback.format_exception(e.__cause__ or e)).rstrip().replace(
                      "\n", "\n    "))
                  for e in errors if not isinstance(e.__cause__ or e, fz.FuzzError)]
        del errors[:]
        if found:
            if not broken:
                out("\n".join([f"VIOLATION {desc}"] + [f"  {v.culprit} [{v.kind}]: {v.text}"
                                                        for v in found]))
            broken += 1
    Schedulers.shutdown()
    plugins.set_error_handler(None)
    out(f"[soak] replay seed={seed}: {desc}\n[soak] {broken} of {rounds} round(s) broke")
    return 1 if broken else 0


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="tools/soak", description=__doc__.split("\n\n")[0])
    p.add_argument("--minutes", type=float, default=30.0, help="how long (default 30)")
    p.add_argument("--seconds", type=float, help="how long, in seconds (instead of --minutes)")
    p.add_argument("--threads", type=int, default=4, help="consuming threads (default 4)")
    p.add_argument("--seed", type=int, help="the first chain's seed (default: from the clock)")
    p.add_argument("--replay", type=int, metavar="SEED", help="run one chain's seed again")
    p.add_argument("--rounds", type=int, default=REPLAY_ROUNDS,
                   help=f"with --replay: how many times (default {REPLAY_ROUNDS})")
    args = p.parse_args(argv)

    def out(text: str) -> None:
        print(text, flush=True)
    if args.replay is not None:
        return replay(args.replay, args.rounds, out)
    seed = args.seed if args.seed is not None else int(time.time()) % 1_000_000 * 1000
    seconds = args.seconds if args.seconds is not None else args.minutes * 60
    return Soak(seed, max(1, args.threads), out).run(seconds)


if __name__ == "__main__":
    sys.exit(main())
