"""Flowable.concat_map_completable (and concat_map_completable_delay_error).

RxJava 2's FlowableConcatMapCompletable: each upstream item is mapped to a
Completable and they run one at a time, in upstream order; the result completes
when the upstream and the last of them did. The upstream side (``prefetch`` items
asked for, replenished by ``prefetch - prefetch // 2``), the error modes and the
drain loop are concat_map_maybe's :class:`ConcatMapZeroOneSubscriber`
(flowable_concat_map_maybe.py): a Completable inner source never leaves a
success, so the loop only subscribes the next one and delivers the terminal signal.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from typing import Generic
from typing import TypeVar

from rxpy2._internal.fuseable import HasUpstreamPublisher
from rxpy2._internal.helpers.error_mode import ErrorMode
from rxpy2._internal.helpers.subscribe_loop import subscribe_tail
from rxpy2._internal.operators.flowable.flowable_concat_map_maybe import ConcatMapZeroOneSubscriber
from rxpy2.completable import Completable
from rxpy2.disposables import Disposable
from rxpy2.observers import CompletableObserver
from rxpy2.reactivestreams import Publisher

__all__ = ["ConcatMapCompletableObserver", "FlowableConcatMapCompletable"]

T = TypeVar("T")


class FlowableConcatMapCompletable(Completable, HasUpstreamPublisher[T], Generic[T]):
    __slots__ = ("source", "mapper", "error_mode", "prefetch")

    def __init__(self, source: Publisher[T], mapper: Callable[[T], Any], error_mode: ErrorMode,
                 prefetch: int) -> None:
        self.source = source
        self.mapper = mapper
        self.error_mode = error_mode
        self.prefetch = prefetch

    def subscribe_actual(self, observer: CompletableObserver) -> None:
        subscribe_tail(self.source, ConcatMapCompletableObserver(
            observer, self.mapper, Completable, self.error_mode, self.prefetch))


class ConcatMapCompletableObserver(ConcatMapZeroOneSubscriber[T], Disposable, Generic[T]):
    """Subscribes to the upstream; is the Disposable the downstream observer gets."""

    __slots__ = ()

    def dispose(self) -> None:
        self.cancel()

    def is_disposed(self) -> bool:
        return self.cancelled
