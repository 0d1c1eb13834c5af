"""Flowable.combine_latest (and its _delay_error/_iterable forms): the latest item of every
source, combined each time any source emits, once all of them have emitted.

A :class:`CombineLatestCoordinator` is the downstream's Subscription. It keeps
the latest item of each source; when a source emits and every source has an
item, the source and a snapshot of the latest items go into one queue as a
pair (``offer2``), and the drain (guarded by a :class:`Drain`: a signal while it
runs makes ``leave()`` ask for another pass) emits ``combiner(*snapshot)`` (the snapshot
tuple itself when ``combiner`` is None) under demand. Each source is asked for
``buffer_size`` items and then for ``limit = buffer_size - buffer_size // 4``
more each time that many of its items were used: by the drain once they went
downstream, at once while some source has not emitted yet (its item only
replaced the previous one).

The stream completes when every source completed, or as soon as a source
completes without having emitted (nothing can ever be combined); the other
sources are then cancelled. An error ends it at once; with ``delay_error`` it
waits until every source ended, and all errors are signalled together (a
:class:`CompositeException` for several). A single source is a ``map``.
Shared pieces: ``sources_or_terminate`` (internal/helpers/sources_helper.py)
reads and checks the sources at subscription; a source's subscriber is a
:class:`PrefetchingInnerSubscriber` (internal/subscribers/prefetching_inner.py).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from collections.abc import Iterable
from typing import Any
from typing import Generic
from typing import TypeVar

from rxpy2 import plugins
from rxpy2._internal.atomic import AtomicLong
from rxpy2._internal.fuseable import NONE
from rxpy2._internal.helpers.exception_helper import AtomicThrowable
from rxpy2._internal.helpers.function_names import returned_none
from rxpy2._internal.helpers.subscribe_loop import subscribe_tail
from rxpy2._internal.helpers.subscription_helper import SubscriptionHelper
from rxpy2._internal.operators.flowable.flowable_map import FlowableMap
from rxpy2._internal.operators.flowable.sources import sources_or_terminate
from rxpy2._internal.queues import SpscLinkedArrayQueue
from rxpy2._internal.subscribers.drain_support import DrainSubscriptionMixin
from rxpy2._internal.subscribers.prefetching_inner import PrefetchingInnerSubscriber
from rxpy2.flowable import Flowable
from rxpy2.operator_kit import Drain
from rxpy2.operator_kit import null_error
from rxpy2.operator_kit import null_item
from rxpy2.operator_kit import null_subscription
from rxpy2.reactivestreams import LONG_MAX
from rxpy2.reactivestreams import Publisher
from rxpy2.reactivestreams import Subscriber
from rxpy2.reactivestreams import Subscription

__all__ = ["FlowableCombineLatest"]

T = TypeVar("T")
R = TypeVar("R")


def _one_tuple(v: Any) -> tuple[Any]:
    return (v,)


class FlowableCombineLatest(Flowable[R], Generic[R]):
    __slots__ = ("sources", "combiner", "prefetch", "delay_error")

    def __init__(self, sources: Iterable[Publisher[Any]], combiner: Callable[..., R] | None,
                 buffer_size: int, delay_error: bool) -> None:
        self.sources = sources
        self.combiner = combiner
        self.prefetch = buffer_size
        self.delay_error = delay_error

    def subscribe_actual(self, subscriber: Subscriber[R]) -> None:
        sources = sources_or_terminate(self.sources, subscriber)
        if sources is None:
            return
        n = len(sources)
        if n == 1:
            fn: Callable[[Any], Any] = self.combiner if self.combiner is not None else _one_tuple
            FlowableMap(sources[0], fn).subscribe_actual(subscriber)
            return
        parent = CombineLatestCoordinator(subscriber, self.combiner, n, self.prefetch,
                                          self.delay_error)
        subscriber.on_subscribe(parent)
        subscribe_tail(parent, sources)


class CombineLatestCoordinator(DrainSubscriptionMixin, Subscription, Generic[R]):
    """The downstream's Subscription and the drain of the combinations;
    ``request``/``cancel``: :class:`DrainSubscriptionMixin`'s."""

    __slots__ = ("downstream", "combiner", "subscribers", "latest", "non_empty", "completed",
                 "queue", "requested", "gate", "error", "delay_error", "cancelled", "done",
                 "lock")

    def __init__(self, downstream: Subscriber[R], combiner: Callable[..., R] | None, n: int,
                 prefetch: int, delay_error: bool) -> None:
        self.downstream = downstream
        self.combiner = combiner
        self.subscribers: list[CombineLatestInnerSubscriber[Any]] = [
            CombineLatestInnerSubscriber(self, i, prefetch) for i in range(n)]
        self.latest: list[Any] = [None] * n
        self.non_empty = 0  # sources that emitted (under ``lock``)
        self.completed = 0  # sources that completed after emitting (under ``lock``)
        # (inner, snapshot) pairs: one per emission once every source has an item
        self.queue: SpscLinkedArrayQueue[Any] = SpscLinkedArrayQueue(prefetch)
        self.requested = AtomicLong()
        self.gate = Drain()
        self.error = AtomicThrowable()
        self.delay_error = delay_error
        self.cancelled = False
        self.done = False
        # the sources emit from any thread (§2.12): the latest items change under this lock
        self.lock = threading.Lock()

    def subscribe(self, sources: tuple[Publisher[Any], ...]) -> None:
        subs = self.subscribers
        for i, p in enumerate(sources):
            if self.done or self.cancelled:
                return  # an earlier source ended the stream already
            p.subscribe(subs[i])

    def stop(self) -> None:
        """No item is queued after this returns (the queue is then cleared by the drain holder)."""
        with self.lock:
            self.cancelled = True

    def cancel_upstream(self) -> None:
        self.stop()  # ``cancelled`` again, under the lock: no source queues an item after this
        self.cancel_all()

    def cleanup(self) -> None:
        self.queue.clear()

    def cancel_all(self) -> None:
        for inner in self.subscribers:
            inner.cancel()

    # ---------------------------------------------------------------- from the sources
    def inner_value(self, index: int, value: Any) -> None:
        with self.lock:
            if self.cancelled:  # cancelled or ended: the item goes nowhere
                return
            latest = self.latest
            if latest[index] is None:
                self.non_empty += 1
            latest[index] = value
            full = self.non_empty == len(latest)
            if full:
                self.queue.offer2(self.subscribers[index], tuple(latest))
        if full:
            self.drain()
        else:  # the item was only remembered: it is used up already
            self.subscribers[index].request_one()

    def inner_complete(self, index: int) -> None:
        with self.lock:
            if self.latest[index] is not None:
                c = self.completed + 1
                if c != len(self.latest):
                    self.completed = c
                    return
            # every source completed, or this one never emitted: nothing more can come
            self.done = True
        self.drain()

    def inner_error(self, index: int, error: BaseException) -> None:
        if self.error.try_add_throwable(error):
            if self.delay_error:
                self.inner_complete(index)
            else:
                self.cancel_all()
                self.done = True
                self.drain()
        else:
            plugins.on_error(error)

    # ---------------------------------------------------------------- the drain
    def check_terminated(self, d: bool, empty: bool) -> bool:
        if self.cancelled:
            self.queue.clear()
            return True
        if d:
            if self.delay_error:
                if not empty:
                    return False
            elif self.error.get() is not None:
                self.queue.clear()
            elif not empty:
                return False
            self.stop()
            self.queue.clear()
            self.cancel_all()
            self.error.try_terminate_consumer(self.downstream)
            return True
        return False

    def drain(self) -> None:
        gate = self.gate
        if not gate.enter():
            return  # the owner makes another pass
        a: Subscriber[Any] = self.downstream
        q = self.queue
        poll = q.poll
        requested = self.requested
        combiner = self.combiner
        while True:
            r = requested.get()
            e = 0
            while e != r:
                d = self.done
                if (d or self.cancelled) and self.check_terminated(d, q.is_empty()):
                    return
                inner: Any = poll()
                if inner is None:
                    break
                snapshot: Any = poll()
                if combiner is None:
                    v = snapshot
                else:
                    try:
                        v = combiner(*snapshot)
                    except Exception as ex:
                        self.fail(ex)
                        return
                    if v is None:
                        self.fail(returned_none("combine_latest", combiner,
                                                "combiner function"))
                        return
                a.on_next(v)
                inner.request_one()
                e += 1
            if e == r:
                d = self.done
                if (d or self.cancelled) and self.check_terminated(d, q.is_empty()):
                    return
            if e != 0 and r != LONG_MAX:
                requested.add_and_get(-e)
            if not gate.leave():
                return

    def fail(self, error: BaseException) -> None:
        """The combiner raised (in the drain): cancel everything, signal the error(s)."""
        self.stop()
        self.cancel_all()
        self.queue.clear()
        self.error.try_add_throwable(error)
        self.error.try_terminate_consumer(self.downstream)


class CombineLatestInnerSubscriber(PrefetchingInnerSubscriber[T], Generic[T]):
    """One source: ``request_one`` replenishing and ``cancel`` are
    :class:`PrefetchingInnerSubscriber`'s (internal/subscribers/prefetching_inner.py)."""

    __slots__ = ("index",)

    #: RxJava 2.2.21's CombineLatestInnerSubscriber fuses with no source: it queues
    FUSION_MODE = NONE

    parent: CombineLatestCoordinator[Any]

    def __init__(self, parent: CombineLatestCoordinator[Any], index: int, prefetch: int) -> None:
        super().__init__(parent, prefetch)
        self.index = index

    def on_subscribe(self, s: Subscription) -> None:
        if s is None:
            raise null_subscription()  # §2.13
        # no fusion: each item is used on arrival (``inner_value``), never polled
        SubscriptionHelper.set_once_request(self.upstream, s, self.prefetch)

    def on_next(self, item: T) -> None:
        if item is None:
            raise null_item()  # §2.13
        self.parent.inner_value(self.index, item)

    def on_error(self, error: BaseException) -> None:
        if error is None:
            raise null_error()  # §2.13
        self.parent.inner_error(self.index, error)

    def on_complete(self) -> None:
        self.parent.inner_complete(self.index)
