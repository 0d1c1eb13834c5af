"""The assembly side shared by the Flowable-to-Maybe/Single operators whose
subscriber is an :class:`~rxpy2._internal.subscribers.to_observer.ItemOrMissingSubscriber`
taking ``(observer, default_item, maybe)``: ``last`` and ``single``.

A subclass names its subscriber in ``subscriber_type``; the Maybe form has no
default item (an empty stream completes), the Single form keeps ``default_item``
(``None``: an empty stream is the subscriber's ``missing()`` error).
"""

from __future__ import annotations

from typing import Any
from typing import ClassVar
from typing import Generic
from typing import TypeVar

from rxpy2._internal.fuseable import HasUpstreamPublisher
from rxpy2._internal.helpers.subscribe_loop import subscribe_tail
from rxpy2._internal.subscribers.to_observer import ItemOrMissingSubscriber
from rxpy2.maybe import Maybe
from rxpy2.observers import MaybeObserver
from rxpy2.observers import SingleObserver
from rxpy2.reactivestreams import Publisher
from rxpy2.single import Single

__all__ = ["FlowableItemOrMissingMaybe", "FlowableItemOrMissingSingle"]

T = TypeVar("T")


class FlowableItemOrMissingMaybe(Maybe[T], HasUpstreamPublisher[T], Generic[T]):
    __slots__ = ("source",)

    subscriber_type: ClassVar[type[ItemOrMissingSubscriber[Any]]]

    def __init__(self, source: Publisher[T]) -> None:
        self.source = source

    def subscribe_actual(self, observer: MaybeObserver[T]) -> None:
        subscribe_tail(self.source, self.subscriber_type(observer, None, True))


class FlowableItemOrMissingSingle(Single[T], HasUpstreamPublisher[T], Generic[T]):
    __slots__ = ("source", "default_item")

    subscriber_type: ClassVar[type[ItemOrMissingSubscriber[Any]]]

    def __init__(self, source: Publisher[T], default_item: T | None) -> None:
        self.source = source
        self.default_item = default_item

    def subscribe_actual(self, observer: SingleObserver[T]) -> None:
        subscribe_tail(self.source, self.subscriber_type(observer, self.default_item, False))
