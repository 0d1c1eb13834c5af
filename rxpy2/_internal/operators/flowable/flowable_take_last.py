"""Flowable.take_last: the last ``n`` items, emitted after the upstream completes.

The upstream is consumed at once (``request(LONG_MAX)``) into a buffer that
keeps the latest ``n`` items; at completion the buffer is emitted under the
downstream's demand with the post-complete algorithm (:class:`QueueDrainHelper`).
An ``n >= LONG_MAX`` keeps every item (no bound: a ``deque`` takes at most ``sys.maxsize``).
``take_last(1)`` is :class:`FlowableTakeLastOne`, a DeferredScalarSubscriber.
"""

from __future__ import annotations

from collections import deque
from typing import Any
from typing import Generic
from typing import TypeVar

from rxpy2._internal.atomic import AtomicLong
from rxpy2._internal.fuseable import HasUpstreamPublisher
from rxpy2._internal.helpers.fused_stage import declare_fold
from rxpy2._internal.helpers.queue_drain_helper import QueueDrainHelper
from rxpy2._internal.helpers.subscribe_loop import subscribe_tail
from rxpy2._internal.operators.flowable.flowable_collect import COLLECT_FOLD
from rxpy2._internal.operators.flowable.flowable_last import LAST_FOLD
from rxpy2._internal.subscribers.deferred_scalar import DeferredScalarSubscriber
from rxpy2._internal.subscribers.operator_subscriber import UnboundedStart
from rxpy2.flowable import Flowable
from rxpy2.operator_kit import OperatorSubscriber
from rxpy2.operator_kit import null_error
from rxpy2.operator_kit import null_item
from rxpy2.operator_kit import validate_request
from rxpy2.reactivestreams import LONG_MAX
from rxpy2.reactivestreams import Publisher
from rxpy2.reactivestreams import Subscriber

__all__ = ["FlowableTakeLast", "FlowableTakeLastOne"]

T = TypeVar("T")


class FlowableTakeLast(Flowable[T], HasUpstreamPublisher[T], Generic[T]):
    __slots__ = ("source", "n")

    def __init__(self, source: Publisher[T], n: int) -> None:
        self.source = source
        self.n = n

    def subscribe_actual(self, subscriber: Subscriber[T]) -> None:
        subscribe_tail(self.source, TakeLastSubscriber(subscriber, self.n))


class BufferedLast:
    """``on_error`` of ``take_last``/``skip_last``: the items kept in ``buffer`` are dropped,
    the error goes downstream at once."""

    __slots__ = ()

    buffer: deque[Any]
    downstream: Subscriber[Any]

    def on_error(self, error: BaseException) -> None:
        if error is None:
            raise null_error()  # §2.13
        self.buffer.clear()
        self.downstream.on_error(error)


class TakeLastSubscriber(BufferedLast, UnboundedStart, OperatorSubscriber[T, T], Generic[T]):
    __slots__ = ("buffer", "requested", "cancelled")

    def __init__(self, downstream: Subscriber[T], n: int) -> None:
        super().__init__(downstream)
        self.buffer: deque[T] = deque(maxlen=n if n < LONG_MAX else None)
        self.requested = AtomicLong()  # demand; the sign bit marks "completed"
        self.cancelled = False

    def fold_start(self) -> tuple[Any, Any]:
        """(a fused chain folding into it) its bounded deque, and how an item goes in"""
        return self.buffer, deque.append

    def fold_end(self, acc: Any) -> None:
        pass  # (the same deque)

    def on_next(self, item: T) -> None:
        if item is None:
            raise null_item()  # §2.13
        self.buffer.append(item)  # the deque's maxlen drops the oldest

    def on_complete(self) -> None:
        QueueDrainHelper.post_complete(self.downstream, self.buffer, self.requested,
                                       self.is_cancelled)

    def is_cancelled(self) -> bool:
        return self.cancelled

    def request(self, n: int) -> None:
        if n := validate_request(n):
            # before completion this only records demand: upstream has LONG_MAX already
            QueueDrainHelper.post_complete_request(n, self.downstream, self.buffer,
                                                   self.requested, self.is_cancelled)

    def cancel(self) -> None:
        self.cancelled = True
        self.upstream.cancel()


class FlowableTakeLastOne(Flowable[T], HasUpstreamPublisher[T], Generic[T]):
    __slots__ = ("source",)

    def __init__(self, source: Publisher[T]) -> None:
        self.source = source

    def subscribe_actual(self, subscriber: Subscriber[T]) -> None:
        subscribe_tail(self.source, TakeLastOneSubscriber(subscriber))


class TakeLastOneSubscriber(DeferredScalarSubscriber[T, T], Generic[T]):
    """Keeps the latest item; DeferredScalarSubscriber emits it at completion under demand."""

    __slots__ = ()

    def fold_start(self) -> tuple[Any, Any]:
        """(a fused chain folding into it) the latest item so far"""
        return self.value, None

    def fold_end(self, acc: Any) -> None:
        if acc is not None:
            self.value = acc
            self.has_value = True

    def on_next(self, item: T) -> None:
        if item is None:
            raise null_item()  # §2.13
        self.value = item
        self.has_value = True


#: a fused chain into take_last(n): into its deque, emitted at completion; take_last(1):
#: the latest item
declare_fold(TakeLastSubscriber, COLLECT_FOLD)
declare_fold(TakeLastOneSubscriber, LAST_FOLD)
