"""Single.repeat_when: a Flowable of the Single's item, resubscribed when the handler's
Publisher signals an item.

Per subscriber, ``handler`` gets a Flowable with one item per delivered repetition
(a UnicastProcessor) and returns a Publisher: its items resubscribe the Single, its
completion completes the Flowable, its error is signalled. An error of the Single
ends the Flowable.

Each repetition's item waits for demand in ``item``; the drain loop emits it, then
asks the handler for the next round. Resubscription runs in the receiver's loop
(see ``single_retry_when``) and the drain loop is re-entrance-safe, so a
synchronous Single repeated again and again never nests the calls. A terminal
signal goes through the drain loop too (it wins over an undelivered item).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, TypeVar

from rxpy2 import plugins
from rxpy2.disposables import Disposable
from rxpy2.flowable import Flowable
from rxpy2.internal.atomic import AtomicLong, AtomicReference
from rxpy2.internal.helpers.backpressure_helper import BackpressureHelper
from rxpy2.internal.helpers.disposable_helper import DisposableHelper
from rxpy2.internal.helpers.subscription_helper import SubscriptionHelper
from rxpy2.internal.operators.single.single_retry import Resubscriber
from rxpy2.internal.operators.single.single_retry_when import WhenReceiver
from rxpy2.internal.subscriptions.empty import EmptySubscription
from rxpy2.observers import SingleObserver
from rxpy2.operators import Drain
from rxpy2.processors import UnicastProcessor
from rxpy2.reactivestreams import Publisher, Subscriber, Subscription
from rxpy2.single import Single

__all__ = ["SingleRepeatWhen"]

T = TypeVar("T")

_COMPLETE = object()  # the terminal marker for completion (an error is itself)


class SingleRepeatWhen(Flowable[T], Generic[T]):
    __slots__ = ("source", "handler")

    def __init__(self, source: Single[T], handler: Callable[[Any], Publisher[Any]]) -> None:
        self.source = source
        self.handler = handler

    def subscribe_actual(self, subscriber: Subscriber[T]) -> None:
        rounds: UnicastProcessor[Any] = UnicastProcessor.create()
        try:
            when = self.handler(rounds)
            if not isinstance(when, Publisher):
                raise TypeError("The handler returned None" if when is None else
                                f"The handler returned a {type(when).__name__}, not a Publisher")
        except Exception as e:
            EmptySubscription.error(e, subscriber)
            return
        parent: RepeatWhenSubscriber[T] = RepeatWhenSubscriber(subscriber, self.source, rounds)
        subscriber.on_subscribe(parent)
        when.subscribe(parent.receiver)
        parent.subscribe_next()


class RepeatWhenSubscriber(Resubscriber, SingleObserver[T], Subscription, Generic[T]):
    """``main``: the current repetition's Disposable; ``terminal``: set once (an error or
    ``_COMPLETE``); ``resubscribe``: the resubscription loop (:class:`Resubscriber`);
    ``gate``: the drain loop."""

    __slots__ = ("downstream", "source", "rounds", "main", "receiver", "resubscribe", "gate",
                 "requested", "item", "terminal", "cancelled")

    def __init__(self, downstream: Subscriber[T], source: Single[T],
                 rounds: UnicastProcessor[Any]) -> None:
        self.downstream = downstream
        self.source = source
        self.rounds = rounds
        self.main: AtomicReference[Disposable] = AtomicReference()
        self.receiver = WhenReceiver(self)
        self.resubscribe = Drain()
        self.gate = Drain()
        self.requested = AtomicLong(0)
        self.item: Any = None
        self.terminal: AtomicReference[Any] = AtomicReference()
        self.cancelled = False

    # the current repetition
    def on_subscribe(self, d: Disposable) -> None:
        DisposableHelper.replace(self.main, d)

    def on_success(self, item: T) -> None:
        self.item = item
        self._drain()

    def on_error(self, error: BaseException) -> None:
        self._terminate(error)

    # the handler's Publisher
    def when_error(self, error: BaseException) -> None:
        self._terminate(error)

    def when_complete(self) -> None:
        self._terminate(_COMPLETE)

    def _terminate(self, signal: Any) -> None:
        if self.terminal.compare_and_set(None, signal):
            self._drain()
        elif signal is not _COMPLETE:
            plugins.on_error(signal)

    # the downstream's Subscription
    def request(self, n: int) -> None:
        if SubscriptionHelper.validate_request(n):
            BackpressureHelper.add(self.requested, n)
            self._drain()

    def cancel(self) -> None:
        self.cancelled = True
        self._stop()
        if self.gate.enter():
            self.item = None  # no drain runs: ours to clear (the drain stays owned)

    def _stop(self) -> None:
        DisposableHelper.dispose(self.main)
        self.receiver.cancel()

    def _drain(self) -> None:
        gate = self.gate
        if not gate.enter():
            return
        while True:
            if self.cancelled:
                self.item = None
                return
            t = self.terminal.get()
            if t is not None:
                self.cancelled = True
                self.item = None
                self._stop()
                if t is _COMPLETE:
                    self.downstream.on_complete()
                else:
                    self.downstream.on_error(t)
                return
            item = self.item
            if item is not None and self.requested.get() != 0:
                self.item = None
                BackpressureHelper.produced(self.requested, 1)
                self.downstream.on_next(item)
                self.receiver.request(1)
                self.rounds.on_next(0)
            if not gate.leave():
                return
