"""ParallelFlowable.reduce(reducer): fold every rail, then the rails' results, into one item.

Each rail requests everything and folds its items (the first item starts the
fold). A rail that completes with a value offers it to a queue, counts itself
done and signals a :class:`~rxpy2.operator_kit.Drain`; the drain's owner folds the
queued values into the result (``reducer(result, value)``, never under a lock,
each value combined exactly once). When every rail has completed and the queue
is empty the result is emitted under demand (no result: every rail was empty,
the Flowable completes empty) and the drain stays closed.

The first error (a rail's, or a reducer's) cancels every rail and is signalled;
a different later error goes to :func:`rxpy2.plugins.on_error`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from typing import Generic
from typing import TypeVar

from rxpy2 import plugins
from rxpy2.flowable import Flowable
from rxpy2.observers import FlowableSubscriber
from rxpy2.operator_kit import AtomicInteger
from rxpy2.operator_kit import AtomicReference
from rxpy2.operator_kit import DeferredScalarSubscription
from rxpy2.operator_kit import Drain
from rxpy2.operator_kit import MpscLinkedQueue
from rxpy2.operator_kit import SubscriptionHelper
from rxpy2.operator_kit import null_or_late_error
from rxpy2.operator_kit import null_or_late_item
from rxpy2.operator_kit import subscribe_tail
from rxpy2.parallel.parallel_flowable import ParallelFlowable
from rxpy2.reactivestreams import LONG_MAX
from rxpy2.reactivestreams import Subscriber
from rxpy2.reactivestreams import Subscription

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
    __slots__ = ("subscribers", "reducer", "values", "result", "gate", "remaining", "error")

    def __init__(self, downstream: Subscriber[T], n: int, reducer: Callable[[T, T], T]) -> None:
        super().__init__(downstream)
        self.subscribers = [ReduceFullInnerSubscriber(self, reducer) for _ in range(n)]
        self.reducer = reducer
        self.values: MpscLinkedQueue[Any] = MpscLinkedQueue()  # the rails' results
        self.result: Any = None  # the fold of the values so far (drain only)
        self.gate = Drain()
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
            self.values.offer(value)  # before the count: the last pass sees every value
        self.remaining.decrement_and_get()
        gate = self.gate
        if not gate.enter():
            return  # counted: the owner makes another pass
        values = self.values
        reducer = self.reducer
        while True:
            if self.error.get() is not None:
                self.result = None
                return  # the drain stays closed
            # read before polling: every value of a rail counted here is queued already
            last = self.remaining.get() == 0
            result = self.result
            v = values.poll()
            while v is not None:
                if result is None:
                    result = v
                else:
                    try:
                        result = reducer(result, v)
                        if result is None:
                            raise _none_result()
                    except Exception as e:
                        self.result = None
                        self.inner_error(e)
                        return
                v = values.poll()
            self.result = result
            if last:
                self.result = None
                if result is not None:
                    self.complete(result)
                else:
                    self.downstream.on_complete()
                return  # the drain stays closed
            if not gate.leave():
                return


class ReduceFullInnerSubscriber(FlowableSubscriber[T], Generic[T]):
    __slots__ = ("parent", "reducer", "upstream", "value", "done")

    def __init__(self, parent: ReduceFullMainSubscription[T], reducer: Callable[[T, T], T]) -> None:
        self.parent = parent
        self.reducer = reducer
        self.upstream: AtomicReference[Subscription] = AtomicReference()
        self.value: T | None = None
        self.done = False

    def on_subscribe(self, s: Subscription) -> None:
        SubscriptionHelper.set_once_request(self.upstream, s, LONG_MAX)  # §2.13 None raises

    def on_next(self, item: T) -> None:
        if item is None or self.done:
            null_or_late_item(item)  # §2.13
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
            self.cancel()
            self.on_error(e)
            return
        self.value = v

    def on_error(self, error: BaseException) -> None:
        if error is None or self.done:
            null_or_late_error(error)  # §2.13, §1.7
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
