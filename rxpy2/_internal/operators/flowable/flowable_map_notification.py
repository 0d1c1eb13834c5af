"""Each signal mapped to a value: the form behind ``flat_map(mapper, on_error_mapper=...,
on_complete_supplier=...)``.

As RxJava 2's ``FlowableMapNotification``: an item becomes ``on_next_mapper(item)``, an
error ``on_error_mapper(error)`` and the completion ``on_complete_supplier()``; the last
two are a final item that needs demand of its own (:class:`SinglePostCompleteSubscriber`),
followed by the completion. ``flat_map`` then merges the Publishers these values are.
A mapper that raises (or returns ``None``) ends the stream with its error: on an item
the upstream is cancelled first; on the upstream's error both errors go downstream
together (a :class:`CompositeException`).
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
from rxpy2.operator_kit import null_or_late_error
from rxpy2.operator_kit import null_or_late_item
from rxpy2.reactivestreams import Publisher
from rxpy2.reactivestreams import Subscriber

__all__ = ["FlowableMapNotification"]

T = TypeVar("T")
R = TypeVar("R")


def _not_none(value: R | None, what: str) -> R:
    if value is None:
        raise TypeError(f"the {what} returned None")
    return value


class FlowableMapNotification(Flowable[R], HasUpstreamPublisher[T], Generic[T, R]):
    __slots__ = ("source", "on_next_mapper", "on_error_mapper", "on_complete_supplier")

    def __init__(self, source: Publisher[T], on_next_mapper: Callable[[T], R],
                 on_error_mapper: Callable[[BaseException], R],
                 on_complete_supplier: Callable[[], R]) -> None:
        self.source = source
        self.on_next_mapper = on_next_mapper
        self.on_error_mapper = on_error_mapper
        self.on_complete_supplier = on_complete_supplier

    def subscribe_actual(self, subscriber: Subscriber[R]) -> None:
        subscribe_tail(self.source, MapNotificationSubscriber(
            subscriber, self.on_next_mapper, self.on_error_mapper, self.on_complete_supplier))


class MapNotificationSubscriber(SinglePostCompleteSubscriber[T, R], Generic[T, R]):
    __slots__ = ("on_next_mapper", "on_error_mapper", "on_complete_supplier")

    def __init__(self, downstream: Subscriber[R], on_next_mapper: Callable[[T], R],
                 on_error_mapper: Callable[[BaseException], R],
                 on_complete_supplier: Callable[[], R]) -> None:
        super().__init__(downstream)
        self.on_next_mapper = on_next_mapper
        self.on_error_mapper = on_error_mapper
        self.on_complete_supplier = on_complete_supplier

    def on_next(self, item: T) -> None:
        if item is None or self.done:
            null_or_late_item(item)  # §2.13
            return
        try:
            v = _not_none(self.on_next_mapper(item), "on_next mapper")
        except Exception as e:
            self.upstream.cancel()
            self.done = True
            self.downstream.on_error(e)  # the mapper's error itself, not mapped
            return
        self.produced += 1
        self.downstream.on_next(v)

    def on_error(self, error: BaseException) -> None:
        if error is None or self.done:
            null_or_late_error(error)  # §2.13, §1.7
            return
        try:
            v = _not_none(self.on_error_mapper(error), "on_error mapper")
        except Exception as e:
            self.done = True
            self.downstream.on_error(CompositeException(error, e))
            return
        self.complete(v)

    def on_complete(self) -> None:
        if self.done:
            return
        try:
            v = _not_none(self.on_complete_supplier(), "on_complete supplier")
        except Exception as e:
            self.done = True
            self.downstream.on_error(e)
            return
        self.complete(v)
