"""CancellingSubscriber: a Subscriber that wants nothing.

It cancels the Subscription it is given and drops every signal: the stand-in for a
consumer that is gone (a detached downstream, a parallel rail whose pipeline did not
subscribe, a Spark stream's subscriber after the subscription ended).
"""

from __future__ import annotations

from typing import Any

from rxpy2.observers import FlowableSubscriber
from rxpy2.reactivestreams import Subscription

__all__ = ["CancellingSubscriber"]


class CancellingSubscriber(FlowableSubscriber[Any]):
    """Cancels at ``on_subscribe``; ``on_next``, ``on_error`` and ``on_complete`` do nothing
    (a subclass may report the error)."""

    __slots__ = ()

    def on_subscribe(self, subscription: Subscription) -> None:
        subscription.cancel()

    def on_next(self, item: Any) -> None:
        pass

    def on_error(self, error: BaseException) -> None:
        pass

    def on_complete(self) -> None:
        pass
