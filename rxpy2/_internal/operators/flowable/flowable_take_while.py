"""Flowable.take_while: items while a predicate holds.

The first item that fails the predicate is not emitted: it cancels the upstream
and completes. A raising predicate cancels the upstream and signals its error.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar
from typing import Generic
from typing import TypeVar

from rxpy2._internal.fuseable import HasUpstreamPublisher
from rxpy2._internal.helpers.fused_stage import FusedStage
from rxpy2._internal.helpers.fused_stage import Lines
from rxpy2._internal.helpers.subscribe_loop import subscribe_tail
from rxpy2.flowable import Flowable
from rxpy2.operator_kit import OperatorSubscriber
from rxpy2.operator_kit import null_or_late_item
from rxpy2.reactivestreams import Publisher
from rxpy2.reactivestreams import Subscriber

__all__ = ["FlowableTakeWhile"]

T = TypeVar("T")


def _take_while_lines(i: int, stop: Lines) -> Lines:
    return [f"if not f{i}(x):", *["    " + s for s in stop]]  # before the item


class FlowableTakeWhile(Flowable[T], HasUpstreamPublisher[T], Generic[T]):
    __slots__ = ("source", "predicate")

    #: as a fused stage: a false ``fN(x)`` ends the chain before the item
    STAGE: ClassVar[FusedStage] = FusedStage(
        "take_while", operator=lambda up, p: FlowableTakeWhile(up, p), loop=_take_while_lines,
        stops=True, before_flatten=True)

    def __init__(self, source: Publisher[T], predicate: Callable[[T], bool]) -> None:
        self.source = source
        self.predicate = predicate

    def subscribe_actual(self, subscriber: Subscriber[T]) -> None:
        subscribe_tail(self.source, TakeWhileSubscriber(subscriber, self.predicate))


class TakeWhileSubscriber(OperatorSubscriber[T, T], Generic[T]):
    __slots__ = ("predicate",)

    def __init__(self, downstream: Subscriber[T], predicate: Callable[[T], bool]) -> None:
        super().__init__(downstream)
        self.predicate = predicate

    def on_next(self, item: T) -> None:
        if item is None or self.done:
            null_or_late_item(item)  # §2.13
            return
        try:
            b = self.predicate(item)
        except Exception as e:
            self.fail(e)
            return
        if not b:
            self.complete_early()
            return
        self.downstream.on_next(item)
