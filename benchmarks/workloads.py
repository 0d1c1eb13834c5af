"""The timed workloads: each one piece of work done by plain Python, builtins, rxpy2 and RxPY.

Every implementation builds its pipeline inside ``run(n)`` (assembly is part
of the measured time, a constant next to ``n`` items), feeds every item to a
consumer from :func:`benchmarks.common.make_sink` and returns its checksum.

The RxPY forms are its fastest ones: ``from_iterable`` loops over the iterable
inside one scheduled action, while ``reactivex.range`` schedules every item (it
is shown once, in the first workload). Inner sources of flat_map/concat_map use
the ``ImmediateScheduler``, which is faster than the default trampoline there.
RxPY has no backpressure: it has no counterpart of the batched-demand workload.
Where RxPY lacks the operator the row uses its nearest form, and says so in the
row's note (``merge(max_concurrent=16)`` for a bounded flat_map, ``flat_map``
to flatten its hot windows); RxPY's ``start_with`` takes items, so that row has
none.
"""

from __future__ import annotations

import collections
import functools
import itertools
import queue
import threading
from collections.abc import Callable
from typing import Any
from typing import TypeVar

from benchmarks import import_cost
from benchmarks.common import BUILTINS
from benchmarks.common import PLAIN
from benchmarks.common import RXPY
from benchmarks.common import RXPY2
from benchmarks.common import SLOW_SPIN
from benchmarks.common import Checksum
from benchmarks.common import Impl
from benchmarks.common import Target
from benchmarks.common import Workload
from benchmarks.common import add
from benchmarks.common import f
from benchmarks.common import identity
from benchmarks.common import make_list_sink
from benchmarks.common import make_pair_sink
from benchmarks.common import make_sink
from benchmarks.common import make_slow_sink
from benchmarks.common import p
from rxpy2 import Flowable
from rxpy2 import FlowableSubscriber
from rxpy2 import Schedulers
from rxpy2 import Subscription
from rxpy2 import plugins
from rxpy2.schedulers.new_thread_scheduler import NewThreadScheduler

#: an item type of a workload (ints, pairs, lists)
V = TypeVar("V")

#: How long a thread-hop run may take before the run counts as hung.
HOP_TIMEOUT = 600.0

#: Batch of the batched-demand subscriber, and capacity/credit batch of the deque hand-over.
BATCH = 128
CREDIT_BATCH = 96


def rxpy_available() -> bool:
    try:
        import reactivex  # noqa: F401
    except ImportError:
        return False
    return True


# ---------------------------------------------------------------- helpers


def _rx2_sync(flowable: Flowable[V], consume: Callable[[V], None],
              checksum: Callable[[], Checksum]) -> Checksum:
    errors: list[BaseException] = []
    flowable.subscribe(consume, errors.append)
    if errors:
        raise errors[0]
    return checksum()


def _rxpy_sync(observable: Any, consume: Callable[[V], None],
               checksum: Callable[[], Checksum]) -> Checksum:
    errors: list[BaseException] = []
    observable.subscribe(consume, errors.append)
    if errors:
        raise errors[0]
    return checksum()


class BatchSubscriber(FlowableSubscriber[int]):
    """Requests ``batch`` items, then ``batch`` more each time as many have arrived."""

    def __init__(self, consume: Callable[[int], None], batch: int = BATCH) -> None:
        self.consume = consume
        self.batch = batch
        self.left = 0
        self.upstream: Subscription | None = None
        self.error: BaseException | None = None
        self.completed = False

    def on_subscribe(self, subscription: Subscription) -> None:
        self.upstream = subscription
        self.left = self.batch
        subscription.request(self.batch)

    def on_next(self, item: int) -> None:
        self.consume(item)
        left = self.left - 1
        if left == 0:
            left = self.batch
            self.left = left  # before request: it may deliver the next items at once
            self.upstream.request(left)  # type: ignore[union-attr]
        else:
            self.left = left

    def on_error(self, error: BaseException) -> None:
        self.error = error

    def on_complete(self) -> None:
        self.completed = True


def _run_batched(flowable: Flowable[int], consume: Callable[[int], None],
                 checksum: Callable[[], Checksum]) -> Checksum:
    s = BatchSubscriber(consume)
    flowable.subscribe(s)
    if s.error is not None:
        raise s.error
    if not s.completed:
        raise AssertionError("the batched subscriber did not complete")
    return checksum()


# ---------------------------------------------------------------- range -> map -> filter


def _plain_chain(n: int) -> Checksum:
    consume, checksum = make_sink()
    for x in range(n):
        y = f(x)
        if p(y):
            consume(y)
    return checksum()


def _builtins_chain(n: int) -> Checksum:
    consume, checksum = make_sink()
    for y in filter(p, map(f, range(n))):
        consume(y)
    return checksum()


def _rx2_chain(n: int) -> Checksum:
    consume, checksum = make_sink()
    return _rx2_sync(Flowable.range(0, n).map(f).filter(p), consume, checksum)


def _rx2_chain_hidden(n: int) -> Checksum:
    consume, checksum = make_sink()
    return _rx2_sync(Flowable.range(0, n).hide().map(f).filter(p), consume, checksum)


def _plain_chain_batched(n: int) -> Checksum:
    """The plain loop handing its items to the same BatchSubscriber (its own counting
    and requesting per item included), so what rxpy2 adds is what remains."""
    consume, checksum = make_sink()
    s = BatchSubscriber(consume)
    s.on_subscribe(_NoDemand())
    on_next = s.on_next
    for x in range(n):
        y = f(x)
        if p(y):
            on_next(y)
    return checksum()


class _NoDemand(Subscription):
    """A Subscription that takes requests and does nothing (a plain loop has no demand)."""

    def request(self, n: int) -> None:
        pass

    def cancel(self) -> None:
        pass


def _rx2_chain_batched(n: int) -> Checksum:
    consume, checksum = make_sink()
    return _run_batched(Flowable.range(0, n).map(f).filter(p), consume, checksum)


def _rx2_chain_batched_hidden(n: int) -> Checksum:
    consume, checksum = make_sink()
    return _run_batched(Flowable.range(0, n).hide().map(f).filter(p), consume, checksum)


def _rxpy_chain(n: int) -> Checksum:
    import reactivex
    from reactivex import operators as ops
    consume, checksum = make_sink()
    return _rxpy_sync(reactivex.from_iterable(range(n)).pipe(ops.map(f), ops.filter(p)),
                      consume, checksum)


def _rxpy_chain_range(n: int) -> Checksum:
    import reactivex
    from reactivex import operators as ops
    consume, checksum = make_sink()
    return _rxpy_sync(reactivex.range(0, n).pipe(ops.map(f), ops.filter(p)), consume, checksum)


def chain(rxpy: bool) -> Workload:
    impls = [
        Impl("plain loop", PLAIN, _plain_chain),
        Impl("builtins filter(map(range))", BUILTINS, _builtins_chain),
        Impl("rxpy2 range.map.filter", RXPY2, _rx2_chain,
             target=Target(1.2, versus="plain loop", text="chain at loop speed")),
        Impl("rxpy2 range.hide().map.filter", RXPY2, _rx2_chain_hidden,
             note="hide() keeps the source out of any fusion",
             target=Target(2.0, versus="plain loop", text="operators with no fusion",
                           issue=32)),
    ]
    if rxpy:
        impls += [
            Impl("RxPY from_iterable.map.filter", RXPY, _rxpy_chain),
            Impl("RxPY range.map.filter", RXPY, _rxpy_chain_range, n_div=20,
                 note="reactivex.range schedules every item"),
        ]
    return Workload("chain", "range → map → filter → consume, unbounded demand", 200_000,
                    "source item", impls, ["plain loop"])


def chain_batched(rxpy: bool) -> Workload:
    impls = [
        Impl("plain loop", PLAIN, _plain_chain),
        Impl("builtins filter(map(range))", BUILTINS, _builtins_chain),
        Impl("plain loop into the batched subscriber's on_next", PLAIN, _plain_chain_batched),
        Impl("rxpy2 range.map.filter, batches of 128", RXPY2, _rx2_chain_batched,
             target=Target(1.3, versus="plain loop", text="demand in batches of 128",
                           issue=32)),
        Impl("rxpy2 range.hide().map.filter, batches of 128", RXPY2,
             _rx2_chain_batched_hidden),
    ]
    return Workload("chain_batched", "range → map → filter → consume, demand in batches of 128",
                    200_000, "source item", impls,
                    ["plain loop", "plain loop into the batched subscriber's on_next"],
                    notes=["The rxpy2 consumer is a FlowableSubscriber that requests 128, then "
                           "128 more after each 128 received; plain Python has no demand, "
                           "RxPY no backpressure. The subscriber's own on_next (it counts "
                           "down to its next request) costs what the second plain row adds "
                           "to the first: what rxpy2 adds is its ratio to that row."])


# ---------------------------------------------------------------- flat_map / concat_map


def _plain_just(n: int) -> Checksum:
    consume, checksum = make_sink()
    for x in range(n):
        for y in (x,):
            consume(y)
    return checksum()


def _builtins_just(n: int) -> Checksum:
    consume, checksum = make_sink()
    for y in itertools.chain.from_iterable(map(lambda x: (x,), range(n))):
        consume(y)
    return checksum()


def _rx2_flat_map_just(n: int) -> Checksum:
    consume, checksum = make_sink()
    just = Flowable.just
    return _rx2_sync(Flowable.range(0, n).flat_map(lambda x: just(x)), consume, checksum)


def _rx2_map(n: int) -> Checksum:
    consume, checksum = make_sink()
    return _rx2_sync(Flowable.range(0, n).map(identity), consume, checksum)


def _rx2_hidden_map(n: int) -> Checksum:
    consume, checksum = make_sink()
    return _rx2_sync(Flowable.range(0, n).hide().map(identity), consume, checksum)


def _rxpy_flat_map_just(n: int) -> Checksum:
    import reactivex
    from reactivex import operators as ops
    from reactivex.scheduler import ImmediateScheduler
    imm = ImmediateScheduler.singleton()
    just = reactivex.just
    consume, checksum = make_sink()
    return _rxpy_sync(reactivex.from_iterable(range(n)).pipe(
        ops.flat_map(lambda x: just(x, imm))), consume, checksum)


def flat_map_just(rxpy: bool) -> Workload:
    impls = [
        Impl("plain loop", PLAIN, _plain_just),
        Impl("builtins chain.from_iterable(map)", BUILTINS, _builtins_just),
        Impl("rxpy2 flat_map(just)", RXPY2, _rx2_flat_map_just,
             target=Target(2.0, versus="plain loop", text="flat_map to just")),
        Impl("rxpy2 range.map", RXPY2, _rx2_map,
             note="the map chain of the same length; fusable"),
        Impl("rxpy2 range.hide().map", RXPY2, _rx2_hidden_map,
             note="the same without source fusion"),
    ]
    if rxpy:
        impls.append(Impl("RxPY flat_map(just)", RXPY, _rxpy_flat_map_just, n_div=50))
    return Workload("flat_map_just", "range → flat_map(x → just(x)) → consume", 100_000,
                    "source item", impls,
                    ["plain loop", "rxpy2 range.map", "rxpy2 range.hide().map"])


#: ``max_concurrency`` of the bounded flat_map workload.
CONCURRENCY = 16


def _rx2_flat_map_just_bounded(n: int) -> Checksum:
    consume, checksum = make_sink()
    just = Flowable.just
    return _rx2_sync(Flowable.range(0, n).flat_map(lambda x: just(x),
                                                   max_concurrency=CONCURRENCY),
                     consume, checksum)


def _rxpy_merge_just_bounded(n: int) -> Checksum:
    import reactivex
    from reactivex import operators as ops
    from reactivex.scheduler import ImmediateScheduler
    imm = ImmediateScheduler.singleton()
    just = reactivex.just
    consume, checksum = make_sink()
    return _rxpy_sync(reactivex.from_iterable(range(n)).pipe(
        ops.map(lambda x: just(x, imm)), ops.merge(max_concurrent=CONCURRENCY)),
        consume, checksum)


def flat_map_concurrency(rxpy: bool) -> Workload:
    impls = [
        Impl("plain loop", PLAIN, _plain_just),
        Impl("builtins chain.from_iterable(map)", BUILTINS, _builtins_just),
        Impl("rxpy2 flat_map(just, max_concurrency=16)", RXPY2, _rx2_flat_map_just_bounded),
        Impl("rxpy2 flat_map(just)", RXPY2, _rx2_flat_map_just,
             note="max_concurrency=128, the default: the flat_map_just workload's row"),
        Impl("rxpy2 range.map", RXPY2, _rx2_map,
             note="the map chain of the same length; fusable"),
    ]
    if rxpy:
        impls.append(Impl("RxPY map(just).merge(max_concurrent=16)", RXPY,
                          _rxpy_merge_just_bounded, n_div=50,
                          note="RxPY's flat_map takes no bound; merge does"))
    return Workload("flat_map_concurrency",
                    "range → flat_map(x → just(x), max_concurrency=16) → consume", 100_000,
                    "source item", impls, ["plain loop", "rxpy2 range.map"],
                    notes=["The bound changes what flat_map asks of its upstream: 16 items at "
                           "first and more as inner sources complete (RxJava 2's rule), where "
                           "the default asks for 128. Each just(x) completes inside its own "
                           "subscription, so no more than one inner source is ever active."])


def _plain_range3(n: int) -> Checksum:
    consume, checksum = make_sink()
    for x in range(n):
        for y in range(x, x + 3):
            consume(y)
    return checksum()


def _inner3(x: int) -> range:
    return range(x, x + 3)


def _builtins_range3(n: int) -> Checksum:
    consume, checksum = make_sink()
    for y in itertools.chain.from_iterable(map(_inner3, range(n))):
        consume(y)
    return checksum()


def _rx2_flat_map_range3(n: int) -> Checksum:
    consume, checksum = make_sink()
    rng = Flowable.range
    return _rx2_sync(Flowable.range(0, n).flat_map(lambda x: rng(x, 3)), consume, checksum)


def _rx2_concat_map_range3(n: int) -> Checksum:
    consume, checksum = make_sink()
    rng = Flowable.range
    return _rx2_sync(Flowable.range(0, n).concat_map(lambda x: rng(x, 3)), consume, checksum)


def _rxpy_x_map_range3(op_name: str) -> Callable[[int], Checksum]:
    def run(n: int) -> Checksum:
        import reactivex
        from reactivex import operators as ops
        from reactivex.scheduler import ImmediateScheduler
        imm = ImmediateScheduler.singleton()
        from_iterable = reactivex.from_iterable
        op = getattr(ops, op_name)
        consume, checksum = make_sink()
        return _rxpy_sync(reactivex.from_iterable(range(n)).pipe(
            op(lambda x: from_iterable(range(x, x + 3), imm))), consume, checksum)
    return run


def _nested_range3(key: str, op_name: str, rx2: Callable[[int], Checksum],
                   rxpy: bool) -> Workload:
    """``range → <op>(x → range(x, 3)) → consume`` for flat_map and concat_map."""
    impls = [
        Impl("plain nested loop", PLAIN, _plain_range3),
        Impl("builtins chain.from_iterable(map)", BUILTINS, _builtins_range3),
        Impl(f"rxpy2 {op_name}(range(x, 3))", RXPY2, rx2,
             target=Target(2.5, versus="plain nested loop", text=f"{op_name} to range(x, 3)")),
    ]
    if rxpy:
        impls.append(Impl(f"RxPY {op_name}(from_iterable(range(x, x+3)))", RXPY,
                          _rxpy_x_map_range3(op_name), n_div=25))
    return Workload(key, f"range → {op_name}(x → range(x, 3)) → consume", 50_000,
                    "inner item", impls, ["plain nested loop"], items=lambda n: 3 * n)


def flat_map_range(rxpy: bool) -> Workload:
    return _nested_range3("flat_map_range", "flat_map", _rx2_flat_map_range3, rxpy)


def concat_map(rxpy: bool) -> Workload:
    return _nested_range3("concat_map", "concat_map", _rx2_concat_map_range3, rxpy)


# ---------------------------------------------------------------- merge, concat, concat_with

#: Number of synchronous sources of the merge/concat workload.
SOURCES = 4


def _parts(n: int) -> list[range]:
    """``range(n)`` cut into :data:`SOURCES` consecutive ranges (their sizes differ by ≤ 1)."""
    cuts = [n * k // SOURCES for k in range(SOURCES + 1)]
    return [range(a, b) for a, b in itertools.pairwise(cuts)]


def _plain_parts(n: int) -> Checksum:
    consume, checksum = make_sink()
    for part in _parts(n):
        for x in part:
            consume(x)
    return checksum()


def _chain_parts(n: int) -> Checksum:
    consume, checksum = make_sink()
    for x in itertools.chain(*_parts(n)):
        consume(x)
    return checksum()


def _rx2_parts(combine: Callable[..., Flowable[int]]) -> Callable[[int], Checksum]:
    def run(n: int) -> Checksum:
        consume, checksum = make_sink()
        sources = [Flowable.range(r.start, len(r)) for r in _parts(n)]
        return _rx2_sync(combine(*sources), consume, checksum)
    return run


def _rxpy_parts(name: str) -> Callable[[int], Checksum]:
    def run(n: int) -> Checksum:
        import reactivex
        combine = getattr(reactivex, name)
        consume, checksum = make_sink()
        return _rxpy_sync(combine(*[reactivex.from_iterable(r) for r in _parts(n)]),
                          consume, checksum)
    return run


def merge_concat(rxpy: bool) -> Workload:
    impls = [
        Impl("plain nested loop over the 4 ranges", PLAIN, _plain_parts),
        Impl("itertools.chain(*ranges)", BUILTINS, _chain_parts),
        Impl("rxpy2 Flowable.merge_array(4 ranges)", RXPY2, _rx2_parts(Flowable.merge_array)),
        Impl("rxpy2 Flowable.concat_array(4 ranges)", RXPY2, _rx2_parts(Flowable.concat_array)),
    ]
    if rxpy:
        impls += [
            Impl("RxPY merge(4 × from_iterable)", RXPY, _rxpy_parts("merge")),
            Impl("RxPY concat(4 × from_iterable)", RXPY, _rxpy_parts("concat")),
        ]
    return Workload("merge_concat", "merge / concat of 4 synchronous ranges → consume", 200_000,
                    "item", impls, ["plain nested loop over the 4 ranges"],
                    notes=["range(n) cut into 4 consecutive ranges. Merged synchronous sources "
                           "run one after the other, as concatenated ones do: each range "
                           "emits all it has while merge is subscribing to it (the demand is "
                           "unbounded), so both rows do the same sequence of items; what "
                           "differs is the bookkeeping per item and per source."])


def _halves(n: int) -> tuple[range, range]:
    return range(0, n // 2), range(n // 2, n)


def _plain_two_loops(n: int) -> Checksum:
    consume, checksum = make_sink()
    first, second = _halves(n)
    for x in first:
        consume(x)
    for x in second:
        consume(x)
    return checksum()


def _chain_two(n: int) -> Checksum:
    consume, checksum = make_sink()
    for x in itertools.chain(*_halves(n)):
        consume(x)
    return checksum()


def _rx2_concat_with(n: int) -> Checksum:
    consume, checksum = make_sink()
    first, second = _halves(n)
    return _rx2_sync(Flowable.range(0, len(first)).concat_with(
        Flowable.range(second.start, len(second))), consume, checksum)


def _rx2_start_with(n: int) -> Checksum:
    consume, checksum = make_sink()
    first, second = _halves(n)
    return _rx2_sync(Flowable.range(second.start, len(second)).start_with(
        Flowable.range(0, len(first))), consume, checksum)


def _rxpy_concat_with(n: int) -> Checksum:
    import reactivex
    from reactivex import operators as ops
    consume, checksum = make_sink()
    first, second = _halves(n)
    return _rxpy_sync(reactivex.from_iterable(first).pipe(
        ops.concat(reactivex.from_iterable(second))), consume, checksum)


def concat_with(rxpy: bool) -> Workload:
    impls = [
        Impl("plain loop, then another", PLAIN, _plain_two_loops),
        Impl("itertools.chain(first, second)", BUILTINS, _chain_two),
        Impl("rxpy2 range.concat_with(range)", RXPY2, _rx2_concat_with),
        Impl("rxpy2 range.start_with(range)", RXPY2, _rx2_start_with,
             note="the second half, started with the first"),
    ]
    if rxpy:
        impls.append(Impl("RxPY from_iterable.pipe(concat(from_iterable))", RXPY,
                          _rxpy_concat_with,
                          note="RxPY's start_with takes items, not a source: no row"))
    return Workload("concat_with", "range(0, n/2) then range(n/2, n) → consume", 200_000,
                    "item", impls, ["plain loop, then another"])


# ---------------------------------------------------------------- scan, zip


def _plain_scan(n: int) -> Checksum:
    consume, checksum = make_sink()
    acc = 0
    for x in range(n):
        acc = add(acc, x)
        consume(acc)
    return checksum()


def _accumulate_scan(n: int) -> Checksum:
    consume, checksum = make_sink()
    for y in itertools.accumulate(range(n), add):
        consume(y)
    return checksum()


def _rx2_scan(n: int) -> Checksum:
    consume, checksum = make_sink()
    return _rx2_sync(Flowable.range(0, n).scan(add), consume, checksum)


def _rxpy_scan(n: int) -> Checksum:
    import reactivex
    from reactivex import operators as ops
    consume, checksum = make_sink()
    return _rxpy_sync(reactivex.from_iterable(range(n)).pipe(ops.scan(add)), consume, checksum)


def scan(rxpy: bool) -> Workload:
    impls = [
        Impl("plain loop", PLAIN, _plain_scan),
        Impl("itertools.accumulate", BUILTINS, _accumulate_scan),
        Impl("rxpy2 range.scan", RXPY2, _rx2_scan,
             target=Target(1.5, versus="plain loop", text="scan")),
    ]
    if rxpy:
        impls.append(Impl("RxPY from_iterable.scan", RXPY, _rxpy_scan))
    return Workload("scan", "range → scan(running sum) → consume", 200_000, "source item",
                    impls, ["plain loop"],
                    notes=["Every implementation calls the same Python accumulator "
                           "`add(a, b)`; scan without a seed emits the first item as is, "
                           "which over range(0, n) equals the loop's 0 + 0."])


def _plain_zip(n: int) -> Checksum:
    consume, checksum = make_pair_sink()
    nxt = iter(range(n, 2 * n)).__next__
    for a in range(n):
        consume((a, nxt()))
    return checksum()


def _builtins_zip(n: int) -> Checksum:
    consume, checksum = make_pair_sink()
    for t in zip(range(n), range(n, 2 * n), strict=True):
        consume(t)
    return checksum()


def _rx2_zip(n: int) -> Checksum:
    consume, checksum = make_pair_sink()
    return _rx2_sync(Flowable.zip(Flowable.range(0, n), Flowable.range(n, n)),
                     consume, checksum)


def _rxpy_zip(n: int) -> Checksum:
    import reactivex
    consume, checksum = make_pair_sink()
    return _rxpy_sync(reactivex.zip(reactivex.from_iterable(range(n)),
                                    reactivex.from_iterable(range(n, 2 * n))),
                      consume, checksum)


def zip_(rxpy: bool) -> Workload:
    impls = [
        Impl("plain loop over two iterators", PLAIN, _plain_zip),
        Impl("builtins zip", BUILTINS, _builtins_zip),
        Impl("rxpy2 Flowable.zip", RXPY2, _rx2_zip,
             target=Target(2.0, versus="plain loop over two iterators", text="zip of two ranges",
                           issue=32)),
    ]
    if rxpy:
        impls.append(Impl("RxPY zip(from_iterable, from_iterable)", RXPY, _rxpy_zip, n_div=20))
    return Workload("zip", "zip(range, range) → consume tuples", 100_000, "pair", impls,
                    ["plain loop over two iterators", "builtins zip"])


# ---------------------------------------------------------------- distinct, take_while, skip_while


def half(x: int) -> int:
    """The mapper before distinct: every value twice in a row (one item in two is new)."""
    return x >> 1


def below(limit: int) -> Callable[[int], bool]:
    """The predicate of take_while/skip_while: ``x < limit``."""
    def pred(x: int) -> bool:
        return x < limit
    return pred


def _plain_distinct(n: int) -> Checksum:
    consume, checksum = make_sink()
    seen: set[int] = set()
    for x in range(n):
        y = half(x)
        if y not in seen:
            seen.add(y)
            consume(y)
    return checksum()


def _builtins_distinct(n: int) -> Checksum:
    consume, checksum = make_sink()
    for y in dict.fromkeys(map(half, range(n))):
        consume(y)
    return checksum()


def _rx2_distinct(hide: bool) -> Callable[[int], Checksum]:
    def run(n: int) -> Checksum:
        consume, checksum = make_sink()
        src = Flowable.range(0, n)
        if hide:
            src = src.hide()
        return _rx2_sync(src.map(half).distinct(), consume, checksum)
    return run


def _rxpy_distinct(n: int) -> Checksum:
    import reactivex
    from reactivex import operators as ops
    consume, checksum = make_sink()
    return _rxpy_sync(reactivex.from_iterable(range(n)).pipe(ops.map(half), ops.distinct()),
                      consume, checksum)


def distinct(rxpy: bool) -> Workload:
    impls = [
        Impl("plain loop with a set", PLAIN, _plain_distinct),
        Impl("builtins dict.fromkeys(map)", BUILTINS, _builtins_distinct,
             note="the whole dict is built before the first item is consumed"),
        Impl("rxpy2 range.map(x >> 1).distinct()", RXPY2, _rx2_distinct(False)),
        Impl("rxpy2 range.hide().map(x >> 1).distinct()", RXPY2, _rx2_distinct(True)),
    ]
    if rxpy:
        impls.append(Impl("RxPY from_iterable.map.distinct", RXPY, _rxpy_distinct, n_div=100,
                          note="its keys are kept in a list and searched with the comparer: "
                               "quadratic, so its figure grows with n and compares with no "
                               "other"))
    return Workload("distinct", "range → map(x >> 1) → distinct() → consume", 200_000,
                    "source item", impls, ["plain loop with a set"],
                    notes=["Every value comes twice in a row, so distinct drops one item in "
                           "two and its set grows to n/2 keys."])


def _plain_take_while(n: int) -> Checksum:
    consume, checksum = make_sink()
    pred = below(n)
    for x in range(2 * n):
        if not pred(x):
            break
        consume(x)
    return checksum()


def _takewhile(n: int) -> Checksum:
    consume, checksum = make_sink()
    for x in itertools.takewhile(below(n), range(2 * n)):
        consume(x)
    return checksum()


def _rx2_take_while(hide: bool) -> Callable[[int], Checksum]:
    def run(n: int) -> Checksum:
        consume, checksum = make_sink()
        src = Flowable.range(0, 2 * n)
        if hide:
            src = src.hide()
        return _rx2_sync(src.take_while(below(n)), consume, checksum)
    return run


def _rxpy_take_while(n: int) -> Checksum:
    import reactivex
    from reactivex import operators as ops
    consume, checksum = make_sink()
    return _rxpy_sync(reactivex.from_iterable(range(2 * n)).pipe(ops.take_while(below(n))),
                      consume, checksum)


def take_while(rxpy: bool) -> Workload:
    impls = [
        Impl("plain loop with break", PLAIN, _plain_take_while),
        Impl("itertools.takewhile", BUILTINS, _takewhile),
        Impl("rxpy2 range.take_while", RXPY2, _rx2_take_while(False)),
        Impl("rxpy2 range.hide().take_while", RXPY2, _rx2_take_while(True)),
    ]
    if rxpy:
        impls.append(Impl("RxPY from_iterable.take_while", RXPY, _rxpy_take_while))
    return Workload("take_while", "range(0, 2n) → take_while(x < n) → consume", 200_000,
                    "taken item", impls, ["plain loop with break"],
                    notes=["The source has 2n items; the first that fails the predicate ends "
                           "the stream (the loop breaks, take_while cancels the range)."])


def _plain_skip_while(n: int) -> Checksum:
    consume, checksum = make_sink()
    pred = below(n // 2)
    skipping = True
    for x in range(n):
        if skipping:
            if pred(x):
                continue
            skipping = False
        consume(x)
    return checksum()


def _dropwhile(n: int) -> Checksum:
    consume, checksum = make_sink()
    for x in itertools.dropwhile(below(n // 2), range(n)):
        consume(x)
    return checksum()


def _rx2_skip_while(hide: bool) -> Callable[[int], Checksum]:
    def run(n: int) -> Checksum:
        consume, checksum = make_sink()
        src = Flowable.range(0, n)
        if hide:
            src = src.hide()
        return _rx2_sync(src.skip_while(below(n // 2)), consume, checksum)
    return run


def _rxpy_skip_while(n: int) -> Checksum:
    import reactivex
    from reactivex import operators as ops
    consume, checksum = make_sink()
    return _rxpy_sync(reactivex.from_iterable(range(n)).pipe(ops.skip_while(below(n // 2))),
                      consume, checksum)


def skip_while(rxpy: bool) -> Workload:
    impls = [
        Impl("plain loop with a skipping flag", PLAIN, _plain_skip_while),
        Impl("itertools.dropwhile", BUILTINS, _dropwhile),
        Impl("rxpy2 range.skip_while", RXPY2, _rx2_skip_while(False)),
        Impl("rxpy2 range.hide().skip_while", RXPY2, _rx2_skip_while(True)),
    ]
    if rxpy:
        impls.append(Impl("RxPY from_iterable.skip_while", RXPY, _rxpy_skip_while))
    return Workload("skip_while", "range → skip_while(x < n/2) → consume", 200_000,
                    "source item", impls, ["plain loop with a skipping flag"],
                    notes=["The first half is tested and skipped, the second half passes "
                           "without a test."])


# ---------------------------------------------------------------- buffer, window

#: Size of the buffers and windows.
CHUNK = 16


def _plain_buffer(n: int) -> Checksum:
    consume, checksum = make_list_sink()
    buf: list[int] = []
    for x in range(n):
        buf.append(f(x))
        if len(buf) == CHUNK:
            consume(buf)
            buf = []
    if buf:
        consume(buf)
    return checksum()


def _islice_buffer(n: int) -> Checksum:
    consume, checksum = make_list_sink()
    it = map(f, range(n))
    for buf in iter(lambda: list(itertools.islice(it, CHUNK)), []):
        consume(buf)
    return checksum()


def _rx2_buffer(hide: bool) -> Callable[[int], Checksum]:
    def run(n: int) -> Checksum:
        consume, checksum = make_list_sink()
        src = Flowable.range(0, n)
        if hide:
            src = src.hide()
        errors: list[BaseException] = []
        src.map(f).buffer(CHUNK).subscribe(consume, errors.append)
        if errors:
            raise errors[0]
        return checksum()
    return run


def _rxpy_buffer(n: int) -> Checksum:
    import reactivex
    from reactivex import operators as ops
    consume, checksum = make_list_sink()
    return _rxpy_sync(reactivex.from_iterable(range(n)).pipe(
        ops.map(f), ops.buffer_with_count(CHUNK)), consume, checksum)


def buffer(rxpy: bool) -> Workload:
    impls = [
        Impl("plain loop filling a list", PLAIN, _plain_buffer),
        Impl("builtins iter(list(islice(map)), [])", BUILTINS, _islice_buffer),
        Impl("rxpy2 range.hide().map(f).buffer(16)", RXPY2, _rx2_buffer(True),
             note="no fusion: a map operator feeds the buffer"),
        Impl("rxpy2 range.map(f).buffer(16)", RXPY2, _rx2_buffer(False),
             note="the map fused into the range"),
    ]
    if rxpy:
        impls.append(Impl("RxPY from_iterable.map.buffer_with_count(16)", RXPY, _rxpy_buffer))
    return Workload("buffer", "range → map(f) → buffer(16) → consume lists", 200_000,
                    "source item", impls, ["plain loop filling a list"],
                    notes=["The consumer takes lists: the checksum is (lists, sum of their "
                           "items); the last list holds what is left."])


def _plain_window(n: int) -> Checksum:
    consume, checksum = make_sink()
    for start in range(0, n, CHUNK):
        for x in range(start, min(start + CHUNK, n)):
            consume(x)
    return checksum()


def _islice_window(n: int) -> Checksum:
    consume, checksum = make_sink()
    it = iter(range(n))
    for window in iter(lambda: tuple(itertools.islice(it, CHUNK)), ()):
        for x in window:
            consume(x)
    return checksum()


def _rx2_window(op: str) -> Callable[[int], Checksum]:
    def run(n: int) -> Checksum:
        consume, checksum = make_sink()
        windows = Flowable.range(0, n).window(CHUNK)
        flatten = getattr(windows, op)
        return _rx2_sync(flatten(lambda w: w), consume, checksum)
    return run


def _rxpy_window(n: int) -> Checksum:
    import reactivex
    from reactivex import operators as ops
    consume, checksum = make_sink()
    return _rxpy_sync(reactivex.from_iterable(range(n)).pipe(
        ops.window_with_count(CHUNK), ops.flat_map(lambda w: w)), consume, checksum)


def window(rxpy: bool) -> Workload:
    impls = [
        Impl("plain loop over chunks of 16", PLAIN, _plain_window),
        Impl("builtins iter(tuple(islice), ())", BUILTINS, _islice_window),
        Impl("rxpy2 range.window(16).concat_map(w → w)", RXPY2, _rx2_window("concat_map")),
        Impl("rxpy2 range.window(16).flat_map(w → w)", RXPY2, _rx2_window("flat_map")),
    ]
    if rxpy:
        impls.append(Impl("RxPY window_with_count(16).flat_map(w → w)", RXPY, _rxpy_window,
                          note="RxPY's windows are hot: concat_map would drop their items"))
    return Workload("window", "range → window(16) → each window flattened → consume", 100_000,
                    "source item", impls, ["plain loop over chunks of 16"],
                    notes=["Each window is a Flowable of 16 items, subscribed to and consumed "
                           "item by item; the plain forms walk the same chunks."])


# ---------------------------------------------------------------- group_by

#: Number of groups of the group_by workload (the key is ``x % GROUPS``).
GROUPS = 16


def key16(x: int) -> int:
    """The group key of the group_by workload."""
    return x % GROUPS


def _plain_group_by(n: int) -> Checksum:
    """Routes every item to its group's record (a dict of per-group counters, a group made
    on its key's first item) and hands ``f(x)`` on, as group_by → flat_map(g.map(f)) does."""
    consume, checksum = make_sink()
    counts: dict[int, int] = {}
    for x in range(n):
        k = key16(x)
        c = counts.get(k)
        counts[k] = 1 if c is None else c + 1
        consume(f(x))
    return checksum()


def _builtins_group_by(n: int) -> Checksum:
    consume, checksum = make_sink()
    for _, g in itertools.groupby(sorted(range(n), key=key16), key16):
        for y in map(f, g):
            consume(y)
    return checksum()


def _rx2_group_by(n: int) -> Checksum:
    consume, checksum = make_sink()
    return _rx2_sync(Flowable.range(0, n).group_by(key16).flat_map(lambda g: g.map(f)),
                     consume, checksum)


def _rxpy_group_by(n: int) -> Checksum:
    import reactivex
    from reactivex import operators as ops
    consume, checksum = make_sink()
    return _rxpy_sync(reactivex.from_iterable(range(n)).pipe(
        ops.group_by(key16), ops.flat_map(lambda g: g.pipe(ops.map(f)))), consume, checksum)


def group_by(rxpy: bool) -> Workload:
    impls = [
        Impl("plain loop, dict of per-group counters", PLAIN, _plain_group_by),
        Impl("builtins groupby(sorted) + map", BUILTINS, _builtins_group_by,
             note="sorts first: one group after another, not streaming"),
        Impl("rxpy2 group_by(x % 16).flat_map(g → g.map(f))", RXPY2, _rx2_group_by,
             target=Target(3.0, versus="plain loop, dict of per-group counters",
                           text="group_by", issue=32)),
    ]
    if rxpy:
        impls.append(Impl("RxPY group_by.flat_map(g → g.pipe(map(f)))", RXPY, _rxpy_group_by,
                          n_div=10))
    return Workload("group_by", "range → group_by(x % 16) → flat_map(g → g.map(f)) → consume",
                    100_000, "source item", impls, ["plain loop, dict of per-group counters"],
                    notes=["16 groups, every item mapped by the same `f` inside its group; "
                           "the consumer's checksum (count, sum) does not depend on the order, "
                           "which the sorted builtins form changes."])


def _plain_group_sums(n: int) -> Checksum:
    consume, checksum = make_sink()
    sums: dict[int, int] = {}
    for x in range(n):
        k = key16(x)
        sums[k] = add(sums.get(k, 0), x)
    for s in sums.values():
        consume(s)
    return checksum()


def _builtins_group_sums(n: int) -> Checksum:
    consume, checksum = make_sink()
    for _, g in itertools.groupby(sorted(range(n), key=key16), key16):
        consume(functools.reduce(add, g, 0))
    return checksum()


def _rx2_group_reduce(n: int) -> Checksum:
    consume, checksum = make_sink()
    return _rx2_sync(Flowable.range(0, n).group_by(key16).flat_map_single(
        lambda g: g.reduce(add, 0)), consume, checksum)


def _rxpy_group_reduce(n: int) -> Checksum:
    import reactivex
    from reactivex import operators as ops
    consume, checksum = make_sink()
    return _rxpy_sync(reactivex.from_iterable(range(n)).pipe(
        ops.group_by(key16), ops.flat_map(lambda g: g.pipe(ops.reduce(add, 0)))),
        consume, checksum)


def group_by_reduce(rxpy: bool) -> Workload:
    impls = [
        Impl("plain loop, dict of per-group sums", PLAIN, _plain_group_sums),
        Impl("builtins groupby(sorted) + functools.reduce", BUILTINS, _builtins_group_sums,
             note="sorts first"),
        Impl("rxpy2 group_by(x % 16).flat_map_single(g → g.reduce(add, 0))", RXPY2,
             _rx2_group_reduce),
    ]
    if rxpy:
        impls.append(Impl("RxPY group_by.flat_map(g → g.pipe(reduce(add, 0)))", RXPY,
                          _rxpy_group_reduce, n_div=10))
    return Workload("group_by_reduce", "range → group_by(x % 16) → reduce each group → "
                    "consume the 16 sums", 100_000, "source item", impls,
                    ["plain loop, dict of per-group sums"],
                    notes=["Every implementation adds with the same `add(a, b)` from 0; the "
                           "consumer gets one sum per group, when the source has ended."])


def _plain_group_lists(n: int) -> Checksum:
    consume, checksum = make_list_sink()
    groups: collections.defaultdict[int, list[int]] = collections.defaultdict(list)
    for x in range(n):
        groups[key16(x)].append(x)
    for g in groups.values():
        consume(g)
    return checksum()


def _builtins_group_lists(n: int) -> Checksum:
    consume, checksum = make_list_sink()
    for _, g in itertools.groupby(sorted(range(n), key=key16), key16):
        consume(list(g))
    return checksum()


def _rx2_group_to_list(n: int) -> Checksum:
    consume, checksum = make_list_sink()
    errors: list[BaseException] = []
    Flowable.range(0, n).group_by(key16).flat_map_single(lambda g: g.to_list()).subscribe(
        consume, errors.append)
    if errors:
        raise errors[0]
    return checksum()


def _rxpy_group_to_list(n: int) -> Checksum:
    import reactivex
    from reactivex import operators as ops
    consume, checksum = make_list_sink()
    return _rxpy_sync(reactivex.from_iterable(range(n)).pipe(
        ops.group_by(key16), ops.flat_map(lambda g: g.pipe(ops.to_list()))), consume, checksum)


def group_by_to_list(rxpy: bool) -> Workload:
    impls = [
        Impl("plain loop, defaultdict(list)", PLAIN, _plain_group_lists),
        Impl("builtins groupby(sorted) + list", BUILTINS, _builtins_group_lists,
             note="sorts first"),
        Impl("rxpy2 group_by(x % 16).flat_map_single(g → g.to_list())", RXPY2,
             _rx2_group_to_list),
    ]
    if rxpy:
        impls.append(Impl("RxPY group_by.flat_map(g → g.pipe(to_list()))", RXPY,
                          _rxpy_group_to_list, n_div=10))
    return Workload("group_by_to_list", "range → group_by(x % 16) → to_list each group → "
                    "consume the 16 lists", 100_000, "source item", impls,
                    ["plain loop, defaultdict(list)"],
                    notes=["The consumer takes lists: the checksum is (lists, sum of their "
                           "items)."])


# ---------------------------------------------------------------- thread hop


_DONE = object()


Sink = Callable[[], tuple[Callable[[int], None], Callable[[], Checksum]]]


def _queue_pair(n: int, sink: Sink = make_sink) -> Checksum:
    """A producer thread puts into ``queue.Queue(maxsize=128)``, a consumer thread takes."""
    consume, checksum = sink()
    q: queue.Queue[object] = queue.Queue(maxsize=BATCH)

    def producer() -> None:
        put = q.put
        for x in range(n):
            put(x)
        put(_DONE)

    def consumer() -> None:
        get = q.get
        while True:
            x = get()
            if x is _DONE:
                return
            consume(x)  # type: ignore[arg-type]

    threads = [threading.Thread(target=consumer), threading.Thread(target=producer)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(HOP_TIMEOUT)
    return checksum()


class _Credits:
    """State of the deque hand-over; each counter has one writer (the GIL does the rest)."""

    __slots__ = ("returned", "producer_waiting", "consumer_waiting", "done")

    def __init__(self) -> None:
        self.returned = 0  # credits handed back by the consumer (consumer writes)
        self.producer_waiting = False
        self.consumer_waiting = False
        self.done = False  # every item is in the deque (producer writes)


def _deque_credits(n: int, sink: Sink = make_sink) -> Checksum:
    """Producer/consumer threads over a ``deque``, the consumer handing credits back in batches.

    The producer may have at most 128 items outstanding; the consumer returns
    96 credits at a time. A side that has to wait flags it and waits on a
    Condition; the other side notifies only when it sees the flag (the flag is
    set under the lock before the waiter re-checks, so no wake-up is lost).
    """
    consume, checksum = sink()
    dq: collections.deque[int] = collections.deque()
    st = _Credits()
    lock = threading.Lock()
    credits_back = threading.Condition(lock)
    items_in = threading.Condition(lock)
    capacity = BATCH
    batch = CREDIT_BATCH

    def producer() -> None:
        append = dq.append
        sent = 0
        while sent < n:
            avail = capacity - (sent - st.returned)
            if avail <= 0:
                with lock:
                    st.producer_waiting = True
                    while capacity - (sent - st.returned) <= 0:
                        credits_back.wait()
                    st.producer_waiting = False
                continue
            end = min(n, sent + avail)
            for x in range(sent, end):
                append(x)
            sent = end
            if st.consumer_waiting:
                with lock:
                    items_in.notify()
        st.done = True
        if st.consumer_waiting:
            with lock:
                items_in.notify()

    def consumer() -> None:
        popleft = dq.popleft
        k = 0
        while True:
            try:
                while True:
                    consume(popleft())
                    k += 1
                    if k == batch:
                        k = 0
                        st.returned += batch
                        if st.producer_waiting:
                            with lock:
                                credits_back.notify()
            except IndexError:
                pass
            if st.done and not dq:
                return
            with lock:
                st.consumer_waiting = True
                while not dq and not st.done:
                    items_in.wait()
                st.consumer_waiting = False

    threads = [threading.Thread(target=consumer), threading.Thread(target=producer)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(HOP_TIMEOUT)
    return checksum()


def _rx2_hop(hide: bool, box: dict[str, NewThreadScheduler],
             producer_thread: bool = False, sink: Sink = make_sink) -> Callable[[int], Checksum]:
    def run(n: int) -> Checksum:
        consume, checksum = sink()
        done = threading.Event()
        errors: list[BaseException] = []

        def on_error(e: BaseException) -> None:
            errors.append(e)
            done.set()

        src = Flowable.range(0, n)
        if hide:
            src = src.hide()
        if producer_thread:  # the range emits on a thread of its own, throughout
            src = src.subscribe_on(box["producer"])
        src.observe_on(box["scheduler"]).subscribe(consume, on_error, done.set)
        if not done.wait(HOP_TIMEOUT):
            raise TimeoutError("observe_on did not complete")
        if errors:
            raise errors[0]
        return checksum()
    return run


def _rxpy_hop(n: int, sink: Sink = make_sink) -> Checksum:
    import reactivex
    from reactivex import operators as ops
    from reactivex.scheduler import EventLoopScheduler
    consume, checksum = sink()
    done = threading.Event()
    errors: list[BaseException] = []

    def on_error(e: BaseException) -> None:
        errors.append(e)
        done.set()

    s = EventLoopScheduler()
    try:
        reactivex.from_iterable(range(n)).pipe(ops.observe_on(s)).subscribe(
            consume, on_error, done.set)
        if not done.wait(HOP_TIMEOUT):
            raise TimeoutError("RxPY observe_on did not complete")
    finally:
        s.dispose()
    if errors:
        raise errors[0]
    return checksum()


def _hop_schedulers() -> tuple[dict[str, NewThreadScheduler], Callable[[], None],
                               Callable[[], None]]:
    """The schedulers of a thread-hop workload (``box``), made by its setup, shut down by
    its teardown."""
    box: dict[str, NewThreadScheduler] = {}

    def setup() -> None:
        box["scheduler"] = NewThreadScheduler()
        box["producer"] = NewThreadScheduler()

    def teardown() -> None:
        for key in ("scheduler", "producer"):
            s = box.pop(key, None)
            if s is not None:
                s.shutdown()

    return box, setup, teardown


def observe_on(rxpy: bool) -> Workload:
    box, setup, teardown = _hop_schedulers()
    impls = [
        Impl("queue.Queue(128) producer + consumer threads", PLAIN, _queue_pair),
        Impl("deque + credits in batches of 96/128, two threads", PLAIN, _deque_credits),
        Impl("rxpy2 range.observe_on (fused: worker polls range)", RXPY2,
             _rx2_hop(False, box)),
        Impl("rxpy2 range.hide().observe_on (queue hop)", RXPY2, _rx2_hop(True, box)),
        Impl("rxpy2 range.subscribe_on(t1).observe_on(t2) (two threads throughout)", RXPY2,
             _rx2_hop(False, box, producer_thread=True),
             target=Target(1.25, versus="deque + credits in batches of 96/128, two threads",
                           text="a real thread hop against its own reference", issue=32)),
    ]
    if rxpy:
        impls.append(Impl("RxPY from_iterable.observe_on(EventLoopScheduler)", RXPY,
                          _rxpy_hop, n_div=20, note="no backpressure: unbounded queue"))
    return Workload(
        "observe_on", "thread hop: range → other thread → consume", 100_000, "item", impls,
        ["queue.Queue(128) producer + consumer threads",
         "deque + credits in batches of 96/128, two threads"],
        setup=setup, teardown=teardown,
        notes=["End to end: from the start of the threads (or the subscription) until the "
               "consumer has seen the last item, including thread start (and join for the "
               "plain pairs); rxpy2 runs on its own NewThreadScheduler (one new thread per "
               "subscription), shut down after the workload.",
               "In `range.hide().observe_on` the range emits its first 128 items on the "
               "subscribing thread and every later batch on the worker (the worker's "
               "replenishing request runs the range's loop), so most items do not change "
               "thread; `subscribe_on(t1).observe_on(t2)` keeps the producer on a thread of "
               "its own, the same shape as the two plain pairs."])


def _plain_slow(n: int) -> Checksum:
    consume, checksum = make_slow_sink()
    for x in range(n):
        consume(x)
    return checksum()


def _slow(run: Callable[..., Checksum]) -> Callable[[int], Checksum]:
    """``run`` (a two-thread hand-over of :func:`_queue_pair`'s signature) feeding the slow
    consumer."""
    return functools.partial(run, sink=make_slow_sink)


def observe_on_slow(rxpy: bool) -> Workload:
    box, setup, teardown = _hop_schedulers()
    impls = [
        Impl("plain loop, one thread", PLAIN, _plain_slow,
             note="the consumer's own cost, no hand-over"),
        Impl("queue.Queue(128) producer + consumer threads", PLAIN, _slow(_queue_pair)),
        Impl("deque + credits in batches of 96/128, two threads", PLAIN, _slow(_deque_credits)),
        Impl("rxpy2 range.subscribe_on(t1).observe_on(t2)", RXPY2,
             _rx2_hop(False, box, producer_thread=True, sink=make_slow_sink)),
        Impl("rxpy2 range.hide().observe_on (queue hop)", RXPY2,
             _rx2_hop(True, box, sink=make_slow_sink)),
    ]
    if rxpy:
        impls.append(Impl("RxPY from_iterable.observe_on(EventLoopScheduler)", RXPY,
                          _slow(_rxpy_hop), note="no backpressure: unbounded queue"))
    return Workload(
        "observe_on_slow", f"thread hop to a slow consumer ({SLOW_SPIN}-step busy loop per item)",
        50_000, "item", impls,
        ["plain loop, one thread", "deque + credits in batches of 96/128, two threads"],
        setup=setup, teardown=teardown,
        notes=["The consumer spins a little per item, so the producer is ahead and the "
               "hand-over is full most of the time: the producer waits for credit and the "
               "consumer is woken once per batch (96 of the 128 in rxpy2's observe_on and in "
               "the deque pair, every item's `get` in the queue.Queue pair). The one-thread "
               "loop is the floor: the consumer's work with no hand-over."])


# ---------------------------------------------------------------- a long chain of trampoline hops

#: Stages of the trampoline-chain workload.
STAGES = 1_000


def _plain_stages(n: int) -> Checksum:
    consume, checksum = make_sink()
    for x in range(n):
        for _ in range(STAGES):
            x = identity(x)
        consume(x)
    return checksum()


def _rx2_hidden_maps(n: int) -> Checksum:
    consume, checksum = make_sink()
    src = Flowable.range(0, n)
    for _ in range(STAGES):
        src = src.hide().map(identity)
    return _rx2_sync(src, consume, checksum)


def _rx2_trampoline_hops(n: int) -> Checksum:
    consume, checksum = make_sink()
    trampoline = Schedulers.trampoline()
    src = Flowable.range(0, n)
    for _ in range(STAGES):
        src = src.observe_on(trampoline)
    return _rx2_sync(src, consume, checksum)


def _rxpy_trampoline_hops(n: int) -> Checksum:
    import reactivex
    from reactivex import operators as ops
    from reactivex.scheduler import CurrentThreadScheduler
    consume, checksum = make_sink()
    trampoline = CurrentThreadScheduler.singleton()
    return _rxpy_sync(reactivex.from_iterable(range(n)).pipe(
        *[ops.observe_on(trampoline) for _ in range(STAGES)]), consume, checksum)


def trampoline_chain(rxpy: bool) -> Workload:
    impls = [
        Impl("plain loop, 1,000 identity calls per item", PLAIN, _plain_stages),
        Impl("rxpy2 1,000 × hide().map(identity)", RXPY2, _rx2_hidden_maps,
             note="2,000 operators that do not fuse, one call of identity per stage"),
        Impl("rxpy2 1,000 × observe_on(Schedulers.trampoline())", RXPY2, _rx2_trampoline_hops),
    ]
    if rxpy:
        impls.append(Impl("RxPY 1,000 × observe_on(CurrentThreadScheduler)", RXPY,
                          _rxpy_trampoline_hops))
    return Workload(
        "trampoline_chain", "10 items through 1,000 observe_on(trampoline) stages", 10,
        "subscription", impls,
        ["plain loop, 1,000 identity calls per item", "rxpy2 1,000 × hide().map(identity)"],
        items=lambda n: 1, unit="ms", unit_ns=1e6, fixed_n=True,
        notes=["Milliseconds per subscription (assembly of the 1,000 stages included), 10 "
               "items; `--items` does not change it. No reference does the same work: a hop "
               "onto the trampoline queues each item and drains it on the same thread. The "
               "rows give a scale instead: the plain loop makes the same 1,000 calls per item, "
               "the hide().map chain passes each item through 1,000 operator stages that keep "
               "their own demand. The figure that matters is the hop row's own: issue 32 "
               "recorded 20 s for it (O(n²) tasks)."])


# ---------------------------------------------------------------- assembly tracking


def _tracked(run: Callable[[int], Checksum]) -> Callable[[int], Checksum]:
    """``run`` with assembly tracking on (assembly and subscription inside the timing)."""
    def tracked(n: int) -> Checksum:
        plugins.set_assembly_tracking(True)
        try:
            return run(n)
        finally:
            plugins.set_assembly_tracking(False)
    return tracked


def _rx2_chain_checkpoint(n: int) -> Checksum:
    consume, checksum = make_sink()
    return _rx2_sync(Flowable.range(0, n).map(f).filter(p).checkpoint("bench"), consume,
                     checksum)


def assembly_tracking(rxpy: bool) -> Workload:
    impls = [
        Impl("plain loop", PLAIN, _plain_chain),
        Impl("rxpy2 range.map.filter, tracking off", RXPY2, _rx2_chain,
             note="the chain workload's row: what every chain runs while tracking is off"),
        Impl("rxpy2 range.map.filter.checkpoint()", RXPY2, _rx2_chain_checkpoint,
             note="one checkpoint after the fused chain: one more on_next per item"),
        Impl("rxpy2 range.hide().map.filter, tracking off", RXPY2, _rx2_chain_hidden,
             note="the same stages, none fused: what tracking runs, without its stages"),
        Impl("rxpy2 range.map.filter, tracking on", RXPY2, _tracked(_rx2_chain),
             note="no macro fusion, and a tracing stage after each of the 3 operators"),
    ]
    return Workload("assembly_tracking", "range → map → filter → consume, assembly tracking "
                    "off and on", 200_000, "source item", impls,
                    ["rxpy2 range.map.filter, tracking off"],
                    notes=["Tracking off is the `plugins.hooks_active` test each assembly and "
                           "subscription already made: the off row is the plain chain. On, "
                           "each operator records its site at assembly (a frame walk) and "
                           "each subscription puts a pass-through stage after each traced "
                           "operator."])


def _rx2_flat_map_just_tracked(n: int) -> Checksum:
    return _tracked(_rx2_flat_map_just)(n)


def assembly_tracking_inner(rxpy: bool) -> Workload:
    impls = [
        Impl("plain loop", PLAIN, _plain_just),
        Impl("rxpy2 flat_map(just), tracking off", RXPY2, _rx2_flat_map_just),
        Impl("rxpy2 flat_map(just), tracking on", RXPY2, _rx2_flat_map_just_tracked,
             note="each inner just(x) assembled (its site recorded) and subscribed (traced)"),
    ]
    return Workload("assembly_tracking_inner", "range → flat_map(x → just(x)) → consume, "
                    "assembly tracking off and on", 100_000, "source item", impls,
                    ["rxpy2 flat_map(just), tracking off"],
                    notes=["An assembly per item: the cost of recording a site and tracing "
                           "one more subscription, per assembled source."])


# ---------------------------------------------------------------- registry

BUILDERS: dict[str, Callable[[bool], Workload]] = {
    "chain": chain,
    "chain_batched": chain_batched,
    "flat_map_just": flat_map_just,
    "flat_map_concurrency": flat_map_concurrency,
    "flat_map_range": flat_map_range,
    "concat_map": concat_map,
    "merge_concat": merge_concat,
    "concat_with": concat_with,
    "scan": scan,
    "zip": zip_,
    "distinct": distinct,
    "take_while": take_while,
    "skip_while": skip_while,
    "buffer": buffer,
    "window": window,
    "group_by": group_by,
    "group_by_reduce": group_by_reduce,
    "group_by_to_list": group_by_to_list,
    "observe_on": observe_on,
    "observe_on_slow": observe_on_slow,
    "trampoline_chain": trampoline_chain,
    "assembly_tracking": assembly_tracking,
    "assembly_tracking_inner": assembly_tracking_inner,
    import_cost.KEY: import_cost.import_workload,
}


def build(keys: list[str], rxpy: bool) -> list[Workload]:
    """The workloads named in ``keys`` (registry order), with RxPY rows when ``rxpy``."""
    return [BUILDERS[k](rxpy) for k in BUILDERS if k in keys]
