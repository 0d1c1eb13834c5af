"""ParallelFlowable.reduce(reducer): fold every rail, then the rails' results, into one item.

Each rail requests everything and folds its items (the first item starts the
fold). A rail that completes with a value puts it into a shared slot: when the
slot is empty the value is left there, otherwise the value there is taken out
and ``reducer(taken, value)`` is put back the same way, so no reducer call ever
runs under a lock and each result is combined exactly once. When the last rail
has completed the slot holds the result, emitted under demand (an empty slot:
every rail was empty, the Flowable completes empty).

The first error (a rail's, or a reducer's) cancels every rail and is signalled;
a different later error goes to :func:`rxpy2.plugins.on_error`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, TypeVar

from rxpy2 import plugins
from rxpy2.flowable import Flowable
from rxpy2.internal.atomic import AtomicInteger, AtomicReference
from rxpy2.internal.helpers.subscribe_loop import subscribe_tail
from rxpy2.internal.helpers.subscription_helper import SubscriptionHelper
from rxpy2.internal.subscriptions.deferred_scalar import DeferredScalarSubscription
from rxpy2.observers import FlowableSubscriber
from rxpy2.parallel.parallel_flowable import ParallelFlowable
from rxpy2.reactivestreams import LONG_MAX, Subscriber, Subscription

__all__ = ["ParallelReduceFull"]

T = TypeVar("T")


def _none_result() -> TypeError:
    return TypeError("The reducer returned None")


class ParallelReduceFull(Flowable[T], Generic[T]):
    __slots__ = ("source", "reducer")

    def __init__(self, source: ParallelFlowable[T], reducer: Callable[[T, T], T]) -> None:
        self.source = source
        self.reducer = reducer

    def subscribe_actual(self, subscriber: Subscriber[T]) -> None:
        parent: ReduceFullMainSubscription[T] = ReduceFullMainSubscription(
            subscriber, self.source.parallelism, self.reducer)
        subscriber.on_subscribe(parent)
        subscribe_tail(self.source, parent.subscribers)


class ReduceFullMainSubscription(DeferredScalarSubscription[T], Generic[T]):
    __slots__ = ("subscribers", "reducer", "slot", "remaining", "error")

    def __init__(self, downstream: Subscriber[T], n: int, reducer: Callable[[T, T], T]) -> None:
        super().__init__(downstream)
        self.subscribers = [ReduceFullInnerSubscriber(self, reducer) for _ in range(n)]
        self.reducer = reducer
        self.slot: AtomicReference[Any] = AtomicReference()
        self.remaining = AtomicInteger(n)
        self.error: AtomicReference[BaseException] = AtomicReference()

    def cancel(self) -> None:
        super().cancel()
        self.cancel_all()

    def cancel_all(self) -> None:
        for inner in self.subscribers:
            inner.cancel()

    def inner_error(self, error: BaseException) -> None:
        if self.error.compare_and_set(None, error):
            self.cancel_all()
            self.downstream.on_error(error)
        elif error is not self.error.get():
            plugins.on_error(error)

    def inner_complete(self, value: T | None) -> None:
        if value is not None:
            slot = self.slot
            reducer = self.reducer
            while True:
                current = slot.get()
                if current is None:
                    if slot.compare_and_set(None, value):
                        break
                elif slot.compare_and_set(current, None):
                    try:
                        v = reducer(current, value)
                        if v is None:
                            raise _none_result()
                    except Exception as e:
                        self.inner_error(e)
                        return
                    value = v
        if self.remaining.decrement_and_get() == 0:
            if self.error.get() is not None:
                return
            result = self.slot.get_and_set(None)
            if result is not None:
                self.complete(result)
            else:
                self.downstream.on_complete()


class ReduceFullInnerSubscriber(FlowableSubscriber[T], Generic[T]):
    __slots__ = ("parent", "reducer", "upstream", "value", "done")

    def __init__(self, parent: ReduceFullMainSubscription[T], reducer: Callable[[T, T], T]) -> None:
        self.parent = parent
        self.reducer = reducer
        self.upstream: AtomicReference[Subscription] = AtomicReference()
        self.value: T | None = None
        self.done = False

    def on_subscribe(self, s: Subscription) -> None:
        if SubscriptionHelper.set_once(self.upstream, s):
            s.request(LONG_MAX)

    def on_next(self, item: T) -> None:
        if self.done:
            return
        v = self.value
        if v is None:
            self.value = item
            return
        try:
            v = self.reducer(v, item)
            if v is None:
                raise _none_result()
        except Exception as e:
            self.upstream.get().cancel()  # type: ignore[union-attr]
            self.on_error(e)
            return
        self.value = v

    def on_error(self, error: BaseException) -> None:
        if self.done:
            plugins.on_error(error)
            return
        self.done = True
        self.value = None
        self.parent.inner_error(error)

    def on_complete(self) -> None:
        if not self.done:
            self.done = True
            v = self.value
            self.value = None
            self.parent.inner_complete(v)

    def cancel(self) -> None:
        SubscriptionHelper.cancel(self.upstream)
