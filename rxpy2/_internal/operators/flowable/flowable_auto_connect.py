"""``ConnectableFlowable.auto_connect(n)``: connects when the ``n``-th subscriber arrives."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING
from typing import Any
from typing import Generic
from typing import TypeVar

from rxpy2._internal.atomic import AtomicInteger
from rxpy2.disposables import Disposable
from rxpy2.flowable import Flowable
from rxpy2.reactivestreams import Subscriber

if TYPE_CHECKING:
    from rxpy2.connectable_flowable import ConnectableFlowable

__all__ = ["FlowableAutoConnect"]

T = TypeVar("T")


class FlowableAutoConnect(Flowable[T], Generic[T]):
    """Subscribes each subscriber to ``source``; the ``n``-th one also connects it (once)."""

    __slots__ = ("source", "n", "on_connect", "clients")

    def __init__(self, source: ConnectableFlowable[T], n: int,
                 on_connect: Callable[[Disposable], Any] | None) -> None:
        self.source = source
        self.n = n
        self.on_connect = on_connect
        self.clients = AtomicInteger(0)

    def subscribe_actual(self, subscriber: Subscriber[T]) -> None:
        self.source.subscribe(subscriber)
        if self.clients.increment_and_get() == self.n:
            self.source.connect(self.on_connect)
