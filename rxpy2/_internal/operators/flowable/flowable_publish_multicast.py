"""Flowable.publish(selector, prefetch): RxJava 2's FlowablePublishMulticast.

Per subscriber: a processor in front of the source hands each item to all its
subscribers in lockstep (at the pace of the slowest, prefetching ``prefetch`` and
requesting ``prefetch - prefetch // 4`` more each time that many went out); the
selector gets it as a Flowable, subscribes to it as often as it likes, and its
Publisher's signals go downstream. The source is subscribed after the selector's
Publisher, so every subscription made in between sees the first item. When that
Publisher terminates, or the downstream cancels, the processor is disposed: the
source is cancelled and the queued items dropped.

The processor is :class:`rxpy2.processors.MulticastProcessor` (RxJava 2's processor
of the same name is the same machine) with two changes of FlowablePublishMulticast's:
``dispose()``, and an error that overtakes the queued items (``delayError=false``). Both
work through the queue the drain polls: disposed or failed, it reads as empty.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from typing import Generic
from typing import TypeVar

from rxpy2._internal.fuseable import HasUpstreamPublisher
from rxpy2._internal.helpers.subscription_helper import SubscriptionHelper
from rxpy2._internal.operators.flowable.flowable_scalar_x_map import check_inner
from rxpy2._internal.subscribers.pass_through import PassThrough
from rxpy2._internal.subscriptions.empty import EmptySubscription
from rxpy2.flowable import Flowable
from rxpy2.observers import FlowableSubscriber
from rxpy2.operator_kit import null_error
from rxpy2.operator_kit import null_subscription
from rxpy2.operator_kit import validate_request
from rxpy2.processors.multicast_processor import MulticastProcessor
from rxpy2.reactivestreams import Publisher
from rxpy2.reactivestreams import Subscriber
from rxpy2.reactivestreams import Subscription

__all__ = ["FlowablePublishMulticast"]

T = TypeVar("T")
R = TypeVar("R")


class FlowablePublishMulticast(Flowable[R], HasUpstreamPublisher[T], Generic[T, R]):
    __slots__ = ("source", "selector", "prefetch")

    def __init__(self, source: Publisher[T], selector: Callable[[Flowable[T]], Publisher[R]],
                 prefetch: int) -> None:
        self.source = source
        self.selector = selector
        self.prefetch = prefetch

    def subscribe_actual(self, subscriber: Subscriber[R]) -> None:
        mp: PublishMulticastProcessor[T] = PublishMulticastProcessor(self.prefetch)
        try:
            other = check_inner(self.selector(mp), self.selector, "publish")
        except Exception as ex:
            EmptySubscription.error(ex, subscriber)
            return
        other.subscribe(OutputCanceller(subscriber, mp))
        self.source.subscribe(mp)


class _EagerQueue:
    """The processor's queue as its drain sees it: empty once disposed or failed."""

    __slots__ = ("queue", "owner")

    def __init__(self, queue: Any, owner: PublishMulticastProcessor[Any]) -> None:
        self.queue = queue
        self.owner = owner

    def poll(self) -> Any:
        o = self.owner
        if o.disposed or o.failed:
            self.queue.clear()
            return None
        return self.queue.poll()

    def is_empty(self) -> bool:
        o = self.owner
        return o.disposed or o.failed or self.queue.is_empty()

    def offer(self, item: Any) -> bool:
        return bool(self.queue.offer(item))

    def clear(self) -> None:
        self.queue.clear()

    @property
    def capacity(self) -> int:
        return int(self.queue.capacity)


class PublishMulticastProcessor(MulticastProcessor[T], Generic[T]):
    """A MulticastProcessor that can be disposed and whose error skips the queue."""

    def __init__(self, prefetch: int) -> None:
        super().__init__(prefetch)
        self.disposed = False
        self.failed = False

    def on_subscribe(self, s: Subscription) -> None:
        super().on_subscribe(s)
        q = self._queue
        if q is not None and not isinstance(q, _EagerQueue):
            self._queue = _EagerQueue(q, self)

    def on_error(self, error: BaseException) -> None:
        if error is not None and not self._once.get():
            self.failed = True  # the drain sees an empty queue: the error goes out next
        super().on_error(error)

    def dispose(self) -> None:
        self.disposed = True
        SubscriptionHelper.cancel(self._upstream)
        self._drain()  # a pass drops the queued items (or finds the drain busy: it will)


class OutputCanceller(PassThrough, FlowableSubscriber[R], Subscription, Generic[R]):
    """Relays the selector's Publisher; its end or a cancel disposes the processor."""

    __slots__ = ("downstream", "processor", "upstream")

    def __init__(self, downstream: Subscriber[R], processor: PublishMulticastProcessor[Any]) -> None:
        self.downstream = downstream
        self.processor = processor
        self.upstream: Subscription | None = None

    def on_subscribe(self, s: Subscription) -> None:
        if s is None:
            raise null_subscription()  # §2.13
        if self.upstream is not None:
            s.cancel()
            SubscriptionHelper.report_subscription_set()  # §2.5
            return
        self.upstream = s
        self.downstream.on_subscribe(self)

    def on_error(self, error: BaseException) -> None:
        if error is None:
            raise null_error()  # §2.13
        self.downstream.on_error(error)
        self.processor.dispose()

    def on_complete(self) -> None:
        self.downstream.on_complete()
        self.processor.dispose()

    def request(self, n: int) -> None:
        if (n := validate_request(n)) and self.upstream is not None:  # §3.9
            self.upstream.request(n)

    def cancel(self) -> None:
        if self.upstream is not None:
            self.upstream.cancel()
        self.processor.dispose()
