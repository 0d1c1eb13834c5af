"""Single.flat_map_publisher: the items of the Publisher that ``mapper(item)`` returns.

The downstream may request before that Publisher exists: requests accumulate
and are handed over when it subscribes (``SubscriptionHelper.deferred_set_once``
/ ``deferred_request``). Items then flow straight through this subscriber.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from typing import Generic
from typing import TypeVar

from rxpy2._internal.atomic import AtomicLong
from rxpy2._internal.atomic import AtomicReference
from rxpy2._internal.helpers.subscription_helper import SubscriptionHelper
from rxpy2._internal.subscribers.pass_through import DeferredUpstream
from rxpy2._internal.subscribers.pass_through import PassThrough
from rxpy2.disposables import Disposable
from rxpy2.flowable import Flowable
from rxpy2.maybe import Maybe
from rxpy2.observers import CompletableObserver
from rxpy2.observers import FlowableSubscriber
from rxpy2.observers import MaybeObserver
from rxpy2.observers import SingleObserver
from rxpy2.reactivestreams import Publisher
from rxpy2.reactivestreams import Subscriber
from rxpy2.reactivestreams import Subscription
from rxpy2.single import Single

__all__ = ["DeferredPublisherSubscriber", "SingleFlatMapPublisher", "SourceObserver"]

T = TypeVar("T")
R = TypeVar("R")


class SingleFlatMapPublisher(Flowable[R], Generic[T, R]):
    """Maybe.flat_map_publisher's too (its subclass ``MaybeFlatMapPublisher``)."""

    __slots__ = ("source", "mapper")

    def __init__(self, source: Single[T] | Maybe[T], mapper: Callable[[T], Publisher[R]]) -> None:
        self.source = source
        self.mapper = mapper

    def subscribe_actual(self, subscriber: Subscriber[R]) -> None:
        parent: DeferredPublisherSubscriber[R] = DeferredPublisherSubscriber(subscriber)
        self.source._subscribe(SourceObserver(parent, self.mapper))


class DeferredPublisherSubscriber(PassThrough, DeferredUpstream, FlowableSubscriber[R], Subscription, Generic[R]):
    """The downstream's Subscription: first the 0-1 source's Disposable, then the Publisher's.

    Shared by ``Single/Maybe.flat_map_publisher`` and ``Completable.and_then(publisher)``.
    """

    __slots__ = ("downstream", "disposable", "upstream", "requested")

    def __init__(self, downstream: Subscriber[R]) -> None:
        self.downstream = downstream
        self.disposable: Disposable | None = None
        self.upstream: AtomicReference[Subscription] = AtomicReference()
        self.requested = AtomicLong()

    def set_disposable(self, d: Disposable) -> None:
        """The 0-1 source subscribed: the downstream gets this Subscription now."""
        self.disposable = d
        self.downstream.on_subscribe(self)

    def subscribe_to(self, p: Publisher[R]) -> None:
        if not SubscriptionHelper.is_cancelled(self.upstream.get()):
            p.subscribe(self)

    def cancel(self) -> None:
        d = self.disposable
        if d is not None:
            d.dispose()
        SubscriptionHelper.cancel(self.upstream)


class SourceObserver(SingleObserver[T], MaybeObserver[T], CompletableObserver, Generic[T]):
    """Observes the 0-1 source for a DeferredPublisherSubscriber.

    With a ``mapper`` the item selects the Publisher (an empty Maybe completes);
    with ``publisher`` (Completable.and_then) completion subscribes to it.
    """

    __slots__ = ("parent", "mapper", "publisher")

    def __init__(self, parent: DeferredPublisherSubscriber[Any],
                 mapper: Callable[[T], Publisher[Any]] | None,
                 publisher: Publisher[Any] | None = None) -> None:
        self.parent = parent
        self.mapper = mapper
        self.publisher = publisher

    def on_subscribe(self, d: Disposable) -> None:
        self.parent.set_disposable(d)

    def on_success(self, item: T) -> None:
        try:
            p = self.mapper(item)  # type: ignore[misc]  # None only after cancel
            if not isinstance(p, Publisher):
                raise TypeError("The mapper returned None" if p is None else
                                f"The mapper returned a {type(p).__name__}, not a Publisher")
        except Exception as e:
            self.parent.downstream.on_error(e)
            return
        self.parent.subscribe_to(p)

    def on_error(self, error: BaseException) -> None:
        self.parent.downstream.on_error(error)

    def on_complete(self) -> None:
        p = self.publisher
        if p is not None:
            self.parent.subscribe_to(p)
        else:
            self.parent.downstream.on_complete()
