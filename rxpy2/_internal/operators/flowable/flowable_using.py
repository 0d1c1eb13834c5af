"""Flowable.using: a resource per subscriber, released exactly once.

Per subscriber: ``resource_supplier()`` acquires the resource, ``source_supplier(resource)``
gives the Publisher to subscribe, and ``disposer(resource)`` releases it: before the
terminal signal when ``eager`` (a disposer error then replaces a completion and joins an
error in a ``CompositeException``), after it otherwise, or on cancel (a disposer error
then goes to :func:`rxpy2.plugins.on_error`: the downstream may be busy on another
thread). The resource sits in a :class:`~rxpy2._internal.helpers.using_resource.UsingResource`
(shared with the 0-1 types' ``using``), so a cancel racing the terminal signal releases it
once.

As in RxJava 2: when ``source_supplier`` raises (or gives no Publisher), the resource is
released first and the error signalled after, in either mode.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from typing import Generic
from typing import TypeVar

from rxpy2._internal.helpers.function_names import returned_none
from rxpy2._internal.helpers.subscribe_loop import subscribe_tail
from rxpy2._internal.helpers.using_resource import RELEASED
from rxpy2._internal.helpers.using_resource import UsingResource
from rxpy2._internal.subscribers.pass_through import PassThrough
from rxpy2._internal.subscriptions.empty import EmptySubscription
from rxpy2.exceptions import CompositeException
from rxpy2.flowable import Flowable
from rxpy2.observers import FlowableSubscriber
from rxpy2.operator_kit import UNSUBSCRIBED
from rxpy2.operator_kit import validate_upstream
from rxpy2.reactivestreams import Publisher
from rxpy2.reactivestreams import Subscriber
from rxpy2.reactivestreams import Subscription

__all__ = ["FlowableUsing"]

T = TypeVar("T")

class FlowableUsing(Flowable[T], Generic[T]):
    __slots__ = ("resource_supplier", "source_supplier", "disposer", "eager")

    def __init__(self, resource_supplier: Callable[[], Any],
                 source_supplier: Callable[[Any], Publisher[T]],
                 disposer: Callable[[Any], Any], eager: bool) -> None:
        self.resource_supplier = resource_supplier
        self.source_supplier = source_supplier
        self.disposer = disposer
        self.eager = eager

    def subscribe_actual(self, subscriber: Subscriber[T]) -> None:
        try:
            resource = self.resource_supplier()
        except Exception as e:
            EmptySubscription.error(e, subscriber)
            return
        try:
            source: Any = self.source_supplier(resource)
            if source is None:
                raise returned_none("using", self.source_supplier, "source supplier")
            if not isinstance(source, Publisher):
                raise TypeError(f"using: the source supplier returned a {type(source).__name__}, "
                                "not a Publisher")
        except Exception as e:
            try:
                self.disposer(resource)
            except Exception as de:
                EmptySubscription.error(CompositeException(e, de), subscriber)
                return
            EmptySubscription.error(e, subscriber)
            return
        subscribe_tail(source, UsingSubscriber(subscriber, resource, self.disposer, self.eager))


class UsingSubscriber(PassThrough, UsingResource, FlowableSubscriber[T], Subscription, Generic[T]):
    """Holds the resource (the reference) until it is released."""

    __slots__ = ("downstream", "eager", "upstream")

    def __init__(self, downstream: Subscriber[T], resource: Any,
                 disposer: Callable[[Any], Any], eager: bool) -> None:
        super().__init__(resource, disposer)
        self.downstream = downstream
        self.eager = eager
        self.upstream: Subscription = UNSUBSCRIBED

    def on_subscribe(self, s: Subscription) -> None:
        if validate_upstream(self.upstream, s):
            self.upstream = s
            self.downstream.on_subscribe(self)

    def _release_first(self) -> BaseException | None:
        """Eager mode: release before the terminal signal (if no cancel did); the
        disposer's error, if any."""
        r = self.release_before()
        return None if r is RELEASED else r

    def on_error(self, error: BaseException) -> None:
        if self.eager:
            de = self._release_first()
            self.upstream.cancel()
            self.downstream.on_error(error if de is None else CompositeException(error, de))
        else:
            self.downstream.on_error(error)
            self.upstream.cancel()
            self.release_after()

    def on_complete(self) -> None:
        if self.eager:
            de = self._release_first()
            if de is not None:
                self.downstream.on_error(de)
                return
            self.upstream.cancel()
            self.downstream.on_complete()
        else:
            self.downstream.on_complete()
            self.upstream.cancel()
            self.release_after()

    def request(self, n: int) -> None:
        self.upstream.request(n)

    def cancel(self) -> None:
        self.release_after()
        self.upstream.cancel()
