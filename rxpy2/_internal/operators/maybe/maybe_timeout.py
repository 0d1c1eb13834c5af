"""Maybe.timeout (RxJava 2's MaybeTimeoutMaybe / MaybeTimeoutPublisher): Single's
timeout (``single_timeout.py``) with ``on_complete``.

* ``MaybeTimeout``: a time; RxJava 2 builds it as ``timeout(timer(time))``, so its
  ``TimeoutError`` carries no message.
* ``MaybeTimeoutPublisher``: another source; its first item or its completion is the
  timeout, its error (unless the main signal won) the downstream's error. A Maybe
  (or Single, Completable) arrives here through ``to_flowable``.
"""

from __future__ import annotations

from typing import Any
from typing import Generic
from typing import TypeVar

from rxpy2._internal.helpers.disposable_helper import DisposableHelper
from rxpy2._internal.operators.single.single_timeout import TimeoutMainObserver
from rxpy2._internal.operators.single.single_timeout import TimeoutOp
from rxpy2._internal.subscribers.other_trigger import OtherTriggerSubscriber
from rxpy2.maybe import Maybe
from rxpy2.observers import MaybeObserver
from rxpy2.reactivestreams import Publisher

__all__ = ["MaybeTimeout", "MaybeTimeoutPublisher"]

T = TypeVar("T")


class MaybeTimeout(TimeoutOp[T], Maybe[T], Generic[T]):
    __slots__ = ()

    _TIMEOUT_MESSAGE = False


class MaybeTimeoutPublisher(Maybe[T], Generic[T]):
    __slots__ = ("source", "other", "fallback")

    def __init__(self, source: Maybe[T], other: Publisher[Any], fallback: Maybe[T] | None) -> None:
        self.source = source
        self.other = other
        self.fallback = fallback

    def subscribe_actual(self, observer: MaybeObserver[T]) -> None:
        parent: TimeoutMainObserver[T] = TimeoutMainObserver(observer, self.fallback, None)
        observer.on_subscribe(parent)
        indicator = OtherTriggerSubscriber(parent)
        DisposableHelper.replace(parent.task, indicator)  # a dispose from now on cancels it
        self.other.subscribe(indicator)
        self.source._subscribe(parent)
