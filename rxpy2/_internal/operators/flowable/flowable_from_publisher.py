"""Flowable.from_publisher: a Flowable view of any Reactive Streams Publisher;
Flowable.unsafe_create: a function given the subscriber itself (RxJava 2's
``unsafeCreate``, whose Publisher is a function of the Subscriber there; the
operator body is the 0-1 types' ``UnsafeCreateOp``)."""

from __future__ import annotations

from typing import Generic
from typing import TypeVar

from rxpy2._internal.helpers.subscribe_loop import subscribe_tail
from rxpy2._internal.operators.single.single_create import UnsafeCreateOp
from rxpy2.flowable import Flowable
from rxpy2.reactivestreams import Publisher
from rxpy2.reactivestreams import Subscriber

__all__ = ["FlowableFromPublisher", "FlowableUnsafeCreate"]

T = TypeVar("T")


class FlowableFromPublisher(Flowable[T], Generic[T]):
    """Subscribes the (already spec-checked) subscriber to the foreign Publisher directly."""

    __slots__ = ("publisher",)

    def __init__(self, publisher: Publisher[T]) -> None:
        self.publisher = publisher

    def subscribe_actual(self, subscriber: Subscriber[T]) -> None:
        subscribe_tail(self.publisher, subscriber)


class FlowableUnsafeCreate(UnsafeCreateOp[T], Flowable[T], Generic[T]):
    """``Flowable.unsafe_create(fn)``: ``fn(subscriber)`` per subscriber, unprotected."""

    __slots__ = ()
