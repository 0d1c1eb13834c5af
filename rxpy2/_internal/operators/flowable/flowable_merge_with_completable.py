"""Flowable.merge_with(Completable): the main source's items, completing once both ended.

:class:`FlowableMergeWithCompletable` (RxJava 2's ``mergeWith(CompletableSource)``): the
main source is subscribed first, then the Completable. The downstream's requests go to
the main source as they are (deferred until it has subscribed): a Completable has no
items to make room for, so nothing is prefetched. Either side's error cancels (disposes)
the other and is signalled; the completion comes when the main source and the
Completable both completed. Items and terminal events may come from different threads:
they are half-serialized (:class:`HalfSerializer` over a :class:`Drain`). Nothing is
signalled once the downstream cancelled: an error arriving then (a Completable
subscribed after the cancel that fails at once) goes to :func:`rxpy2.plugins.on_error`.
"""

from __future__ import annotations

from typing import Any
from typing import Generic
from typing import TypeGuard
from typing import TypeVar

from rxpy2 import plugins
from rxpy2._internal.atomic import AtomicLong
from rxpy2._internal.atomic import AtomicReference
from rxpy2._internal.fuseable import HasUpstreamPublisher
from rxpy2._internal.helpers.disposable_helper import DisposableHelper
from rxpy2._internal.helpers.exception_helper import AtomicThrowable
from rxpy2._internal.helpers.half_serializer import HalfSerializedItems
from rxpy2._internal.helpers.half_serializer import HalfSerializer
from rxpy2._internal.helpers.subscribe_loop import subscribe_tail
from rxpy2._internal.helpers.subscription_helper import SubscriptionHelper
from rxpy2._internal.subscribers.pass_through import DeferredUpstream
from rxpy2.completable import Completable
from rxpy2.disposables import Disposable
from rxpy2.flowable import Flowable
from rxpy2.observers import CompletableObserver
from rxpy2.observers import FlowableSubscriber
from rxpy2.operator_kit import Drain
from rxpy2.operator_kit import null_error
from rxpy2.reactivestreams import Publisher
from rxpy2.reactivestreams import Subscriber
from rxpy2.reactivestreams import Subscription

__all__ = ["FlowableMergeWithCompletable", "is_completable"]

T = TypeVar("T")


def is_completable(other: Any) -> TypeGuard[Completable]:
    """Whether ``merge_with(other)`` is RxJava 2's ``mergeWith(CompletableSource)``."""
    return isinstance(other, Completable)


class FlowableMergeWithCompletable(Flowable[T], HasUpstreamPublisher[T], Generic[T]):
    __slots__ = ("source", "other")

    def __init__(self, source: Publisher[T], other: Completable) -> None:
        self.source = source
        self.other = other

    def subscribe_actual(self, subscriber: Subscriber[T]) -> None:
        parent = MergeWithCompletableSubscriber(subscriber)
        subscriber.on_subscribe(parent)
        self.source.subscribe(parent)
        subscribe_tail(self.other, parent.other)


class _OtherObserver(AtomicReference[Disposable], CompletableObserver):
    """Observes the Completable for its ``parent``; holds its Disposable."""

    __slots__ = ("parent",)

    def __init__(self, parent: MergeWithCompletableSubscriber[Any]) -> None:
        super().__init__()
        self.parent = parent

    def on_subscribe(self, d: Disposable) -> None:
        DisposableHelper.set_once(self, d)

    def on_error(self, error: BaseException) -> None:
        if error is None:
            raise null_error()  # §2.13
        p = self.parent
        if p.cancelled:  # e.g. Completable.error() subscribed after a cancel: nobody to tell
            plugins.on_error(error)
            return
        SubscriptionHelper.cancel(p.upstream)
        HalfSerializer.on_error(p.downstream, error, p.gate, p.error)

    def on_complete(self) -> None:
        p = self.parent
        p.other_done = True
        if p.main_done and not p.cancelled:
            HalfSerializer.on_complete(p.downstream, p.gate, p.error)


class MergeWithCompletableSubscriber(HalfSerializedItems, DeferredUpstream, FlowableSubscriber[T],
                                     Subscription, Generic[T]):
    """The main source's subscriber and the downstream's Subscription: requests pass
    through (deferred until the main source has subscribed)."""

    __slots__ = ("downstream", "upstream", "requested", "gate", "error", "other",
                 "main_done", "other_done", "cancelled")

    def __init__(self, downstream: Subscriber[T]) -> None:
        self.downstream = downstream
        self.upstream: AtomicReference[Subscription] = AtomicReference()
        self.requested = AtomicLong()
        self.gate = Drain()  # half-serializes the items with the terminal signals
        self.error = AtomicThrowable()
        self.other = _OtherObserver(self)
        self.main_done = False
        self.other_done = False
        self.cancelled = False

    def on_error(self, error: BaseException) -> None:
        if error is None:
            raise null_error()  # §2.13
        if self.cancelled:  # a source that signals its error even when cancelled at once
            plugins.on_error(error)
            return
        DisposableHelper.dispose(self.other)
        HalfSerializer.on_error(self.downstream, error, self.gate, self.error)

    def on_complete(self) -> None:
        self.main_done = True
        if self.other_done and not self.cancelled:
            HalfSerializer.on_complete(self.downstream, self.gate, self.error)

    def cancel(self) -> None:
        self.cancelled = True
        SubscriptionHelper.cancel(self.upstream)
        DisposableHelper.dispose(self.other)
