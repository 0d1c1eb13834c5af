"""Flowable.on_error_return: on error, emit ``fn(error)`` and complete.

The fallback item needs demand of its own: without any when the error comes it
waits for the next ``request`` (:class:`SinglePostCompleteSubscriber`). A ``fn``
that raises, or returns ``None`` (``TypeError``), ends the stream with a
:class:`CompositeException` of the original error and the new one.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic
from typing import TypeVar

from rxpy2._internal.fuseable import HasUpstreamPublisher
from rxpy2._internal.helpers.subscribe_loop import subscribe_tail
from rxpy2._internal.subscribers.single_post_complete import SinglePostCompleteSubscriber
from rxpy2.exceptions import CompositeException
from rxpy2.flowable import Flowable
from rxpy2.operator_kit import null_error
from rxpy2.operator_kit import null_item
from rxpy2.reactivestreams import Publisher
from rxpy2.reactivestreams import Subscriber

__all__ = ["FlowableOnErrorReturn"]

T = TypeVar("T")


class FlowableOnErrorReturn(Flowable[T], HasUpstreamPublisher[T], Generic[T]):
    __slots__ = ("source", "fn")

    def __init__(self, source: Publisher[T], fn: Callable[[BaseException], T]) -> None:
        self.source = source
        self.fn = fn

    def subscribe_actual(self, subscriber: Subscriber[T]) -> None:
        subscribe_tail(self.source, OnErrorReturnSubscriber(subscriber, self.fn))


class OnErrorReturnSubscriber(SinglePostCompleteSubscriber[T, T], Generic[T]):
    __slots__ = ("fn",)

    def __init__(self, downstream: Subscriber[T], fn: Callable[[BaseException], T]) -> None:
        super().__init__(downstream)
        self.fn = fn

    def on_next(self, item: T) -> None:
        if item is None:
            raise null_item()  # §2.13
        self.produced += 1
        self.downstream.on_next(item)

    def on_error(self, error: BaseException) -> None:
        if error is None:
            raise null_error()  # §2.13
        try:
            v = self.fn(error)
            if v is None:
                raise TypeError("The on_error_return function returned None")
        except Exception as e:
            self.downstream.on_error(CompositeException(error, e))
            return
        self.complete(v)

    def on_complete(self) -> None:
        self.downstream.on_complete()
