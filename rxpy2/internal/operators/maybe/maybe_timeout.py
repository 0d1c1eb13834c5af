"""Maybe.timeout (RxJava 2's MaybeTimeoutMaybe / MaybeTimeoutPublisher): Single's
timeout (``single_timeout.py``) with ``on_complete``.

* ``MaybeTimeout``: a time; RxJava 2 builds it as ``timeout(timer(time))``, so its
  ``TimeoutError`` carries no message.
* ``MaybeTimeoutPublisher``: another source; its first item or its completion is the
  timeout, its error (unless the main signal won) the downstream's error. A Maybe
  (or Single, Completable) arrives here through ``to_flowable``.
"""

from __future__ import annotations

from typing import Any, Generic, TypeVar

from rxpy2.disposables import Disposable
from rxpy2.internal.atomic import AtomicReference
from rxpy2.internal.helpers.disposable_helper import DisposableHelper
from rxpy2.internal.helpers.subscription_helper import CANCELLED, SubscriptionHelper
from rxpy2.internal.operators.single.single_timeout import TimeoutMainObserver, TimeoutOp
from rxpy2.maybe import Maybe
from rxpy2.observers import FlowableSubscriber, MaybeObserver
from rxpy2.reactivestreams import LONG_MAX, Publisher, Subscription

__all__ = ["MaybeTimeout", "MaybeTimeoutPublisher"]

T = TypeVar("T")


class MaybeTimeout(TimeoutOp[T], Maybe[T], Generic[T]):
    __slots__ = ()

    _TIMEOUT_MESSAGE = False


class MaybeTimeoutPublisher(Maybe[T], Generic[T]):
    __slots__ = ("source", "other", "fallback")

    def __init__(self, source: Maybe[T], other: Publisher[Any], fallback: Maybe[T] | None) -> None:
        self.source = source
        self.other = other
        self.fallback = fallback

    def subscribe_actual(self, observer: MaybeObserver[T]) -> None:
        parent: TimeoutMainObserver[T] = TimeoutMainObserver(observer, self.fallback, None)
        observer.on_subscribe(parent)
        indicator = TimeoutIndicator(parent)
        DisposableHelper.replace(parent.task, indicator)  # a dispose from now on cancels it
        self.other.subscribe(indicator)
        self.source._subscribe(parent)


class TimeoutIndicator(FlowableSubscriber[Any], Disposable):
    """Subscribes to the other source for the main observer; its Disposable there."""

    __slots__ = ("parent", "upstream")

    def __init__(self, parent: TimeoutMainObserver[Any]) -> None:
        self.parent = parent
        self.upstream: AtomicReference[Subscription] = AtomicReference()

    def on_subscribe(self, s: Subscription) -> None:
        SubscriptionHelper.set_once_request(self.upstream, s, LONG_MAX)

    def on_next(self, item: Any) -> None:
        s = self.upstream.get_and_set(CANCELLED)
        if s is not CANCELLED and s is not None:
            s.cancel()
        self.parent.run()

    def on_error(self, error: BaseException) -> None:
        self.parent.other_error(error)

    def on_complete(self) -> None:
        self.parent.run()

    def dispose(self) -> None:
        SubscriptionHelper.cancel(self.upstream)

    def is_disposed(self) -> bool:
        return self.upstream.get() is CANCELLED
