"""Flowable.skip_while: drops items while a predicate holds, then relays everything.

A dropped item is replaced by ``request(1)`` upstream, or, to a conditional
upstream, answered with ``try_on_next(item) -> False``; to a conditional
downstream the items go by ``try_on_next`` too. Once an item fails the
predicate, the predicate is not called any more. Fuses by skipping in ``poll``.
The stage is a ``FilteringSubscriber`` (internal/subscribers/basic_fuseable.py).
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

__all__ = ["FlowableSkipWhile"]

T = TypeVar("T")


def _skip_while_lines(i: int, stop: Lines) -> Lines:
    return [f"if s{i} and f{i}(x):", "    pass", "else:", f"    s{i} = False"]


class FlowableSkipWhile(Flowable[T], HasUpstreamPublisher[T], Generic[T]):
    __slots__ = ("source", "predicate")

    #: as a fused stage: items are dropped while ``sN and fN(x)``; then ``sN = False``
    STAGE: ClassVar[FusedStage] = FusedStage(
        "skip_while", operator=lambda up, p: FlowableSkipWhile(up, p), loop=_skip_while_lines,
        nests=True, state=("s",), initial=lambda p: (True,), before_flatten=True)

    def __init__(self, source: Publisher[T], predicate: Callable[[T], bool]) -> None:
        self.source = source
        self.predicate = predicate

    def subscribe_actual(self, subscriber: Subscriber[T]) -> None:
        if is_conditional(subscriber):
            subscribe_tail(self.source, SkipWhileConditionalSubscriber(subscriber, self.predicate))
        else:
            subscribe_tail(self.source, SkipWhileSubscriber(subscriber, self.predicate))


class _SkipWhileMixin(Generic[T]):
    """The test shared by both variants: false while skipping, then always true."""

    predicate: Callable[[T], bool]
    passing: bool

    def passes(self, item: T) -> bool:
        if self.passing:
            return True
        if self.predicate(item):
            return False
        self.passing = True
        return True


class SkipWhileSubscriber(_SkipWhileMixin[T], FilteringSubscriber[T], Generic[T]):
    def __init__(self, downstream: Subscriber[T], predicate: Callable[[T], bool]) -> None:
        FilteringSubscriber.__init__(self, downstream)
        self.predicate = predicate
        self.passing = False


class SkipWhileConditionalSubscriber(_SkipWhileMixin[T], FilteringConditionalSubscriber[T],
                                     Generic[T]):
    """Over a ConditionalSubscriber: an item it drops costs no request either."""

    def __init__(self, downstream: ConditionalSubscriber[T],
                 predicate: Callable[[T], bool]) -> None:
        FilteringConditionalSubscriber.__init__(self, downstream)
        self.predicate = predicate
        self.passing = False
