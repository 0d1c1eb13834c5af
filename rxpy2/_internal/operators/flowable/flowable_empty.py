"""Flowable.empty: completes at once; a ScalarCallable (``call()`` is ``None``: empty)."""

from __future__ import annotations

from typing import Any

from rxpy2._internal.fuseable import ScalarCallable
from rxpy2._internal.subscriptions.empty import EmptySubscription
from rxpy2.flowable import Flowable
from rxpy2.reactivestreams import Subscriber

__all__ = ["FlowableEmpty"]


class FlowableEmpty(Flowable[Any], ScalarCallable[Any]):
    """The one empty Flowable: ``FlowableEmpty.INSTANCE``."""

    __slots__ = ()

    INSTANCE: FlowableEmpty

    def subscribe_actual(self, subscriber: Subscriber[Any]) -> None:
        EmptySubscription.complete(subscriber)

    def call(self) -> None:
        return None


FlowableEmpty.INSTANCE = FlowableEmpty()
