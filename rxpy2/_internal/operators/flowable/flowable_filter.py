"""Flowable.filter: only items that pass a predicate.

A dropped item is replaced by ``request(1)`` upstream (the operator guide's
rule for operators that are not 1:1); to a ConditionalSubscriber upstream the
filter answers ``try_on_next(item) -> False`` instead, so the source emits the
next item without a request round trip. Fuses by filtering in ``poll``. All of it is
``FilteringSubscriber`` (internal/subscribers/basic_fuseable.py) with the predicate
as its ``passes`` test.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar
from typing import Generic
from typing import TypeVar

from rxpy2._internal.fuseable import ConditionalSubscriber
from rxpy2._internal.fuseable import HasUpstreamPublisher
from rxpy2._internal.fuseable import is_conditional
from rxpy2._internal.helpers.fused_stage import FusedStage
from rxpy2._internal.helpers.fused_stage import Lines
from rxpy2._internal.helpers.subscribe_loop import subscribe_tail
from rxpy2._internal.subscribers.basic_fuseable import FilteringConditionalSubscriber
from rxpy2._internal.subscribers.basic_fuseable import FilteringSubscriber
from rxpy2.flowable import Flowable
from rxpy2.reactivestreams import Publisher
from rxpy2.reactivestreams import Subscriber

__all__ = ["FlowableFilter"]

T = TypeVar("T")


def _filter_lines(i: int, stop: Lines) -> Lines:
    return [f"if f{i}(x):"]


def _filter_step(i: int) -> Lines:
    return [f"if not f{i}(x):", "    return DROP"]


class FlowableFilter(Flowable[T], HasUpstreamPublisher[T], Generic[T]):
    __slots__ = ("source", "predicate")

    #: as a fused stage: the rest of the chain runs under ``if fN(x):``
    STAGE: ClassVar[FusedStage] = FusedStage(
        "filter", operator=lambda up, p: FlowableFilter(up, p), loop=_filter_lines, nests=True,
        step=_filter_step, rxjava_fuseable=True, before_flatten=True)

    def __init__(self, source: Publisher[T], predicate: Callable[[T], bool]) -> None:
        self.source = source
        self.predicate = predicate

    def subscribe_actual(self, subscriber: Subscriber[T]) -> None:
        if is_conditional(subscriber):
            subscribe_tail(self.source, FilterConditionalSubscriber(subscriber, self.predicate))
        else:
            subscribe_tail(self.source, FilterSubscriber(subscriber, self.predicate))


class FilterSubscriber(FilteringSubscriber[T], Generic[T]):
    def __init__(self, downstream: Subscriber[T], predicate: Callable[[T], bool]) -> None:
        super().__init__(downstream)
        self.passes = predicate  # type: ignore[method-assign, assignment]  # called directly: no extra frame


class FilterConditionalSubscriber(FilteringConditionalSubscriber[T], Generic[T]):
    def __init__(self, downstream: ConditionalSubscriber[T], predicate: Callable[[T], bool]) -> None:
        super().__init__(downstream)
        self.passes = predicate  # type: ignore[method-assign, assignment]  # the predicate replaces the method per instance
