"""Flowable.scan: running accumulation.

* :class:`FlowableScan` (no seed): the first item is emitted as it is and
  starts the accumulation; afterwards ``accumulator(acc, item)`` per item. 1:1,
  so requests pass straight through.
* :class:`FlowableScanSeed`: the seed (``seed_supplier()``, per subscriber) is
  emitted first, then one result per item: one item more than the upstream
  emits. So that no item is emitted without demand, the results go through a
  bounded queue drained under the downstream's demand (queue-drain); the
  upstream is requested ``prefetch - 1`` items first (the seed takes one queue
  slot) and then replenished by ``prefetch - prefetch // 4`` each time that
  many results were emitted. An upstream error is signalled as soon as it
  arrives; results still queued for lack of demand are dropped.

An accumulator that raises, or returns ``None`` (``TypeError``), cancels the
upstream and signals the error.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from typing import ClassVar
from typing import Generic
from typing import TypeVar

from rxpy2._internal.fuseable import HasUpstreamPublisher
from rxpy2._internal.helpers.function_names import returned_none
from rxpy2._internal.helpers.fused_stage import NOTHING
from rxpy2._internal.helpers.fused_stage import FusedStage
from rxpy2._internal.helpers.fused_stage import Lines
from rxpy2._internal.helpers.subscribe_loop import subscribe_tail
from rxpy2._internal.subscribers.stable_prefetch import StablePrefetchSubscriber
from rxpy2._internal.subscriptions.empty import EmptySubscription
from rxpy2.flowable import BUFFER_SIZE
from rxpy2.flowable import Flowable
from rxpy2.operator_kit import OperatorSubscriber
from rxpy2.operator_kit import null_error
from rxpy2.operator_kit import null_or_late_item
from rxpy2.operator_kit import produced
from rxpy2.reactivestreams import LONG_MAX
from rxpy2.reactivestreams import Publisher
from rxpy2.reactivestreams import Subscriber

__all__ = ["FlowableScan", "FlowableScanSeed"]

T = TypeVar("T")
R = TypeVar("R")


def _none_result(accumulator: Any) -> TypeError:
    return returned_none("scan", accumulator, "accumulator function")  # §2.13


def _scan_lines(i: int, stop: Lines) -> Lines:
    # as the operator: the first item goes on as it is; then x = sN = fN(sN, x)
    return [f"if s{i} is NOTHING:", f"    s{i} = x", "else:", f"    x = f{i}(s{i}, x)",
            "    if x is None:", f"        raise scan_none(f{i})", f"    s{i} = x"]


class FlowableScan(Flowable[T], HasUpstreamPublisher[T], Generic[T]):
    __slots__ = ("source", "accumulator")

    #: as a fused stage: ``sN`` the accumulator (a plain Subscriber in RxJava 2)
    STAGE: ClassVar[FusedStage] = FusedStage(
        "scan", operator=lambda up, f: FlowableScan(up, f), loop=_scan_lines, state=("s",),
        initial=lambda f: (NOTHING,), names={"scan_none": _none_result})

    def __init__(self, source: Publisher[T], accumulator: Callable[[T, T], T]) -> None:
        self.source = source
        self.accumulator = accumulator

    def subscribe_actual(self, subscriber: Subscriber[T]) -> None:
        subscribe_tail(self.source, ScanSubscriber(subscriber, self.accumulator))


class ScanSubscriber(OperatorSubscriber[T, T], Generic[T]):
    __slots__ = ("accumulator", "value")

    def __init__(self, downstream: Subscriber[T], accumulator: Callable[[T, T], T]) -> None:
        super().__init__(downstream)
        self.accumulator = accumulator
        self.value: T | None = None

    def on_next(self, item: T) -> None:
        if item is None or self.done:
            null_or_late_item(item)  # §2.13
            return
        v = self.value
        if v is None:
            self.value = item
            self.downstream.on_next(item)
            return
        try:
            v = self.accumulator(v, item)
        except Exception as e:
            self.fail(e)
            return
        if v is None:
            self.fail(_none_result(self.accumulator))
            return
        self.value = v
        self.downstream.on_next(v)

    def on_error(self, error: BaseException) -> None:
        if error is None:
            raise null_error()  # §2.13
        self.value = None
        super().on_error(error)

    def on_complete(self) -> None:
        self.value = None
        super().on_complete()


def _scan_seed_lines(i: int, stop: Lines) -> Lines:
    return [f"x = f{i}(s{i}, x)", "if x is None:", f"    raise scan_none(f{i})", f"s{i} = x"]


def _scan_seed_prologue(i: int) -> Lines:
    return [f"if not q{i}:", f"    q{i} = True", f"    x = s{i}"]  # the seed, marked sent


def _scan_seed_operator(upstream: Publisher[Any], arg: tuple[Any, Any]) -> Flowable[Any]:
    accumulator, seed = arg
    return FlowableScanSeed(upstream, lambda: seed, accumulator)


class FlowableScanSeed(Flowable[R], HasUpstreamPublisher[T], Generic[T, R]):
    __slots__ = ("source", "seed_supplier", "accumulator", "prefetch")

    #: scan(f, seed) as a fused stage (argument ``(f, seed)``): ``sN`` the accumulator,
    #: starting as the seed, which goes out in the prologue (``qN``: sent)
    STAGE: ClassVar[FusedStage] = FusedStage(
        "scan_seed", operator=_scan_seed_operator, loop=_scan_seed_lines,
        prologue=_scan_seed_prologue, arguments=lambda a: (a[0],), state=("s", "q"),
        initial=lambda a: (a[1], False), names={"scan_none": _none_result})

    def __init__(self, source: Publisher[T], seed_supplier: Callable[[], R],
                 accumulator: Callable[[R, T], R], prefetch: int = BUFFER_SIZE) -> None:
        if prefetch < 2:
            raise ValueError(f"prefetch >= 2 required but it was {prefetch}")
        self.source = source
        self.seed_supplier = seed_supplier
        self.accumulator = accumulator
        self.prefetch = prefetch

    def subscribe_actual(self, subscriber: Subscriber[R]) -> None:
        try:
            seed = self.seed_supplier()
            if seed is None:
                raise TypeError("The seed_supplier returned None")
        except Exception as e:
            EmptySubscription.error(e, subscriber)
            return
        subscribe_tail(self.source,
            ScanSeedSubscriber(subscriber, self.accumulator, seed, self.prefetch))


class ScanSeedSubscriber(StablePrefetchSubscriber[T, R], Generic[T, R]):
    """Queue-drain: ``on_next`` accumulates and queues, the drain loop emits under demand."""

    __slots__ = ("accumulator", "value")

    operator_name = "scan"

    def __init__(self, downstream: Subscriber[R], accumulator: Callable[[R, T], R],
                 seed: R, prefetch: int) -> None:
        super().__init__(downstream, prefetch, prefetch - 1)  # the seed holds one queue slot
        self.accumulator = accumulator
        self.value: R | None = seed
        self.queue.offer(seed)

    def on_next(self, item: T) -> None:
        if item is None or self.done:
            null_or_late_item(item)  # §2.13
            return
        try:
            v = self.accumulator(self.value, item)  # type: ignore[arg-type]  # set by the first item
        except Exception as e:
            self.fail(e)
            return
        if v is None:
            self.fail(_none_result(self.accumulator))
            return
        self.value = v
        gate = self.gate
        if gate.try_enter():  # free (not counted, as RxJava's CAS 0 -> 1)
            # fast path: we own the drain; with nothing queued and demand, emit directly
            if self.queue.is_empty() and not self.cancelled:
                requested = self.requested
                r = requested.get()
                if r != 0:
                    self.downstream.on_next(v)
                    if r != LONG_MAX:
                        produced(requested, 1)
                    c = self.consumed + 1
                    lim = self.limit
                    if c == lim:
                        c = 0
                        self.upstream.request(lim)
                    self.consumed = c
                    if not gate.leave():
                        return
                    self.drain_loop()
                    return
            if not self.queue.offer(v):
                self.overflow()
            self.drain_loop()
            return
        if self.queue.offer(v):
            self.drain()
        else:
            self.overflow()
