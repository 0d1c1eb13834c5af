"""Flowable.take: the first ``n`` items, never requesting more than ``n`` upstream in total.

Downstream requests are forwarded capped to what is still missing of ``n``:
``take(3)`` under an unbounded request asks upstream for 3; under ``request(1)``
then ``request(5)`` it asks for 1, then 2. The ``n``-th item cancels the
upstream and completes. ``take(0)`` signals ``on_subscribe`` and ``on_complete``
downstream as soon as the upstream Subscription arrives, and cancels it.
``n >= LONG_MAX`` is unbounded (§3.17): requests pass through, capped at ``LONG_MAX``,
so no amount above it ever reaches a 64-bit atomic cell.
``limit`` (:mod:`flowable_limit`) is this same operator.
"""

from __future__ import annotations

from typing import ClassVar
from typing import Generic
from typing import TypeVar

from rxpy2 import plugins
from rxpy2._internal.atomic import AtomicLong
from rxpy2._internal.fuseable import HasUpstreamPublisher
from rxpy2._internal.helpers.fused_stage import FusedStage
from rxpy2._internal.helpers.fused_stage import Lines
from rxpy2._internal.helpers.subscribe_loop import subscribe_tail
from rxpy2._internal.subscriptions.empty import EmptySubscription
from rxpy2.flowable import Flowable
from rxpy2.operator_kit import OperatorSubscriber
from rxpy2.operator_kit import null_error
from rxpy2.operator_kit import null_item
from rxpy2.operator_kit import validate_request
from rxpy2.reactivestreams import LONG_MAX
from rxpy2.reactivestreams import Publisher
from rxpy2.reactivestreams import Subscriber

__all__ = ["FlowableTake", "TakeSubscriber"]

T = TypeVar("T")


def _take_lines(i: int, stop: Lines) -> Lines:
    return [f"s{i} -= 1"]


def _take_after(i: int, stop: Lines) -> Lines:
    return [f"if s{i} == 0:", *["    " + s for s in stop]]  # the count reached: complete


class FlowableTake(Flowable[T], HasUpstreamPublisher[T], Generic[T]):
    __slots__ = ("source", "n")

    #: as a fused stage: ``sN`` counts down; at 0, after the item, the chain completes
    STAGE: ClassVar[FusedStage] = FusedStage(
        "take", operator=lambda up, n: FlowableTake(up, n), loop=_take_lines, after=_take_after,
        params=(), state=("s",), initial=lambda n: (n,), user_code=False, stops=True,
        done=lambda state: state[0] <= 0, before_flatten=True)

    def __init__(self, source: Publisher[T], n: int) -> None:
        self.source = source
        self.n = n

    def subscribe_actual(self, subscriber: Subscriber[T]) -> None:
        subscribe_tail(self.source, TakeSubscriber(subscriber, self.n))


class TakeSubscriber(OperatorSubscriber[T, T], Generic[T]):
    """``remaining`` counts the items still to emit (the upstream's thread only);
    ``allowance`` counts what may still be requested upstream (any thread); an
    ``n >= LONG_MAX`` is unbounded: ``allowance`` stays ``LONG_MAX`` (§3.17)."""

    __slots__ = ("remaining", "allowance")

    def __init__(self, downstream: Subscriber[T], n: int) -> None:
        if n > LONG_MAX:
            n = LONG_MAX  # §3.17: as unbounded; a 64-bit cell cannot hold more
        super().__init__(downstream)
        self.remaining = n
        self.allowance = AtomicLong(n)

    def on_start(self) -> bool:
        if self.remaining == 0:
            self.upstream.cancel()
            EmptySubscription.complete(self.downstream)  # §1.9: on_subscribe first
            return False
        return True

    def on_next(self, item: T) -> None:
        if item is None:
            raise null_item()  # §2.13
        r = self.remaining
        if r > 0:
            r -= 1
            self.remaining = r
            self.downstream.on_next(item)
            if r == 0:
                self.upstream.cancel()
                self.downstream.on_complete()

    def on_error(self, error: BaseException) -> None:
        if error is None:
            raise null_error()  # §2.13
        if self.remaining > 0:
            self.remaining = 0
            self.downstream.on_error(error)
        else:
            plugins.on_error(error)

    def on_complete(self) -> None:
        if self.remaining > 0:
            self.remaining = 0
            self.downstream.on_complete()

    def request(self, n: int) -> None:
        if n := validate_request(n):
            allowance = self.allowance
            while True:
                r = allowance.get()
                if r == LONG_MAX:  # unbounded: pass the demand on, capped (§3.17)
                    self.upstream.request(n if n < LONG_MAX else LONG_MAX)
                    return
                if r == 0:
                    return  # n items are already on their way (§3.6 no-op beyond n)
                u = n if n < r else r
                if allowance.compare_and_set(r, r - u):
                    self.upstream.request(u)
                    return
