"""Completable.and_then(single / maybe / publisher): continue with it after completion.

(``and_then(completable)`` is ``concat_with``.) An error skips the next source.
For a Publisher, downstream requests made before it is subscribed are kept and
handed over (``DeferredPublisherSubscriber``).
"""

from __future__ import annotations

from typing import Generic
from typing import TypeVar

from rxpy2._internal.operators.maybe.maybe_switch_if_empty import MaybeSwitchIfEmpty
from rxpy2._internal.operators.maybe.maybe_switch_if_empty import MaybeSwitchIfEmptySingle
from rxpy2._internal.operators.single.single_flat_map_publisher import DeferredPublisherSubscriber
from rxpy2._internal.operators.single.single_flat_map_publisher import SourceObserver
from rxpy2.completable import Completable
from rxpy2.flowable import Flowable
from rxpy2.reactivestreams import Publisher
from rxpy2.reactivestreams import Subscriber

__all__ = ["CompletableAndThenMaybe", "CompletableAndThenPublisher", "CompletableAndThenSingle"]

T = TypeVar("T")


class CompletableAndThenSingle(MaybeSwitchIfEmptySingle[T], Generic[T]):
    """``switch_if_empty`` of a source that is always empty."""

    __slots__ = ()


class CompletableAndThenMaybe(MaybeSwitchIfEmpty[T], Generic[T]):
    """``switch_if_empty`` of a source that is always empty."""

    __slots__ = ()


class CompletableAndThenPublisher(Flowable[T], Generic[T]):
    __slots__ = ("source", "next")

    def __init__(self, source: Completable, next: Publisher[T]) -> None:
        self.source = source
        self.next = next

    def subscribe_actual(self, subscriber: Subscriber[T]) -> None:
        parent: DeferredPublisherSubscriber[T] = DeferredPublisherSubscriber(subscriber)
        self.source._subscribe(SourceObserver(parent, None, self.next))
