"""Maybe.delay and Maybe.delay_subscription (RxJava 2's MaybeDelay,
MaybeDelayOtherPublisher, MaybeDelaySubscriptionOtherPublisher).

* ``MaybeDelay``, ``MaybeDelayWithPublisher``: Single's operators
  (``single_delay.py``); Maybe's ``delay(time)`` delays the item, the completion
  and the error alike.
* ``MaybeDelayOtherPublisher`` (``delay(other)``): the signal is held until ``other``,
  subscribed only then, signals its first item or completes; an error of ``other``
  is the downstream's error (with the held error, a ``CompositeException`` of both).
"""

from __future__ import annotations

from typing import Any
from typing import Generic
from typing import TypeVar

from rxpy2 import plugins
from rxpy2._internal.atomic import AtomicReference
from rxpy2._internal.helpers.disposable_helper import DISPOSED
from rxpy2._internal.helpers.disposable_helper import DisposableHelper
from rxpy2._internal.helpers.subscription_helper import CANCELLED
from rxpy2._internal.helpers.subscription_helper import SubscriptionHelper
from rxpy2._internal.operators.single.single_delay import DelayOp
from rxpy2._internal.operators.single.single_delay import DelayWithPublisherOp
from rxpy2._internal.operators.single.single_schedule import ZeroOneObserver
from rxpy2.disposables import Disposable
from rxpy2.exceptions import CompositeException
from rxpy2.maybe import Maybe
from rxpy2.observers import FlowableSubscriber
from rxpy2.observers import MaybeObserver
from rxpy2.reactivestreams import LONG_MAX
from rxpy2.reactivestreams import Publisher
from rxpy2.reactivestreams import Subscription

__all__ = ["MaybeDelay", "MaybeDelayOtherPublisher", "MaybeDelayWithPublisher"]

T = TypeVar("T")


class MaybeDelay(DelayOp[T], Maybe[T], Generic[T]):
    __slots__ = ()


class MaybeDelayWithPublisher(DelayWithPublisherOp[T], Maybe[T], Generic[T]):
    __slots__ = ()


class MaybeDelayOtherPublisher(Maybe[T], Generic[T]):
    __slots__ = ("source", "other")

    def __init__(self, source: Maybe[T], other: Publisher[Any]) -> None:
        self.source = source
        self.other = other

    def subscribe_actual(self, observer: MaybeObserver[T]) -> None:
        self.source._subscribe(DelayOtherObserver(observer, self.other))


class DelayOtherObserver(ZeroOneObserver[T], Disposable):
    """Holds the main signal in ``waiter`` and subscribes it to ``other``.

    ``upstream``: the main Maybe's Disposable (``DISPOSED`` once it signalled or was
    disposed).
    """

    __slots__ = ("waiter", "other", "upstream")

    def __init__(self, downstream: MaybeObserver[T], other: Publisher[Any]) -> None:
        self.waiter: DelayWaiter[T] = DelayWaiter(downstream)
        self.other = other
        self.upstream: Disposable | None = None

    def on_subscribe(self, d: Disposable) -> None:
        if DisposableHelper.validate(self.upstream, d):
            self.upstream = d
            self.waiter.downstream.on_subscribe(self)

    def on_success(self, item: T) -> None:
        self.waiter.item = item
        self._wait()

    def on_complete(self) -> None:
        self._wait()

    def on_error(self, error: BaseException) -> None:
        self.waiter.error = error
        self._wait()

    def _wait(self) -> None:
        self.upstream = DISPOSED
        self.other.subscribe(self.waiter)

    def dispose(self) -> None:
        d, self.upstream = self.upstream, DISPOSED
        if d is not None:
            d.dispose()
        SubscriptionHelper.cancel(self.waiter.ref)

    def is_disposed(self) -> bool:
        return self.waiter.ref.get() is CANCELLED


class DelayWaiter(FlowableSubscriber[Any], Generic[T]):
    """Subscribed to ``other``; its first item or completion releases the held signal.

    ``ref``: ``other``'s Subscription; the first of a signal of ``other`` and a dispose
    moves it to ``CANCELLED`` and is the only one to act (nothing goes downstream after
    a dispose; an error of ``other`` that loses goes to :func:`rxpy2.plugins.on_error`).
    """

    __slots__ = ("downstream", "ref", "item", "error")

    def __init__(self, downstream: MaybeObserver[T]) -> None:
        self.downstream = downstream
        self.ref: AtomicReference[Subscription] = AtomicReference()
        self.item: T | None = None
        self.error: BaseException | None = None

    def on_subscribe(self, s: Subscription) -> None:
        SubscriptionHelper.set_once_request(self.ref, s, LONG_MAX)

    def _claim(self) -> Subscription | None:
        """Move ``ref`` to CANCELLED: the Subscription it held, or CANCELLED if it was."""
        return self.ref.get_and_set(CANCELLED)

    def on_next(self, item: Any) -> None:
        s = self._claim()
        if s is not CANCELLED:
            if s is not None:
                s.cancel()
            self._release()

    def on_error(self, error: BaseException) -> None:
        if self._claim() is CANCELLED:
            plugins.on_error(error)
            return
        e = self.error
        self.downstream.on_error(error if e is None else CompositeException(e, error))

    def on_complete(self) -> None:
        if self._claim() is not CANCELLED:
            self._release()

    def _release(self) -> None:
        e = self.error
        if e is not None:
            self.downstream.on_error(e)
            return
        v = self.item
        if v is not None:
            self.downstream.on_success(v)
        else:
            self.downstream.on_complete()
