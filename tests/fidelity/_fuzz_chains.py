"""Random synchronous chains and the RxJava 2.2.21 demand model they are checked against.

A chain is a source, one to four operators and a demand script (``request(n)``/``cancel``
steps run through a :class:`~rxpy2.testing.TestSubscriber`), all drawn from one seed.
Every link of the chain (the source's output, each operator's output, every inner or
other Publisher an operator subscribes to) goes through a :class:`Tap`, which

* checks the signals crossing it: never more items than requested so far (§1.1), at
  most one terminal event and nothing after it (§1.7), nothing once ``cancel()`` was
  called (a synchronous source stops at once), a positive request (§3.9);
* counts the requests crossing it and, at every request, compares the cumulative amount
  with what the consuming operator may ask for in RxJava 2.2.21 (its *rule*: pass the
  downstream demand through, add ``n`` like ``skip``, multiply like ``buffer``, a
  prefetch that is replenished as items are consumed, ...).

A Tap hides the Subscription it passes on, so the tapped run is never fused; the same
chain is run a second time without taps (fusion, ScalarXMap and the sync-chain compiler
allowed): it must keep the TestSubscriber's rules too and, when neither run ends in an
error, signal the same items and terminal event.
"""

from __future__ import annotations

import random
import re
import threading
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from dataclasses import field
from typing import Any

from probes import Forwarding
from probes import ItemsSource

from rxpy2 import Completable
from rxpy2 import Flowable
from rxpy2 import Maybe
from rxpy2 import Single
from rxpy2.exceptions import CompositeException
from rxpy2.exceptions import MissingBackpressureException
from rxpy2.exceptions import UndeliverableException
from rxpy2.reactivestreams import LONG_MAX
from rxpy2.reactivestreams import Publisher
from rxpy2.reactivestreams import Subscriber
from rxpy2.reactivestreams import Subscription
from rxpy2.schedulers import Schedulers
from rxpy2.testing import TestSubscriber

BUFFER_SIZE = 128  # RxJava 2's Flowable.bufferSize()

Rule = Callable[["Hop"], "int | None"]  # the most a hop may have requested (None: no bound)


class FuzzError(Exception):
    """The error the chains' sources and inner Publishers signal."""


def cap_add(a: int, b: int) -> int:
    return min(a + b, LONG_MAX)


def cap_mul(a: int, b: int) -> int:
    return min(a * b, LONG_MAX)


def stable(x: Any) -> int:
    """A hash of ``x`` that does not change between runs (``hash(str)`` does)."""
    return zlib.crc32(repr(x).encode())


# ---------------------------------------------------------------------------- the run


@dataclass
class Violation:
    culprit: str  # the operator (or source) held responsible
    kind: str     # "demand" (a request beyond the model), "signal" (a rule broken on a link)
    text: str


class Run:
    """The taps and stages of one chain execution, and what went wrong in it."""

    def __init__(self, tapped: bool) -> None:
        self.tapped = tapped
        self.violations: list[Violation] = []
        self.taps: list[Tap] = []
        self.join_round = False  # passing on an item of a ParallelJoin round (JOIN_ROUND)

    def tap(self, source: Publisher[Any], label: str, producer: str,
            on_hop: Callable[[Hop], None] | None = None) -> Flowable[Any]:
        """``source`` behind a Tap (the run without taps gets ``source`` itself)."""
        if not self.tapped:
            return source if isinstance(source, Flowable) else Flowable.from_publisher(source)
        t = Tap(self, source, label, producer, on_hop)
        self.taps.append(t)
        return t

    def violate(self, culprit: str, kind: str, text: str) -> None:
        self.violations.append(Violation(culprit, kind, text))

    def in_flight_after_cancel(self, hop: Hop, what: str) -> bool:
        """Whether ``what``, arriving on ``hop`` after its ``cancel()``, may be a signal
        already in flight (§2.8/§3.6) and pass on, still checked for §1.1 and §1.7. Never
        here: the synchronous chains stop at once; tools/soak's asynchronous runs say yes
        on the links of a chain with a scheduler hop."""
        return False


class Hop:
    """One subscription through a Tap: what was requested and what came back."""

    __slots__ = ("tap", "requested", "requests", "items", "terminal", "cancelled",
                 "e_at_sub", "rule", "in_on_next", "cancelled_in_on_next", "after_cancel")

    def __init__(self, tap: Tap) -> None:
        self.tap = tap
        self.requested = 0
        self.requests: list[int] = []
        self.items = 0
        self.terminal: str | None = None
        self.cancelled = False
        self.e_at_sub = 0  # the consumer's emitted count when this hop was subscribed
        self.rule: Rule | None = None
        self.in_on_next = False
        self.cancelled_in_on_next = False
        self.after_cancel = 0  # items let through after cancel() (see JOIN_ROUND)


class Tap(Flowable[Any]):
    """A transparent, checking and counting link (see the module docstring)."""

    def __init__(self, run: Run, source: Publisher[Any], label: str, producer: str,
                 on_hop: Callable[[Hop], None] | None) -> None:
        self._tap_run = run
        self._tap_source = source
        self.label = label
        self.producer = producer
        self._tap_on_hop = on_hop
        self.hops: list[Hop] = []
        self.rule: Rule | None = None      # set by the consuming stage
        self.consumer = "the test"         # the stage the rule belongs to

    @property
    def current(self) -> Hop:
        return self.hops[-1] if self.hops else _EMPTY_HOP

    def subscribe_actual(self, subscriber: Subscriber[Any]) -> None:
        hop = Hop(self)
        hop.rule = self.rule
        if self._tap_on_hop is not None:
            self._tap_on_hop(hop)
        self.hops.append(hop)
        self._tap_source.subscribe(_TapSubscriber(self._tap_run, hop, subscriber))


#: Sources that signal their terminal event right after ``on_subscribe`` even when it was
#: cancelled there (RxJava 2's ``EmptySubscription.complete``/``error`` do the same).
#: ``range(0, 0)`` and an empty ``from_iterable`` are ``empty()`` in RxJava 2.
LATE_TERMINAL_OK = ("empty()", "error(", "range(0, 0)", "from_iterable(range(0))")
#: Operators that complete after passing on their last item even when the downstream
#: cancelled from inside that ``on_next`` (RxJava 2.2.21 FlowableTake/FlowableLimit:
#: ``downstream.onNext(t); if (stop) { upstream.cancel(); onComplete(); }``; the
#: SinglePostCompleteSubscriber of onErrorReturn/materialize: ``onNext(v); onComplete()``;
#: FlowableBuffer's onComplete: the last partial buffer, then ``onComplete()``),
#: or, for take(0)/limit(0), from inside ``on_subscribe`` (``EmptySubscription.complete``).
#: A description names such an operator at its start or after its last ``).`` (a stage
#: built of several operators, ``concat_map_iterable(...).take(2)``); ``buffer(`` is the
#: count buffer only (a boundary buffer drains and checks for cancel first).
COMPLETE_AFTER_LAST = ("take(", "limit(", "on_error_return_item(", "materialize(", "buffer(1",
                       "buffer(2", "buffer(3")


#: Operators that may still complete after any cancel once they cancelled their upstream
#: themselves: FlowableBufferBoundary (RxJava 2.2.21 and 3.x) cancels its source when no
#: boundary is left and completes from its drain; a downstream cancel after that finds the
#: source cancelled already, ``if (SubscriptionHelper.cancel(upstream)) { cancelled = true;
#: ... }`` leaves ``cancelled`` unset, and the drain's completion still goes out.
SELF_CANCELLED_COMPLETE = ("buffer(openings=",)


def completes_after_last(producer: str) -> bool:
    return producer.startswith(COMPLETE_AFTER_LAST) or producer.rsplit(").", 1)[-1].startswith(
        COMPLETE_AFTER_LAST)


#: ParallelJoin (``sequential``/``sequential_delay_error``) in RxJava 2.2.21 (and 3.x):
#: a drain round polls one item of each rail's queue in turn, ``a.onNext(v);
#: inner.requestOne();`` with no look at ``cancelled`` until the round ends, so a
#: downstream that cancels inside ``onNext`` may still get the items the later rails of
#: that round had queued: at most ``rails - 1``. rxpy2 keeps that round as it is. Such an
#: item goes on (RxJava's pass-through operators pass it on too: onErrorReturn's
#: SinglePostCompleteSubscriber, materialize, ... have no cancelled check in onNext), and
#: the links below it let it through as well while it is on its way.
JOIN_ROUND = re.compile(r"parallel\((\d+), [^)]*\).*?\.sequential(_delay_error)?\(")


def _join_round_item(hop: Hop) -> bool:
    """Whether an ``on_next`` after ``cancel()`` on ``hop`` is one of ParallelJoin's round."""
    m = JOIN_ROUND.match(hop.tap.producer)
    return bool(m) and hop.cancelled_in_on_next and hop.after_cancel < int(m.group(1)) - 1


#: Requests may come from two threads at once (a soak's consumer thread and, on a worker, an
#: operator replenishing from inside ``on_next``, as RxJava 2's operators allow): the counts
#: they add to, and the rule that reads them, are taken one request at a time.
_ACCOUNTING = threading.Lock()


class _TapSubscriber(Forwarding, Subscription):
    def __init__(self, run: Run, hop: Hop, downstream: Subscriber[Any]) -> None:
        super().__init__(downstream)
        self.run = run
        self.hop = hop

    def _signal_rule(self, what: str) -> bool:
        """§1.7 and cancellation checks; False: the signal is not passed on."""
        hop = self.hop
        if hop.terminal is not None:
            self.run.violate(hop.tap.producer, "signal",
                             f"{hop.tap.label}: {what} after {hop.terminal} (§1.7)")
            return False
        if hop.cancelled and not self.run.in_flight_after_cancel(hop, what):
            terminal = what.startswith(("on_error", "on_complete"))
            if not (terminal and (hop.tap.producer.split("=")[-1].startswith(LATE_TERMINAL_OK)
                                  or (hop.cancelled_in_on_next
                                      and completes_after_last(hop.tap.producer))
                                  or (what == "on_complete"
                                      and hop.tap.producer.startswith(SELF_CANCELLED_COMPLETE)))):
                self.run.violate(hop.tap.producer, "signal",
                                 f"{hop.tap.label}: {what} after cancel()")
            return False
        return True

    def on_next(self, item: Any) -> None:
        hop = self.hop
        run = self.run
        if hop.cancelled and hop.terminal is None and (run.join_round or _join_round_item(hop)):
            hop.after_cancel += 1
            outer, run.join_round = run.join_round, True
            try:
                self.downstream.on_next(item)  # what a consumer that cancelled gets in RxJava
            finally:
                run.join_round = outer
            return
        if not self._signal_rule(f"on_next({item!r})"):
            return
        hop.items += 1
        if hop.items > hop.requested:
            self.run.violate(hop.tap.producer, "signal",
                             f"{hop.tap.label}: on_next #{hop.items} ({item!r}) beyond the "
                             f"{hop.requested} requested (§1.1)")
        hop.in_on_next = True
        try:
            self.downstream.on_next(item)
        finally:
            hop.in_on_next = False

    def on_error(self, error: BaseException) -> None:
        hop = self.hop
        if hop.cancelled and hop.terminal is None and self.run.join_round:
            # a stage's function failed on a join round's item that followed the cancel:
            # RxJava's operator signals that error too (BasicFuseableSubscriber.fail)
            hop.terminal = f"on_error({error!r})"
            self.downstream.on_error(error)
            return
        if not self._signal_rule(f"on_error({error!r})"):
            return
        hop.terminal = f"on_error({error!r})"
        self.downstream.on_error(error)

    def on_complete(self) -> None:
        if not self._signal_rule("on_complete"):
            return
        self.hop.terminal = "on_complete"
        self.downstream.on_complete()

    def request(self, n: int) -> None:
        with _ACCOUNTING:
            self._account(n)
        self.upstream.request(n)

    def _account(self, n: int) -> None:
        hop = self.hop
        hop.requests.append(n)
        if n <= 0:
            self.run.violate(hop.tap.consumer, "signal", f"{hop.tap.label}: request({n}) (§3.9)")
        else:
            hop.requested = cap_add(hop.requested, n)
            rule = hop.rule
            # a request after the hop's terminal event carries no demand (§3.6), and RxJava
            # makes such requests too: an operator whose downstream resubscribed from inside
            # its on_subscribe (retry over a source that fails at once) asks its own initial
            # amount after the resubscription, when the rule reads the new subscription
            if rule is not None and not hop.cancelled and hop.terminal is None:
                bound = rule(hop)
                if bound is not None and hop.requested > bound:
                    self.run.violate(
                        hop.tap.consumer, "demand",
                        f"{hop.tap.label}: requested {_amount(hop.requested)} in all "
                        f"({hop.requests}) but the RxJava 2.2.21 model allows at most "
                        f"{_amount(bound)}")

    def cancel(self) -> None:
        hop = self.hop
        if not hop.cancelled:
            hop.cancelled = True
            hop.cancelled_in_on_next = hop.in_on_next or hop.items == 0
        self.upstream.cancel()


def _amount(n: int) -> str:
    return "LONG_MAX" if n >= LONG_MAX else str(n)


class _NoTap:
    label = producer = consumer = "-"


_EMPTY_HOP = Hop(_NoTap())  # type: ignore[arg-type]


# ---------------------------------------------------------------------------- sources


class RecordingSource(ItemsSource):
    """``0..n-1`` under demand, then completion (or a new ``FuzzError`` if ``fail``); every
    request is logged in ``requests``. Synchronous and reentrant-safe: a request made from
    inside ``on_next`` is added to the demand of the loop already running."""

    def __init__(self, n: int, fail: bool) -> None:
        super().__init__(range(n))
        self._rec_fail = fail

    def make_error(self) -> BaseException | None:
        return FuzzError("source") if self._rec_fail else None


def make_source(rng: random.Random, size: int) -> tuple[Publisher[Any], str]:
    kind = rng.choice(("range", "range", "from_iterable", "just", "just_many", "empty",
                       "error", "recording", "recording_error"))
    if kind == "range":
        return Flowable.range(0, size), f"range(0, {size})"
    if kind == "from_iterable":
        return Flowable.from_iterable(list(range(size))), f"from_iterable(range({size}))"
    if kind == "just":
        return Flowable.just(7), "just(7)"
    if kind == "just_many":
        return Flowable.just(1, 2, 3), "just(1, 2, 3)"
    if kind == "empty":
        return Flowable.empty(), "empty()"
    if kind == "error":
        return Flowable.error(FuzzError("error()")), "error(FuzzError)"
    fail = kind == "recording_error"
    return RecordingSource(size, fail), f"RecordingSource({size}, fail={fail})"


# ---------------------------------------------------------------------------- stages


class Stage:
    """One operator of the chain: its upstream Tap (``up``), its output Tap (``down``) and
    the demand rule of every Publisher it consumes."""

    def __init__(self, run: Run, index: int, up: Flowable[Any], seed: int) -> None:
        self.run = run
        self.index = index
        self.up = up
        self.seed = seed
        self.desc = "?"
        self.name = "?"
        self.down: Any = None
        self.mapped = 0  # mapper calls (items taken off the upstream queue)
        self.order_dependent = False  # see ORDER_DEPENDENT
        self.governed: list[Tap] = []  # the links this stage's rules bound
        #: (hop, k): an iterable's last element went out as item #k of that hop
        self.last_elements: list[tuple[Hop, int]] = []

    # the counters the rules read (the latest subscription of each link)
    @property
    def D(self) -> int:  # noqa: N802 - the downstream's cumulative demand
        return self.down.current.requested if isinstance(self.down, Tap) else LONG_MAX

    @property
    def E(self) -> int:  # noqa: N802 - items emitted downstream
        return self.down.current.items if isinstance(self.down, Tap) else 0

    @property
    def U(self) -> int:  # noqa: N802 - items received from the main upstream
        return self.up.current.items if isinstance(self.up, Tap) else 0

    def govern(self, tap: Flowable[Any], rule: Rule) -> None:
        """``rule`` bounds the requests this stage makes on ``tap``."""
        if isinstance(tap, Tap):
            tap.rule = rule
            tap.consumer = self.desc
            self.governed.append(tap)
            for hop in tap.hops:
                hop.rule = rule

    def tapped(self, source: Publisher[Any], label: str, rule: Rule) -> Flowable[Any]:
        """``source`` (an inner or other Publisher of this stage) behind a Tap governed by
        ``rule``; each subscription notes how much this stage had emitted by then."""
        def on_hop(hop: Hop) -> None:
            hop.e_at_sub = self.E
        t = self.run.tap(source, f"#{self.index} {self.name}: {label}", label, on_hop)
        self.govern(t, rule)
        return t

    def resubscribed(self) -> Callable[[Hop], None]:
        def on_hop(hop: Hop) -> None:
            hop.e_at_sub = self.E
        return on_hop

    # ---- the rules (RxJava 2.2.21)
    def unbounded(self, hop: Hop) -> int | None:
        return None

    def downstream_or(self, bound: Callable[[int], int]) -> int | None:
        d = self.D
        return None if d >= LONG_MAX else bound(d)

    def pass_through(self, hop: Hop) -> int | None:
        return self.downstream_or(lambda d: d)

    def replenish_dropped(self, hop: Hop) -> int | None:
        """filter & co: ``request(1)`` for each item received and not emitted."""
        return self.downstream_or(lambda d: d + (self.U - self.E))

    def plus(self, n: int) -> Rule:
        return lambda hop: self.downstream_or(lambda d: d + n)

    def capped(self, n: int) -> Rule:
        return lambda hop: n if self.D >= LONG_MAX else min(self.D, n)

    def arbiter(self, hop: Hop) -> int | None:
        """SubscriptionArbiter: a new source is asked for what is left of the demand."""
        return self.downstream_or(lambda d: d - hop.e_at_sub)

    def prefetch_emitted(self, p: int) -> Rule:
        """A queue of ``p`` replenished as its items are emitted downstream."""
        return lambda hop: cap_add(p, self.E)

    def prefetch_mapped(self, p: int) -> Rule:
        """A queue of ``p`` replenished as its items are taken by the mapper."""
        return lambda hop: cap_add(p, self.mapped)

    @staticmethod
    def prefetch_received(p: int) -> Rule:
        """An inner/other queue of ``p`` replenished as its items are consumed (bounded by
        the items it received)."""
        return lambda hop: cap_add(p, hop.items)

    # ---- inner Publishers
    def inner(self, x: Any, rule: Rule) -> Publisher[Any]:
        """The inner Publisher of item ``x``: decided by ``x`` and the stage's seed alone."""
        self.mapped += 1
        r = random.Random(f"{self.seed}:{x!r}")
        k = r.random()
        base = stable(x) % 50
        if k < 0.2:
            return Flowable.just(base)  # untapped: the scalar shortcuts stay reachable
        if k < 0.3:
            return self.tapped(Flowable.empty(), f"inner({x!r})=empty()", rule)
        if k < 0.37:
            return self.tapped(Flowable.error(FuzzError(f"inner {x!r}")),
                               f"inner({x!r})=error()", rule)
        n = r.choice((1, 2, 3, 4, 150))
        fail = r.random() < 0.1
        return self.tapped(RecordingSource(n, fail),
                           f"inner({x!r})=RecordingSource({n}, fail={fail})", rule)


Op = Callable[[Stage, random.Random, Flowable[Any]], Flowable[Any]]
OPS: dict[str, Op] = {}


def op(name: str) -> Callable[[Op], Op]:
    def deco(fn: Op) -> Op:
        OPS[name] = fn
        return fn
    return deco


def keep(x: Any) -> bool:
    return stable(x) % 3 != 0


def _one_to_one(name: str, desc: str, rule: str,
                build: Callable[[Flowable[Any]], Flowable[Any]]) -> None:
    """An operator whose whole model is its description and one demand rule."""
    def make(st: Stage, rng: random.Random, up: Flowable[Any]) -> Flowable[Any]:
        st.desc = desc
        st.govern(up, getattr(st, rule))
        return build(up)
    OPS[name] = make


# (name, description, demand rule, assembly)
for _name, _desc, _rule, _build in [
    ("map", "map(x -> [x])", "pass_through", lambda up: up.map(lambda x: [x])),
    # FlowableFilter: request(1) per dropped item
    ("filter", "filter(crc32(repr(x)) % 3 != 0)", "replenish_dropped", lambda up: up.filter(keep)),
    ("distinct", "distinct(crc32(repr(x)) % 4)", "replenish_dropped",
     lambda up: up.distinct(lambda x: stable(x) % 4)),
    ("distinct_until_changed", "distinct_until_changed(crc32(repr(x)) % 2)", "replenish_dropped",
     lambda up: up.distinct_until_changed(lambda x: stable(x) % 2)),
    # FlowableSkipWhile: request(1) per skipped item
    ("skip_while", "skip_while(keep)", "replenish_dropped", lambda up: up.skip_while(keep)),
    ("take_while", "take_while(crc32(repr(x)) % 5 != 0)", "pass_through",
     lambda up: up.take_while(lambda x: stable(x) % 5 != 0)),
    ("scan", "scan((a, x) -> x)", "pass_through", lambda up: up.scan(lambda a, x: x)),
    ("default_if_empty", "default_if_empty(-5)", "pass_through",
     lambda up: up.default_if_empty(-5)),
    # SinglePostCompleteSubscriber: requests pass through
    ("on_error_return_item", "on_error_return_item(-9)", "pass_through",
     lambda up: up.on_error_return_item(-9)),
    ("hide", "hide()", "pass_through", lambda up: up.hide()),
]:
    _one_to_one(_name, _desc, _rule, _build)


@op("scan_seed")
def _scan_seed(st: Stage, rng: random.Random, up: Flowable[Any]) -> Flowable[Any]:
    st.desc = "scan((a, x) -> x, seed=-1)"
    # FlowableScanSeed: request(prefetch - 1), then `limit` each time `limit` were emitted
    st.govern(up, st.prefetch_emitted(BUFFER_SIZE))
    return up.scan(lambda a, x: x, -1)


@op("take")
def _take(st: Stage, rng: random.Random, up: Flowable[Any]) -> Flowable[Any]:
    n = rng.choice((0, 1, 2, 3, 5, 200))
    st.desc = f"take({n})"
    # RxJava 2.2.21 FlowableTake: request(LONG_MAX) when the first request is >= n;
    # RxJava 3 (and rxpy2, an allowed departure) never ask for more than n
    st.govern(up, st.capped(n))
    return up.take(n)


@op("limit")
def _limit(st: Stage, rng: random.Random, up: Flowable[Any]) -> Flowable[Any]:
    n = rng.choice((0, 1, 2, 3, 5, 200))
    st.desc = f"limit({n})"
    st.govern(up, st.capped(n))  # FlowableLimit: never more than n in all
    return up.limit(n)


@op("skip")
def _skip(st: Stage, rng: random.Random, up: Flowable[Any]) -> Flowable[Any]:
    n = rng.choice((0, 1, 2, 5))
    st.desc = f"skip({n})"
    st.govern(up, st.plus(n))  # FlowableSkip: request(n) in onSubscribe, then pass-through
    return up.skip(n)


@op("skip_last")
def _skip_last(st: Stage, rng: random.Random, up: Flowable[Any]) -> Flowable[Any]:
    n = rng.choice((1, 2, 5))
    st.desc = f"skip_last({n})"
    st.govern(up, st.plus(n))  # FlowableSkipLast: request(n) in onSubscribe
    return up.skip_last(n)


@op("take_last")
def _take_last(st: Stage, rng: random.Random, up: Flowable[Any]) -> Flowable[Any]:
    n = rng.choice((0, 1, 2, 5))
    st.desc = f"take_last({n})"
    st.govern(up, st.unbounded)  # FlowableTakeLast: request(LONG_MAX)
    return up.take_last(n)


@op("window")
def _window(st: Stage, rng: random.Random, up: Flowable[Any]) -> Flowable[Any]:
    size = rng.choice((1, 2, 3))
    return window_stage(st, up, size, rng.choice((size, size, 1, 2, 4)))


def window_stage(st: Stage, up: Flowable[Any], size: int, skip: int) -> Flowable[Any]:
    """``up.window(size, skip).concat_map(w -> w.to_list())`` with its demand rules."""
    st.desc = f"window({size}, {skip}).concat_map(w -> w.to_list())"
    windows = st.run.tap(up.window(size, skip), f"#{st.index} window({size}, {skip}) -> "
                         "concat_map", f"window({size}, {skip})")
    # the demand for windows is concat_map's (checked against concat_map's prefetch)
    if isinstance(windows, Tap):
        windows.consumer = "concat_map(w -> w.to_list())"
        windows.rule = lambda hop: cap_add(2, hop.items)
    _windowing(st, up, size, skip, lambda: windows.current.requested
               if isinstance(windows, Tap) else LONG_MAX)
    return windows.concat_map(lambda w: w.to_list().to_flowable())


@op("buffer")
def _buffer(st: Stage, rng: random.Random, up: Flowable[Any]) -> Flowable[Any]:
    size = rng.choice((1, 2, 3))
    skip = rng.choice((size, size, 1, 2, 4))
    st.desc = f"buffer({size}, {skip})"
    _windowing(st, up, size, skip, lambda: st.D)
    return up.buffer(size, skip)


def _windowing(st: Stage, up: Flowable[Any], size: int, skip: int,
               demand: Callable[[], int]) -> None:
    """FlowableBuffer/FlowableWindow: exact ``size * n``; skipping ``skip * n`` (the first
    request ``size * n + (skip - size) * (n - 1)``); overlapping ``size + skip * (n - 1)``
    first, then ``skip * n``. ``demand``: the cumulative demand for buffers/windows."""
    if size == skip:
        def total(d: int) -> int:
            return cap_mul(d, size)
    elif skip > size:
        def total(d: int) -> int:
            return cap_mul(d, skip)
    else:
        def total(d: int) -> int:
            return cap_add(size, cap_mul(skip, max(d - 1, 0)))

    def rule(hop: Hop) -> int | None:
        d = demand()
        return None if d >= LONG_MAX else total(d)
    st.govern(up, rule)


@op("concat_map")
def _concat_map(st: Stage, rng: random.Random, up: Flowable[Any]) -> Flowable[Any]:
    prefetch = rng.choice((1, 2, 2, 4))
    st.desc = f"concat_map(inner, prefetch={prefetch})"
    # FlowableConcatMap: request(prefetch), then `limit` each time `limit` were mapped;
    # an inner is asked (SubscriptionArbiter) for the demand left when it is subscribed
    st.govern(up, st.prefetch_mapped(prefetch))
    return up.concat_map(lambda x: st.inner(x, st.arbiter), prefetch)


@op("flat_map")
def _flat_map(st: Stage, rng: random.Random, up: Flowable[Any]) -> Flowable[Any]:
    maxc = rng.choice((None, 1, 2, 3))
    buf = rng.choice((BUFFER_SIZE, BUFFER_SIZE, 1, 4))
    kw: dict[str, int] = {"buffer_size": buf}
    if maxc is not None:
        kw["max_concurrency"] = maxc
    st.desc = f"flat_map(inner, max_concurrency={maxc or 'default'}, buffer_size={buf})"
    # FlowableFlatMap: request(maxConcurrency) (bufferSize() = 128 by default), one more
    # per inner done; each inner: request(bufferSize), replenished as it is consumed
    st.govern(up, lambda hop: cap_add(maxc or BUFFER_SIZE, st.mapped))
    return up.flat_map(lambda x: st.inner(x, st.prefetch_received(buf)), **kw)


@op("concat_map_eager")
def _concat_map_eager(st: Stage, rng: random.Random, up: Flowable[Any]) -> Flowable[Any]:
    maxc = rng.choice((1, 2, 3))
    prefetch = rng.choice((1, 2, BUFFER_SIZE))
    st.desc = f"concat_map_eager(inner, max_concurrency={maxc}, prefetch={prefetch})"
    st.govern(up, lambda hop: cap_add(maxc, st.mapped))
    return up.concat_map_eager(lambda x: st.inner(x, st.prefetch_received(prefetch)),
                               maxc, prefetch)


@op("switch_map")
def _switch_map(st: Stage, rng: random.Random, up: Flowable[Any]) -> Flowable[Any]:
    st.desc = "switch_map(inner)"
    st.govern(up, st.unbounded)  # FlowableSwitchMap: request(LONG_MAX) upstream
    return up.switch_map(lambda x: st.inner(x, st.prefetch_received(BUFFER_SIZE)))


@op("rebatch_requests")
def _rebatch(st: Stage, rng: random.Random, up: Flowable[Any]) -> Flowable[Any]:
    n = rng.choice((1, 2, 3, 8))
    st.desc = f"rebatch_requests({n})"
    st.govern(up, st.prefetch_emitted(n))  # observeOn(immediate, true, n)
    return up.rebatch_requests(n)


@op("observe_on_trampoline")
def _observe_on(st: Stage, rng: random.Random, up: Flowable[Any]) -> Flowable[Any]:
    n = rng.choice((1, 2, BUFFER_SIZE))
    st.desc = f"observe_on(trampoline(), buffer_size={n})"
    st.govern(up, st.prefetch_emitted(n))
    return up.observe_on(Schedulers.trampoline(), buffer_size=n)


@op("on_backpressure")
def _on_backpressure(st: Stage, rng: random.Random, up: Flowable[Any]) -> Flowable[Any]:
    which = rng.choice(("buffer", "drop", "latest"))
    st.desc = f"on_backpressure_{which}()"
    st.govern(up, st.unbounded)
    return getattr(up, f"on_backpressure_{which}")()


@op("to_list")
def _to_list(st: Stage, rng: random.Random, up: Flowable[Any]) -> Flowable[Any]:
    which = rng.choice(("to_list", "count", "element_at", "ignore_elements"))
    st.desc = f"{which}().to_flowable()"
    st.govern(up, st.unbounded)
    if which == "element_at":
        return up.element_at(1).to_flowable()
    return getattr(up, which)().to_flowable()


def _then_other(name: str, main_rule: str) -> None:
    """``up.<name>(other)``: the other source is subscribed with the demand left over
    (a SubscriptionArbiter in RxJava 2); the main one is governed by ``main_rule``."""
    def make(st: Stage, rng: random.Random, up: Flowable[Any]) -> Flowable[Any]:
        n = rng.choice((0, 1, 3))
        st.desc = f"{name}(RecordingSource({n}))"
        st.govern(up, getattr(st, main_rule))
        other = st.tapped(RecordingSource(n, False), "other", st.arbiter)
        result: Flowable[Any] = getattr(up, name)(other)
        return result
    OPS[name] = make


_then_other("switch_if_empty", "pass_through")
_then_other("concat_with", "arbiter")


@op("start_with")
def _start_with(st: Stage, rng: random.Random, up: Flowable[Any]) -> Flowable[Any]:
    st.desc = "start_with(-1)"
    st.govern(up, st.arbiter)  # concatArray(just(-1), this)
    return up.start_with(-1)


@op("merge_with")
def _merge_with(st: Stage, rng: random.Random, up: Flowable[Any]) -> Flowable[Any]:
    n = rng.choice((0, 1, 3, 150))
    st.desc = f"merge_with(RecordingSource({n}))"
    # mergeArray: fromArray(sources).flatMap(identity, sources.length): each source is an
    # inner of bufferSize()
    rule = st.prefetch_received(BUFFER_SIZE)
    st.govern(up, rule)
    return up.merge_with(st.tapped(RecordingSource(n, False), "other", rule))


@op("zip_with")
def _zip_with(st: Stage, rng: random.Random, up: Flowable[Any]) -> Flowable[Any]:
    n = rng.choice((0, 1, 3, 150))
    buf = rng.choice((1, 2, BUFFER_SIZE))
    st.desc = f"zip_with(RecordingSource({n}), buffer_size={buf})"
    # FlowableZip: each source request(prefetch), replenished as the zipped items go out
    rule = st.prefetch_emitted(buf)
    st.govern(up, rule)
    return up.zip_with(st.tapped(RecordingSource(n, False), "other", rule), buffer_size=buf)


@op("on_error_resume_next")
def _on_error_resume_next(st: Stage, rng: random.Random, up: Flowable[Any]) -> Flowable[Any]:
    n = rng.choice((0, 1, 3))
    st.desc = f"on_error_resume_next(RecordingSource({n}))"
    st.govern(up, st.arbiter)  # FlowableOnErrorNext is a SubscriptionArbiter
    return up.on_error_resume_next(st.tapped(RecordingSource(n, False), "fallback",
                                             st.arbiter))


@op("materialize")
def _materialize(st: Stage, rng: random.Random, up: Flowable[Any]) -> Flowable[Any]:
    back = rng.random() < 0.5
    st.desc = "materialize()" + (".dematerialize()" if back else ".map(repr)")
    st.govern(up, st.pass_through)
    m = up.materialize()
    return m.dematerialize() if back else m.map(repr)


@op("repeat_retry")
def _repeat_retry(st: Stage, rng: random.Random, up: Flowable[Any]) -> Flowable[Any]:
    which = rng.choice(("repeat", "retry"))
    times = rng.choice((1, 2, 3))
    st.desc = f"{which}({times})"
    # FlowableRepeat/FlowableRetryBiPredicate: a SubscriptionArbiter over resubscriptions
    st.govern(up, st.arbiter)
    return getattr(up, which)(times)


@op("share")
def _share(st: Stage, rng: random.Random, up: Flowable[Any]) -> Flowable[Any]:
    st.desc = "share()"
    # FlowablePublish: request(bufferSize), replenished as the items are consumed
    st.govern(up, lambda hop: cap_add(BUFFER_SIZE, st.E))
    return up.share()


@op("replay")
def _replay(st: Stage, rng: random.Random, up: Flowable[Any]) -> Flowable[Any]:
    size = rng.choice((None, None, 1, 2, 5))
    st.desc = f"replay({size or ''}).auto_connect()"
    # FlowableReplay.manageRequests (unbounded and size-bound buffers alike): the largest
    # demand of the subscribers (one here) less what was already asked for, so a
    # request(LONG_MAX) after request(n) asks for LONG_MAX - n (LONG_MAX in all)
    st.govern(up, st.pass_through)
    return up.replay(size).auto_connect()


@op("cache")
def _cache(st: Stage, rng: random.Random, up: Flowable[Any]) -> Flowable[Any]:
    st.desc = "cache()"
    st.govern(up, st.unbounded)  # FlowableCache: request(LONG_MAX)
    return up.cache()


@op("group_by")
def _group_by(st: Stage, rng: random.Random, up: Flowable[Any]) -> Flowable[Any]:
    st.desc = "group_by(crc32 % 3).flat_map(g -> g.to_list())"
    # FlowableGroupBy (RxJava 2.2.21): request(bufferSize) in onSubscribe; then
    # GroupBySubscriber.drainNormal requests what the outer emitted (the groups:
    # `upstream.request(e)`) and State.drainNormal/checkTerminated what a group emitted or
    # discarded once cancelled (the items: `parent.upstream.request(e)`), so an item that
    # opens a group is replenished twice: bufferSize + groups emitted + items received
    # (``mapped`` counts the groups flat_map took)
    st.govern(up, lambda hop: cap_add(BUFFER_SIZE + st.mapped, hop.items))

    def per_group(g: Any) -> Flowable[Any]:
        st.mapped += 1
        return g.to_list().to_flowable()
    return up.group_by(lambda x: stable(x) % 3).flat_map(per_group)


# ------------------------------------------------- boundaries, selectors, 0-1 types, rails


def _link(st: Stage, f: Flowable[Any], what: str, consumer: str, rule: Rule) -> Flowable[Any]:
    """A link inside a stage (between two of the operators it is made of), governed by
    ``rule`` for ``consumer``."""
    t = st.run.tap(f, f"#{st.index} {what} -> {consumer}", what)
    if isinstance(t, Tap):
        t.consumer = consumer
        t.rule = rule
    return t


def _boundary(st: Stage, rng: random.Random, label: str) -> tuple[Flowable[Any], str]:
    """A boundary/indicator Publisher behind a Tap (requested without bound, as every
    DisposableSubscriber of RxJava 2 does): mostly one that never signals, so that the
    run stays synchronous and the outcome is the main source's."""
    k = rng.random()
    if k < 0.45:
        return st.tapped(Flowable.never(), f"{label}=never()", st.unbounded), "never()"
    st.order_dependent = True
    if k < 0.6:
        return st.tapped(Flowable.empty(), f"{label}=empty()", st.unbounded), "empty()"
    if k < 0.7:
        return (st.tapped(Flowable.error(FuzzError(label)), f"{label}=error()", st.unbounded),
                "error()")
    n = rng.choice((1, 2, 3))
    return (st.tapped(RecordingSource(n, False), f"{label}=RecordingSource({n})", st.unbounded),
            f"RecordingSource({n})")


def _boundary_supplier(st: Stage, rng: random.Random) -> tuple[Callable[[], Flowable[Any]], str]:
    """A boundary supplier: ``budget`` boundaries of a few items (each one's first item or
    completion closes a buffer/window and supplies the next), then boundaries that never
    signal (an always-signalling supplier would loop for ever)."""
    budget = rng.choice((0, 1, 2, 3))
    n = rng.choice((0, 1, 2))
    st.order_dependent = budget > 0
    calls = [0]

    def supplier() -> Flowable[Any]:
        calls[0] += 1
        if calls[0] <= budget:
            return st.tapped(RecordingSource(n, False),
                             f"boundary #{calls[0]}=RecordingSource({n})", st.unbounded)
        return st.tapped(Flowable.never(), f"boundary #{calls[0]}=never()", st.unbounded)
    return supplier, f"boundary_supplier({budget} x RecordingSource({n}), then never())"


def _openings(st: Stage, rng: random.Random) -> tuple[dict[str, Any], str]:
    """``openings``/``closing_selector`` of a buffer or window: each opening ``o``'s
    closing indicator is decided by ``o`` and the stage's seed."""
    openings, what = _boundary(st, rng, "openings")

    def closing(o: Any) -> Flowable[Any]:
        return _boundary(st, random.Random(f"{st.seed}:close:{o!r}"), f"closing({o!r})")[0]
    return ({"openings": openings, "closing_selector": closing},
            f"openings={what}, closing_selector=o -> indicator(o)")


@op("buffer_boundary")
def _buffer_boundary(st: Stage, rng: random.Random, up: Flowable[Any]) -> Flowable[Any]:
    # FlowableBufferExactBoundary / FlowableBufferBoundarySupplier: s.request(LONG_MAX)
    # upstream; every boundary is a DisposableSubscriber (request(LONG_MAX));
    # FlowableBufferBoundary (openings/closings): s.request(LONG_MAX), and the open and
    # close subscribers setOnce(.., LONG_MAX)
    st.govern(up, st.unbounded)
    k = rng.random()
    if k < 0.4:
        boundary, what = _boundary(st, rng, "boundary")
        st.desc = f"buffer(boundary={what})"
        return up.buffer(boundary)
    if k < 0.7:
        kw, what = _openings(st, rng)
        st.desc = f"buffer({what})"
        return up.buffer(**kw)
    supplier, what = _boundary_supplier(st, rng)
    st.desc = f"buffer({what})"
    return up.buffer(supplier)


@op("window_boundary")
def _window_boundary(st: Stage, rng: random.Random, up: Flowable[Any]) -> Flowable[Any]:
    # FlowableWindowBoundary: setOnce(upstream, s, LONG_MAX); FlowableWindowBoundarySupplier
    # and FlowableWindowBoundarySelector: s.request(LONG_MAX); their boundary, open and
    # close subscribers are DisposableSubscribers
    st.govern(up, st.unbounded)
    k = rng.random()
    if k < 0.4:
        boundary, what = _boundary(st, rng, "boundary")
        form = f"window(boundary={what})"
        windows = up.window(boundary)
    elif k < 0.7:
        kw, what = _openings(st, rng)
        form = f"window({what})"
        windows = up.window(**kw)
    else:
        supplier, what = _boundary_supplier(st, rng)
        form = f"window({what})"
        windows = up.window(supplier)
    st.desc = f"{form}.concat_map(w -> w.to_list())"
    # the windows are concat_map's upstream: request(2), one more per window used
    link = _link(st, windows, form, "concat_map(w -> w.to_list())",
                 Stage.prefetch_received(2))
    return link.concat_map(lambda w: w.to_list().to_flowable())


@op("timeout_selector")
def _timeout_selector(st: Stage, rng: random.Random, up: Flowable[Any]) -> Flowable[Any]:
    first = rng.random() < 0.5
    fallback_n = rng.choice((None, None, 0, 2))
    parts = ["item_timeout=x -> indicator(x)"]
    kw: dict[str, Any] = {}
    if first:
        kw["first_timeout"], what = _boundary(st, rng, "first_timeout")
        parts.append(f"first_timeout={what}")
    if fallback_n is not None:
        # TimeoutFallbackSubscriber is a SubscriptionArbiter: the fallback is asked for the
        # demand left (produced(consumed) before subscribing it)
        kw["fallback"] = st.tapped(RecordingSource(fallback_n, False), "fallback", st.arbiter)
        parts.append(f"fallback=RecordingSource({fallback_n})")
    st.desc = f"timeout({', '.join(parts)})"
    # FlowableTimeout: TimeoutSubscriber defers the downstream's requests (pass-through),
    # TimeoutFallbackSubscriber is an arbiter; each TimeoutConsumer: setOnce(.., LONG_MAX)
    st.govern(up, st.pass_through if fallback_n is None else st.arbiter)

    # (the first indicator is subscribed before the source, an item's right after the
    # item: which one fires first does not depend on fusion)
    st.order_dependent = False

    def indicator(x: Any) -> Flowable[Any]:
        r = random.Random(f"{st.seed}:{x!r}")
        t = _boundary(st, r, f"item_timeout({x!r})")[0]
        st.order_dependent = False
        return t
    return up.timeout(item_timeout=indicator, **kw)


def _zero_one(st: Stage, x: Any, kind: str) -> Any:
    """The Single/Maybe/Completable of item ``x`` (``kind``): decided by ``x`` and the
    stage's seed; one made of a Tap'd source is requested without bound (firstOrError,
    firstElement and ignoreElements request LONG_MAX)."""
    st.mapped += 1
    r = random.Random(f"{st.seed}:{x!r}")
    k = r.random()
    base = stable(x) % 50
    cls: Any = {"single": Single, "maybe": Maybe, "completable": Completable}[kind]
    if k < 0.3:
        if kind == "completable":
            return Completable.complete()
        if kind == "maybe" and k < 0.1:
            return Maybe.empty()
        return cls.just(base)
    if k < 0.38:
        return cls.error(FuzzError(f"inner {x!r}"))
    n = r.choice((0, 1, 2, 150)) if kind != "single" else r.choice((1, 1, 2, 150, 0))
    fail = r.random() < 0.1
    src = st.tapped(RecordingSource(n, fail), f"inner({x!r})=RecordingSource({n}, fail={fail})",
                    st.unbounded)
    if kind == "single":
        return src.first_or_error()
    if kind == "maybe":
        return src.first_element()
    return src.ignore_elements()


_ZERO_ONE_KINDS = ("single", "maybe", "completable")


def _after(kind: str, result: Any) -> Flowable[Any]:
    """A Completable result of a ``*_map_completable`` as a Flowable."""
    return result.to_flowable() if kind == "completable" else result  # type: ignore[no-any-return]


@op("concat_map_zero_one")
def _concat_map_zero_one(st: Stage, rng: random.Random, up: Flowable[Any]) -> Flowable[Any]:
    kind = rng.choice(_ZERO_ONE_KINDS)
    prefetch = rng.choice((1, 2, 2, 4))
    delay = rng.choice((None, None, True, False))
    name = f"concat_map_{kind}" + ("" if delay is None else "_delay_error")
    end = "" if delay is None else f", till_the_end={delay}"
    st.desc = (f"{name}(x -> {kind}(x){end}, prefetch={prefetch})"
               + (".to_flowable()" if kind == "completable" else ""))
    # FlowableConcatMapSingle/Maybe/Completable (mixed): request(prefetch), then
    # request(limit), limit = prefetch - prefetch / 2, each time `limit` items were polled
    # (counted before the mapper is called: hence mapped + 1)
    limit = prefetch - (prefetch >> 1)
    st.govern(up, lambda hop: cap_add(prefetch, limit * ((st.mapped + 1) // limit)))
    kw: dict[str, Any] = {"prefetch": prefetch}
    if delay is not None:
        kw["till_the_end"] = delay
    return _after(kind, getattr(up, name)(lambda x: _zero_one(st, x, kind), **kw))


@op("switch_map_zero_one")
def _switch_map_zero_one(st: Stage, rng: random.Random, up: Flowable[Any]) -> Flowable[Any]:
    kind = rng.choice(_ZERO_ONE_KINDS)
    name = f"switch_map_{kind}" + ("_delay_error" if rng.random() < 0.3 else "")
    st.desc = f"{name}(x -> {kind}(x))" + (".to_flowable()" if kind == "completable" else "")
    # FlowableSwitchMapSingle/Maybe/Completable (mixed): s.request(LONG_MAX)
    st.govern(up, st.unbounded)
    return _after(kind, getattr(up, name)(lambda x: _zero_one(st, x, kind)))


@op("flat_map_zero_one")
def _flat_map_zero_one(st: Stage, rng: random.Random, up: Flowable[Any]) -> Flowable[Any]:
    kind = rng.choice(_ZERO_ONE_KINDS)
    maxc = rng.choice((None, 1, 2, 3))
    delay = rng.random() < 0.3
    kw: dict[str, Any] = {"delay_errors": delay}
    if maxc is not None:
        kw["max_concurrency"] = maxc
    st.desc = (f"flat_map_{kind}(x -> {kind}(x), delay_errors={delay}, "
               f"max_concurrency={maxc or 'default'})"
               + (".to_flowable()" if kind == "completable" else ""))
    # FlowableFlatMapSingle/Maybe, FlowableFlatMapCompletableCompletable: request(LONG_MAX)
    # for Integer.MAX_VALUE (the default), else request(maxConcurrency) and request(1) per
    # inner that ended
    st.govern(up, st.unbounded if maxc is None else lambda hop: cap_add(maxc, st.mapped))
    return _after(kind, getattr(up, f"flat_map_{kind}")(lambda x: _zero_one(st, x, kind), **kw))


class _GuardedIterable:
    """``items``, and a violation when its iterator is advanced after ``link``'s
    subscription was cancelled (FlowableFlattenIterable checks ``cancelled`` right after
    ``onNext`` and before ``hasNext()``). Not a sized container: an iterator whose end
    rxpy2 learns by pulling, under demand (RxJava's ``hasNext()`` asks without demand: an
    empty one, or the end after the last element, may be known later in rxpy2; as
    documented in flowable_flatten_iterable)."""

    def __init__(self, st: Stage, items: list[Any], link: Callable[[], Any]) -> None:
        self.st = st
        self.items = items
        self.link = link

    def __iter__(self) -> Any:
        for i, item in enumerate(self.items):
            self._check()
            link = self.link()
            if i == len(self.items) - 1 and isinstance(link, Tap):
                self.st.last_elements.append((link.current, link.current.items + 1))
            yield item
        self._check()

    def _check(self) -> None:
        link = self.link()
        if isinstance(link, Tap) and link.current.cancelled:
            self.st.run.violate(self.st.desc, "signal",
                                f"#{self.st.index} {self.st.name}: an iterable advanced after "
                                f"cancel() (RxJava asks hasNext() only while not cancelled)")


def _flatten_iterable(name: str) -> None:
    """``flat_map_iterable``/``concat_map_iterable`` (both FlowableFlattenIterable), now and
    then followed by ``take(k)`` inside the stage, so that a cancel from inside ``onNext`` at
    an iterable's last element is drawn often."""
    def make(st: Stage, rng: random.Random, up: Flowable[Any]) -> Flowable[Any]:
        prefetch = rng.choice((1, 2, BUFFER_SIZE))
        take = rng.choice((None, None, 1, 2, 3, 4))
        form = f"{name}(x -> [x] * (crc32 % 3), prefetch={prefetch})"
        st.desc = form + ("" if take is None else f".take({take})")
        # FlowableFlattenIterable: request(prefetch), then `limit` (prefetch - prefetch / 4)
        # each time `limit` iterables were used up (after the mapper)
        limit = prefetch - (prefetch >> 2)
        st.govern(up, lambda hop: cap_add(prefetch, limit * (st.mapped // limit)))
        holder: list[Any] = [None]

        def mapper(x: Any) -> Any:
            st.mapped += 1
            items = [x] * (stable(x) % 3)
            if take is None or not items:
                return items
            # an iterator of unknown length (rxpy2 pulls its elements under demand only, a
            # list's length it knows): the path where a pull after cancel() could happen
            return _GuardedIterable(st, items, lambda: holder[0])
        flat: Flowable[Any] = getattr(up, name)(mapper, prefetch)
        if take is None:
            return flat
        # FlowableTake (RxJava 3's and rxpy2's: never more than n, see take above)
        holder[0] = link = _link(st, flat, form, f"take({take})", st.capped(take))
        return link.take(take)
    OPS[name] = make


_flatten_iterable("flat_map_iterable")
_flatten_iterable("concat_map_iterable")


def _other_zero_one(st: Stage, rng: random.Random) -> tuple[Any, str]:
    kind = rng.choice(_ZERO_ONE_KINDS)
    k = rng.random()
    if k < 0.35:
        if kind == "completable":
            return Completable.complete(), "Completable.complete()"
        if kind == "maybe" and k < 0.12:
            return Maybe.empty(), "Maybe.empty()"
        return (Single if kind == "single" else Maybe).just(-3), f"{kind.title()}.just(-3)"
    if k < 0.45:
        return ({"single": Single, "maybe": Maybe, "completable": Completable}[kind]
                .error(FuzzError("other")), f"{kind.title()}.error()")
    n = rng.choice((0, 1, 3))
    src = st.tapped(RecordingSource(n, False), "other", st.unbounded)
    if kind == "single":
        return src.first_or_error(), f"RecordingSource({n}).first_or_error()"
    if kind == "maybe":
        return src.first_element(), f"RecordingSource({n}).first_element()"
    return src.ignore_elements(), f"RecordingSource({n}).ignore_elements()"


@op("concat_with_zero_one")
def _concat_with_zero_one(st: Stage, rng: random.Random, up: Flowable[Any]) -> Flowable[Any]:
    other, what = _other_zero_one(st, rng)
    st.desc = f"concat_with({what})"
    # FlowableConcatWithSingle/Maybe (SinglePostCompleteSubscriber) and
    # FlowableConcatWithCompletable pass the requests through
    st.govern(up, st.pass_through)
    return up.concat_with(other)


@op("merge_with_zero_one")
def _merge_with_zero_one(st: Stage, rng: random.Random, up: Flowable[Any]) -> Flowable[Any]:
    other, what = _other_zero_one(st, rng)
    st.desc = f"merge_with({what})"
    if isinstance(other, Completable):
        # FlowableMergeWithCompletable: deferredSetOnce/deferredRequest (pass-through)
        st.govern(up, st.pass_through)
    else:
        # FlowableMergeWithSingle/Maybe: setOnce(main, s, prefetch = bufferSize), then
        # `limit` (prefetch - prefetch / 4 = 96) each time `limit` main items were taken:
        # 128 + 96 * (taken // 96), read off the items emitted (the other's one among them)
        limit = BUFFER_SIZE - BUFFER_SIZE // 4
        st.govern(up, lambda hop: cap_add(BUFFER_SIZE, limit * (st.E // limit)))
    return up.merge_with(other)


@op("ref_count")
def _ref_count(st: Stage, rng: random.Random, up: Flowable[Any]) -> Flowable[Any]:
    n = rng.choice((1, 2, 3))
    st.desc = f"publish().ref_count({n})" + ("" if n == 1 else f" x {n}, zipped")
    # FlowablePublish: request(bufferSize) at connection, then request(d) for the d items
    # dispatched from its queue (bounded by the items received)
    st.govern(up, st.prefetch_received(BUFFER_SIZE))
    shared = up.publish().ref_count(n)
    if n == 1:
        return shared
    # FlowableZip: each source request(bufferSize), replenished as the tuples go out
    subs = [st.tapped(shared, f"ref_count subscriber {i}", st.prefetch_emitted(BUFFER_SIZE))
            for i in range(n)]
    return Flowable.zip(*subs, zipper=lambda *xs: xs[0])


def _rails(st: Stage, rng: random.Random, up: Flowable[Any]) -> tuple[Any, str]:
    k = rng.choice((1, 2, 3))
    prefetch = rng.choice((1, 2, 4, BUFFER_SIZE))
    # ParallelFromPublisher: request(prefetch), then `limit` (prefetch - prefetch / 4) each
    # time `limit` items went to the rails (bounded by the items received)
    limit = prefetch - (prefetch >> 2)
    st.govern(up, lambda hop: cap_add(prefetch, limit * (hop.items // limit)))
    rails = up.parallel(k, prefetch)
    rail_op = rng.choice(("", "", ".map(x -> [x])", ".filter(keep)"))
    if rail_op == ".map(x -> [x])":
        rails = rails.map(lambda x: [x])
    elif rail_op:
        rails = rails.filter(keep)
    return rails, f"parallel({k}, prefetch={prefetch}){rail_op}"


@op("parallel_sequential")
def _parallel_sequential(st: Stage, rng: random.Random, up: Flowable[Any]) -> Flowable[Any]:
    rails, what = _rails(st, rng, up)
    name = rng.choice(("sequential", "sequential", "sequential_delay_error"))
    prefetch = rng.choice((1, 2, BUFFER_SIZE))
    st.desc = f"{what}.{name}(prefetch={prefetch})"
    result: Flowable[Any] = getattr(rails, name)(prefetch)
    return result


def _least(a: Any, b: Any) -> Any:
    return a if repr(a) <= repr(b) else b


@op("parallel_fold")
def _parallel_fold(st: Stage, rng: random.Random, up: Flowable[Any]) -> Flowable[Any]:
    rails, what = _rails(st, rng, up)
    # the rails of sorted/to_sorted_list/reduce (ParallelReduce*, DeferredScalarSubscriber)
    # request LONG_MAX: the demand on the upstream is the dispatcher's alone
    which = rng.choice(("sorted", "to_sorted_list", "reduce"))
    if which == "reduce":
        st.desc = f"{what}.reduce(least by repr)"
        result: Flowable[Any] = rails.reduce(_least)
        return result
    st.desc = f"{what}.{which}(key=repr)"
    result = getattr(rails, which)(key=repr)
    return result


@op("zero_one_chain")
def _zero_one_chain(st: Stage, rng: random.Random, up: Flowable[Any]) -> Flowable[Any]:
    which = rng.choice(("first_or_error", "last_or_error", "single_or_error", "reduce",
                        "reduce_seed", "to_list_flat_map_publisher", "single_concat_with",
                        "maybe_concat_with", "single_merge_with", "and_then"))
    # firstOrError/lastOrError/singleOrError, reduce (FlowableReduceMaybe,
    # FlowableReduceSeedSingle), toList, ignoreElements: request(LONG_MAX)
    st.govern(up, st.unbounded)
    if which in ("first_or_error", "last_or_error", "single_or_error"):
        st.desc = f"{which}().to_flowable()"
        result: Flowable[Any] = getattr(up, which)().to_flowable()
        return result
    if which == "reduce":
        st.desc = "reduce(least by repr).to_flowable()"
        return up.reduce(_least).to_flowable()
    if which == "reduce_seed":
        st.desc = "reduce(seed=0, (a, x) -> a + 1).to_flowable()"
        return up.reduce(0, lambda a, x: a + 1).to_flowable()
    if which == "to_list_flat_map_publisher":
        st.desc = "to_list().flat_map_publisher(l -> RecordingSource(len(l) % 4))"
        # SingleFlatMapPublisher: the inner gets the downstream's requests (deferred)

        def inner(items: list[Any]) -> Flowable[Any]:
            n = len(items) % 4
            return st.tapped(RecordingSource(n, False), f"inner=RecordingSource({n})",
                             st.pass_through)
        return up.to_list().flat_map_publisher(inner)
    if which == "single_concat_with":
        st.desc = "first_or_error().concat_with(Single.just(-3))"
        return up.first_or_error().concat_with(Single.just(-3))
    if which == "maybe_concat_with":
        st.desc = "first_element().concat_with(Maybe.just(-3))"
        return up.first_element().concat_with(Maybe.just(-3))
    if which == "single_merge_with":
        st.desc = "last_or_error().merge_with(Single.just(-3))"
        return up.last_or_error().merge_with(Single.just(-3))
    n = rng.choice((0, 1, 3))
    st.desc = f"ignore_elements().and_then(RecordingSource({n}))"
    # CompletableAndThenPublisher: the other gets the downstream's requests (deferred)
    return up.ignore_elements().and_then(
        st.tapped(RecordingSource(n, False), "and_then other", st.pass_through))


# ---------------------------------------------------------------------------- chains


@dataclass
class Chain:
    seed: int
    desc: str
    script: list[tuple[str, int]]
    ts: TestSubscriber[Any]
    run: Run
    stages: list[Stage] = field(default_factory=list)


def draw_script(rng: random.Random) -> list[tuple[str, int]]:
    steps: list[tuple[str, int]] = []
    for _ in range(rng.randint(1, 5)):
        if rng.random() < 0.12:
            steps.append(("cancel", 0))
        else:
            steps.append(("request", rng.choice((1, 1, 2, 3, 5, 8, 16, 100, 300, LONG_MAX))))
    return steps


def script_text(script: list[tuple[str, int]]) -> str:
    return ", ".join("cancel()" if s == "cancel" else f"request({_amount(n)})"
                     for s, n in script)


def run_chain(seed: int, tapped: bool) -> Chain:
    """Build the chain of ``seed`` and run its demand script."""
    rng = random.Random(seed)
    run = Run(tapped)
    size = rng.choice((0, 1, 2, 3, 5, 10, 300))
    source, source_desc = make_source(rng, size)
    f = run.tap(source, f"source {source_desc}", source_desc)
    parts = [source_desc]
    stages: list[Stage] = []
    names = sorted(OPS)
    for i in range(rng.randint(1, 4)):
        name = rng.choice(names)
        st = Stage(run, i + 1, f, rng.randrange(1 << 30))
        st.name = name
        out = OPS[name](st, rng, f)
        for t in st.governed:  # governed before the builder had its description
            if t.consumer == "?":
                t.consumer = st.desc
        st.down = f = run.tap(out, f"#{i + 1} {st.desc} -> downstream", st.desc)
        stages.append(st)
        parts.append(st.desc)
    script = draw_script(rng)
    ts: TestSubscriber[Any] = TestSubscriber(0)
    chain = Chain(seed, ".".join(parts), script, ts, run, stages)
    try:
        f.subscribe(ts)
        for step, n in script:
            if step == "cancel":
                ts.cancel()
            else:
                ts.request(n)
    except Exception as e:  # an operator's bug, thrown at the caller of request/subscribe
        run.violate(f"chain[{','.join(st.name for st in stages)}]", "raised",
                    f"{type(e).__name__}: {e} escaped to the caller")
    return chain


def outcome(ts: TestSubscriber[Any]) -> tuple[list[Any], list[str], int]:
    return (ts.values(), [f"{type(e).__name__}({e})" for e in ts.errors()], ts.completions())


def check_chain(seed: int) -> tuple[str, list[Violation], str]:
    """Run the chain of ``seed`` tapped and untapped: the description, what went wrong and
    the culprit naming the chain's operators (``chain[op,op,...]``)."""
    tapped = run_chain(seed, True)
    plain = run_chain(seed, False)
    violations = tapped.run.violations + [v for v in plain.run.violations
                                          if v.kind == "raised"]
    for chain in (tapped, plain):
        ts = chain.ts
        how = "tapped" if chain.run.tapped else "untapped"
        for text in ts.protocol_violations():
            violations.append(Violation("chain", "signal", f"TestSubscriber ({how}): {text}"))
        if ts.values_after_cancel():
            violations.append(Violation("chain", "signal", f"TestSubscriber ({how}): "
                                        f"{ts.values_after_cancel()} item(s) after cancel()"))
        if ts.completions() + len(ts.errors()) > 1:
            violations.append(Violation("chain", "signal",
                                        f"TestSubscriber ({how}): more than one terminal event"))
    # without an error, anywhere: an error may overtake queued items (non-delayed: observe_on,
    # zip, ...), and whether items were queued depends on the shortcuts a Tap disables
    # (RxJava's ScalarXMap, fusion); an operator further down may swallow that error
    # (on_error_return_item, on_error_resume_next), so any link's error counts
    if not _saw_error(tapped) and not plain.ts.errors() and not _same_outcome(tapped, plain):
        names = ",".join(st.name for st in tapped.stages)
        violations.append(Violation(f"chain[{names}]", "fusion", (
            f"tapped (unfused) and untapped runs differ: {outcome(tapped.ts)!r} vs "
            f"{outcome(plain.ts)!r}")))
    desc = (f"seed={seed}: {tapped.desc} under [{script_text(tapped.script)}] -> "
            f"{_short(outcome(tapped.ts))}")
    return desc, violations, f"chain[{','.join(st.name for st in tapped.stages)}]"


#: Stages whose output interleaves several sources in an order that fusion changes in
#: RxJava 2.2.21 too. FlowableFlatMap.drainLoop polls an inner's queue until it is empty,
#: then ``is.requestMore(produced)``; an unfused inner answers that request re-entrantly
#: (its items go to its queue: tryEmit finds the drain taken) but the loop has already
#: seen the empty queue (``if (r == 0 || o == null) break;``) and moves to the next inner,
#: while a SYNC-fused inner's queue is its source, polled to the end in one go: e.g.
#: ``from_iterable(range(300)).merge_with(other of [0])`` under a request(LONG_MAX) made
#: after subscribing gives 0..127, 0, 128..299 unfused and 0..299, 0 fused (seed 738).
#: rxpy2's merge_with of a Single or a Maybe is that merge too (its inner is the
#: to_flowable() of the 0-1 source); ParallelJoin's rounds take the rails' queues in
#: turn, and which items were queued depends on fusion the same way.
INTERLEAVING = ("flat_map", "merge_with", "merge_with_zero_one", "parallel_sequential")


#: Stages whose boundary signals synchronously: whether the main source's items come
#: before the boundary's signals depends on when the main source answers the first
#: request, which fusion changes in RxJava 2.2.21 too. FlowableBufferExactBoundary (and
#: the window/supplier forms) requests LONG_MAX from the main source in onSubscribe, then
#: subscribes the boundary; a main source behind an unfused FlowableFlattenIterable has
#: not been asked for anything yet there (``downstream.onSubscribe(this)`` comes before
#: ``s.request(prefetch)``), so the boundary's buffers come first, while a SYNC-fused one
#: is polled inside that very request: ``just(1, 2, 3).flat_map_iterable(f).take(4)
#: .buffer(boundary of 2 items)`` gives [[], [], []] unfused and [[1, 1, 2, 3]] fused
#: (seed 1596 of base seed 7). Such chains are checked for everything but the outcome.
ORDER_DEPENDENT = ("buffer_boundary", "window_boundary")
#: FlowableFlattenIterable (RxJava 2.2.21) over a SYNC-fused upstream returns from
#: onSubscribe without a drain, so nothing, not even the completion of an upstream of
#: empty iterables, goes out before the first request; unfused, it requests ``prefetch``
#: in onSubscribe and may complete without demand. Under a script that cancels before any
#: request the two runs may differ in that completion alone: ``just(7)
#: .distinct_until_changed(f).flat_map_iterable(x -> []).take(4)`` under [cancel()]
#: completes unfused and not fused (seed 784075).
FLATTEN_ITERABLE = ("flat_map_iterable", "concat_map_iterable")


#: A stage that drops what comes without demand, above an interleaving one: which items
#: it lets through follows the interleaving stage's requests, whose timing fusion changes
#: (FlowableFlatMap's scalar path asks for the next item at once, an unfused empty inner
#: is replenished at the end of the drain pass). RxJava 2.2.21 gives what rxpy2 gives in
#: both runs: ``RecordingSource(300).on_backpressure_latest().flat_map(inner,
#: max_concurrency=3, buffer_size=4)`` under [request(LONG_MAX), request(300), request(1)]
#: emits 5 items unfused (inners hidden; upstream requests [3, 1, 3, 1]) and 9 fused
#: ([3, 1, 1, 3, 1]) there too (seed 15365, checked with a Java probe).
LOSSY = ("on_backpressure_drop(", "on_backpressure_latest(")


def _saw_error(tapped: Chain) -> bool:
    """An ``on_error`` on the TestSubscriber or on any link of the tapped run."""
    return bool(tapped.ts.errors()) or any(
        h.terminal is not None and h.terminal.startswith("on_error")
        for t in tapped.run.taps for h in t.hops)


def _same_outcome(tapped: Chain, plain: Chain) -> bool:
    """The same signals fused and unfused. After an interleaving stage (``INTERLEAVING``)
    only what the interleaving cannot change: when that stage is the last one, the number
    of items and the terminal event (and, when all the demand came at once, the same
    items; with a ``LOSSY`` stage above it, the terminal event alone); a later stage may
    turn the order into different items, so nothing then. Nothing either after a boundary
    that signals (``ORDER_DEPENDENT``); and a flatten-iterable chain cancelled before any
    request may differ in its completion (``FLATTEN_ITERABLE``)."""
    a, b = outcome(tapped.ts), outcome(plain.ts)
    if a == b or any(st.order_dependent for st in tapped.stages):
        return True
    if (a[:2] == b[:2] and tapped.script[0] == ("cancel", 0)
            and any(st.name in FLATTEN_ITERABLE for st in tapped.stages)):
        return True  # the completion alone (FLATTEN_ITERABLE)
    names = [st.name for st in tapped.stages]
    if not any(n in INTERLEAVING for n in names):
        return False
    first = next(i for i, n in enumerate(names) if n in INTERLEAVING)
    if any(st.desc.startswith(LOSSY) for st in tapped.stages[:first]):
        return names[-1] not in INTERLEAVING or a[1:] == b[1:]  # the terminal event (LOSSY)
    if names[-1] not in INTERLEAVING or any(n in INTERLEAVING for n in names[:-1]):
        return True
    if (len(a[0]), a[1:]) != (len(b[0]), b[1:]):
        return False
    if tapped.script[0] == ("request", LONG_MAX):
        return sorted(map(repr, a[0])) == sorted(map(repr, b[0]))
    return True


def cancelled_at_last_element(chain: Chain) -> bool:
    """Whether a consumer of a flatten-iterable stage cancelled from inside the ``onNext``
    of an iterable's last element (the case where FlowableFlattenIterable must neither ask
    ``hasNext()`` nor complete)."""
    return any(hop.cancelled and hop.cancelled_in_on_next and hop.items == k
               for st in chain.stages for hop, k in st.last_elements)


def chain_error(e: BaseException) -> bool:
    """An error the chains make on purpose: a ``FuzzError``, the ``IndexError`` of
    ``first_or_error``/``element_at`` over too few items, the ``ValueError`` of
    ``single_or_error`` over several, the ``TimeoutError`` of a timeout that fired, a
    ``MissingBackpressureException`` of a boundary without demand, or several of them.
    One that reaches ``plugins.on_error`` late (lost to a cancellation, RxJava 3's
    ``tryTerminateAndReport`` that rxpy2 follows; RxJava 2 drops it) is no violation."""
    cause: BaseException = e.__cause__ if isinstance(e, UndeliverableException) and \
        e.__cause__ is not None else e
    if isinstance(cause, CompositeException):
        return all(chain_error(x) for x in cause.exceptions)
    if isinstance(cause, ValueError):  # not §3.9's ValueError: the Taps check requests
        return str(cause) == "Sequence contains more than one element"
    return isinstance(cause, (FuzzError, IndexError, TimeoutError, MissingBackpressureException))


def _short(o: tuple[list[Any], list[str], int]) -> str:
    values, errors, completions = o
    shown = values if len(values) <= 12 else [*values[:12], f"... {len(values)} in all"]
    return f"values={shown} errors={errors} completions={completions}"
