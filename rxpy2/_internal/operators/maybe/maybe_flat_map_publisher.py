"""Maybe.flat_map_publisher: the items of the Publisher ``mapper(item)`` returns.

An empty Maybe completes the Flowable. Requests made before the Publisher is
subscribed are kept and handed over (see ``single_flat_map_publisher.py``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic
from typing import TypeVar

from rxpy2._internal.operators.single.single_flat_map_publisher import DeferredPublisherSubscriber
from rxpy2._internal.operators.single.single_flat_map_publisher import SourceObserver
from rxpy2.flowable import Flowable
from rxpy2.maybe import Maybe
from rxpy2.reactivestreams import Publisher
from rxpy2.reactivestreams import Subscriber

__all__ = ["MaybeFlatMapPublisher"]

T = TypeVar("T")
R = TypeVar("R")


class MaybeFlatMapPublisher(Flowable[R], Generic[T, R]):
    __slots__ = ("source", "mapper")

    def __init__(self, source: Maybe[T], mapper: Callable[[T], Publisher[R]]) -> None:
        self.source = source
        self.mapper = mapper

    def subscribe_actual(self, subscriber: Subscriber[R]) -> None:
        parent: DeferredPublisherSubscriber[R] = DeferredPublisherSubscriber(subscriber)
        self.source._subscribe(SourceObserver(parent, self.mapper))
