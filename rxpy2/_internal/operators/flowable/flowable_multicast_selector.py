"""``replay(selector=...)`` and ``replay(scheduler=...)`` (RxJava 2's
FlowableReplay.multicastSelector / MulticastFlowable and ConnectableFlowableReplay).

* :class:`FlowableMulticastSelector`: per subscriber, a fresh ConnectableFlowable from
  the factory, the selector's Publisher over it subscribed by a
  :class:`ResourceWrapperSubscriber`, then ``connect`` (so the selector's subscribers
  are all there before the first item). The wrapper holds the connection: a terminal
  signal or a cancel disposes it.
* :class:`ConnectableObserveOn`: a ConnectableFlowable whose subscribers get its
  signals through ``observe_on(scheduler)``; ``connect`` (and ``reset``) are the
  wrapped one's.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from typing import Generic
from typing import TypeVar

from rxpy2._internal.atomic import AtomicReference
from rxpy2._internal.helpers.disposable_helper import DisposableHelper
from rxpy2._internal.helpers.subscription_helper import CANCELLED
from rxpy2._internal.helpers.subscription_helper import SubscriptionHelper
from rxpy2._internal.operators.flowable.flowable_scalar_x_map import check_inner
from rxpy2._internal.subscribers.pass_through import PassThrough
from rxpy2._internal.subscriptions.empty import EmptySubscription
from rxpy2.connectable_flowable import ConnectableFlowable
from rxpy2.disposables import Disposable
from rxpy2.flowable import Flowable
from rxpy2.observers import FlowableSubscriber
from rxpy2.operator_kit import null_error
from rxpy2.operator_kit import validate_request
from rxpy2.reactivestreams import Publisher
from rxpy2.reactivestreams import Subscriber
from rxpy2.reactivestreams import Subscription
from rxpy2.schedulers.scheduler import Scheduler

__all__ = ["ConnectableObserveOn", "FlowableMulticastSelector", "ResourceWrapperSubscriber"]

T = TypeVar("T")
R = TypeVar("R")


class FlowableMulticastSelector(Flowable[R], Generic[T, R]):
    __slots__ = ("factory", "selector")

    def __init__(self, factory: Callable[[], ConnectableFlowable[T]],
                 selector: Callable[[Flowable[T]], Publisher[R]]) -> None:
        self.factory = factory
        self.selector = selector

    def subscribe_actual(self, subscriber: Subscriber[R]) -> None:
        try:
            cf = self.factory()
            p = check_inner(self.selector(cf), self.selector, "replay")
        except Exception as ex:
            EmptySubscription.error(ex, subscriber)
            return
        wrapper: ResourceWrapperSubscriber[R] = ResourceWrapperSubscriber(subscriber)
        p.subscribe(wrapper)
        cf.connect(wrapper.set_resource)


class ResourceWrapperSubscriber(PassThrough, FlowableSubscriber[T], Subscription, Disposable, Generic[T]):
    """Relays to ``downstream``; disposes the resource (a connection) when the stream ends
    or is cancelled (RxJava 2's SubscriberResourceWrapper)."""

    __slots__ = ("downstream", "upstream", "resource")

    def __init__(self, downstream: Subscriber[T]) -> None:
        self.downstream = downstream
        self.upstream: AtomicReference[Subscription] = AtomicReference()
        self.resource: AtomicReference[Disposable] = AtomicReference()

    def set_resource(self, d: Disposable) -> None:
        DisposableHelper.set(self.resource, d)

    def on_subscribe(self, s: Subscription) -> None:
        if SubscriptionHelper.set_once(self.upstream, s):
            self.downstream.on_subscribe(self)

    def on_error(self, error: BaseException) -> None:
        if error is None:
            raise null_error()  # §2.13
        DisposableHelper.dispose(self.resource)
        self.downstream.on_error(error)

    def on_complete(self) -> None:
        DisposableHelper.dispose(self.resource)
        self.downstream.on_complete()

    def request(self, n: int) -> None:
        if n := validate_request(n):  # §3.9
            s = self.upstream.get()
            if s is not None:
                s.request(n)

    def cancel(self) -> None:
        self.dispose()

    def dispose(self) -> None:
        SubscriptionHelper.cancel(self.upstream)
        DisposableHelper.dispose(self.resource)

    def is_disposed(self) -> bool:
        return self.upstream.get() is CANCELLED


class ConnectableObserveOn(ConnectableFlowable[T], Generic[T]):
    __slots__ = ("connectable", "observed")

    def __init__(self, connectable: ConnectableFlowable[T], scheduler: Scheduler) -> None:
        self.connectable = connectable
        self.observed = connectable.observe_on(scheduler)

    def connect_actual(self, on_connect: Callable[[Disposable], Any]) -> None:
        self.connectable.connect_actual(on_connect)

    def reset(self, connection: Any) -> None:
        self.connectable.reset(connection)  # RxJava 3 (RxJava 2 never resets it)

    def subscribe_actual(self, subscriber: Subscriber[T]) -> None:
        self.observed.subscribe(subscriber)
