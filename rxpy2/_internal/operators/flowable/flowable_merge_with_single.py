"""Flowable.merge_with(Single | Maybe): the main source's items and the other's one item.

:class:`FlowableMergeWithSingle` (RxJava 2's ``mergeWith(SingleSource)`` and
``mergeWith(MaybeSource)``): the main source is subscribed first with a prefetch of
``BUFFER_SIZE`` (128), replenished by 96 each time 96 of its items went downstream, then
the other source. The other's item goes downstream as soon as there is demand for it; the
completion comes once the main source completed, its queue is empty and the other
succeeded (and its item went) or, a Maybe, completed empty. Either side's error cancels
(disposes) the other and is signalled. One drain (:class:`Drain`) serializes the two
sides; an item arriving on a free drain with demand and nothing queued skips the queue.
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
from rxpy2._internal.helpers.subscribe_loop import subscribe_tail
from rxpy2._internal.helpers.subscription_helper import SubscriptionHelper
from rxpy2.disposables import Disposable
from rxpy2.flowable import Flowable
from rxpy2.maybe import Maybe
from rxpy2.observers import FlowableSubscriber
from rxpy2.observers import MaybeObserver
from rxpy2.observers import SingleObserver
from rxpy2.operator_kit import BUFFER_SIZE
from rxpy2.operator_kit import Drain
from rxpy2.operator_kit import SpscArrayQueue
from rxpy2.operator_kit import add_request
from rxpy2.operator_kit import null_error
from rxpy2.operator_kit import null_item
from rxpy2.operator_kit import null_subscription
from rxpy2.operator_kit import validate_request
from rxpy2.reactivestreams import Publisher
from rxpy2.reactivestreams import Subscriber
from rxpy2.reactivestreams import Subscription
from rxpy2.single import Single

__all__ = ["FlowableMergeWithSingle", "is_single_or_maybe"]

T = TypeVar("T")

#: the other source's state
_PENDING, _HAS_VALUE, _DONE = 0, 1, 2  # _DONE: its item went downstream, or it was empty


def is_single_or_maybe(other: Any) -> TypeGuard[Single[Any] | Maybe[Any]]:
    """Whether ``merge_with(other)`` is RxJava 2's ``mergeWith(SingleSource|MaybeSource)``."""
    return isinstance(other, (Single, Maybe))


class FlowableMergeWithSingle(Flowable[T], HasUpstreamPublisher[T], Generic[T]):
    __slots__ = ("source", "other")

    def __init__(self, source: Publisher[T], other: Single[T] | Maybe[T]) -> None:
        self.source = source
        self.other = other

    def subscribe_actual(self, subscriber: Subscriber[T]) -> None:
        parent: MergeWithSingleSubscriber[T] = MergeWithSingleSubscriber(subscriber)
        subscriber.on_subscribe(parent)
        self.source.subscribe(parent)
        subscribe_tail(self.other, parent.other)


class _OtherObserver(AtomicReference[Disposable], MaybeObserver[T], SingleObserver[T],
                     Generic[T]):
    """Observes the Single or Maybe for its ``parent``; holds its Disposable."""

    __slots__ = ("parent",)

    def __init__(self, parent: MergeWithSingleSubscriber[T]) -> None:
        super().__init__()
        self.parent = parent

    def on_subscribe(self, d: Disposable) -> None:
        DisposableHelper.set_once(self, d)

    def on_success(self, item: T) -> None:
        if item is None:
            raise null_item()  # §2.13
        self.parent.other_success(item)

    def on_error(self, error: BaseException) -> None:
        if error is None:
            raise null_error()  # §2.13
        p = self.parent
        if p.error.try_add_throwable(error):
            SubscriptionHelper.cancel(p.upstream)
            p.drain()
        else:
            plugins.on_error(error)

    def on_complete(self) -> None:  # a Maybe, empty
        p = self.parent
        p.other_state = _DONE
        p.drain()


class MergeWithSingleSubscriber(FlowableSubscriber[T], Subscription, Generic[T]):
    """The main source's subscriber and the downstream's Subscription (see the module)."""

    __slots__ = ("downstream", "upstream", "requested", "gate", "error", "other", "queue",
                 "other_item", "other_state", "main_done", "cancelled", "emitted",
                 "consumed", "limit")

    def __init__(self, downstream: Subscriber[T]) -> None:
        self.downstream = downstream
        self.upstream: AtomicReference[Subscription] = AtomicReference()
        self.requested = AtomicLong()
        self.gate = Drain()
        self.error = AtomicThrowable()
        self.other: _OtherObserver[T] = _OtherObserver(self)
        self.queue: SpscArrayQueue[T] | None = None  # made for the first item that waits
        self.other_item: T | None = None
        self.other_state = _PENDING
        self.main_done = False
        self.cancelled = False
        self.emitted = 0   # drain-owned: items sent downstream
        self.consumed = 0  # drain-owned: main items sent since the last replenish
        self.limit = BUFFER_SIZE - (BUFFER_SIZE >> 2)

    def on_subscribe(self, s: Subscription) -> None:
        if s is None:
            raise null_subscription()  # §2.13
        SubscriptionHelper.set_once_request(self.upstream, s, BUFFER_SIZE)

    def _waiting(self) -> SpscArrayQueue[T]:
        q = self.queue
        if q is None:
            q = self.queue = SpscArrayQueue(BUFFER_SIZE)
        return q

    def on_next(self, item: T) -> None:
        if item is None:
            raise null_item()  # §2.13
        gate = self.gate
        if gate.try_enter():
            e = self.emitted
            q = self.queue
            if self.requested.get() != e and (q is None or q.is_empty()):
                self.emitted = e + 1
                self.downstream.on_next(item)
                c = self.consumed + 1
                if c == self.limit:
                    self.consumed = 0
                    up = self.upstream.get()
                    if up is not None:
                        up.request(c)
                else:
                    self.consumed = c
            else:
                self._waiting().offer(item)
            if not gate.leave():
                return
        else:
            self._waiting().offer(item)
            if not gate.enter():
                return
        self._drain_loop()

    def on_error(self, error: BaseException) -> None:
        if error is None:
            raise null_error()  # §2.13
        if self.error.try_add_throwable(error):
            DisposableHelper.dispose(self.other)
            self.drain()
        else:
            plugins.on_error(error)

    def on_complete(self) -> None:
        self.main_done = True
        self.drain()

    def other_success(self, item: T) -> None:
        gate = self.gate
        if gate.try_enter():
            e = self.emitted
            if self.requested.get() != e:
                self.emitted = e + 1
                self.downstream.on_next(item)
                self.other_state = _DONE
                # the drain kept: the main source may have completed already
            else:
                self.other_item = item
                self.other_state = _HAS_VALUE
                if not gate.leave():
                    return
        else:
            self.other_item = item
            self.other_state = _HAS_VALUE
            if not gate.enter():
                return
        self._drain_loop()

    def request(self, n: int) -> None:
        if not (n := validate_request(n)):
            return
        add_request(self.requested, n)
        self.drain()

    def cancel(self) -> None:
        self.cancelled = True
        SubscriptionHelper.cancel(self.upstream)
        DisposableHelper.dispose(self.other)
        if self.gate.enter():
            self.queue = None
            self.other_item = None

    def drain(self) -> None:
        if self.gate.enter():
            self._drain_loop()

    def _terminated(self) -> bool:
        """Cancelled or failed: the state dropped, the error signalled; True ends the drain."""
        if self.cancelled:
            self.queue = None
            self.other_item = None
            return True
        if self.error.get() is not None:
            self.queue = None
            self.other_item = None
            self.error.try_terminate_consumer(self.downstream)
            return True
        return False

    def _drain_loop(self) -> None:
        a = self.downstream
        e = self.emitted
        c = self.consumed
        lim = self.limit
        while True:
            r = self.requested.get()
            while e != r:
                if self._terminated():
                    return
                if self.other_state == _HAS_VALUE:
                    v = self.other_item
                    self.other_item = None
                    self.other_state = _DONE
                    e += 1
                    a.on_next(v)  # type: ignore[arg-type]  # set with the state
                    continue
                done = self.main_done
                q = self.queue
                item = q.poll() if q is not None else None
                if item is None:
                    if done and self.other_state == _DONE:
                        self.queue = None
                        a.on_complete()
                        return
                    break
                e += 1
                a.on_next(item)
                c += 1
                if c == lim:
                    c = 0
                    up = self.upstream.get()
                    if up is not None:
                        up.request(lim)
            if e == r:
                if self._terminated():
                    return
                q = self.queue
                if self.main_done and (q is None or q.is_empty()) and self.other_state == _DONE:
                    self.queue = None
                    a.on_complete()
                    return
            self.emitted = e
            self.consumed = c
            if not self.gate.leave():
                return
