"""Flowable.skip: drops the first ``n`` items.

As RxJava 2's ``FlowableSkip``: the dropped items are requested up front, in
``on_subscribe`` (after the downstream's own ``on_subscribe``, so a request it
makes there goes upstream first); every downstream request then passes through
unchanged. The skipped items need no downstream demand, so a source that ends
within them completes the stream even before anything was requested.
"""

from __future__ import annotations

from typing import ClassVar
from typing import Generic
from typing import TypeVar

from rxpy2._internal.fuseable import HasUpstreamPublisher
from rxpy2._internal.helpers.fused_stage import FusedStage
from rxpy2._internal.helpers.fused_stage import Lines
from rxpy2._internal.helpers.subscribe_loop import subscribe_tail
from rxpy2.flowable import Flowable
from rxpy2.operator_kit import OperatorSubscriber
from rxpy2.operator_kit import null_item
from rxpy2.reactivestreams import Publisher
from rxpy2.reactivestreams import Subscriber

__all__ = ["FlowableSkip"]

T = TypeVar("T")


def _skip_lines(i: int, stop: Lines) -> Lines:
    return [f"if s{i}:", f"    s{i} -= 1", "else:"]


class FlowableSkip(Flowable[T], HasUpstreamPublisher[T], Generic[T]):
    __slots__ = ("source", "n")

    #: as a fused stage: while ``sN`` is non-zero the item is dropped and ``sN -= 1``; it
    #: asks for its items once the downstream's on_subscribe returned (late_request)
    STAGE: ClassVar[FusedStage] = FusedStage(
        "skip", operator=lambda up, n: FlowableSkip(up, n), loop=_skip_lines, nests=True,
        params=(), state=("s",), initial=lambda n: (n,), user_code=False, late_request=True,
        before_flatten=True)

    def __init__(self, source: Publisher[T], n: int) -> None:
        self.source = source
        self.n = n

    def subscribe_actual(self, subscriber: Subscriber[T]) -> None:
        subscribe_tail(self.source, SkipCountSubscriber(subscriber, self.n))


class SkipCountSubscriber(OperatorSubscriber[T, T], Generic[T]):
    __slots__ = ("remaining",)

    def __init__(self, downstream: Subscriber[T], n: int) -> None:
        super().__init__(downstream)
        self.remaining = n

    def on_start(self) -> bool:
        n = self.remaining  # read before the downstream can see (and pull) any item
        self.downstream.on_subscribe(self)
        self.upstream.request(n)
        return False  # the downstream has had on_subscribe already

    def on_next(self, item: T) -> None:
        if item is None:
            raise null_item()  # §2.13
        r = self.remaining
        if r != 0:
            self.remaining = r - 1
        else:
            self.downstream.on_next(item)

