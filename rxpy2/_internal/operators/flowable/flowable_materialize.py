"""Flowable.materialize: every signal as a :class:`Notification` item.

Items become ``on_next`` notifications one for one; the terminal signal becomes
a final notification that needs demand of its own, so it waits for the next
``request`` when there is none (:class:`SinglePostCompleteSubscriber`).
"""

from __future__ import annotations

from typing import Generic
from typing import TypeVar

from rxpy2 import plugins
from rxpy2._internal.fuseable import HasUpstreamPublisher
from rxpy2._internal.helpers.subscribe_loop import subscribe_tail
from rxpy2._internal.subscribers.single_post_complete import SinglePostCompleteSubscriber
from rxpy2.flowable import Flowable
from rxpy2.notification import Notification
from rxpy2.operator_kit import null_error
from rxpy2.operator_kit import null_item
from rxpy2.reactivestreams import Publisher
from rxpy2.reactivestreams import Subscriber

__all__ = ["FlowableMaterialize"]

T = TypeVar("T")


class FlowableMaterialize(Flowable[Notification[T]], HasUpstreamPublisher[T], Generic[T]):
    __slots__ = ("source",)

    def __init__(self, source: Publisher[T]) -> None:
        self.source = source

    def subscribe_actual(self, subscriber: Subscriber[Notification[T]]) -> None:
        subscribe_tail(self.source, MaterializeSubscriber(subscriber))


class MaterializeSubscriber(SinglePostCompleteSubscriber[T, Notification[T]], Generic[T]):
    __slots__ = ()

    def on_next(self, item: T) -> None:
        if item is None:
            raise null_item()  # §2.13
        self.produced += 1
        self.downstream.on_next(Notification.create_on_next(item))

    def on_error(self, error: BaseException) -> None:
        if error is None:
            raise null_error()  # §2.13
        self.complete(Notification.create_on_error(error))

    def on_complete(self) -> None:
        self.complete(Notification.create_on_complete())

    def on_drop(self, n: Notification[T]) -> None:
        if n.is_on_error():  # a terminal signal after the terminal one: don't lose the error
            plugins.on_error(n.error)  # type: ignore[arg-type]  # an on_error notification has an error
