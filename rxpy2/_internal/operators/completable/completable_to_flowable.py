"""Completable.to_flowable: a Flowable with no items, only the terminal signal.

The downstream's Subscription ignores requests (validating them, §3.9) and
disposes the Completable on ``cancel``; it fuses in ASYNC mode as an empty queue.
"""

from __future__ import annotations

from typing import Any

from rxpy2._internal.fuseable import ASYNC
from rxpy2._internal.fuseable import NONE
from rxpy2._internal.helpers.disposable_helper import ValidatedUpstream
from rxpy2._internal.subscriptions.basic import BasicQueueSubscription
from rxpy2.completable import Completable
from rxpy2.disposables import Disposable
from rxpy2.flowable import Flowable
from rxpy2.observers import CompletableObserver
from rxpy2.operator_kit import validate_request
from rxpy2.reactivestreams import Subscriber

__all__ = ["CompletableToFlowable"]


class CompletableToFlowable(Flowable[Any]):
    __slots__ = ("source",)

    def __init__(self, source: Completable) -> None:
        self.source = source

    def subscribe_actual(self, subscriber: Subscriber[Any]) -> None:
        self.source._subscribe(_SubscriberCompletableObserver(subscriber))


class _SubscriberCompletableObserver(ValidatedUpstream, BasicQueueSubscription[Any], CompletableObserver):
    __slots__ = ("downstream", "upstream")

    def __init__(self, downstream: Subscriber[Any]) -> None:
        self.downstream = downstream
        self.upstream: Disposable | None = None

    def on_error(self, error: BaseException) -> None:
        self.downstream.on_error(error)

    def on_complete(self) -> None:
        self.downstream.on_complete()

    def request(self, n: int) -> None:
        validate_request(n)

    def cancel(self) -> None:
        d = self.upstream
        if d is not None:
            d.dispose()

    def request_fusion(self, mode: int) -> int:
        return ASYNC if mode & ASYNC else NONE
