"""repeat_when of Single, Maybe and Completable: a Flowable of the source's items,
resubscribed when the handler's Publisher signals an item (RxJava 2:
``toFlowable().repeatWhen(handler)``; Completable.repeat_when makes a Completable of
it with ``ignore_elements``, as RxJava 2 does with ``fromPublisher``).

Per subscriber, ``handler`` gets a Flowable with one item per ended repetition
(a UnicastProcessor) and returns a Publisher: its items resubscribe the source, its
completion completes the Flowable, its error is signalled. An error of the source
ends the Flowable.

Each repetition's item waits for demand in ``item``; the drain loop emits it, then
asks the handler for the next round. A repetition that completes without an item
(an empty Maybe, a Completable) leaves ``_EMPTY`` there: the drain asks for the next
round at once, without demand. Resubscription runs in the receiver's loop
(see ``single_retry_when``) and the drain loop is re-entrance-safe, so a
synchronous Single repeated again and again never nests the calls. A terminal
signal goes through the drain loop too (it wins over an undelivered item).
"""

from __future__ import annotations

from typing import Any
from typing import Generic
from typing import TypeVar

from rxpy2 import plugins
from rxpy2._internal.atomic import AtomicLong
from rxpy2._internal.atomic import AtomicReference
from rxpy2._internal.helpers.disposable_helper import DisposableHelper
from rxpy2._internal.operators.single.single_retry import Resubscriber
from rxpy2._internal.operators.single.single_retry_when import Handler
from rxpy2._internal.operators.single.single_retry_when import WhenReceiver
from rxpy2._internal.operators.single.single_retry_when import call_handler
from rxpy2._internal.subscriptions.empty import EmptySubscription
from rxpy2._internal.zero_one import ZeroOneBase
from rxpy2.disposables import Disposable
from rxpy2.flowable import Flowable
from rxpy2.observers import CompletableObserver
from rxpy2.observers import MaybeObserver
from rxpy2.observers import SingleObserver
from rxpy2.operator_kit import Drain
from rxpy2.operator_kit import add_request
from rxpy2.operator_kit import produced
from rxpy2.operator_kit import validate_request
from rxpy2.processors import UnicastProcessor
from rxpy2.reactivestreams import Subscriber
from rxpy2.reactivestreams import Subscription

__all__ = ["SingleRepeatWhen"]

T = TypeVar("T")

_COMPLETE = object()  # the terminal marker for completion (an error is itself)
_EMPTY = object()  # in ``item``: a repetition that completed without an item


class SingleRepeatWhen(Flowable[T], Generic[T]):
    """The Flowable of Single.repeat_when; Maybe's and Completable's subclass it."""

    __slots__ = ("source", "handler")

    def __init__(self, source: ZeroOneBase, handler: Handler) -> None:
        self.source = source
        self.handler = handler

    def subscribe_actual(self, subscriber: Subscriber[T]) -> None:
        rounds: UnicastProcessor[Any] = UnicastProcessor.create()
        try:
            when = call_handler(self.handler, rounds)
        except Exception as e:
            EmptySubscription.error(e, subscriber)
            return
        parent: RepeatWhenSubscriber[T] = RepeatWhenSubscriber(subscriber, self.source, rounds)
        subscriber.on_subscribe(parent)
        when.subscribe(parent.receiver)
        parent.subscribe_next()


class RepeatWhenSubscriber(Resubscriber, SingleObserver[T], MaybeObserver[T],
                           CompletableObserver, Subscription, Generic[T]):
    """``main``: the current repetition's Disposable; ``terminal``: set once (an error or
    ``_COMPLETE``); ``resubscribe``: the resubscription loop (:class:`Resubscriber`);
    ``gate``: the drain loop."""

    __slots__ = ("downstream", "source", "rounds", "main", "receiver", "resubscribe", "gate",
                 "requested", "item", "terminal", "cancelled")

    def __init__(self, downstream: Subscriber[T], source: Any,
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

    def on_complete(self) -> None:
        self.item = _EMPTY
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
        if n := validate_request(n):
            add_request(self.requested, n)
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
            if item is _EMPTY:
                self.item = None
                self._next_round()
            elif item is not None and self.requested.get() != 0:
                self.item = None
                produced(self.requested, 1)
                self.downstream.on_next(item)
                self._next_round()
            if not gate.leave():
                return

    def _next_round(self) -> None:
        self.receiver.request(1)
        self.rounds.on_next(0)
