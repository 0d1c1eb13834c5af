"""Flowable.error: signals the error a supplier gives, per subscriber, right after on_subscribe."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rxpy2._internal.subscriptions.empty import EmptySubscription
from rxpy2.flowable import Flowable
from rxpy2.reactivestreams import Subscriber

__all__ = ["FlowableError"]


class FlowableError(Flowable[Any]):
    __slots__ = ("supplier",)

    def __init__(self, supplier: Callable[[], BaseException]) -> None:
        self.supplier = supplier

    def subscribe_actual(self, subscriber: Subscriber[Any]) -> None:
        error: BaseException
        try:
            e = self.supplier()
        except Exception as ex:  # the supplier's own failure is the error signalled
            error = ex
        else:
            if e is None:
                error = TypeError("the error supplier returned None")
            elif not isinstance(e, BaseException):
                error = TypeError(f"the error supplier returned a {type(e).__name__}, "
                                  "not an exception")
            else:
                error = e
        EmptySubscription.error(error, subscriber)
