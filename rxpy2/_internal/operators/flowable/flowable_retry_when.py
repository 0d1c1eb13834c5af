"""Flowable.retry_when / repeat_when: resubscribe when a handler's Publisher says so.

Per subscriber, ``handler`` gets a Flowable of the signals (a serialized
UnicastProcessor): the errors for ``retry_when``, a ``0`` per completion for
``repeat_when``; it returns a Publisher. Each item of that Publisher resubscribes
the source; its error or completion ends the stream with that error or completion.
The source's other terminal signal (completion for retry_when, error for
repeat_when) cancels the handler's Publisher and goes downstream.

As in RxJava 2 (FlowableRetryWhen/FlowableRepeatWhen): each signal requests one
item from the handler's Publisher before entering the processor; a
:class:`SubscriptionArbiter` (:class:`ResubscribingSubscriber`) faces the
downstream across the subscriptions, each new one asked for the demand still
outstanding; the items and terminal signals reach the downstream through a
:class:`SerializedSubscriber`, since the handler's Publisher may end the stream
from another thread while an attempt emits. Resubscription runs in the
:class:`~rxpy2.operator_kit.Drain` loop of :class:`ResubscribingSubscriber`: a
synchronous handler never nests the calls.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from typing import ClassVar
from typing import Generic
from typing import TypeVar

from rxpy2._internal.fuseable import HasUpstreamPublisher
from rxpy2._internal.operators.flowable.flowable_retry import ResubscribingSubscriber
from rxpy2._internal.operators.single.single_retry_when import WhenReceiver
from rxpy2._internal.operators.single.single_retry_when import call_handler
from rxpy2._internal.subscribers.serialized import SerializedSubscriber
from rxpy2._internal.subscriptions.empty import EmptySubscription
from rxpy2.flowable import Flowable
from rxpy2.operator_kit import null_error
from rxpy2.processors import UnicastProcessor
from rxpy2.reactivestreams import Publisher
from rxpy2.reactivestreams import Subscriber

__all__ = ["FlowableRepeatWhen", "FlowableRetryWhen"]

T = TypeVar("T")

Handler = Callable[[Flowable[Any]], Publisher[Any]]


class FlowableRetryWhen(Flowable[T], HasUpstreamPublisher[T], Generic[T]):
    __slots__ = ("source", "handler")

    #: retry_when: an error goes to the handler; repeat_when: a completion does
    RETRY: ClassVar[bool] = True

    def __init__(self, source: Publisher[T], handler: Handler) -> None:
        self.source = source
        self.handler = handler

    def subscribe_actual(self, subscriber: Subscriber[T]) -> None:
        processor: UnicastProcessor[Any] = UnicastProcessor.create(8)
        signals = processor.to_serialized()
        try:
            when = call_handler(self.handler, signals)
        except Exception as e:
            EmptySubscription.error(e, subscriber)
            return
        parent: WhenSubscriber[T] = WhenSubscriber(SerializedSubscriber(subscriber),
                                                   self.source, signals, self.RETRY)
        subscriber.on_subscribe(parent)
        when.subscribe(parent.receiver)
        parent.receiver.on_next(0)  # the first subscription, as a signal of the handler


class FlowableRepeatWhen(FlowableRetryWhen[T], Generic[T]):
    __slots__ = ()
    RETRY = False


class WhenSubscriber(ResubscribingSubscriber[T], Generic[T]):
    """The source's subscriber across attempts; ``receiver`` subscribes to the handler's
    Publisher and drives :meth:`subscribe_next`, :meth:`when_error`, :meth:`when_complete`."""

    def __init__(self, downstream: Subscriber[T], source: Publisher[T],
                 signals: Any, retry: bool) -> None:
        super().__init__(downstream, source)
        self.signals = signals
        self.retry = retry
        self.receiver = WhenReceiver(self)

    def _again(self, signal: Any) -> None:
        self.receiver.request(1)
        self.signals.on_next(signal)

    def on_error(self, error: BaseException) -> None:
        if error is None:
            raise null_error()  # §2.13
        if self.retry:
            self._again(error)
        else:
            self.receiver.cancel()
            self.downstream.on_error(error)

    def on_complete(self) -> None:
        if self.retry:
            self.receiver.cancel()
            self.downstream.on_complete()
        else:
            self._again(0)

    def when_error(self, error: BaseException) -> None:
        self.cancel()
        self.downstream.on_error(error)

    def when_complete(self) -> None:
        self.cancel()
        self.downstream.on_complete()

    def cancel(self) -> None:
        super().cancel()
        self.receiver.cancel()
