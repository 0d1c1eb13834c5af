"""Flowable.serialize: signals that may come from several threads arrive one at a time.

For upstreams that break §1.3 (concurrent ``on_next``/terminal calls): each
subscriber is wrapped in a :class:`SerializedSubscriber`, whose emitter loop
delivers the signals in turn and drops anything after the terminal one.
"""

from __future__ import annotations

from typing import Generic
from typing import TypeVar

from rxpy2._internal.fuseable import HasUpstreamPublisher
from rxpy2._internal.helpers.subscribe_loop import subscribe_tail
from rxpy2._internal.subscribers.serialized import SerializedSubscriber
from rxpy2.flowable import Flowable
from rxpy2.reactivestreams import Publisher
from rxpy2.reactivestreams import Subscriber

__all__ = ["FlowableSerialize"]

T = TypeVar("T")


class FlowableSerialize(Flowable[T], HasUpstreamPublisher[T], Generic[T]):
    __slots__ = ("source",)

    def __init__(self, source: Publisher[T]) -> None:
        self.source = source

    def subscribe_actual(self, subscriber: Subscriber[T]) -> None:
        subscribe_tail(self.source, SerializedSubscriber(subscriber))
