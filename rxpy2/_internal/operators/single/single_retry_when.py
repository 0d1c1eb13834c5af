"""retry_when of Single, Maybe and Completable: resubscribe when the handler's
Publisher signals an item.

Per subscriber, ``handler`` gets a Flowable of the errors (a UnicastProcessor) and
returns a Publisher: each of its items resubscribes the source; its error ends the
stream with that error; its completion ends a Single with ``IndexError`` (RxJava 2
builds it as ``toSingle(toFlowable().retryWhen(h))``: the empty stream's
NoSuchElementException) and completes a Maybe or a Completable (RxJava 2:
``singleElement()`` / ``fromPublisher`` of that empty stream). Each error of the
source requests one item from that Publisher before going into the processor. A
success or a completion of the source cancels the handler's Publisher and goes
downstream.

One observer serves the three types (a Single source never completes, a
Completable source never succeeds); the operator classes share
:class:`RetryWhenOp`.

The source is resubscribed in the :class:`Resubscriber` loop (a
:class:`~rxpy2.operator_kit.Drain`): a synchronous source failing again and again, with a
synchronous handler, never nests the calls.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from typing import ClassVar
from typing import Generic
from typing import Protocol
from typing import TypeVar

from rxpy2 import plugins
from rxpy2._internal.atomic import AtomicBoolean
from rxpy2._internal.atomic import AtomicLong
from rxpy2._internal.atomic import AtomicReference
from rxpy2._internal.helpers.disposable_helper import DISPOSED
from rxpy2._internal.helpers.disposable_helper import DisposableHelper
from rxpy2._internal.helpers.subscription_helper import SubscriptionHelper
from rxpy2._internal.observers.empty import EmptyDisposable
from rxpy2._internal.operators.single.single_retry import Resubscriber
from rxpy2.disposables import Disposable
from rxpy2.observers import CompletableObserver
from rxpy2.observers import FlowableSubscriber
from rxpy2.observers import MaybeObserver
from rxpy2.observers import SingleObserver
from rxpy2.operator_kit import Drain
from rxpy2.operator_kit import deferred_request
from rxpy2.operator_kit import deferred_set_once
from rxpy2.processors import UnicastProcessor
from rxpy2.reactivestreams import Publisher
from rxpy2.reactivestreams import Subscription
from rxpy2.single import Single

__all__ = ["RetryWhenOp", "SingleRetryWhen", "call_handler"]

T = TypeVar("T")

Handler = Callable[[Any], Publisher[Any]]


def call_handler(handler: Handler, signals: Any) -> Publisher[Any]:
    """``handler(signals)``, refused with ``TypeError`` unless it is a Publisher."""
    when = handler(signals)
    if not isinstance(when, Publisher):
        raise TypeError("The handler returned None" if when is None else
                        f"The handler returned a {type(when).__name__}, not a Publisher")
    return when


class RetryWhenOp:
    """The operator part shared by Single/Maybe/CompletableRetryWhen (a mixin: the
    concrete class declares the slots). ``EMPTY_IS_ERROR``: the handler's completion
    is an ``IndexError`` (Single) rather than a completion (Maybe, Completable)."""

    __slots__ = ()
    EMPTY_IS_ERROR: ClassVar[bool] = False
    source: Any
    handler: Handler

    def __init__(self, source: Any, handler: Handler) -> None:
        self.source = source
        self.handler = handler

    def subscribe_actual(self, observer: Any) -> None:
        errors: UnicastProcessor[BaseException] = UnicastProcessor.create()
        try:
            when = call_handler(self.handler, errors)
        except Exception as e:
            EmptyDisposable.error(e, observer)
            return
        parent: RetryWhenObserver[Any] = RetryWhenObserver(observer, self.source, errors,
                                                           self.EMPTY_IS_ERROR)
        observer.on_subscribe(parent)
        when.subscribe(parent.receiver)
        parent.subscribe_next()


class SingleRetryWhen(RetryWhenOp, Single[T], Generic[T]):
    __slots__ = ("source", "handler")
    EMPTY_IS_ERROR = True


class RetryWhenObserver(Resubscriber, SingleObserver[T], MaybeObserver[T], CompletableObserver,
                        Disposable, Generic[T]):
    """``main``: the current subscription's Disposable (DISPOSED once disposed or ended);
    ``resubscribe``: the resubscription loop (:class:`Resubscriber`); ``once``: the single terminal signal."""

    __slots__ = ("downstream", "source", "errors", "main", "receiver", "resubscribe", "once",
                 "empty_is_error")

    def __init__(self, downstream: Any, source: Any, errors: UnicastProcessor[BaseException],
                 empty_is_error: bool) -> None:
        self.downstream = downstream
        self.source = source
        self.errors = errors
        self.empty_is_error = empty_is_error
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

    def on_complete(self) -> None:
        if self.once.compare_and_set(False, True):
            self.receiver.cancel()
            self.downstream.on_complete()

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
            if self.empty_is_error:
                self.downstream.on_error(IndexError("retry_when's handler completed: no item"))
            else:
                self.downstream.on_complete()

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
        deferred_set_once(self.upstream, self.requested, s)

    def on_next(self, item: Any) -> None:
        self.parent.subscribe_next()

    def on_error(self, error: BaseException) -> None:
        self.parent.when_error(error)

    def on_complete(self) -> None:
        self.parent.when_complete()

    def request(self, n: int) -> None:
        deferred_request(self.upstream, self.requested, n)

    def cancel(self) -> None:
        SubscriptionHelper.cancel(self.upstream)
