"""Single.from_publisher: the only item of a Publisher (RxJava 2's SingleFromPublisher).

The Publisher is asked for everything at once. Its only item is signalled when it
completes; empty: ``IndexError``; a second item cancels it and signals ``IndexError``
("Too many elements", RxJava 2's ``IndexOutOfBoundsException``); its error is
signalled (a later one goes to :func:`rxpy2.plugins.on_error`). Disposing cancels it.
``PublisherObserver`` is shared with Completable.from_publisher.
"""

from __future__ import annotations

from typing import Any
from typing import Generic
from typing import TypeVar

from rxpy2._internal.subscribers.to_observer import OnlyItemSubscriber
from rxpy2._internal.subscribers.to_observer import ToObserverSubscriber
from rxpy2.operator_kit import UNSUBSCRIBED
from rxpy2.reactivestreams import Publisher
from rxpy2.reactivestreams import Subscription
from rxpy2.single import Single

__all__ = ["PublisherObserver", "SingleFromPublisher"]

T = TypeVar("T")


class SingleFromPublisher(Single[T], Generic[T]):
    __slots__ = ("publisher",)

    def __init__(self, publisher: Publisher[T]) -> None:
        self.publisher = publisher

    def subscribe_actual(self, observer: Any) -> None:
        self.publisher.subscribe(ToSingleSubscriber(observer))


class PublisherObserver(ToObserverSubscriber[T], Generic[T]):
    """Subscribes the 0-1 ``downstream`` to a Publisher with unbounded demand (a
    :class:`ToObserverSubscriber`); disposed only by its ``dispose``, which cancels the
    Subscription, even after the terminal signal (which neither disposes it nor forgets
    the Subscription, as in RxJava 2). Subclasses write ``on_next`` and ``end``."""

    __slots__ = ("disposed", "subscription")

    def __init__(self, downstream: Any) -> None:
        super().__init__(downstream)
        self.disposed = False
        self.subscription: Subscription = UNSUBSCRIBED  # the first one: what dispose cancels

    def on_subscribe(self, s: Subscription) -> None:
        if self.subscription is UNSUBSCRIBED and s is not None:
            self.subscription = s
        super().on_subscribe(s)  # §2.13, §2.5: None raises, a second one is cancelled

    def dispose(self) -> None:
        self.disposed = True
        self.subscription.cancel()

    def is_disposed(self) -> bool:
        return self.disposed


class ToSingleSubscriber(OnlyItemSubscriber[T], PublisherObserver[T], Generic[T]):
    __slots__ = ()

    def too_many(self) -> BaseException:
        return IndexError("Too many elements in the Publisher")

    def end(self, value: Any) -> None:
        if value is None:
            self.downstream.on_error(IndexError("The source Publisher is empty"))
        else:
            self.downstream.on_success(value)
