"""Flowable.dematerialize: :class:`Notification` items (via ``selector``) back into signals.

An ``on_next`` notification emits its value; an ``on_error`` or
``on_complete`` notification cancels the upstream and ends the stream with that
signal. Items that arrive after that are dropped (an error notification among
them goes to :func:`rxpy2.plugins.on_error`). A selector that raises, or returns
something that is not a Notification (``TypeError``), cancels the upstream and
signals the error. 1:1 otherwise, so requests pass straight through.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic
from typing import TypeVar

from rxpy2 import plugins
from rxpy2._internal.fuseable import HasUpstreamPublisher
from rxpy2._internal.helpers.subscribe_loop import subscribe_tail
from rxpy2.flowable import Flowable
from rxpy2.notification import Notification
from rxpy2.operator_kit import OperatorSubscriber
from rxpy2.operator_kit import null_item
from rxpy2.reactivestreams import Publisher
from rxpy2.reactivestreams import Subscriber

__all__ = ["FlowableDematerialize"]

T = TypeVar("T")
R = TypeVar("R")


class FlowableDematerialize(Flowable[R], HasUpstreamPublisher[T], Generic[T, R]):
    __slots__ = ("source", "selector")

    def __init__(self, source: Publisher[T],
                 selector: Callable[[T], Notification[R]]) -> None:
        self.source = source
        self.selector = selector

    def subscribe_actual(self, subscriber: Subscriber[R]) -> None:
        subscribe_tail(self.source, DematerializeSubscriber(subscriber, self.selector))


class DematerializeSubscriber(OperatorSubscriber[T, R], Generic[T, R]):
    __slots__ = ("selector",)

    def __init__(self, downstream: Subscriber[R],
                 selector: Callable[[T], Notification[R]]) -> None:
        super().__init__(downstream)
        self.selector = selector

    def on_next(self, item: T) -> None:
        if item is None:
            raise null_item()  # §2.13
        if self.done:  # §1.7: nothing goes downstream after the terminal signal
            if isinstance(item, Notification) and item.is_on_error():
                plugins.on_error(item.error)  # type: ignore[arg-type]  # an on_error notification has an error
            return
        try:
            n = self.selector(item)
            if not isinstance(n, Notification):
                raise TypeError(f"The selector returned {n!r}, not a Notification")
        except Exception as e:
            self.fail(e)
            return
        if n.is_on_error():
            self.fail(n.error)  # type: ignore[arg-type]  # an on_error notification has an error
        elif n.is_on_complete():
            self.complete_early()
        else:
            self.downstream.on_next(n.value)  # type: ignore[arg-type]  # an on_next notification has a value
