"""Flowable.any: True as soon as an item satisfies the predicate (the upstream is then
cancelled), False when the stream completes without one; as a Single.

:class:`FlowablePredicateStopSingle` is shared with ``all``: both stop at the first
item whose predicate result is ``stop_on`` and answer ``stop_on``, else answer
``not stop_on`` on completion.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from typing import ClassVar
from typing import Generic
from typing import TypeVar

from rxpy2._internal.fuseable import HasUpstreamPublisher
from rxpy2._internal.helpers.subscribe_loop import subscribe_tail
from rxpy2._internal.subscribers.to_observer import ToObserverSubscriber
from rxpy2.observers import SingleObserver
from rxpy2.operator_kit import null_or_late_item
from rxpy2.reactivestreams import Publisher
from rxpy2.single import Single

__all__ = ["FlowableAnySingle", "FlowablePredicateStopSingle"]

T = TypeVar("T")


class FlowablePredicateStopSingle(Single[bool], HasUpstreamPublisher[T], Generic[T]):
    """Base of ``any`` (``stop_on = True``) and ``all`` (``stop_on = False``)."""

    __slots__ = ("source", "predicate")

    stop_on: ClassVar[bool]

    def __init__(self, source: Publisher[T], predicate: Callable[[T], bool]) -> None:
        self.source = source
        self.predicate = predicate

    def subscribe_actual(self, observer: SingleObserver[bool]) -> None:
        subscribe_tail(self.source, PredicateStopSubscriber(observer, self.predicate, self.stop_on))


class FlowableAnySingle(FlowablePredicateStopSingle[T], Generic[T]):
    __slots__ = ()

    stop_on = True


class PredicateStopSubscriber(ToObserverSubscriber[T], Generic[T]):
    __slots__ = ("predicate", "stop_on")

    def __init__(self, downstream: SingleObserver[bool], predicate: Callable[[T], bool],
                 stop_on: bool) -> None:
        super().__init__(downstream)
        self.predicate = predicate
        self.stop_on = stop_on

    def on_next(self, item: T) -> None:
        if item is None or self.done:
            null_or_late_item(item)  # §2.13
            return
        try:
            b = self.predicate(item)
        except Exception as e:
            self.fail(e)
            return
        if (not b) is not self.stop_on:  # bool(b) is stop_on, without the call
            self.stop()
            self.downstream.on_success(self.stop_on)

    def end(self, value: Any) -> None:
        self.downstream.on_success(not self.stop_on)
