"""Flowable.hide: hide the upstream's identity and Subscription.

The stage is a plain FlowableSubscriber and a plain Subscription: it is neither a
QueueSubscription nor a ConditionalSubscriber, so no fusion and no conditional
fast path crosses it, and the Flowable it returns is no ``Callable``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic
from typing import TypeVar

from rxpy2._internal.fuseable import HasUpstreamPublisher
from rxpy2._internal.helpers.subscribe_loop import subscribe_tail
from rxpy2._internal.subscribers.pass_through import PassThrough
from rxpy2._internal.subscribers.pass_through import relay_on_next
from rxpy2.flowable import Flowable
from rxpy2.operator_kit import OperatorSubscriber
from rxpy2.reactivestreams import Publisher
from rxpy2.reactivestreams import Subscriber

__all__ = ["FlowableHide"]

T = TypeVar("T")


class FlowableHide(Flowable[T], HasUpstreamPublisher[T], Generic[T]):
    __slots__ = ("source",)

    def __init__(self, source: Publisher[T]) -> None:
        self.source = source

    def subscribe_actual(self, subscriber: Subscriber[T]) -> None:
        subscribe_tail(self.source, HideSubscriber(subscriber))


class HideSubscriber(PassThrough, OperatorSubscriber[T, T], Generic[T]):
    """Passes every signal through; ``request``/``cancel`` go upstream (the base's).

    Items go straight to the downstream's ``on_next`` when it checks them itself
    (:func:`relay_on_next`), and requests straight to the upstream's ``request`` (which
    validates them, §3.9): no layer of ours per item or per request."""

    __slots__ = ("on_next", "request")

    on_next: Callable[[T], None]  # type: ignore[assignment]  # a slot holding a function, not the method
    request: Callable[[int], None]  # type: ignore[assignment]  # a slot holding a function, not the method

    def __init__(self, downstream: Subscriber[T]) -> None:
        super().__init__(downstream)
        self.on_next = relay_on_next(downstream)

    def on_start(self) -> bool:
        self.request = self.upstream.request  # before the downstream has us to request from
        return True

