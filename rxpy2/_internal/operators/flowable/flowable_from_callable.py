"""Flowable.from_callable: calls a function per subscriber and emits its result under demand.

``None`` from the function means "empty" (the Callable marker's convention); a
function that raises signals ``on_error``, or reports to plugins if the
subscriber already cancelled. A ``Callable`` for assembly-time fusion.
"""

from __future__ import annotations

from collections.abc import Callable as Fn
from typing import Generic
from typing import TypeVar

from rxpy2 import plugins
from rxpy2._internal.fuseable import Callable
from rxpy2._internal.subscriptions.deferred_scalar import DeferredScalarSubscription
from rxpy2.flowable import Flowable
from rxpy2.reactivestreams import Subscriber

__all__ = ["FlowableFromCallable"]

T = TypeVar("T")


class FlowableFromCallable(Flowable[T], Callable[T], Generic[T]):
    __slots__ = ("fn",)

    def __init__(self, fn: Fn[[], T | None]) -> None:
        self.fn = fn

    def subscribe_actual(self, subscriber: Subscriber[T]) -> None:
        deferred: DeferredScalarSubscription[T] = DeferredScalarSubscription(subscriber)
        subscriber.on_subscribe(deferred)  # §1.9: on_subscribe before any other signal
        if deferred.is_cancelled():
            return
        try:
            v = self.fn()
        except Exception as e:
            if deferred.is_cancelled():
                plugins.on_error(e)
            else:
                subscriber.on_error(e)
            return
        if v is None:
            if not deferred.is_cancelled():
                subscriber.on_complete()
            return
        deferred.complete(v)

    def call(self) -> T | None:
        return self.fn()
