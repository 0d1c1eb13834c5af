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
from rxpy2.reactivestreams import Publisher
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
    Subscription (a terminal signal does not dispose it, as in RxJava 2). Subclasses
    write ``on_next`` and ``end``."""

    __slots__ = ("disposed",)

    def __init__(self, downstream: Any) -> None:
        super().__init__(downstream)
        self.disposed = False

    def dispose(self) -> None:
        self.disposed = True
        super().dispose()

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
