"""Flowable.on_terminate_detach: forget upstream and downstream on terminate or cancel.

After the terminal signal went downstream, or after ``cancel()``, the stage
holds neither the downstream Subscriber nor the upstream Subscription, so a
chain that stays referenced (by a long-lived source, say) does not keep the
consumer alive. Signals that still arrive are dropped (an error goes to
:func:`rxpy2.plugins.on_error`).
"""

from __future__ import annotations

from typing import Generic
from typing import TypeVar

from rxpy2 import plugins
from rxpy2._internal.fuseable import HasUpstreamPublisher
from rxpy2._internal.helpers.subscribe_loop import subscribe_tail
from rxpy2._internal.helpers.subscription_helper import CANCELLED
from rxpy2._internal.subscribers.cancelling import CancellingSubscriber
from rxpy2._internal.subscribers.pass_through import PassThrough
from rxpy2.flowable import Flowable
from rxpy2.operator_kit import OperatorSubscriber
from rxpy2.operator_kit import null_error
from rxpy2.reactivestreams import Publisher
from rxpy2.reactivestreams import Subscriber

__all__ = ["FlowableDetach"]

T = TypeVar("T")


class _Detached(CancellingSubscriber):
    """The downstream left in place after detaching: drops signals, reports errors."""

    __slots__ = ()

    def on_error(self, error: BaseException) -> None:
        plugins.on_error(error)


_DETACHED = _Detached()


class FlowableDetach(Flowable[T], HasUpstreamPublisher[T], Generic[T]):
    __slots__ = ("source",)

    def __init__(self, source: Publisher[T]) -> None:
        self.source = source

    def subscribe_actual(self, subscriber: Subscriber[T]) -> None:
        subscribe_tail(self.source, DetachSubscriber(subscriber))


class DetachSubscriber(PassThrough, OperatorSubscriber[T, T], Generic[T]):
    __slots__ = ()

    def on_error(self, error: BaseException) -> None:
        if error is None:
            raise null_error()  # §2.13
        a = self.downstream
        self.upstream = CANCELLED
        self.downstream = _DETACHED
        a.on_error(error)

    def on_complete(self) -> None:
        a = self.downstream
        self.upstream = CANCELLED
        self.downstream = _DETACHED
        a.on_complete()

    def cancel(self) -> None:
        s = self.upstream
        self.upstream = CANCELLED
        self.downstream = _DETACHED
        s.cancel()  # UNSUBSCRIBED before on_subscribe: a no-op
