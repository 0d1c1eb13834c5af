"""The Subscription of a source that signals nothing but a terminal event."""

from __future__ import annotations

from typing import Any

from rxpy2._internal.fuseable import ASYNC
from rxpy2._internal.fuseable import NONE
from rxpy2._internal.helpers.demand import validate_request
from rxpy2._internal.subscriptions.basic import BasicQueueSubscription
from rxpy2.reactivestreams import Subscriber

__all__ = ["EmptySubscription"]


class EmptySubscription(BasicQueueSubscription[Any]):
    """A stateless Subscription that ignores requests; fuses (ASYNC) as an empty queue."""

    __slots__ = ()

    INSTANCE: EmptySubscription

    def request(self, n: int) -> None:
        validate_request(n)

    def cancel(self) -> None:
        pass

    def request_fusion(self, mode: int) -> int:
        return mode & ASYNC if mode & ASYNC else NONE

    @staticmethod
    def error(error: BaseException, subscriber: Subscriber[Any]) -> None:
        """Signal ``on_subscribe`` then ``on_error(error)`` (§1.9 before anything else)."""
        subscriber.on_subscribe(EmptySubscription.INSTANCE)
        subscriber.on_error(error)

    @staticmethod
    def complete(subscriber: Subscriber[Any]) -> None:
        """Signal ``on_subscribe`` then ``on_complete``."""
        subscriber.on_subscribe(EmptySubscription.INSTANCE)
        subscriber.on_complete()

    def __repr__(self) -> str:
        return "EmptySubscription"


EmptySubscription.INSTANCE = EmptySubscription()
