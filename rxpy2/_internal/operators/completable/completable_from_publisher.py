"""Completable.from_publisher: a Publisher's terminal signal (RxJava 2's
CompletableFromPublisher): everything is requested at once, the items are ignored;
disposing cancels the Publisher. Single.from_publisher's ``PublisherObserver`` does the rest.
"""

from __future__ import annotations

from typing import Any

from rxpy2._internal.operators.single.single_from_publisher import PublisherObserver
from rxpy2._internal.subscribers.pass_through import PassThrough
from rxpy2.completable import Completable
from rxpy2.operator_kit import null_item
from rxpy2.reactivestreams import Publisher

__all__ = ["CompletableFromPublisher"]


class CompletableFromPublisher(Completable):
    __slots__ = ("publisher",)

    def __init__(self, publisher: Publisher[Any]) -> None:
        self.publisher = publisher

    def subscribe_actual(self, observer: Any) -> None:
        self.publisher.subscribe(IgnoreItemsSubscriber(observer))


class IgnoreItemsSubscriber(PassThrough, PublisherObserver[Any]):
    """Relays every terminal signal as ``PassThrough`` does, a second one of a Publisher
    breaking §1.7 included (RxJava 2's FromPublisherSubscriber has no done flag)."""

    __slots__ = ()

    def on_next(self, item: Any) -> None:
        if item is None:
            raise null_item()  # §2.13
