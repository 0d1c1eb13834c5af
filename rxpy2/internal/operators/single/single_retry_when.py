"""Single.retry_when: resubscribe when the handler's Publisher signals an item.

Per subscriber, ``handler`` gets a Flowable of the errors (a UnicastProcessor) and
returns a Publisher: each of its items resubscribes the source; its completion
ends the Single with ``IndexError`` (RxJava 2: the empty stream's
NoSuchElementException), its error ends it with that error. Each error of the
source requests one item from that Publisher before going into the processor.

The source is resubscribed in a loop guarded by a counter: a synchronous source
failing again and again, with a synchronous handler, never nests the calls.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, Protocol, TypeVar

from rxpy2 import plugins
from rxpy2.disposables import Disposable
from rxpy2.internal.atomic import AtomicBoolean, AtomicLong, AtomicReference
from rxpy2.internal.helpers.disposable_helper import DISPOSED, DisposableHelper
from rxpy2.internal.helpers.subscription_helper import SubscriptionHelper
from rxpy2.internal.observers.empty import EmptyDisposable
from rxpy2.internal.operators.single.single_retry import Resubscriber
from rxpy2.observers import FlowableSubscriber, SingleObserver
from rxpy2.operators import Drain
from rxpy2.processors import UnicastProcessor
from rxpy2.reactivestreams import Publisher, Subscription
from rxpy2.single import Single

__all__ = ["SingleRetryWhen"]

T = TypeVar("T")


class SingleRetryWhen(Single[T], Generic[T]):
    __slots__ = ("source", "handler")

    def __init__(self, source: Single[T], handler: Callable[[Any], Publisher[Any]]) -> None:
        self.source = source
        self.handler = handler

    def subscribe_actual(self, observer: SingleObserver[T]) -> None:
        errors: UnicastProcessor[BaseException] = UnicastProcessor.create()
        try:
            when = self.handler(errors)
            if not isinstance(when, Publisher):
                raise TypeError("The handler returned None" if when is None else
                                f"The handler returned a {type(when).__name__}, not a Publisher")
        except Exception as e:
            EmptyDisposable.error(e, observer)
            return
        parent: RetryWhenObserver[T] = RetryWhenObserver(observer, self.source, errors)
        observer.on_subscribe(parent)
        when.subscribe(parent.receiver)
        parent.subscribe_next()


class RetryWhenObserver(Resubscriber, SingleObserver[T], Disposable, Generic[T]):
    """``main``: the current subscription's Disposable (DISPOSED once disposed or ended);
    ``resubscribe``: the resubscription loop (:class:`Resubscriber`); ``once``: the single terminal signal."""

    __slots__ = ("downstream", "source", "errors", "main", "receiver", "resubscribe", "once")

    def __init__(self, downstream: SingleObserver[T], source: Single[T],
                 errors: UnicastProcessor[BaseException]) -> None:
        self.downstream = downstream
        self.source = source
        self.errors = errors
        self.main: AtomicReference[Disposable] = AtomicReference()
        self.receiver = WhenReceiver(self)
        self.resubscribe = Drain()
        self.once = AtomicBoolean(False)

    def on_subscribe(self, d: Disposable) -> None:
        DisposableHelper.replace(self.main, d)

    def on_success(self, item: T) -> None:
        if self.once.compare_and_set(False, True):
            self.receiver.cancel()
            self.downstream.on_success(item)

    def on_error(self, error: BaseException) -> None:
        self.receiver.request(1)
        self.errors.on_next(error)

    def when_error(self, error: BaseException) -> None:
        DisposableHelper.dispose(self.main)
        if self.once.compare_and_set(False, True):
            self.downstream.on_error(error)
        else:
            plugins.on_error(error)

    def when_complete(self) -> None:
        DisposableHelper.dispose(self.main)
        if self.once.compare_and_set(False, True):
            self.downstream.on_error(IndexError("retry_when's handler completed: no item"))

    def dispose(self) -> None:
        DisposableHelper.dispose(self.main)
        self.receiver.cancel()

    def is_disposed(self) -> bool:
        return self.main.get() is DISPOSED


class WhenParent(Protocol):
    """What the receiver drives (retry_when's observer, repeat_when's subscriber)."""

    def subscribe_next(self) -> None: ...

    def when_error(self, error: BaseException) -> None: ...

    def when_complete(self) -> None: ...


class WhenReceiver(FlowableSubscriber[Any]):
    """Subscribes to the handler's Publisher; requests are kept until it subscribes."""

    __slots__ = ("parent", "upstream", "requested")

    def __init__(self, parent: WhenParent) -> None:
        self.parent = parent
        self.upstream: AtomicReference[Subscription] = AtomicReference()
        self.requested = AtomicLong(0)

    def on_subscribe(self, s: Subscription) -> None:
        SubscriptionHelper.deferred_set_once(self.upstream, self.requested, s)

    def on_next(self, item: Any) -> None:
        self.parent.subscribe_next()

    def on_error(self, error: BaseException) -> None:
        self.parent.when_error(error)

    def on_complete(self) -> None:
        self.parent.when_complete()

    def request(self, n: int) -> None:
        SubscriptionHelper.deferred_request(self.upstream, self.requested, n)

    def cancel(self) -> None:
        SubscriptionHelper.cancel(self.upstream)
