"""Flowable.never: signals ``on_subscribe`` and nothing else."""

from __future__ import annotations

from typing import Any

from rxpy2._internal.subscriptions.empty import EmptySubscription
from rxpy2.flowable import Flowable
from rxpy2.reactivestreams import Subscriber

__all__ = ["FlowableNever"]


class FlowableNever(Flowable[Any]):
    """The one never-signalling Flowable: ``FlowableNever.INSTANCE``."""

    __slots__ = ()

    INSTANCE: FlowableNever

    def subscribe_actual(self, subscriber: Subscriber[Any]) -> None:
        subscriber.on_subscribe(EmptySubscription.INSTANCE)


FlowableNever.INSTANCE = FlowableNever()
