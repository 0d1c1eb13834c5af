"""Flowable.skip_last: all but the last ``n`` items.

As RxJava 2's ``FlowableSkipLast``: the latest ``n`` items wait in a buffer and
each new item, once the buffer is full, releases the oldest one. Downstream
requests pass through unchanged; while the buffer is filling, every item it
takes in (and does not emit) is replaced with a ``request(1)`` upstream, so the
first ``n`` items cost the downstream no demand.
"""

from __future__ import annotations

from collections import deque
from typing import ClassVar
from typing import Generic
from typing import TypeVar

from rxpy2._internal.fuseable import HasUpstreamPublisher
from rxpy2._internal.helpers.fused_stage import FusedStage
from rxpy2._internal.helpers.fused_stage import Lines
from rxpy2._internal.helpers.subscribe_loop import subscribe_tail
from rxpy2._internal.operators.flowable.flowable_take_last import BufferedLast
from rxpy2.flowable import Flowable
from rxpy2.operator_kit import OperatorSubscriber
from rxpy2.operator_kit import null_item
from rxpy2.reactivestreams import Publisher
from rxpy2.reactivestreams import Subscriber

__all__ = ["FlowableSkipLast"]

T = TypeVar("T")


def _skip_last_lines(i: int, stop: Lines) -> Lines:
    # as the operator: the item goes in; past fN (the count) the oldest goes on
    return [f"s{i}.append(x)", f"if len(s{i}) > f{i}:", f"    x = s{i}.popleft()"]


def _skip_last_load(i: int) -> Lines:
    return [f"if s{i} is None:", f"    s{i} = deque()"]  # made at the first run


class FlowableSkipLast(Flowable[T], HasUpstreamPublisher[T], Generic[T]):
    __slots__ = ("source", "n")

    #: as a fused stage: ``sN`` a deque of the last ``fN`` items
    STAGE: ClassVar[FusedStage] = FusedStage(
        "skip_last", operator=lambda up, n: FlowableSkipLast(up, n), loop=_skip_last_lines,
        nests=True, load=_skip_last_load, state=("s",), initial=lambda n: (None,),
        names={"deque": deque}, user_code=False)

    def __init__(self, source: Publisher[T], n: int) -> None:
        self.source = source
        self.n = n

    def subscribe_actual(self, subscriber: Subscriber[T]) -> None:
        subscribe_tail(self.source, SkipLastSubscriber(subscriber, self.n))


class SkipLastSubscriber(BufferedLast, OperatorSubscriber[T, T], Generic[T]):
    """Requests and cancellation pass through (``OperatorSubscriber``); a buffered item
    that releases nothing is paid for with one more upstream item."""

    __slots__ = ("n", "buffer")

    def __init__(self, downstream: Subscriber[T], n: int) -> None:
        super().__init__(downstream)
        self.n = n
        self.buffer: deque[T] = deque()

    def on_next(self, item: T) -> None:
        if item is None:
            raise null_item()  # §2.13
        b = self.buffer
        b.append(item)
        if len(b) > self.n:
            self.downstream.on_next(b.popleft())
        else:
            self.upstream.request(1)  # §3.3: a synchronous source only adds it to its demand

    def on_complete(self) -> None:
        self.buffer.clear()
        self.downstream.on_complete()
