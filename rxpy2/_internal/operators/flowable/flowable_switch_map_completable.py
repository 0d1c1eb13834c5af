"""Flowable.switch_map_completable (and switch_map_completable_delay_error).

RxJava 2's FlowableSwitchMapCompletable: each upstream item is mapped to a
Completable that replaces the running one (disposed once the new one is in
place); the result completes when the upstream and the latest Completable did.
The upstream is asked for everything (``LONG_MAX``) at once.

The upstream side, the inner callbacks and the error modes are switch_map_maybe's
:class:`SwitchMapZeroOneSubscriber` (flowable_switch_map_maybe.py); its drain
loop (a :class:`~rxpy2.operator_kit.Drain`) delivers the one terminal signal, so a
completion of the upstream and of the last Completable arriving together on two
threads end the stream once. A failing mapper cancels the upstream; without
``delay_errors`` it also disposes the running Completable and fails at once,
with it the running Completable may still end (and add its error) first.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from typing import ClassVar
from typing import Generic
from typing import TypeVar

from rxpy2._internal.fuseable import HasUpstreamPublisher
from rxpy2._internal.helpers.subscribe_loop import subscribe_tail
from rxpy2._internal.operators.flowable.flowable_switch_map_maybe import DISPOSED_INNER
from rxpy2._internal.operators.flowable.flowable_switch_map_maybe import SwitchMapZeroOneSubscriber
from rxpy2.completable import Completable
from rxpy2.disposables import Disposable
from rxpy2.observers import CompletableObserver
from rxpy2.reactivestreams import Publisher

__all__ = ["FlowableSwitchMapCompletable", "SwitchMapCompletableObserver"]

T = TypeVar("T")


class FlowableSwitchMapCompletable(Completable, HasUpstreamPublisher[T], Generic[T]):
    __slots__ = ("source", "mapper", "delay_errors")

    def __init__(self, source: Publisher[T], mapper: Callable[[T], Any],
                 delay_errors: bool) -> None:
        self.source = source
        self.mapper = mapper
        self.delay_errors = delay_errors

    def subscribe_actual(self, observer: CompletableObserver) -> None:
        subscribe_tail(self.source, SwitchMapCompletableObserver(
            observer, self.mapper, Completable, self.delay_errors))


class SwitchMapCompletableObserver(SwitchMapZeroOneSubscriber[T], Disposable, Generic[T]):
    """Subscribes to the upstream; is the Disposable the downstream observer gets."""

    __slots__ = ()

    DISPOSE_BEFORE_MAPPING: ClassVar[bool] = False

    def dispose(self) -> None:
        self.cancel()

    def is_disposed(self) -> bool:
        return self.inner.get() is DISPOSED_INNER
