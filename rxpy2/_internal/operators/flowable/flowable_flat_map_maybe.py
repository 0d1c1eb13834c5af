"""Flowable.flat_map_maybe (and, through a subclass, flat_map_single): merge the successes.

Each upstream item is mapped to a Maybe (a Single) and subscribed to at once;
the inner observers are kept in a :class:`CompositeDisposable`, so cancelling
disposes every running one. The upstream is asked for ``max_concurrency`` items
(everything when unbounded); when bounded, one more each time an inner
source's success went downstream, or it completed empty, or (``delay_errors``)
it failed.

``active`` counts the running inner sources plus one for the upstream; the
stream completes when it reaches zero with nothing queued. A success that finds
no drain running, nothing queued and some demand goes downstream directly;
otherwise it waits in an MPSC queue for the drain loop (a
:class:`~rxpy2.operator_kit.Drain`, ``gate``: the direct path and every pass
``enter()``/``leave()`` it), which emits under demand: the successes go out in the order they
arrived. Errors are collected in an :class:`AtomicThrowable`: without
``delay_errors`` the first one cancels the upstream and disposes every inner
source, and overtakes the queued successes; with it, they all wait for the end
and come together (a :class:`CompositeException` when there are several). An
error that arrives after cancellation or termination goes to
:func:`rxpy2.plugins.on_error`.

:class:`InnerObserver` also observes the Completables of
``flat_map_completable``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from typing import ClassVar
from typing import Generic
from typing import TypeVar

from rxpy2._internal.atomic import AtomicInteger
from rxpy2._internal.atomic import AtomicLong
from rxpy2._internal.atomic import AtomicReference
from rxpy2._internal.fuseable import HasUpstreamPublisher
from rxpy2._internal.helpers.disposable_helper import DISPOSED
from rxpy2._internal.helpers.disposable_helper import DisposableHelper
from rxpy2._internal.helpers.exception_helper import AtomicThrowable
from rxpy2._internal.helpers.subscribe_loop import subscribe_tail
from rxpy2._internal.operators.single.single_flat_map import apply_mapper
from rxpy2._internal.queues import MpscLinkedQueue
from rxpy2._internal.subscribers.drain_support import DrainSubscriptionMixin
from rxpy2._internal.subscribers.operator_subscriber import RequestsUpfront
from rxpy2.disposables import CompositeDisposable
from rxpy2.disposables import Disposable
from rxpy2.flowable import Flowable
from rxpy2.maybe import Maybe
from rxpy2.observers import CompletableObserver
from rxpy2.observers import FlowableSubscriber
from rxpy2.observers import MaybeObserver
from rxpy2.observers import SingleObserver
from rxpy2.operator_kit import UNSUBSCRIBED
from rxpy2.operator_kit import Drain
from rxpy2.operator_kit import null_or_late_error
from rxpy2.operator_kit import null_or_late_item
from rxpy2.operator_kit import produced
from rxpy2.reactivestreams import LONG_MAX
from rxpy2.reactivestreams import Publisher
from rxpy2.reactivestreams import Subscriber
from rxpy2.reactivestreams import Subscription

__all__ = ["FlatMapMaybeSubscriber", "FlatMapZeroOneSubscriber", "FlowableFlatMapMaybe",
           "InnerObserver"]

T = TypeVar("T")
R = TypeVar("R")


class FlowableFlatMapMaybe(Flowable[R], HasUpstreamPublisher[T], Generic[T, R]):
    __slots__ = ("source", "mapper", "delay_errors", "max_concurrency")

    #: what ``mapper`` must return (``FlowableFlatMapSingle`` sets ``Single``)
    KIND: ClassVar[type] = Maybe

    def __init__(self, source: Publisher[T], mapper: Callable[[T], Any], delay_errors: bool,
                 max_concurrency: int) -> None:
        self.source = source
        self.mapper = mapper
        self.delay_errors = delay_errors
        self.max_concurrency = max_concurrency

    def subscribe_actual(self, subscriber: Subscriber[R]) -> None:
        subscribe_tail(self.source, FlatMapMaybeSubscriber(
            subscriber, self.mapper, self.KIND, self.delay_errors, self.max_concurrency))


class InnerObserver(AtomicReference[Disposable], SingleObserver[Any], MaybeObserver[Any],
                    CompletableObserver, Disposable):
    """Observes one inner Single/Maybe/Completable for its ``parent``; holds its Disposable."""

    __slots__ = ("parent",)

    def __init__(self, parent: Any) -> None:
        super().__init__()
        self.parent = parent

    def on_subscribe(self, d: Disposable) -> None:
        DisposableHelper.set_once(self, d)

    def on_success(self, item: Any) -> None:
        if item is None:  # §2.13: None is never an item
            self.parent.inner_error(self, TypeError("The inner source signalled a None item"))
        else:
            self.parent.inner_success(self, item)

    def on_error(self, error: BaseException) -> None:
        self.parent.inner_error(self, error)

    def on_complete(self) -> None:
        self.parent.inner_complete(self)

    def dispose(self) -> None:
        DisposableHelper.dispose(self)

    def is_disposed(self) -> bool:
        return self.get() is DISPOSED


class FlatMapZeroOneSubscriber(RequestsUpfront, FlowableSubscriber[T], Generic[T]):
    """What the subscribers of flat_map_maybe/single/completable share: the upstream side.

    Each upstream item becomes ``mapper(item)`` (a ``kind``), subscribed to with an
    :class:`InnerObserver` kept in ``set``; ``active`` counts the running ones plus
    one while the upstream runs. A subclass implements ``on_error``, ``on_complete``
    and the ``inner_*`` callbacks.
    """

    __slots__ = ("downstream", "mapper", "kind", "delay_errors", "max_concurrency", "bounded",
                 "upstream", "set", "active", "errors", "done", "cancelled")

    def __init__(self, downstream: Any, mapper: Callable[[T], Any], kind: type,
                 delay_errors: bool, max_concurrency: int) -> None:
        self.downstream = downstream
        self.mapper = mapper
        self.kind = kind
        self.delay_errors = delay_errors
        self.max_concurrency = max_concurrency
        self.bounded = max_concurrency != LONG_MAX
        self.upstream: Subscription = UNSUBSCRIBED
        self.set = CompositeDisposable()
        self.active = AtomicInteger(1)  # running inner sources + 1 while the upstream runs
        self.errors = AtomicThrowable()
        self.done = False
        self.cancelled = False

    # on_subscribe: RequestsUpfront's
    def first_request(self) -> int:
        return self.max_concurrency  # LONG_MAX when unbounded

    def on_next(self, item: T) -> None:
        if item is None or self.done:
            null_or_late_item(item)  # §2.13
            return
        try:
            source = apply_mapper(self.mapper, item, self.kind)
        except Exception as ex:
            self.upstream.cancel()
            self.on_error(ex)
            return
        self.active.get_and_increment()
        inner = InnerObserver(self)
        if not self.cancelled and self.set.add(inner):
            source._subscribe(inner)

    def _replenish(self, n: int) -> None:
        """``n`` inner sources are done with (bounded only): ask the upstream for as many more."""
        if self.bounded and not self.done:
            self.upstream.request(n)


class FlatMapMaybeSubscriber(DrainSubscriptionMixin, FlatMapZeroOneSubscriber[T], Subscription,
                             Generic[T, R]):
    """The upstream's subscriber and the downstream's Subscription; ``gate`` serializes
    the emissions (module docstring). ``request``/``cancel``/``drain``:
    :class:`DrainSubscriptionMixin`."""

    __slots__ = ("gate", "requested", "queue")

    def __init__(self, downstream: Subscriber[R], mapper: Callable[[T], Any], kind: type,
                 delay_errors: bool, max_concurrency: int) -> None:
        super().__init__(downstream, mapper, kind, delay_errors, max_concurrency)
        self.gate = Drain()
        self.requested = AtomicLong()
        self.queue: MpscLinkedQueue[R] = MpscLinkedQueue()

    def on_error(self, error: BaseException) -> None:
        if error is None or self.done:
            null_or_late_error(error)  # §2.13, §1.7
            return
        self.done = True
        self.active.decrement_and_get()
        if self.errors.try_add_throwable_or_report(error):
            if not self.delay_errors:
                self.set.dispose()
            self.drain()

    def on_complete(self) -> None:
        if self.done:
            return
        self.done = True
        self.active.decrement_and_get()
        self.drain()

    # ---------------------------------------------------------------- inner sources
    def inner_success(self, inner: InnerObserver, item: R) -> None:
        self.set.delete(inner)
        gate = self.gate
        if gate.enter():
            # the fast path: no drain runs, so this call may emit (after what is queued)
            d = self.active.decrement_and_get() == 0
            q = self.queue
            if (self.requested.get() != 0 and q.is_empty() and not self.cancelled
                    and (self.delay_errors or self.errors.get() is None)):
                self.downstream.on_next(item)
                if d and q.is_empty():
                    self.errors.try_terminate_consumer(self.downstream)
                    return
                produced(self.requested, 1)
                self._replenish(1)
            else:
                q.offer(item)
            if not gate.leave():
                return
        else:
            # another thread drains: queue, then signal (the failed enter() alone could
            # be consumed by a pass that does not see the item yet)
            self.queue.offer(item)
            self.active.decrement_and_get()
            if not gate.enter():
                return
        self.drain_loop()

    def inner_complete(self, inner: InnerObserver) -> None:
        self.set.delete(inner)
        self.active.decrement_and_get()
        self._replenish(1)
        self.drain()

    def inner_error(self, inner: InnerObserver, error: BaseException) -> None:
        self.set.delete(inner)
        if self.errors.try_add_throwable_or_report(error):
            if not self.delay_errors:
                self.upstream.cancel()
                self.set.dispose()
            else:
                self._replenish(1)
            self.active.decrement_and_get()
            self.drain()

    # ---------------------------------------------------------------- downstream side
    def cancel_upstream(self) -> None:
        """``cancel``: stop the upstream and every inner source."""
        self.upstream.cancel()
        self.set.dispose()
        self.errors.try_terminate_and_report()  # an error that lost to the cancellation

    def cleanup(self) -> None:
        """After ``cancel``, by the holder of the drain."""
        self.queue.clear()

    # ---------------------------------------------------------------- the drain loop
    def _check_terminated(self, d: bool, empty: bool) -> bool:
        if self.cancelled:
            self.queue.clear()
            return True
        errors = self.errors
        if not self.delay_errors and errors.get() is not None:
            self.queue.clear()
            errors.try_terminate_consumer(self.downstream)
            return True
        if d and empty:
            errors.try_terminate_consumer(self.downstream)
            return True
        return False

    def drain_loop(self) -> None:
        """Emit queued successes under demand; the caller owns ``gate``."""
        leave = self.gate.leave
        on_next = self.downstream.on_next
        q = self.queue
        poll = q.poll
        active = self.active
        requested = self.requested
        while True:
            r = requested.get()
            e = 0
            while e != r:
                d = active.get() == 0  # read before polling: every offer came before it
                v = poll()
                empty = v is None
                if self._check_terminated(d, empty):
                    return
                if empty:
                    break
                on_next(v)
                e += 1
            if e == r and self._check_terminated(active.get() == 0, q.is_empty()):
                return
            if e != 0:
                produced(requested, e)
                self._replenish(e)
            if not leave():
                return
