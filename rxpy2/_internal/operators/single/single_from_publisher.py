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

from rxpy2.disposables import Disposable
from rxpy2.observers import FlowableSubscriber
from rxpy2.operator_kit import UNSUBSCRIBED
from rxpy2.operator_kit import null_error
from rxpy2.operator_kit import null_or_late_error
from rxpy2.operator_kit import null_or_late_item
from rxpy2.operator_kit import validate_upstream
from rxpy2.reactivestreams import LONG_MAX
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


class PublisherObserver(FlowableSubscriber[T], Disposable, Generic[T]):
    """Subscribes the 0-1 ``downstream`` to a Publisher with unbounded demand; its
    dispose cancels the Subscription. Subclasses write ``on_next``/``on_complete``."""

    __slots__ = ("downstream", "upstream", "disposed")

    def __init__(self, downstream: Any) -> None:
        self.downstream = downstream
        self.upstream: Subscription = UNSUBSCRIBED
        self.disposed = False

    def on_subscribe(self, s: Subscription) -> None:
        if validate_upstream(self.upstream, s):  # §2.13, §2.5
            self.upstream = s
            self.downstream.on_subscribe(self)
            s.request(LONG_MAX)

    def on_error(self, error: BaseException) -> None:
        if error is None:
            raise null_error()  # §2.13
        self.downstream.on_error(error)

    def dispose(self) -> None:
        self.disposed = True
        self.upstream.cancel()

    def is_disposed(self) -> bool:
        return self.disposed


class ToSingleSubscriber(PublisherObserver[T], Generic[T]):
    __slots__ = ("value", "done")

    def __init__(self, downstream: Any) -> None:
        super().__init__(downstream)
        self.value: T | None = None
        self.done = False

    def on_next(self, item: T) -> None:
        if item is None or self.done:
            null_or_late_item(item)  # §2.13
            return
        if self.value is not None:
            self.upstream.cancel()
            self.done = True
            self.value = None
            self.downstream.on_error(IndexError("Too many elements in the Publisher"))
        else:
            self.value = item

    def on_error(self, error: BaseException) -> None:
        if error is None or self.done:
            null_or_late_error(error)  # §2.13, §1.7
            return
        self.done = True
        self.value = None
        self.downstream.on_error(error)

    def on_complete(self) -> None:
        if self.done:
            return
        self.done = True
        v = self.value
        self.value = None
        if v is None:
            self.downstream.on_error(IndexError("The source Publisher is empty"))
        else:
            self.downstream.on_success(v)
